package kb

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestARepeatedQueryIsRankedOnceUntilTheIndexChanges checks rankCache from
// the outside: the same question again is answered from the kept ranking
// (which a test can tell only by its identity), and every kind of index
// change — a new document, a changed one, a deleted one — is seen by the
// very next query.
func TestARepeatedQueryIsRankedOnceUntilTheIndexChanges(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.md"), "# 借用\n\n借用チェッカーは参照の寿命を調べます。\n")
	writeFile(t, filepath.Join(dir, "b.md"), "# 所有権\n\n所有権はメモリを管理する仕組みです。\n")
	f := newFixture(t, dir)
	ctx := context.Background()
	reconcile := func() {
		t.Helper()
		if _, err := f.svc.Reconcile(ctx); err != nil {
			t.Fatal(err)
		}
	}
	reconcile()
	lx := f.svc.lexes[0]
	rank := func(expr string) []lexDoc {
		t.Helper()
		docs, _, err := f.svc.lexicalRanking(ctx, f.db.Bun(), lx, matchQuery{expr: expr})
		if err != nil {
			t.Fatal(err)
		}
		return docs
	}
	first := rank(`"借用"`)
	if len(first) != 1 {
		t.Fatalf("借用 ranked %d documents, want 1", len(first))
	}
	if again := rank(`"借用"`); len(again) != 1 || &again[0] != &first[0] {
		t.Errorf("the same query was ranked again instead of reusing the kept ranking")
	}
	if got := f.searchPaths(t, "借用", 10); !slices.Equal(got, []string{"a.md"}) {
		t.Fatalf("search 借用 = %v", got)
	}

	df := func() float64 {
		t.Helper()
		terms, err := lx.terms("借用")
		if err != nil {
			t.Fatal(err)
		}
		m, _, err := f.svc.termStats(ctx, f.db.Bun(), lx, terms)
		if err != nil {
			t.Fatal(err)
		}
		return m["借用"]
	}
	if d := df(); d != 1 {
		t.Fatalf("借用 is in %v sections, want 1", d)
	}
	// A new document holding the word.
	writeFile(t, filepath.Join(dir, "c.md"), "# 借用の規則\n\n可変の借用はひとつだけです。借用。\n")
	reconcile()
	if d := df(); d != 2 {
		t.Errorf("after adding c.md, 借用 is in %v sections, want 2 (a kept count was used)", d)
	}
	if got := f.searchPaths(t, "借用", 10); len(got) != 2 || !slices.Contains(got, "c.md") {
		t.Errorf("after adding c.md, search 借用 = %v, want a.md and c.md", got)
	}
	// A changed document that no longer holds it.
	writeFile(t, filepath.Join(dir, "a.md"), "# 寿命\n\n参照の寿命を調べます。\n")
	reconcile()
	if got := f.searchPaths(t, "借用", 10); !slices.Equal(got, []string{"c.md"}) {
		t.Errorf("after changing a.md, search 借用 = %v, want [c.md]", got)
	}
	// A deleted one.
	if err := os.Remove(filepath.Join(dir, "c.md")); err != nil {
		t.Fatal(err)
	}
	reconcile()
	if got := f.searchPaths(t, "借用", 10); len(got) != 0 {
		t.Errorf("after deleting c.md, search 借用 = %v, want nothing", got)
	}
}

// TestTheRankCacheKeepsTheLatestRankingsOnly checks the eviction order and
// that a ranking begun before a change is never used after it.
func TestTheRankCacheKeepsTheLatestRankingsOnly(t *testing.T) {
	var c rankCache
	for i := range rankCacheSize + 2 {
		c.put(fmt.Sprint(i), c.generation(), []lexDoc{{docID: int64(i)}}, nil)
	}
	for _, k := range []string{"0", "1"} {
		if _, _, ok := c.get(k); ok {
			t.Errorf("ranking %s is kept past the cache's %d", k, rankCacheSize)
		}
	}
	if d, _, ok := c.get(fmt.Sprint(rankCacheSize + 1)); !ok || d[0].docID != int64(rankCacheSize+1) {
		t.Errorf("the newest ranking is not kept: %v %v", d, ok)
	}
	gen := c.generation()
	c.invalidate() // the index changed while a query ran
	c.put("late", gen, []lexDoc{{docID: 1}}, nil)
	if _, _, ok := c.get("late"); ok {
		t.Error("a ranking computed before a change is used after it")
	}
	if _, _, ok := c.get(fmt.Sprint(rankCacheSize + 1)); ok {
		t.Error("a ranking is used after the index changed")
	}
}

// Layer 3's block for a message is kept until the index changes (a
// previewed draft's turn builds nothing again, issue 29), and a change is
// seen by the very next turn: a kept block is never a stale one. A caller
// changing the block it got does not change the kept one.
func TestLayerThreesBlockIsKeptUntilTheIndexChanges(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a.md"), "# 借用チェッカー\n\n借用チェッカーは参照の寿命を調べ、ダングリング参照を防ぎます。\n")
	f := newFixture(t, dir)
	ctx := context.Background()
	if _, err := f.svc.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	const q = "借用チェッカーは何を調べますか"
	block := func() layerBlockView {
		t.Helper()
		bl, err := f.svc.layerBlock(ctx, q, "openai/gpt-4o-mini")
		if err != nil {
			t.Fatal(err)
		}
		return layerBlockView{bl.Text, len(bl.Items)}
	}
	first := block()
	if first.items != 1 || !strings.Contains(first.text, "ダングリング") {
		t.Fatalf("first block: %d items\n%s", first.items, first.text)
	}
	bl, _ := f.svc.layerBlock(ctx, q, "openai/gpt-4o-mini")
	bl.Items[0].Title = "changed by a caller"
	if b, _ := f.svc.ranks.block(f.svc.blockKey(ctx, q, "openai/gpt-4o-mini", f.svc.o.Settings())); b.Items[0].Title == "changed by a caller" {
		t.Fatal("a caller's change reached the kept block")
	}
	writeFile(t, filepath.Join(dir, "a.md"), "# 借用チェッカー\n\n借用チェッカーは参照の寿命を調べ、可変の借用がひとつだけかも調べます。\n")
	if _, err := f.svc.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	if got := block(); strings.Contains(got.text, "ダングリング") || !strings.Contains(got.text, "可変の借用") {
		t.Fatalf("after the change the block is stale:\n%s", got.text)
	}
}

type layerBlockView struct {
	text  string
	items int
}
