package kb

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"playchat/backend/jatext"
	"playchat/backend/tokens"
)

func TestExcerptMarksMatchedTerms(t *testing.T) {
	terms, _ := jatext.QueryTerms("所有権のルール")
	md := "## 所有権規則\n\n" + strings.Repeat("前置き。", 50) + "まず、**所有権**のルールについて見ていきましょう。" + strings.Repeat("後書き。", 50)
	got := excerpt(md, terms, 80)
	if !strings.Contains(got, "«所有権»") || !strings.Contains(got, "«ルール»") {
		t.Errorf("excerpt %q does not mark the terms", got)
	}
	if strings.Contains(got, "**") || utf8.RuneCountInString(got) > 80+2+8 {
		t.Errorf("excerpt %q: Markdown left or too long", got)
	}
}

func TestLayerShowsBestSectionsOfADocumentOverItsShare(t *testing.T) {
	f := newFixture(t, "")
	var b strings.Builder
	b.WriteString("# 旅行の手引き\n")
	for _, topic := range []string{"持ち物", "両替", "パスポートの更新", "空港までの移動", "ホテルの予約"} {
		b.WriteString("\n## " + topic + "\n\n")
		b.WriteString(strings.Repeat(topic+"についての詳しい説明が続きます。", 40))
		b.WriteString("\n")
	}
	writeFile(t, filepath.Join(f.dir, "travel.md"), b.String())
	f.set.update(func(s *Settings) { s.TokenBudget = 900 })
	ctx := context.Background()
	if _, err := f.svc.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	text, err := f.svc.layerText(ctx, "パスポートの更新はどうすればいい？", "openai/gpt-4o-mini")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(text, LayerHeader) || !strings.Contains(text, "web_search") {
		t.Errorf("layer does not open with the priority statement: %q", text[:min(200, len(text))])
	}
	if !strings.Contains(text, "## パスポートの更新") || strings.Contains(text, "## ホテルの予約") {
		t.Errorf("layer does not hold (only) the best section:\n%s", text)
	}
	if !strings.Contains(text, "best match") {
		t.Error("partial document not labelled as sections")
	}
	if n := tokens.ForModel("openai/gpt-4o-mini").Count(text); n > 900 {
		t.Errorf("layer is %d tokens, over its budget of 900", n)
	}
}
