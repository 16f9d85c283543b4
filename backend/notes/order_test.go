package notes

import (
	"context"
	"errors"
	"strings"
	"testing"

	"playchat/backend/store"
)

// The layout every ordering test starts from.
var start = []string{"a@s1", "b@s1", "c", "d@s2", "e@s2", "f"}

func TestSetSectionMovesThePageToTheEndOfThatSection(t *testing.T) {
	tests := []struct {
		name    string
		page    string
		section string
		want    string
	}{
		{"into an earlier section", "e", "s1", "a@s1 b@s1 e@s1 c d@s2 f"},
		{"into a later section", "a", "s2", "b@s1 c d@s2 e@s2 a@s2 f"},
		{"ungrouped page into a section", "f", "s1", "a@s1 b@s1 f@s1 c d@s2 e@s2"},
		{"into a new section", "b", "s3", "a@s1 c d@s2 e@s2 f b@s3"},
		{"ungroup", "a", "", "b@s1 c d@s2 e@s2 f a"},
		{"the same section changes nothing", "a", "s1", "a@s1 b@s1 c d@s2 e@s2 f"},
		{"the only page of a section leaves it", "d", "s1", "a@s1 b@s1 d@s1 c e@s2 f"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, _ := openTest(t)
			ids := seed(t, svc, start...)
			p, err := svc.SetSection(context.Background(), ids[tt.page], " "+tt.section+" ")
			if err != nil {
				t.Fatal(err)
			}
			if p.Section != tt.section {
				t.Fatalf("section = %q, want %q", p.Section, tt.section)
			}
			if got := layout(t, svc); got != tt.want {
				t.Fatalf("layout = %q, want %q", got, tt.want)
			}
			if got, _ := svc.Get(context.Background(), p.ID); got.Position != p.Position {
				t.Fatalf("returned position %d, stored %d", p.Position, got.Position)
			}
		})
	}
	svc, db := openTest(t)
	seed(t, svc, start...)
	before := snapshot(t, svc, db)
	if _, err := svc.SetSection(context.Background(), 999, "s1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing page: %v", err)
	}
	assertUnchanged(t, before, snapshot(t, svc, db))
}

func TestRenameSectionRelabelsEveryPageAtOnce(t *testing.T) {
	tests := []struct {
		name     string
		from, to string
		wantN    int
		want     string
	}{
		{"to a new name", "s1", "仕事", 2, "a@仕事 b@仕事 c d@s2 e@s2 f"},
		{"names are trimmed", " s2 ", " 家 ", 2, "a@s1 b@s1 c d@家 e@家 f"},
		{"merge into a later section", "s1", "s2", 2, "c d@s2 e@s2 a@s2 b@s2 f"},
		{"merge into an earlier section", "s2", "s1", 2, "a@s1 b@s1 d@s1 e@s1 c f"},
		{"ungroup keeps their places", "s2", "", 2, "a@s1 b@s1 c d e f"},
		{"the same name changes nothing", "s1", "s1", 2, "a@s1 b@s1 c d@s2 e@s2 f"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, _ := openTest(t)
			seed(t, svc, start...)
			n, err := svc.RenameSection(context.Background(), tt.from, tt.to)
			if err != nil || n != tt.wantN {
				t.Fatalf("rename = %d, %v; want %d", n, err, tt.wantN)
			}
			if got := layout(t, svc); got != tt.want {
				t.Fatalf("layout = %q, want %q", got, tt.want)
			}
		})
	}
	refused := []struct {
		name, from, to, want string
		is                   error
	}{
		{"no pages in that section", "nothing", "x", `section "nothing" has no pages`, store.ErrNotFound},
		{"no section named", " ", "x", "name the section", ErrInvalid},
		{"new name too long", "s1", strings.Repeat("x", MaxSectionRunes+1), "101 characters", ErrInvalid},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			svc, db := openTest(t)
			seed(t, svc, start...)
			before := snapshot(t, svc, db)
			_, err := svc.RenameSection(context.Background(), tt.from, tt.to)
			wantErr(t, err, tt.want)
			if !errors.Is(err, tt.is) {
				t.Fatalf("error %v does not wrap %v", err, tt.is)
			}
			assertUnchanged(t, before, snapshot(t, svc, db))
		})
	}
}

// order turns titles into ids.
func order(ids map[string]int64, titles string) []int64 {
	var out []int64
	for _, f := range strings.Fields(titles) {
		id, ok := ids[f]
		if !ok {
			id = 900 // an id that is no page
		}
		out = append(out, id)
	}
	return out
}

func TestReorderAppliesTheGivenOrder(t *testing.T) {
	tests := []struct {
		name    string
		page    string
		section string
		order   string
		want    string
	}{
		{"within a section", "b", "s1", "b a c d e f", "b@s1 a@s1 c d@s2 e@s2 f"},
		{"a whole section moves", "d", "s2", "d e a b c f", "d@s2 e@s2 a@s1 b@s1 c f"},
		{"into another section before a tab", "a", "s2", "b c a d e f", "b@s1 c a@s2 d@s2 e@s2 f"},
		{"into another section after a tab", "a", "s2", "b c d e a f", "b@s1 c d@s2 e@s2 a@s2 f"},
		{"ungrouped between sections", "e", "", "a b e c d f", "a@s1 b@s1 e c d@s2 f"},
		{"ungroup at the end", "a", "", "b c d e f a", "b@s1 c d@s2 e@s2 f a"},
		{"into a new section", "c", "新", "a b d e f c", "a@s1 b@s1 d@s2 e@s2 f c@新"},
		{"nothing moves", "a", "s1", "a b c d e f", "a@s1 b@s1 c d@s2 e@s2 f"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, _ := openTest(t)
			ids := seed(t, svc, start...)
			ps, err := svc.Reorder(context.Background(), ids[tt.page], tt.section, order(ids, tt.order))
			if err != nil {
				t.Fatal(err)
			}
			got := layout(t, svc)
			if got != tt.want {
				t.Fatalf("layout = %q, want %q", got, tt.want)
			}
			checkInvariant(t, ps)
			if titles(ps) != tt.order {
				t.Fatalf("returned %q, want %q", titles(ps), tt.order)
			}
		})
	}
}

func TestReorderRefusesABadOrderAndChangesNothing(t *testing.T) {
	tests := []struct {
		name    string
		page    string
		section string
		order   string
		want    []string
		is      error
	}{
		{"a missing id", "a", "s1", "a b c d e", []string{"missing page ids [6]"}, ErrInvalid},
		{"an extra id", "a", "s1", "a b c d e f x", []string{"unknown page ids [900]"}, ErrInvalid},
		{"a duplicated id", "a", "s1", "a b c d e f a", []string{"duplicated page ids [1]"}, ErrInvalid},
		{"a duplicate in place of another", "a", "s1", "a b c d e e", []string{"missing page ids [6]", "duplicated page ids [5]"}, ErrInvalid},
		{"empty order", "a", "s1", "", []string{"missing page ids [1 2 3 4 5 6]"}, ErrInvalid},
		{"splits a section", "c", "", "a c b d e f", []string{`splits section "s1"`}, ErrInvalid},
		{"the moved page splits its new section", "f", "s1", "a b c f d e", []string{`splits section "s1"`}, ErrInvalid},
		{"an ungrouped page lands inside a section", "f", "", "a b c d f e", []string{`splits section "s2"`, "page 4 at position 3", "page 5 at position 5"}, ErrInvalid},
		{"unknown page to move", "x", "s1", "a b c d e f", []string{"note page 900"}, store.ErrNotFound},
		{"section name too long", "a", strings.Repeat("s", 101), "a b c d e f", []string{"101 characters"}, ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, db := openTest(t)
			ids := seed(t, svc, start...)
			before := snapshot(t, svc, db)
			page, ok := ids[tt.page]
			if !ok {
				page = 900
			}
			_, err := svc.Reorder(context.Background(), page, tt.section, order(ids, tt.order))
			wantErr(t, err, tt.want...)
			if !errors.Is(err, tt.is) {
				t.Fatalf("error %v does not wrap %v", err, tt.is)
			}
			assertUnchanged(t, before, snapshot(t, svc, db))
		})
	}
}
