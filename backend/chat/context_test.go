package chat

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"playchat/backend/layer"
	"playchat/backend/store"
	"playchat/backend/tokens"
)

type fixedLayer struct {
	name   string
	blocks []layer.Block
}

func (l fixedLayer) Name() string                                              { return l.name }
func (l fixedLayer) Build(context.Context, layer.Query) ([]layer.Block, error) { return l.blocks, nil }

func history(n int, size int) []store.Message {
	var ms []store.Message
	for i := 0; i < n; i++ {
		role := store.RoleUser
		if i%2 == 1 {
			role = store.RoleAssistant
		}
		ms = append(ms, store.Message{Role: role, Content: fmt.Sprintf("m%d %s", i, strings.Repeat("x", size))})
	}
	return ms
}

func TestContextFitsTheBudgetDroppingTheOldestHistoryFirst(t *testing.T) {
	c := tokens.Estimate
	b := Budget{Input: 400, LayerShare: 0.25}
	hist := history(21, 80) // ~25 tokens each
	got, err := buildContext(context.Background(), c, b, "base", 0, nil, layer.Query{}, hist)
	if err != nil {
		t.Fatal(err)
	}
	if got.Tokens > b.Input {
		t.Fatalf("used %d tokens of %d", got.Tokens, b.Input)
	}
	if got.Dropped == 0 {
		t.Fatal("nothing dropped although the history cannot fit")
	}
	msgs := got.Messages
	if msgs[0].Content != "base" || msgs[len(msgs)-1].Content != hist[20].Content {
		t.Fatal("base prompt or newest message missing")
	}
	// What is kept is the newest, contiguous part.
	if msgs[len(msgs)-2].Content != hist[19].Content || msgs[1].Content != hist[21-1-(len(msgs)-2)].Content {
		t.Fatalf("kept history is not the newest contiguous run: %v", msgs[1].Content[:3])
	}
}

// A history cut short never starts with a reply whose question was left
// out (a new-user try saw the request open with an old answer to
// nothing): whatever the budget, the first history message sent is the
// user's, and the report counts only what was sent.
func TestACutHistoryStartsWithAQuestion(t *testing.T) {
	c := tokens.Estimate
	hist := history(21, 80) // ~25 tokens each; user messages at even indexes
	for input := 150; input <= 500; input += 7 {
		b := Budget{Input: input, LayerShare: 0.25}
		got, err := buildContext(context.Background(), c, b, "base", 0, nil, layer.Query{}, hist)
		if err != nil {
			t.Fatal(err)
		}
		if got.Dropped == 0 {
			t.Fatalf("budget %d: nothing dropped", input)
		}
		if first := got.Messages[1]; first.Role != store.RoleUser {
			t.Fatalf("budget %d: the history starts with %s %q", input, first.Role, first.Content[:3])
		}
		if r := got.Report; r.History.Sent+r.History.LeftOut != 20 || r.History.Sent != len(got.Messages)-2 {
			t.Fatalf("budget %d: report sent %d + left out %d, request has %d history messages", input, r.History.Sent, r.History.LeftOut, len(got.Messages)-2)
		}
	}
}

func TestALargeLayerIsCutToItsShareAndNeverPushesOutRecentMessages(t *testing.T) {
	c := tokens.Estimate
	b := Budget{Input: 1000, LayerShare: 0.25}
	big := strings.Repeat("memory line with some words\n", 200) // ~1400 tokens
	layers := []layer.Layer{fixedLayer{"memory", []layer.Block{{Layer: "memory", Text: big, Truncatable: true}}},
		fixedLayer{"kb", []layer.Block{{Layer: "kb", Text: strings.Repeat("y", 4000)}}}} // not truncatable, too big
	got, err := buildContext(context.Background(), c, b, "base", 0, layers, layer.Query{}, history(5, 40))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Messages) != 1+1+5 {
		t.Fatalf("messages = %d, want base + cut memory + 5 history (kb dropped)", len(got.Messages))
	}
	mem := got.Messages[1].Content
	if !strings.HasSuffix(mem, TruncationMarker) || c.Count(mem) > 250 {
		t.Fatalf("memory block not cut to its share: %d tokens", c.Count(mem))
	}
	if strings.Join(got.OverShare, ",") != "memory,kb" || strings.Join(got.Trimmed, ",") != "memory,kb" {
		t.Fatalf("overShare=%v trimmed=%v", got.OverShare, got.Trimmed)
	}
}

func TestAMessageTooLongForTheModelIsAClearError(t *testing.T) {
	_, err := buildContext(context.Background(), tokens.Estimate, Budget{Input: 100, LayerShare: .25}, "base", 0, nil, layer.Query{},
		[]store.Message{{Role: store.RoleUser, Content: strings.Repeat("長", 500)}})
	if err == nil || !strings.Contains(err.Error(), "too long") {
		t.Fatalf("err = %v", err)
	}
}

func TestNewBudgetReservesTheReplyAndAMargin(t *testing.T) {
	b := NewBudget(8192, 1024)
	if b.Output != 1024 || b.Input != 8192-1024-409 {
		t.Fatalf("budget = %+v", b)
	}
	if b := NewBudget(4096, 100000); b.Output != 1024 {
		t.Fatalf("oversized output not capped: %+v", b)
	}
}

func TestAutoTitle(t *testing.T) {
	for in, want := range map[string]string{
		"\n  東京の天気を教えて\n二行目": "東京の天気を教えて",
		"a   b\tc":              "a b c",
		strings.Repeat("あ", 50): strings.Repeat("あ", 40) + "…",
	} {
		if got := AutoTitle(in); got != want {
			t.Errorf("AutoTitle(%q) = %q, want %q", in, got, want)
		}
	}
}

// prioritizedLayer is a fixedLayer that claims budget before the others.
type prioritizedLayer struct{ fixedLayer }

func (prioritizedLayer) Priority() int { return layer.PriorityUserChoice }

// Issue 8, fault 5: a pinned page of one 10,000-character line disappeared on
// an 8k-token model (the cut knew only line boundaries, so it kept the
// header) while a barely related KB document stayed.
func TestAPinnedPageOfOneLongLineIsCutAtASentenceOnAnEightKModel(t *testing.T) {
	c := tokens.Estimate
	b := NewBudget(8192, 1024)
	page := strings.Repeat("Pinned facts about the project go here. ", 250)[:10000] // no newline
	pinned := "# Pinned note: plan [id 1]\nThe user pinned this shared note to the conversation; its text follows.\n\n" + page
	layers := []layer.Layer{
		prioritizedLayer{fixedLayer{"pinned_notes", []layer.Block{{Layer: "pinned_notes", Text: pinned, Truncatable: true}}}},
		fixedLayer{"kb", []layer.Block{{Layer: "kb", Text: "## Local knowledge base\n" + strings.Repeat("barely related ", 100), Truncatable: true}}},
	}
	got, err := buildContext(context.Background(), c, b, "base", 0, layers, layer.Query{}, history(9, 200))
	if err != nil {
		t.Fatal(err)
	}
	var pin string
	for _, m := range got.Messages {
		if strings.HasPrefix(m.Content, "# Pinned note") {
			pin = m.Content
		}
	}
	if pin == "" {
		t.Fatal("the pinned page was dropped")
	}
	body := strings.TrimSuffix(strings.SplitN(pin, "\n\n", 2)[1], TruncationMarker)
	if len(body) < 4000 || !strings.HasSuffix(pin, "here."+TruncationMarker) {
		t.Fatalf("pinned page kept %d characters, ending …%q; want most of its share, cut after a sentence", len(body), pin[len(pin)-60:])
	}
	if got.Tokens > b.Input {
		t.Fatalf("used %d of %d tokens", got.Tokens, b.Input)
	}
}

func TestPinnedNotesOutrankRetrievedDocumentsWhenRoomIsShort(t *testing.T) {
	c := tokens.Estimate
	b := Budget{Input: 1000, LayerShare: 0.4}
	doc := "doc " + strings.Repeat("kb sentence. ", 100)    // ~330 tokens
	note := "note " + strings.Repeat("pin sentence. ", 100) // ~350 tokens
	// The KB layer comes first in layer order, the pinned one has priority.
	layers := []layer.Layer{
		fixedLayer{"kb", []layer.Block{{Layer: "kb", Text: doc, Truncatable: true}}},
		prioritizedLayer{fixedLayer{"pinned_notes", []layer.Block{{Layer: "pinned_notes", Text: note, Truncatable: true}}}},
	}
	got, err := buildContext(context.Background(), c, b, "base", 0, layers, layer.Query{}, history(5, 400)) // ~4×100 tokens of recent history
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Messages) < 3 || !strings.HasPrefix(got.Messages[1].Content, "doc ") || got.Messages[2].Content != note {
		t.Fatalf("want the KB block (cut) then the whole pinned note, in layer order; got %d messages", len(got.Messages))
	}
	if !strings.HasSuffix(got.Messages[1].Content, TruncationMarker) || strings.Join(got.Trimmed, ",") != "kb" {
		t.Fatalf("the KB block should be the one cut; trimmed=%v", got.Trimmed)
	}
}

// Issue 21: a question whose reply failed (a 429, a 500, a message too
// long for the window) or was stopped before its first word is left out
// with its empty reply — it was glued onto every later question before, so
// the next message failed with the old error. Roles still alternate, the
// question being answered always goes, and partial replies go as shown.
func TestUnansweredQuestionsAreLeftOutOfTheHistory(t *testing.T) {
	u := func(s string) store.Message { return store.Message{Role: store.RoleUser, Content: s} }
	a := func(s string) store.Message { return store.Message{Role: store.RoleAssistant, Content: s} }
	got := historyMessages([]store.Message{u("A"), a(""), u("B"), a("  "), u("C"), a("reply"), u("D"), a(""),
		u("no reply stored"), u("F"), a("partial…"), u("E")})
	var roles []string
	for _, m := range got {
		roles = append(roles, m.Role+":"+m.Content)
	}
	want := []string{"user:C", "assistant:reply", "user:F", "assistant:partial…", "user:E"}
	if strings.Join(roles, "|") != strings.Join(want, "|") {
		t.Fatalf("history = %q, want %q", roles, want)
	}
}

// The window marks the same questions the context leaves out, and the last
// question while it is not being answered.
func TestUnansweredMarksWhatTheContextLeavesOut(t *testing.T) {
	m := func(id int64, role, s string) store.Message { return store.Message{ID: id, Role: role, Content: s} }
	branch := []store.Message{m(1, store.RoleUser, "A"), m(2, store.RoleAssistant, ""), m(3, store.RoleUser, "B"),
		m(4, store.RoleAssistant, "ok"), m(5, store.RoleUser, "C")}
	got := Unanswered(branch, false)
	if len(got) != 2 || !got[1] || !got[5] {
		t.Fatalf("Unanswered = %v, want 1 and 5", got)
	}
	if got := Unanswered(branch, true); len(got) != 1 || !got[1] {
		t.Fatalf("Unanswered while answering = %v, want 1", got)
	}
	// A reply stored with no text yet while its turn runs (tool calls, or
	// one waiting for approval) is being written; once the turn is over it
	// is a reply without text.
	writing := append(branch, store.Message{ID: 6, Role: store.RoleAssistant, Status: store.StatusStreaming})
	if got := Unanswered(writing, true); len(got) != 1 || !got[1] {
		t.Fatalf("Unanswered while the reply is being written = %v, want 1", got)
	}
	if got := Unanswered(writing, false); len(got) != 2 || !got[1] || !got[5] {
		t.Fatalf("Unanswered after the turn = %v, want 1 and 5", got)
	}
}
