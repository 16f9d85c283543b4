package kb

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"playchat/backend/apperr"
)

// A document added from an attachment is written at the root, searchable
// when AddDocument returns, and never overwrites: the same text is that
// document, a different one of the same name gets "name (2).md".
func TestAddDocumentWritesIndexesAndNeverOverwrites(t *testing.T) {
	f := newFixture(t, "")
	ctx := context.Background()
	body := "# report.pdf\n\n## Page 1\n\nThe zeppelin budget was spent on helium.\n"
	rel, err := f.svc.AddDocument(ctx, "report.md", body)
	if err != nil || rel != "report.md" {
		t.Fatalf("AddDocument = %q, %v", rel, err)
	}
	if b, _ := os.ReadFile(filepath.Join(f.dir, "report.md")); string(b) != body {
		t.Fatalf("written %q", b)
	}
	hits, err := f.svc.Search(ctx, "zeppelin helium", 5)
	if err != nil || len(hits) == 0 || hits[0].Path != "report.md" {
		t.Fatalf("search right after adding: %+v, %v", hits, err)
	}
	if rel, err := f.svc.AddDocument(ctx, "report.md", body); err != nil || rel != "report.md" {
		t.Fatalf("the same text again = %q, %v", rel, err)
	}
	rel, err = f.svc.AddDocument(ctx, "report.md", "# another report\n")
	if err != nil || rel != "report (2).md" {
		t.Fatalf("a different text of that name = %q, %v", rel, err)
	}
	if b, _ := os.ReadFile(filepath.Join(f.dir, "report.md")); string(b) != body {
		t.Fatal("the first document was overwritten")
	}
	if _, err := f.svc.AddDocument(ctx, "report.pdf", body); apperr.CodeOf(err) != apperr.KBAddFailed {
		t.Fatalf("a name that is not .md: %v", err)
	}
}
