package notes

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"playchat/backend/store"
)

func TestCreatePutsThePageAtTheEndOfItsSectionRun(t *testing.T) {
	tests := []struct {
		name    string
		title   string
		section string
		want    string
	}{
		{"existing section in the middle", "x", "s1", "a@s1 b@s1 x@s1 c d@s2"},
		{"existing section at the end", "x", "s2", "a@s1 b@s1 c d@s2 x@s2"},
		{"new section goes last", "x", "新しい", "a@s1 b@s1 c d@s2 x@新しい"},
		{"ungrouped goes last", "x", "", "a@s1 b@s1 c d@s2 x"},
		{"section name is trimmed", "x", "  s1 ", "a@s1 b@s1 x@s1 c d@s2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, _ := openTest(t)
			seed(t, svc, "a@s1", "b@s1", "c", "d@s2")
			p, err := svc.Create(context.Background(), "  "+tt.title+" ", "本文", tt.section)
			if err != nil {
				t.Fatal(err)
			}
			if p.Title != tt.title || p.Content != "本文" || p.ID == 0 || p.CreatedAt.IsZero() || p.CreatedAt.Location() != time.UTC {
				t.Fatalf("created %+v", p)
			}
			if got := layout(t, svc); got != tt.want {
				t.Fatalf("layout = %q, want %q", got, tt.want)
			}
			got, err := svc.Get(context.Background(), p.ID)
			if err != nil || got.Position != p.Position {
				t.Fatalf("get = %+v, %v; created at position %d", got, err, p.Position)
			}
		})
	}
}

func TestBadInputIsRefusedAndChangesNothing(t *testing.T) {
	long := strings.Repeat("あ", MaxTitleRunes+1)
	tests := []struct {
		name string
		op   func(*Service, map[string]int64) error
		want string
	}{
		{"empty title", func(s *Service, _ map[string]int64) error {
			_, err := s.Create(context.Background(), "   ", "", "")
			return err
		}, "title is empty"},
		{"title of 201 characters", func(s *Service, _ map[string]int64) error {
			_, err := s.Create(context.Background(), long, "", "")
			return err
		}, "201 characters"},
		{"title of two lines", func(s *Service, _ map[string]int64) error {
			_, err := s.Create(context.Background(), "a\nb", "", "")
			return err
		}, "one line"},
		{"section of 101 characters", func(s *Service, _ map[string]int64) error {
			_, err := s.Create(context.Background(), "x", "", strings.Repeat("s", MaxSectionRunes+1))
			return err
		}, "101 characters"},
		{"content over 1 MiB", func(s *Service, _ map[string]int64) error {
			_, err := s.Create(context.Background(), "x", strings.Repeat("a", MaxContentBytes+1), "")
			return err
		}, "1 MiB"},
		{"update to an empty title", func(s *Service, ids map[string]int64) error {
			empty := ""
			_, err := s.Update(context.Background(), ids["a"], AnyVersion, &empty, nil)
			return err
		}, "title is empty"},
		{"update with content over 1 MiB", func(s *Service, ids map[string]int64) error {
			c := strings.Repeat("a", MaxContentBytes+1)
			_, err := s.Update(context.Background(), ids["a"], AnyVersion, nil, &c)
			return err
		}, "1 MiB"},
		{"set a section of 101 characters", func(s *Service, ids map[string]int64) error {
			_, err := s.SetSection(context.Background(), ids["a"], strings.Repeat("s", MaxSectionRunes+1))
			return err
		}, "101 characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, db := openTest(t)
			ids := seed(t, svc, "a@s1", "b")
			before := snapshot(t, svc, db)
			err := tt.op(svc, ids)
			wantErr(t, err, tt.want)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v does not wrap ErrInvalid", err)
			}
			assertUnchanged(t, before, snapshot(t, svc, db))
		})
	}
}

func TestTitleLimitsCountCharactersNotBytes(t *testing.T) {
	svc, _ := openTest(t)
	title := strings.Repeat("あ", MaxTitleRunes)
	section := strings.Repeat("节", MaxSectionRunes)
	p, err := svc.Create(context.Background(), title, strings.Repeat("a", MaxContentBytes), section)
	if err != nil || p.Title != title || p.Section != section {
		t.Fatalf("create at the limits = %v", err)
	}
}

func TestUpdateChangesOnlyWhatIsGiven(t *testing.T) {
	svc, _ := openTest(t)
	ids := seed(t, svc, "a@s1")
	ctx := context.Background()
	orig, _ := svc.Get(ctx, ids["a"])

	title := "  新しい題 "
	p, err := svc.Update(ctx, ids["a"], AnyVersion, &title, nil)
	if err != nil || p.Title != "新しい題" || p.Content != orig.Content || p.Section != "s1" {
		t.Fatalf("update title = %+v, %v", p, err)
	}
	content := "新しい本文"
	p, err = svc.Update(ctx, ids["a"], AnyVersion, nil, &content)
	if err != nil || p.Title != "新しい題" || p.Content != content || !p.UpdatedAt.After(orig.UpdatedAt) {
		t.Fatalf("update content = %+v, %v", p, err)
	}
	same, err := svc.Update(ctx, ids["a"], AnyVersion, nil, nil)
	if err != nil || same != p {
		t.Fatalf("update nothing = %+v, %v; want %+v", same, err, p)
	}
	if _, err := svc.Update(ctx, 999, AnyVersion, &title, nil); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("update a missing page: %v, want ErrNotFound", err)
	}
}

func TestGetAndFindByTitle(t *testing.T) {
	svc, db := openTest(t)
	ids := seed(t, svc, "Shopping", "買い物リスト")
	ctx := context.Background()
	// A database from the original app may hold titles that differ only in
	// case (playchat itself no longer creates them).
	var legacy int64
	if err := db.Bun().QueryRowContext(ctx, `INSERT INTO note_pages (title, content, position) VALUES ('shopping', '', 2) RETURNING id`).Scan(&legacy); err != nil {
		t.Fatal(err)
	}
	ids["shopping"] = legacy
	tests := []struct {
		title  string
		wantID int64
	}{
		{"shopping", ids["shopping"]}, // exact match beats the earlier case-insensitive one
		{"Shopping", ids["Shopping"]}, // exact
		{"SHOPPING", ids["Shopping"]}, // case-insensitive: the first in position order
		{"  買い物リスト ", ids["買い物リスト"]},  // trimmed
	}
	for _, tt := range tests {
		p, err := svc.FindByTitle(ctx, tt.title)
		if err != nil || p.ID != tt.wantID {
			t.Errorf("FindByTitle(%q) = %d, %v; want %d", tt.title, p.ID, err, tt.wantID)
		}
	}
	if _, err := svc.FindByTitle(ctx, "nothing"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("FindByTitle(nothing): %v, want ErrNotFound", err)
	}
	if _, err := svc.Get(ctx, 999); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Get(999): %v, want ErrNotFound", err)
	}
}

func TestDeleteRenumbersTheRest(t *testing.T) {
	tests := []struct {
		del  string
		want string
	}{
		{"a", "b@s1 c d@s2"},
		{"b", "a@s1 c d@s2"},
		{"c", "a@s1 b@s1 d@s2"},
		{"d", "a@s1 b@s1 c"},
	}
	for _, tt := range tests {
		t.Run(tt.del, func(t *testing.T) {
			svc, _ := openTest(t)
			ids := seed(t, svc, "a@s1", "b@s1", "c", "d@s2")
			if err := svc.Delete(context.Background(), ids[tt.del]); err != nil {
				t.Fatal(err)
			}
			if got := layout(t, svc); got != tt.want {
				t.Fatalf("layout = %q, want %q", got, tt.want)
			}
		})
	}
	svc, db := openTest(t)
	seed(t, svc, "a")
	before := snapshot(t, svc, db)
	if err := svc.Delete(context.Background(), 999); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("delete a missing page: %v", err)
	}
	assertUnchanged(t, before, snapshot(t, svc, db))
}

func TestAWriteRepairsPositionsLeftByTheOriginalApp(t *testing.T) {
	svc, db := openTest(t)
	ctx := context.Background()
	// Gaps, a repeated position, a split section and an empty-string section.
	for _, q := range []string{
		`INSERT INTO note_pages (id, title, position, section) VALUES (1, 'a', 5, 's1')`,
		`INSERT INTO note_pages (id, title, position, section) VALUES (2, 'b', 7, NULL)`,
		`INSERT INTO note_pages (id, title, position, section) VALUES (3, 'c', 7, 's1')`,
		`INSERT INTO note_pages (id, title, position, section) VALUES (4, 'd', 20, '')`,
	} {
		if _, err := db.Bun().ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Create(ctx, "e", "", "s1"); err != nil {
		t.Fatal(err)
	}
	if got, want := layout(t, svc), "a@s1 c@s1 e@s1 b d"; got != want {
		t.Fatalf("layout = %q, want %q", got, want)
	}
}

func TestConcurrentWritesKeepTheInvariant(t *testing.T) {
	svc, _ := openTest(t)
	ctx := context.Background()
	seed(t, svc, "a@s1", "b", "c@s2")
	sections := []string{"s1", "s2", "", "s3"}
	errs := make(chan error, 16)
	for i := range 16 {
		go func() {
			p, err := svc.Create(ctx, fmt.Sprintf("p%d", i), "", sections[i%len(sections)])
			if err == nil && i%3 == 0 {
				_, err = svc.SetSection(ctx, p.ID, sections[(i+1)%len(sections)])
			}
			errs <- err
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Count(layout(t, svc), " ") + 1; got != 19 {
		t.Fatalf("%d pages, want 19", got)
	}
}

func TestTitlesAreUniqueBecauseTheToolsFindPagesByTitle(t *testing.T) {
	svc, _ := openTest(t)
	ctx := context.Background()
	a, err := svc.Create(ctx, "買い物リスト", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Create(ctx, "買い物リスト", "again", ""); !errors.Is(err, ErrTitleTaken) {
		t.Fatalf("duplicate create: err = %v", err)
	}
	if _, err := svc.Create(ctx, "Todo", "", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Create(ctx, "todo", "", ""); !errors.Is(err, ErrTitleTaken) {
		t.Fatalf("a title differing only in case: err = %v", err)
	}
	b, _ := svc.Create(ctx, "メモ", "", "")
	title := "買い物リスト"
	if _, err := svc.Update(ctx, b.ID, AnyVersion, &title, nil); !errors.Is(err, ErrTitleTaken) {
		t.Fatalf("rename onto another page's title: err = %v", err)
	}
	if _, err := svc.Update(ctx, a.ID, AnyVersion, &title, nil); err != nil {
		t.Fatalf("keeping its own title: %v", err)
	}
}
