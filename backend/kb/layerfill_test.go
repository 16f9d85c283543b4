package kb

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"playchat/backend/layer"
	"playchat/backend/tokens"
)

const fillModel = "openai/gpt-4o-mini"

// sectionDoc writes a document of titled sections, each body repeated to
// at least runes runes (a section under markdown.MinChunkRunes is merged
// with its neighbour; runes ≥ MinChunkRunes keeps them apart).
func sectionDoc(t *testing.T, path, title string, runes int, sections ...[2]string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("# " + title + "\n")
	for _, s := range sections {
		body := s[1]
		for utf8.RuneCountInString(body) < runes {
			body += s[1]
		}
		b.WriteString("\n## " + s[0] + "\n\n" + body + "\n")
	}
	writeFile(t, path, b.String())
}

func buildLayer(t *testing.T, f *fixture, msg string) layer.Block {
	t.Helper()
	bls, err := f.svc.Layer().Build(context.Background(), layer.Query{LatestUser: msg, Model: fillModel})
	if err != nil {
		t.Fatal(err)
	}
	if len(bls) != 1 {
		t.Fatalf("%q: %d blocks, want 1", msg, len(bls))
	}
	return bls[0]
}

// Within a document the sections that hold the question come first, best
// first, then the others in document order; the block lists them.
func TestSectionsThatHoldTheQuestionGoFirst(t *testing.T) {
	f := newFixture(t, "")
	sectionDoc(t, filepath.Join(f.dir, "guide.md"), "ガイド", 320,
		[2]string{"はじめに", "この文書は全体の案内です。"},
		[2]string{"インストール", "インストールの手順を書きます。キャッシュの場所も決めます。"},
		[2]string{"設定", "設定ファイルの書き方です。"},
		[2]string{"キャッシュの削除", "キャッシュを削除するには clear コマンドを使います。キャッシュの削除は安全です。"},
		[2]string{"まとめ", "以上です。"})
	ctx := context.Background()
	if _, err := f.svc.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	bl := buildLayer(t, f, "キャッシュの削除はどうやるの？")
	order := []string{"## キャッシュの削除", "## インストール", "# ガイド", "## 設定", "## まとめ"}
	at := -1
	for _, h := range order {
		i := strings.Index(bl.Text, "\n"+h+"\n")
		if i < 0 || i < at {
			t.Fatalf("section %q at %d, after %d: want the order %v:\n%s", h, i, at, order, bl.Text)
		}
		at = i
	}
	if !strings.Contains(bl.Text, sectionsIntro+" キャッシュの削除; インストール;") || !strings.Contains(bl.Text, "— 5 of 5") {
		t.Errorf("the block does not list the sections it sent:\n%s", bl.Text)
	}
	for _, o := range bl.LeftOut {
		t.Errorf("a whole document reported as left out: %+v", o)
	}
}

// The budget goes to each document's best section, then to more of the
// best document, then to the weaker one; a section that does not fit is
// cut at a boundary. What the meter reports matches what was sent.
func TestTheBestDocumentGetsMoreOfTheBudgetBeforeWeakerOnes(t *testing.T) {
	f := newFixture(t, "")
	sectionDoc(t, filepath.Join(f.dir, "passport.md"), "パスポートの更新", 600,
		[2]string{"パスポートの更新に必要な書類", "パスポートの更新には申請書と写真が要る。"},
		[2]string{"パスポートの更新の窓口", "パスポートの更新は旅券窓口で受け付ける。"},
		[2]string{"パスポートの更新の手数料", "パスポートの更新の手数料は収入印紙で払う。"})
	sectionDoc(t, filepath.Join(f.dir, "travel.md"), "旅行メモ", 600,
		[2]string{"持ち物", "パスポートの更新を忘れずに。荷物は軽く。"},
		[2]string{"両替", "両替は空港でする。"})
	ctx := context.Background()
	if _, err := f.svc.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	counter := tokens.ForModel(fillModel)
	full := buildLayer(t, f, "パスポートの更新はどうすればいい？")
	if !strings.Contains(full.Text, "Source: passport.md") || !strings.Contains(full.Text, "Source: travel.md") {
		t.Fatalf("both documents should match with room for all:\n%s", full.Text)
	}
	// Room for the best sections of both and most of passport.md, not all.
	budget := counter.Count(full.Text) * 3 / 4
	f.set.update(func(s *Settings) { s.TokenBudget = budget })
	bl := buildLayer(t, f, "パスポートの更新はどうすればいい？")
	text := bl.Text
	if n := counter.Count(text); n > budget {
		t.Errorf("layer is %d tokens, over its budget of %d", n, budget)
	}
	p, tr := strings.Index(text, "Source: passport.md"), strings.Index(text, "Source: travel.md")
	if p < 0 || tr < p {
		t.Fatalf("passport.md should come first:\n%s", text)
	}
	if !strings.Contains(text[p:tr], "## パスポートの更新の窓口") || !strings.Contains(text[p:tr], "## パスポートの更新の手数料") {
		t.Errorf("the best document's other sections should go in before the weaker document's:\n%s", text)
	}
	if !strings.Contains(text[tr:], "## 持ち物") || strings.Contains(text[tr:], "## 両替") {
		t.Errorf("the weaker document should bring its best section only:\n%s", text[tr:])
	}
	// The meter: each item starts at its document; a document sent in part
	// says how much of it was sent.
	var kept int
	for _, o := range bl.LeftOut {
		if o.Reason != layer.ReasonSections || o.Unit != layer.UnitTokens || o.Kept <= 0 || o.Kept >= o.Total {
			t.Errorf("left out %+v, want documents sent in part with kept < total tokens", o)
		}
		kept += o.Kept
	}
	if len(bl.Items) != 2 || kept == 0 || kept > counter.Count(text) {
		t.Errorf("items %+v, left out %+v: kept %d of a %d-token block", bl.Items, bl.LeftOut, kept, counter.Count(text))
	}
	for _, it := range bl.Items {
		if !strings.HasPrefix(text[it.Start:], "\n\n### ") {
			t.Errorf("item %+v does not start at its document", it)
		}
	}
}

// A document whose best section scores far below the best document's is
// not attached, however much room is left.
func TestAWeakMatchDoesNotFillTheRoom(t *testing.T) {
	f := newFixture(t, "")
	sectionDoc(t, filepath.Join(f.dir, "computed.md"), "算出プロパティ", 0,
		[2]string{"算出プロパティのキャッシュとメソッドの違い", "算出プロパティは依存関係にもとづきキャッシュされる。メソッドは毎回実行される。"})
	sectionDoc(t, filepath.Join(f.dir, "methods.md"), "メソッド一覧", 0,
		[2]string{"概要", "メソッドとプロパティの一覧です。算出した値も載せます。"})
	for i, dish := range []string{"カレー", "肉じゃが", "味噌汁", "親子丼", "焼きそば", "天ぷら", "寿司", "おでん"} {
		writeFile(t, filepath.Join(f.dir, fmt.Sprintf("料理/%d.md", i)), "# "+dish+"\n\n"+dish+"の作り方のメモ。\n")
	}
	ctx := context.Background()
	if _, err := f.svc.Reconcile(ctx); err != nil {
		t.Fatal(err)
	}
	text, err := f.svc.layerText(ctx, "算出プロパティとメソッドの違いとキャッシュ", fillModel)
	if err != nil || !strings.Contains(text, "Source: computed.md") {
		t.Fatalf("the answer is missing (err %v):\n%s", err, text)
	}
	if strings.Contains(text, "methods.md") {
		t.Errorf("a weak match was attached:\n%s", text)
	}
}
