package kb

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"playchat/backend/chat"
	"playchat/backend/event"
	"playchat/backend/layer"
	"playchat/backend/llm"
	"playchat/backend/llm/llmtest"
)

// systemText joins the system messages of the last chat request.
func systemText(t *testing.T, srv *llmtest.Server) string {
	t.Helper()
	reqs := srv.ChatRequests()
	if len(reqs) == 0 {
		t.Fatal("no chat request")
	}
	var b strings.Builder
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role == "system" {
			b.WriteString(m.Content)
			b.WriteString("\n")
		}
	}
	return b.String()
}

// TestTheNextTurnSeesAnAtomicSave runs chat turns through the real
// pipeline with layer 3 wired in: the answering document is in the
// request's system messages, and an atomic save changes what the next turn
// receives without a restart.
func TestTheNextTurnSeesAnAtomicSave(t *testing.T) {
	f := startedFixture(t, map[string]string{
		"家事/料理.md": "# 料理メモ\n\nカレーの隠し味はチョコレート。\n",
		"仕事/会議.md": "# 会議メモ\n\n定例は火曜日。\n",
	})
	srv := llmtest.NewServer(t, llmtest.WithReply("はい。"))
	svc := chat.New(chat.Options{DB: f.db, LLM: llm.New(llm.Providers{OpenAIBaseURL: srv.URL}),
		Layers:   []layer.Layer{f.svc.Layer()},
		Settings: func() chat.Settings { return chat.Settings{DefaultModel: "openai/fake-model"} }})
	ctx := context.Background()
	turn := func(text string) string {
		tn, err := svc.Start(ctx, chat.TurnRequest{Text: text}, event.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if res := tn.Wait(); res.Err != nil {
			t.Fatal(res.Err)
		}
		return systemText(t, srv)
	}
	sys := turn("カレーの隠し味は何だっけ？")
	if !strings.Contains(sys, LayerHeader) || !strings.Contains(sys, "Source: 家事/料理.md") || !strings.Contains(sys, "チョコレート") {
		t.Fatalf("system messages lack the recipe:\n%s", sys)
	}
	if strings.Contains(sys, "会議.md") {
		t.Errorf("an unrelated document was injected:\n%s", sys)
	}

	dir := filepath.Join(f.dir, "家事")
	writeFile(t, filepath.Join(dir, ".料理.md.tmp"), "# 料理メモ\n\nカレーの隠し味はインスタントコーヒー。\n")
	if err := os.Rename(filepath.Join(dir, ".料理.md.tmp"), filepath.Join(dir, "料理.md")); err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, "the save indexed", func() bool { return f.findsIn(t, "インスタントコーヒー", "家事/料理.md") })
	sys = turn("カレーの隠し味は何だっけ？")
	if !strings.Contains(sys, "インスタントコーヒー") || strings.Contains(sys, "チョコレート") {
		t.Errorf("the next turn does not see the saved content:\n%s", sys)
	}
	// Off-topic: no KB text at all.
	if sys = turn("今日の天気はどう？"); strings.Contains(sys, LayerHeader) {
		t.Errorf("off-topic turn got KB text:\n%s", sys)
	}
}

func TestLayerIsEmptyWhenDisabledOrBlank(t *testing.T) {
	f := newFixture(t, "")
	writeFile(t, filepath.Join(f.dir, "a.md"), "# カレー\n\nカレーの作り方。\n")
	ctx := context.Background()
	if _, err := f.svc.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	l := f.svc.Layer()
	if l.Name() != LayerName {
		t.Errorf("name = %q", l.Name())
	}
	if b, _ := l.Build(ctx, layer.Query{LatestUser: "  "}); len(b) != 0 {
		t.Errorf("blank message gave %v", b)
	}
	if b, _ := l.Build(ctx, layer.Query{LatestUser: "カレーの作り方"}); len(b) == 0 {
		t.Error("a matching question from the window found nothing")
	}
	// A turn from outside the window (a Discord user) never reads the
	// owner's knowledge base.
	if b, _ := l.Build(ctx, layer.Query{LatestUser: "カレーの作り方", Outside: true}); len(b) != 0 {
		t.Errorf("an outside turn got the knowledge base: %v", b)
	}
	f.set.update(func(s *Settings) { s.TopK = 0 })
	if b, _ := l.Build(ctx, layer.Query{LatestUser: "カレーの作り方"}); len(b) != 0 {
		t.Errorf("TopK 0 gave %v", b)
	}
}

func TestATurnRightAfterStartSeesTheReconciledIndex(t *testing.T) {
	f := newFixture(t, "")
	for i := 0; i < 40; i++ {
		writeFile(t, filepath.Join(f.dir, fmt.Sprintf("doc%02d.md", i)), fmt.Sprintf("# 文書 %d\n\nふつうの本文です。\n", i))
	}
	writeFile(t, filepath.Join(f.dir, "wifi.md"), "# 自宅の Wi-Fi\n\nWi-Fi のパスワードはルーターの裏に書いてある。\n")
	ctx := context.Background()
	if err := f.svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	// No WaitIdle: the layer itself waits for the start-up pass.
	blocks, err := f.svc.Layer().Build(ctx, layer.Query{LatestUser: "Wi-Fiのパスワードはどこ？", Model: "openai/gpt-4o-mini"})
	if err != nil || len(blocks) != 1 || !strings.Contains(blocks[0].Text, "wifi.md") {
		t.Fatalf("blocks = %+v, err = %v", blocks, err)
	}
}
