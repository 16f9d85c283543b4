package chat_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"playchat/backend/chat"
	"playchat/backend/layer"
	"playchat/backend/llm"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
	"playchat/backend/tools"
)

// fixedLayer is a context layer with one block of text.
type fixedLayer struct{ text string }

func (fixedLayer) Name() string { return "fixed" }
func (l fixedLayer) Build(context.Context, layer.Query) ([]layer.Block, error) {
	return []layer.Block{{Layer: "fixed", Text: l.text, Items: []layer.Item{{Kind: layer.KindKBDoc, ID: "a/b.md", Title: "B"}}}}, nil
}

// TestAnAnswerStoresNothing: an Answer (an API request without a session)
// sees the layers and the caller's history and system text, streams its
// deltas, and leaves no session, no message and no running turn.
func TestAnAnswerStoresNothing(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.NewServer(t)
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "t.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	reg := tools.NewRegistry()
	if err := reg.Register(tools.Tool{Name: "write_it", Description: "writes", Parameters: []byte(`{"type":"object"}`),
		Run: func(context.Context, tools.Call) (tools.Result, error) { return tools.Result{}, nil }}); err != nil {
		t.Fatal(err)
	}
	svc := chat.New(chat.Options{DB: db, LLM: llm.New(llm.Providers{OpenAIBaseURL: srv.URL}), Layers: []layer.Layer{fixedLayer{"LAYER TEXT"}}, Tools: reg,
		Settings: func() chat.Settings { return chat.Settings{DefaultModel: "openai/fake-model"} }})
	var deltas strings.Builder
	ans, err := svc.Answer(ctx, chat.AnswerRequest{
		History:     []llm.Message{{Role: "user", Content: "first"}, {Role: "assistant", Content: "reply one"}, {Role: "user", Content: "second"}},
		ExtraSystem: []string{"CLIENT SYSTEM"}, Purpose: "api_turn",
	}, func(d string) { deltas.WriteString(d) })
	if err != nil {
		t.Fatal(err)
	}
	if ans.Text != "fake reply: second" || deltas.String() != ans.Text {
		t.Fatalf("text %q, deltas %q", ans.Text, deltas.String())
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if len(r.Tools) != 0 {
		t.Error("an Answer offered tools")
	}
	if !strings.Contains(r.Messages[0].Content, "CLIENT SYSTEM") || r.Messages[1].Content != "LAYER TEXT" {
		t.Errorf("system messages: %q / %q", r.Messages[0].Content, r.Messages[1].Content)
	}
	if n := len(r.Messages); r.Messages[n-3].Content != "first" || r.Messages[n-2].Content != "reply one" || r.Messages[n-1].Content != "second" {
		t.Errorf("history not sent: %+v", r.Messages)
	}
	if len(ans.Context.Layers) == 0 || len(ans.Context.Layers[0].Included) != 1 {
		t.Errorf("context report: %+v", ans.Context.Layers)
	}
	sessions, err := db.ListSessions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(sessions) != 0 || svc.Running() != 0 {
		t.Errorf("%d sessions stored, %d running", len(sessions), svc.Running())
	}
	if _, err := svc.Answer(ctx, chat.AnswerRequest{History: []llm.Message{{Role: "assistant", Content: "x"}}}, nil); !errors.Is(err, chat.ErrNoQuestion) {
		t.Errorf("no question: %v", err)
	}
}
