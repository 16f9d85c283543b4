package notes

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"playchat/backend/layer"
)

func TestPreviewIsTheFirst40CharactersOnOneLine(t *testing.T) {
	tests := []struct{ content, want string }{
		{"", "(empty)"},
		{" \n\t ", "(empty)"},
		{"牛乳\n卵\n\nパン", "牛乳 卵 パン"},
		{strings.Repeat("あ", 40), strings.Repeat("あ", 40)},
		{strings.Repeat("あ", 41), strings.Repeat("あ", 40) + "…"},
		{strings.Repeat("x", 39) + "\n\nyz", strings.Repeat("x", 39) + "…"},
	}
	for _, tt := range tests {
		if got := Preview(tt.content, PreviewRunes); got != tt.want {
			t.Errorf("Preview(%q) = %q, want %q", tt.content, got, tt.want)
		}
	}
}

func TestIndexLayerGroupsPagesBySectionAndMarksPins(t *testing.T) {
	svc, db := openTest(t)
	ctx := context.Background()
	mk := func(title, content, section string) int64 {
		p, err := svc.Create(ctx, title, content, section)
		if err != nil {
			t.Fatal(err)
		}
		return p.ID
	}
	shop := mk("買い物リスト", "牛乳、卵、パン、バター、チーズ、ヨーグルト、りんご、みかん、バナナ、\nトマト、きゅうり、玉ねぎ", "家")
	mk("献立", "", "家")
	idea := mk("Ideas", "one\ntwo", "")
	long := mk("Long", strings.Repeat("長", 60), "仕事")
	s, _ := db.CreateSession(ctx, "", "")
	if err := svc.SetPins(ctx, s.ID, []int64{shop, long}); err != nil {
		t.Fatal(err)
	}
	settings := func() Settings { return Settings{ContentLimit: 50} }

	blocks, err := IndexLayer(svc, settings).Build(ctx, layer.Query{SessionID: s.ID})
	if err != nil || len(blocks) != 1 {
		t.Fatalf("blocks = %+v, %v", blocks, err)
	}
	want := IndexPreamble + "\n\n## 家\n" +
		fmt.Sprintf("- [id %d] 買い物リスト — 牛乳、卵、パン、バター、チーズ、ヨーグルト、りんご、みかん、バナナ、 トマト、き… (pinned: full text below — do not read_note it again)\n", shop) +
		fmt.Sprintf("- [id %d] 献立 — (empty)\n\n", shop+1) +
		"## (no section)\n" +
		fmt.Sprintf("- [id %d] Ideas — one two\n\n", idea) +
		"## 仕事\n" +
		fmt.Sprintf("- [id %d] Long — %s… (pinned: first 50 of 60 characters below — read_note only for the rest)", long, strings.Repeat("長", 40))
	if b := blocks[0]; b.Text != want || b.Layer != "notes" || !b.Truncatable {
		t.Fatalf("index block =\n%s\nwant\n%s", b.Text, want)
	}

	// Another session has no pins, so nothing is marked.
	blocks, _ = IndexLayer(svc, nil).Build(ctx, layer.Query{SessionID: "other"})
	if strings.Contains(blocks[0].Text, "(pinned") {
		t.Fatalf("unpinned session's index marks pins:\n%s", blocks[0].Text)
	}
}

func TestIndexLayerWithoutPagesHasNoBlock(t *testing.T) {
	svc, _ := openTest(t)
	l := IndexLayer(svc, nil)
	blocks, err := l.Build(context.Background(), layer.Query{SessionID: "s"})
	if err != nil || len(blocks) != 0 || l.Name() != "notes" {
		t.Fatalf("blocks = %+v, %v, name %q", blocks, err, l.Name())
	}
}

func TestPinnedLayerShowsFullTextUpToTheLimit(t *testing.T) {
	const limit = 10
	tests := []struct {
		name    string
		content string
		want    string // the text after the page header
	}{
		{"under the limit", "牛乳\n卵", "牛乳\n卵"},
		{"exactly the limit", strings.Repeat("あ", limit), strings.Repeat("あ", limit)},
		{"one over the limit", strings.Repeat("あ", limit+1),
			strings.Repeat("あ", limit) + "\n…(truncated: 10 of 11 characters shown; read_note for the rest)"},
		{"empty page", "", "(empty page)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, db := openTest(t)
			ctx := context.Background()
			p, _ := svc.Create(ctx, "買い物", tt.content, "家")
			s, _ := db.CreateSession(ctx, "", "")
			if err := svc.Pin(ctx, s.ID, p.ID); err != nil {
				t.Fatal(err)
			}
			l := PinnedLayer(svc, func() Settings { return Settings{ContentLimit: limit} })
			blocks, err := l.Build(ctx, layer.Query{SessionID: s.ID})
			if err != nil || len(blocks) != 1 || l.Name() != "pinned_notes" {
				t.Fatalf("blocks = %+v, %v", blocks, err)
			}
			head := fmt.Sprintf("# Pinned note: 買い物 [id %d] (section: 家)\nThe user pinned this shared note to the conversation; its text follows.\n\n", p.ID)
			if b := blocks[0]; b.Text != head+tt.want || b.Layer != "pinned_notes" || !b.Truncatable {
				t.Fatalf("block =\n%q\nwant\n%q", b.Text, head+tt.want)
			}
		})
	}
}

func TestPinnedLayerHasOneBlockPerPinnedPageInOrder(t *testing.T) {
	svc, db := openTest(t)
	ctx := context.Background()
	ids := seed(t, svc, "a", "b", "c")
	s, _ := db.CreateSession(ctx, "", "")
	if err := svc.SetPins(ctx, s.ID, []int64{ids["c"], ids["a"]}); err != nil {
		t.Fatal(err)
	}
	// The default limit (8000) applies when the setting is unset.
	big, _ := svc.Create(ctx, "big", strings.Repeat("x", DefaultContentLimit+5), "")
	if err := svc.Pin(ctx, s.ID, big.ID); err != nil {
		t.Fatal(err)
	}
	blocks, err := PinnedLayer(svc, func() Settings { return Settings{} }).Build(ctx, layer.Query{SessionID: s.ID})
	if err != nil || len(blocks) != 3 {
		t.Fatalf("blocks = %d, %v", len(blocks), err)
	}
	for i, title := range []string{"a", "c", "big"} {
		if !strings.HasPrefix(blocks[i].Text, "# Pinned note: "+title+" ") {
			t.Errorf("block %d = %.40q, want page %s", i, blocks[i].Text, title)
		}
	}
	if !strings.HasSuffix(blocks[2].Text, "\n…(truncated: 8000 of 8005 characters shown; read_note for the rest)") {
		t.Errorf("big page's block ends %q", blocks[2].Text[len(blocks[2].Text)-80:])
	}
	for _, q := range []layer.Query{{SessionID: ""}, {SessionID: "unknown"}} {
		if blocks, err := PinnedLayer(svc, nil).Build(ctx, q); err != nil || len(blocks) != 0 {
			t.Errorf("session %q: blocks = %d, %v", q.SessionID, len(blocks), err)
		}
	}
}

func TestPinnedPagesOutrankRetrievalInTheBudget(t *testing.T) {
	svc, _ := openTest(t)
	p, ok := PinnedLayer(svc, nil).(layer.Prioritized)
	if !ok || p.Priority() != layer.PriorityUserChoice {
		t.Fatal("the pinned layer does not claim the user's-choice priority, so a retrieved KB document could push a pin out")
	}
	if _, ok := IndexLayer(svc, nil).(layer.Prioritized); ok {
		t.Fatal("the notes index claims a priority; only explicit pins should")
	}
}
