package chat_test

import (
	"context"
	"strings"
	"testing"

	"playchat/backend/chat"
	"playchat/backend/event"
	"playchat/backend/layer"
	"playchat/backend/llm/llmtest"
	"playchat/backend/store"
)

func usageOf(r chat.ContextReport, name string) layer.Usage {
	for _, u := range r.Layers {
		if u.Layer == name {
			return u
		}
	}
	return layer.Usage{}
}

// Two pinned pages that together exceed the pinned layer's share of an 8k
// window: the stored report of the reply names the page that was cut and
// the page that was left out, and says why.
func TestATurnOverItsBudgetStoresAReportNamingWhatWasLeftOut(t *testing.T) {
	srv := llmtest.NewServer(t)
	c := newCore(t, srv, "CONTEXT_WINDOW_TOKENS=8192", "SESSION_NOTES_CONTENT_LIMIT=10000")
	ctx := context.Background()
	first, _ := c.Notes.Create(ctx, "Runbook", strings.Repeat("The deploy key lives in the vault. ", 300)[:10000], "")
	second, _ := c.Notes.Create(ctx, "Packing list", strings.Repeat("Pack the charger and the passport. ", 200), "")
	tr, err := c.Chat.Start(ctx, chat.TurnRequest{Text: "Where is the deploy key?", NotePageIDs: []int64{first.ID, second.ID}}, event.Discard)
	if err != nil {
		t.Fatal(err)
	}
	res := tr.Wait()
	if res.Err != nil || res.Reply.ID == 0 {
		t.Fatalf("turn: %+v", res)
	}

	r, ok, err := c.Chat.Report(ctx, res.Reply.ID)
	if err != nil || !ok {
		t.Fatalf("no report stored with the reply: ok %v, err %v", ok, err)
	}
	if r.Window != 8192 || r.Input <= 0 || r.Used > r.Input || r.Used == 0 || r.Preview || r.Model != "openai/fake-model" {
		t.Fatalf("report header = %+v", r)
	}
	pinned := usageOf(r, "pinned_notes")
	reasons := map[string]string{}
	for _, o := range pinned.LeftOut {
		reasons[o.Title] = o.Reason
	}
	if reasons["Runbook"] != layer.ReasonTruncated || reasons["Packing list"] != layer.ReasonBudget {
		t.Fatalf("pinned layer left out %+v", pinned.LeftOut)
	}
	if len(pinned.Included) != 1 || pinned.Included[0].Title != "Runbook" || pinned.Tokens == 0 || pinned.FullTokens <= pinned.Tokens {
		t.Fatalf("pinned layer = %+v", pinned)
	}
	if idx := usageOf(r, "notes"); len(idx.Included) != 2 {
		t.Fatalf("the notes index does not name both pages: %+v", idx)
	}
	// What the report says was sent is what the request held.
	var sys strings.Builder
	for _, m := range srv.ChatRequests()[0].Messages {
		if m.Role == "system" {
			sys.WriteString(m.Content)
		}
	}
	if !strings.Contains(sys.String(), "# Pinned note: Runbook") || strings.Contains(sys.String(), "# Pinned note: Packing list") {
		t.Fatal("the request does not match the report")
	}

	// The user's message has no report.
	if _, ok, err := c.Chat.Report(ctx, tr.UserMessage.ID); ok || err != nil {
		t.Fatalf("a user message has a report: ok %v err %v", ok, err)
	}
}

func countRows(t *testing.T, db *store.DB, table string) int {
	t.Helper()
	n, err := db.Bun().NewSelect().Table(table).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// The live meter: a preview measures the next turn for a draft, calls no
// model and writes nothing.
func TestAPreviewMeasuresTheDraftAndWritesNothing(t *testing.T) {
	srv := llmtest.NewServer(t, llmtest.WithReply("ok"))
	c := newCore(t, srv)
	ctx := context.Background()
	_, _, sid := turn(t, c, "", "最初の質問")
	c.FlushAPILogs() // the turn's record is written, not pending
	if _, err := c.Notes.Create(ctx, "メモ", "ページの本文", ""); err != nil {
		t.Fatal(err)
	}
	tables := []string{"sessions", "messages", "api_logs", "turn_context_usage", "memories"}
	before := map[string]int{}
	for _, tb := range tables {
		before[tb] = countRows(t, c.DB, tb)
	}
	requests := len(srv.Requests())

	short, err := c.Chat.Preview(ctx, chat.PreviewRequest{SessionID: sid, Text: "次"})
	if err != nil {
		t.Fatal(err)
	}
	long, err := c.Chat.Preview(ctx, chat.PreviewRequest{SessionID: sid, Text: strings.Repeat("長い下書きの文。", 100)})
	if err != nil {
		t.Fatal(err)
	}
	if !long.Preview || long.Message <= short.Message || long.Used-short.Used != long.Message-short.Message {
		t.Fatalf("the draft is not what changed: short %+v, long %+v", short, long)
	}
	if long.History.Sent != 2 || long.History.Tokens == 0 || len(usageOf(long, "notes").Included) != 1 {
		t.Fatalf("preview misses the history or the notes: %+v", long)
	}
	if fresh, err := c.Chat.Preview(ctx, chat.PreviewRequest{Text: "新しいチャット"}); err != nil || fresh.History.Sent != 0 || fresh.Model != "openai/fake-model" {
		t.Fatalf("new-chat preview = %+v, %v", fresh, err)
	}
	huge, err := c.Chat.Preview(ctx, chat.PreviewRequest{SessionID: sid, Text: strings.Repeat("あ", 200000)})
	if err != nil || !huge.TooLong || huge.Used <= huge.Input {
		t.Fatalf("a draft too long for the model: %+v, %v", huge, err)
	}

	for _, tb := range tables {
		if n := countRows(t, c.DB, tb); n != before[tb] {
			t.Errorf("preview changed %s: %d rows, was %d", tb, n, before[tb])
		}
	}
	if n := len(srv.Requests()); n != requests {
		t.Errorf("preview made %d requests to the provider", n-requests)
	}
}
