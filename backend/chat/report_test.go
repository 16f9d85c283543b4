package chat

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"playchat/backend/layer"
	"playchat/backend/memory"
	"playchat/backend/store"
	"playchat/backend/tokens"
)

// docsBlock is a KB-like block of documents of about sizes bytes each,
// naming each document as an item at its offset.
func docsBlock(name string, truncatable bool, sizes ...int) layer.Block {
	var b strings.Builder
	b.WriteString("## header")
	bl := layer.Block{Layer: name, Truncatable: truncatable}
	for i, size := range sizes {
		bl.Items = append(bl.Items, layer.Item{Kind: layer.KindKBDoc, ID: fmt.Sprintf("doc%d.md", i), Title: fmt.Sprintf("Doc %d", i), Start: b.Len()})
		fmt.Fprintf(&b, "\n\n### Doc %d\n%s", i, strings.Repeat("word ", size/5))
	}
	bl.Text = b.String()
	return bl
}

func leftOut(u layer.Usage) map[string]string {
	out := map[string]string{}
	for _, o := range u.LeftOut {
		out[o.ID] = o.Reason
	}
	return out
}

func included(u layer.Usage) []string {
	var ids []string
	for _, it := range u.Included {
		ids = append(ids, it.ID)
	}
	return ids
}

func TestTheReportNamesWhatACutLayerKeptCutAndLeftOut(t *testing.T) {
	c := tokens.Estimate
	b := Budget{Window: 1200, Output: 100, Input: 1000, LayerShare: 0.25} // 250 tokens a layer
	kb := docsBlock("kb", true, 200, 1200, 200)                           // ~50, 300 and 50 tokens
	layers := []layer.Layer{fixedLayer{"kb", []layer.Block{kb}}}
	got, err := buildContext(context.Background(), c, b, "base", 0, layers, layer.Query{Model: "m"}, history(3, 40))
	if err != nil {
		t.Fatal(err)
	}
	r := got.Report
	if r.Window != 1200 || r.Input != 1000 || r.Output != 100 || r.Model != "m" || r.Used != got.Tokens {
		t.Fatalf("report header = %+v (built %d tokens)", r, got.Tokens)
	}
	if len(r.Layers) != 1 || r.Layers[0].Layer != "kb" {
		t.Fatalf("layers = %+v", r.Layers)
	}
	u := r.Layers[0]
	if u.Tokens == 0 || u.Tokens > 250 || u.FullTokens <= u.Tokens {
		t.Fatalf("kb used %d of full %d (share 250)", u.Tokens, u.FullTokens)
	}
	// Document 0 fits, document 1 is where the cut falls (at a word: no
	// paragraph keeps enough), document 2 is left out whole.
	if strings.Join(included(u), ",") != "doc0.md,doc1.md" {
		t.Fatalf("included = %v", included(u))
	}
	lo := leftOut(u)
	if lo["doc1.md"] != layer.ReasonTruncated || lo["doc2.md"] != layer.ReasonBudget || len(lo) != 2 {
		t.Fatalf("left out = %v", lo)
	}
	for _, o := range u.LeftOut {
		if o.Reason == layer.ReasonTruncated && (o.Kept != u.Tokens || o.Total != u.FullTokens || o.Unit != layer.UnitTokens) {
			t.Fatalf("truncated entry = %+v, want kept %d of %d tokens", o, u.Tokens, u.FullTokens)
		}
	}
	sum := r.Prompt + r.Message + u.Tokens + r.History.Tokens
	if sum != r.Used || r.History.Sent != 2 || r.History.LeftOut != 0 {
		t.Fatalf("parts sum to %d, used %d; history %+v", sum, r.Used, r.History)
	}
}

func TestTheReportListsADroppedBlocksItemsAndTheLeftOutHistory(t *testing.T) {
	c := tokens.Estimate
	b := Budget{Input: 400, LayerShare: 0.25}
	kb := docsBlock("kb", false, 800, 800) // not truncatable, over its share
	clock := layer.Block{Layer: "clock", Text: strings.Repeat("tick ", 200)}
	layers := []layer.Layer{fixedLayer{"kb", []layer.Block{kb}}, fixedLayer{"clock", []layer.Block{clock}}}
	got, err := buildContext(context.Background(), c, b, "base", 0, layers, layer.Query{}, history(21, 80))
	if err != nil {
		t.Fatal(err)
	}
	r := got.Report
	if lo := leftOut(r.Layers[0]); lo["doc0.md"] != layer.ReasonBudget || lo["doc1.md"] != layer.ReasonBudget || r.Layers[0].Tokens != 0 {
		t.Fatalf("kb usage = %+v", r.Layers[0])
	}
	if lo := r.Layers[1].LeftOut; len(lo) != 1 || lo[0].Kind != layer.KindBlock || lo[0].Title != "clock" {
		t.Fatalf("a dropped block without items is not reported as the layer's block: %+v", lo)
	}
	if r.History.LeftOut != got.Dropped || r.History.LeftOut == 0 || r.History.Sent+r.History.LeftOut != 20 {
		t.Fatalf("history = %+v, dropped %d", r.History, got.Dropped)
	}
	if r.LeftOutCount() != 4 {
		t.Fatalf("left-out count = %d, want 2 documents + clock + history", r.LeftOutCount())
	}
}

func TestWhatALayerLeftOutItselfIsReportedAndAWholeBlockIsIncluded(t *testing.T) {
	note := layer.Item{Kind: layer.KindNote, ID: "7", Title: "Runbook"}
	o := layer.Omit(note, layer.ReasonCharLimit)
	o.Kept, o.Total, o.Unit = 10, 50, layer.UnitCharacters
	bl := layer.Block{Layer: "pinned_notes", Text: "short page", Truncatable: true, Items: []layer.Item{note}, LeftOut: []layer.Omission{o}}
	got, err := buildContext(context.Background(), tokens.Estimate, Budget{Input: 1000, LayerShare: 0.25}, "base", 0,
		[]layer.Layer{fixedLayer{"pinned_notes", []layer.Block{bl}}}, layer.Query{}, history(1, 10))
	if err != nil {
		t.Fatal(err)
	}
	u := got.Report.Layers[0]
	if strings.Join(included(u), ",") != "7" || len(u.LeftOut) != 1 || u.LeftOut[0] != o || u.Tokens != u.FullTokens {
		t.Fatalf("usage = %+v", u)
	}
}

func TestMemoryItemsStartWhereEachMemoryBegins(t *testing.T) {
	mems := memFixtures()
	text := memoryLayerText(mems)
	items := memoryItems(mems)
	for i, it := range items {
		if !strings.HasPrefix(text[it.Start:], "\n\n### ") || it.ID != fmt.Sprint(mems[i].ID) {
			t.Fatalf("item %d starts at %q", i, text[it.Start:min(len(text), it.Start+12)])
		}
	}
}

func memFixtures() []store.Memory {
	t0 := time.Date(2026, 11, 1, 9, 30, 0, 0, time.UTC)
	return []store.Memory{
		{ID: 3, Summary: "  - 京都へ行く予定\n", CreatedAt: t0},
		{ID: 5, Summary: "- likes tea", CreatedAt: t0.Add(48 * time.Hour)},
		{ID: 9, Summary: "\n- 三つ目の要約\n- second line  ", CreatedAt: t0.Add(96 * time.Hour)},
	}
}

func memoryLayerText(mems []store.Memory) string { return memory.LayerText(mems) }

func TestAReportListsAtMostMaxReportItemsPerLayerAndCountsTheRest(t *testing.T) {
	var b strings.Builder
	bl := layer.Block{Layer: "notes", Truncatable: true}
	for i := 0; i < 250; i++ {
		bl.Items = append(bl.Items, layer.Item{Kind: layer.KindNote, ID: fmt.Sprint(i), Title: fmt.Sprint("page ", i), Start: b.Len()})
		fmt.Fprintf(&b, "\n- [id %d] page %d — %s", i, i, strings.Repeat("text ", 10))
	}
	bl.Text = b.String()
	got, err := buildContext(context.Background(), tokens.Estimate, Budget{Input: 8000, LayerShare: 0.25}, "base", 0,
		[]layer.Layer{fixedLayer{"notes", []layer.Block{bl}}}, layer.Query{}, history(1, 10))
	if err != nil {
		t.Fatal(err)
	}
	u := got.Report.Layers[0]
	if len(u.Included) != layer.MaxReportItems || len(u.Included)+u.IncludedMore+len(u.LeftOut)+u.LeftOutMore < 250 {
		t.Fatalf("included %d (+%d), left out %d (+%d)", len(u.Included), u.IncludedMore, len(u.LeftOut), u.LeftOutMore)
	}
	if u.LeftOutMore == 0 || got.Report.LeftOutCount() != len(u.LeftOut)+u.LeftOutMore {
		t.Fatalf("left out %d listed + %d counted; count %d", len(u.LeftOut), u.LeftOutMore, got.Report.LeftOutCount())
	}
}

func TestADroppedPinnedPageIsReportedOnceAndTopKMissesStayListed(t *testing.T) {
	page := layer.Item{Kind: layer.KindNote, ID: "3", Title: "Long page"}
	cutAt := layer.Omit(page, layer.ReasonCharLimit)
	pinned := layer.Block{Layer: "pinned_notes", Text: strings.Repeat("x", 4000), Items: []layer.Item{page}, LeftOut: []layer.Omission{cutAt}}
	doc := layer.Item{Kind: layer.KindKBDoc, ID: "a.md", Title: "A"}
	kb := layer.Block{Layer: "kb", Text: strings.Repeat("y", 4000), Items: []layer.Item{doc},
		LeftOut: []layer.Omission{layer.Omit(layer.Item{Kind: layer.KindKBDoc, ID: "b.md", Title: "B"}, layer.ReasonTopK)}}
	got, err := buildContext(context.Background(), tokens.Estimate, Budget{Input: 400, LayerShare: 0.25}, "base", 0,
		[]layer.Layer{fixedLayer{"pinned_notes", []layer.Block{pinned}}, fixedLayer{"kb", []layer.Block{kb}}}, layer.Query{}, history(1, 10))
	if err != nil {
		t.Fatal(err)
	}
	p, k := leftOut(got.Report.Layers[0]), leftOut(got.Report.Layers[1])
	if len(got.Report.Layers[0].LeftOut) != 1 || p["3"] != layer.ReasonBudget {
		t.Fatalf("pinned left out = %+v", got.Report.Layers[0].LeftOut)
	}
	if k["a.md"] != layer.ReasonBudget || k["b.md"] != layer.ReasonTopK || len(k) != 2 {
		t.Fatalf("kb left out = %+v", got.Report.Layers[1].LeftOut)
	}
}
