package notes

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"playchat/backend/store"
)

func openTest(t *testing.T) (*Service, *store.DB) {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), store.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return New(db), db
}

// seed creates pages from specs "title" or "title@section", in order, and
// returns their ids by title.
func seed(t *testing.T, svc *Service, specs ...string) map[string]int64 {
	t.Helper()
	ids := map[string]int64{}
	for _, sp := range specs {
		title, section, _ := strings.Cut(sp, "@")
		p, err := svc.Create(context.Background(), title, "content of "+title, section)
		if err != nil {
			t.Fatalf("create %s: %v", sp, err)
		}
		ids[title] = p.ID
	}
	return ids
}

// layout returns the pages as "title@section" ("title" when ungrouped) in
// order, after checking the invariant: positions 0..n-1 and each section
// contiguous.
func layout(t *testing.T, svc *Service) string {
	t.Helper()
	ps, err := svc.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkInvariant(t, ps)
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Title
		if p.Section != "" {
			out[i] += "@" + p.Section
		}
	}
	return strings.Join(out, " ")
}

func checkInvariant(t *testing.T, ps []Page) {
	t.Helper()
	done := map[string]bool{}
	for i, p := range ps {
		if p.Position != i {
			t.Fatalf("page %q has position %d at index %d: %+v", p.Title, p.Position, i, ps)
		}
		if i > 0 && ps[i-1].Section != "" && ps[i-1].Section != p.Section {
			done[ps[i-1].Section] = true
		}
		if done[p.Section] {
			t.Fatalf("section %q is split at page %q", p.Section, p.Title)
		}
	}
}

// snapshot returns every page and every pin, to show that nothing changed.
func snapshot(t *testing.T, svc *Service, db *store.DB) any {
	t.Helper()
	ps, err := svc.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var pins []pinRow
	if err := db.Bun().NewSelect().Model(&pins).Order("id").Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	return []any{ps, pins}
}

func assertUnchanged(t *testing.T, before, after any) {
	t.Helper()
	if !reflect.DeepEqual(before, after) {
		t.Fatalf("data changed after a refused operation:\nbefore %+v\nafter  %+v", before, after)
	}
}

func titles(ps []Page) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Title
	}
	return strings.Join(out, " ")
}

func wantErr(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Fatalf("error %q does not contain %q", err, p)
		}
	}
}
