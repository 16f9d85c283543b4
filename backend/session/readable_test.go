package session

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"playchat/backend/store"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// readableFixture is a chat with Japanese, math, a code fence, a table, a
// regenerated reply (only the selected one is exported) and cited sources.
func readableFixture(t *testing.T) (*store.DB, string) {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := db.CreateSession(ctx, "二次方程式と Go の表", "openai/gpt-4o-mini")
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 1, 0, 30, 0, 0, time.UTC)
	add := func(role, content, model string, parent *int64) int64 {
		m := store.Message{SessionID: s.ID, Role: role, Content: content, Model: model, CreatedAt: at}
		at = at.Add(time.Minute)
		if parent != nil {
			err = db.InsertBranch(ctx, &m, parent)
		} else {
			err = db.InsertMessage(ctx, &m)
		}
		if err != nil {
			t.Fatal(err)
		}
		return m.ID
	}
	q := add(store.RoleUser, "二次方程式 $ax^2+bx+c=0$ の解の公式を教えて。値段は $5 と $6 です。", "", nil)
	add(store.RoleAssistant, "古い答え（選ばれていない枝）", "openai/gpt-4o-mini", nil)
	add(store.RoleAssistant, "解の公式は次のとおりです。\n\n$$\nx = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}\n$$\n\n判別式 \\(D = b^2 - 4ac\\) の符号で解の個数が決まります。\n\n"+
		"| D | 実数解 |\n|---|---|\n| D > 0 | 2 個 |\n| D = 0 | 1 個（重解） |\n| D < 0 | なし |\n\n"+
		"Go で書くと:\n\n```go\nfunc roots(a, b, c float64) (float64, float64) {\n\td := math.Sqrt(b*b - 4*a*c) // $not math$\n\treturn (-b + d) / (2 * a), (-b - d) / (2 * a)\n}\n```\n\n`$x$` はコードのままです。<script>alert(1)</script>",
		"openai/gpt-4o", &q)
	ms, _ := db.BranchMessages(ctx, s.ID)
	last := ms[len(ms)-1]
	last.Sources = `[{"title":"二次方程式 - Wikipedia","url":"https://ja.wikipedia.org/wiki/二次方程式"},{"title":"bad","url":"javascript:alert(1)"}]`
	if _, err := db.Bun().NewUpdate().Model(&last).Column("sources").WherePK().Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Bun().ExecContext(ctx, `UPDATE sessions SET created_at = ?, updated_at = ? WHERE id = ?`,
		time.Date(2026, 12, 1, 0, 30, 0, 0, time.UTC), time.Date(2026, 12, 1, 0, 33, 0, 0, time.UTC), s.ID); err != nil {
		t.Fatal(err)
	}
	return db, s.ID
}

func golden(t *testing.T, name string, got []byte, id string) {
	t.Helper()
	got = []byte(strings.ReplaceAll(string(got), id, "SESSION-ID"))
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test ./backend/session -run Readable -update)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from the golden file:\n%s", name, got)
	}
}

var exportOpts = ExportOptions{Now: time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC), Location: time.FixedZone("JST", 9*3600)}

func TestReadableMarkdownExportMatchesTheGoldenFile(t *testing.T) {
	db, id := readableFixture(t)
	got, err := ExportMarkdown(context.Background(), db, id, exportOpts)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "export.golden.md", got, id)
	s := string(got)
	if strings.Contains(s, "古い答え") {
		t.Error("a branch that is not shown was exported")
	}
	for _, src := range []string{"$$\nx = \\frac{-b \\pm \\sqrt{b^2-4ac}}{2a}\n$$", "```go\n", "| D = 0 | 1 個（重解） |", "$ax^2+bx+c=0$", "title: \"二次方程式と Go の表\"", "model: \"openai/gpt-4o-mini\""} {
		if !strings.Contains(s, src) {
			t.Errorf("missing %q", src)
		}
	}
	if strings.Contains(s, "javascript:") {
		t.Error("a javascript: source was exported")
	}
}

func TestReadableHTMLExportIsSelfContainedWithoutScript(t *testing.T) {
	db, id := readableFixture(t)
	got, err := ExportHTML(context.Background(), db, id, exportOpts)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "export.golden.html", got, id)
	s := string(got)
	low := strings.ToLower(s)
	for _, bad := range []string{"<script", "javascript:", "<link", "@import", "<iframe", "onerror", "古い答え"} {
		if strings.Contains(low, bad) {
			t.Errorf("the HTML holds %q", bad)
		}
	}
	// Nothing is loaded from anywhere: no src or url() at all.
	if regexp.MustCompile(`(?i)\ssrc=|url\(`).MatchString(s) {
		t.Error("the HTML loads a resource")
	}
	for _, want := range []string{
		`<div class="math" title="TeX">$$x = \frac{-b \pm \sqrt{b^2-4ac}}{2a}$$</div>`,
		`<span class="math" title="TeX">$ax^2+bx+c=0$</span>`,
		`<span class="math" title="TeX">$D = b^2 - 4ac$</span>`,
		"値段は $5 と $6 です",
		`<code class="language-go">`, "// $not math$", "<code>$x$</code>",
		"<table>", "<td>1 個（重解）</td>",
		`<a href="https://ja.wikipedia.org/wiki/二次方程式">二次方程式 - Wikipedia</a>`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q", want)
		}
	}
}

func TestExportAsRefusesAnUnknownFormat(t *testing.T) {
	db, id := readableFixture(t)
	if _, _, err := ExportAs(context.Background(), db, id, "pdf", ExportOptions{}); err == nil || !strings.Contains(err.Error(), "pdf") {
		t.Errorf("pdf: %v", err)
	}
	for f, ext := range map[string]string{"md": ".md", "html": ".html", "json": ".json"} {
		if b, e, err := ExportAs(context.Background(), db, id, f, ExportOptions{}); err != nil || e != ext || len(b) == 0 {
			t.Errorf("%s: %q %v", f, e, err)
		}
	}
}

func TestAChatsPlaceSurvivesExportAndImport(t *testing.T) {
	db, _ := readableFixture(t)
	ctx := context.Background()
	s, _ := db.CreateSession(ctx, "置き場所", "openai/m")
	id := s.ID
	db.InsertMessage(ctx, &store.Message{SessionID: id, Role: store.RoleUser, Content: "こんにちは"})
	f, _ := db.CreateFolder(ctx, "数学")
	db.MoveToFolder(ctx, []string{id}, &f.ID)
	db.SetPinned(ctx, []string{id}, true)
	doc, err := Export(ctx, db, id)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Place == nil || !doc.Place.Pinned || doc.Place.Folder != "数学" || doc.Place.Archived {
		t.Fatalf("place %+v", doc.Place)
	}
	// Into another database: the folder is made there.
	other, err := store.Open(ctx, filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	res, err := Import(ctx, other, doc)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := other.NamedPlaceOf(ctx, res.Session.ID)
	if got != *doc.Place {
		t.Errorf("imported place %+v, want %+v", got, *doc.Place)
	}
	// Again into the same one: the folder is found, not doubled.
	if _, err := Import(ctx, db, doc); err != nil {
		t.Fatal(err)
	}
	if fs, _ := db.Folders(ctx); len(fs) != 1 {
		t.Errorf("folders %+v", fs)
	}
	doc.Place.Folder = strings.Repeat("長", 101)
	if _, err := Import(ctx, other, doc); err == nil || !strings.Contains(err.Error(), "place.folder") {
		t.Errorf("bad folder name: %v", err)
	}
}
