package notes

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"playchat/backend/store"
)

func pinsOf(t *testing.T, svc *Service, session string) []int64 {
	t.Helper()
	ids, err := svc.Pins(context.Background(), session)
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

func TestPinsOfASession(t *testing.T) {
	svc, db := openTest(t)
	ctx := context.Background()
	ids := seed(t, svc, "a@s1", "b", "c@s2")
	s1, _ := db.CreateSession(ctx, "one", "")
	s2, _ := db.CreateSession(ctx, "two", "")

	if got := pinsOf(t, svc, s1.ID); len(got) != 0 {
		t.Fatalf("new session pins = %v", got)
	}
	// Repeats are ignored; the result follows page order, not the argument's.
	if err := svc.SetPins(ctx, s1.ID, []int64{ids["c"], ids["a"], ids["c"]}); err != nil {
		t.Fatal(err)
	}
	if got, want := pinsOf(t, svc, s1.ID), []int64{ids["a"], ids["c"]}; !reflect.DeepEqual(got, want) {
		t.Fatalf("pins = %v, want %v", got, want)
	}
	if got := pinsOf(t, svc, s2.ID); len(got) != 0 {
		t.Fatalf("other session pins = %v", got)
	}
	// Pin is idempotent.
	for range 2 {
		if err := svc.Pin(ctx, s1.ID, ids["b"]); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := pinsOf(t, svc, s1.ID), []int64{ids["a"], ids["b"], ids["c"]}; !reflect.DeepEqual(got, want) {
		t.Fatalf("pins after Pin = %v, want %v", got, want)
	}
	// SetPins replaces the set.
	if err := svc.SetPins(ctx, s1.ID, []int64{ids["b"]}); err != nil {
		t.Fatal(err)
	}
	if got, want := pinsOf(t, svc, s1.ID), []int64{ids["b"]}; !reflect.DeepEqual(got, want) {
		t.Fatalf("pins after SetPins = %v, want %v", got, want)
	}
	if err := svc.Unpin(ctx, s1.ID, ids["b"]); err != nil {
		t.Fatal(err)
	}
	if err := svc.Unpin(ctx, s1.ID, ids["b"]); err != nil {
		t.Fatalf("unpin twice: %v", err)
	}
	if err := svc.SetPins(ctx, s2.ID, []int64{ids["a"]}); err != nil {
		t.Fatal(err)
	}
	if err := svc.SetPins(ctx, s2.ID, nil); err != nil {
		t.Fatal(err)
	}
	if got := pinsOf(t, svc, s2.ID); len(got) != 0 {
		t.Fatalf("pins after SetPins(nil) = %v", got)
	}
}

func TestPinningUnknownPagesOrSessionsChangesNothing(t *testing.T) {
	tests := []struct {
		name string
		op   func(svc *Service, session string, ids map[string]int64) error
		want string
	}{
		{"SetPins with an unknown page", func(svc *Service, s string, ids map[string]int64) error {
			return svc.SetPins(context.Background(), s, []int64{ids["b"], 900, 901})
		}, "unknown note page ids [900 901]"},
		{"SetPins on an unknown session", func(svc *Service, _ string, ids map[string]int64) error {
			return svc.SetPins(context.Background(), "no-such-session", []int64{ids["b"]})
		}, `session "no-such-session"`},
		{"Pin an unknown page", func(svc *Service, s string, _ map[string]int64) error {
			return svc.Pin(context.Background(), s, 900)
		}, "unknown note page ids [900]"},
		{"Pin on an unknown session", func(svc *Service, _ string, ids map[string]int64) error {
			return svc.Pin(context.Background(), "no-such-session", ids["b"])
		}, `session "no-such-session"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			svc, db := openTest(t)
			ids := seed(t, svc, "a", "b")
			s, _ := db.CreateSession(context.Background(), "", "")
			if err := svc.Pin(context.Background(), s.ID, ids["a"]); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, svc, db)
			err := tt.op(svc, s.ID, ids)
			wantErr(t, err, tt.want)
			if !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("error %v does not wrap ErrNotFound", err)
			}
			assertUnchanged(t, before, snapshot(t, svc, db))
		})
	}
}

func TestPinsGoWithTheirPageOrSession(t *testing.T) {
	svc, db := openTest(t)
	ctx := context.Background()
	ids := seed(t, svc, "a", "b")
	s1, _ := db.CreateSession(ctx, "", "")
	s2, _ := db.CreateSession(ctx, "", "")
	for _, s := range []string{s1.ID, s2.ID} {
		if err := svc.SetPins(ctx, s, []int64{ids["a"], ids["b"]}); err != nil {
			t.Fatal(err)
		}
	}
	if err := svc.Delete(ctx, ids["a"]); err != nil {
		t.Fatal(err)
	}
	if got, want := pinsOf(t, svc, s1.ID), []int64{ids["b"]}; !reflect.DeepEqual(got, want) {
		t.Fatalf("pins after deleting page a = %v, want %v", got, want)
	}
	if err := db.DeleteSession(ctx, s1.ID); err != nil {
		t.Fatal(err)
	}
	n, err := db.Bun().NewSelect().Table("session_note_pages").Where("session_id = ?", s1.ID).Count(ctx)
	if err != nil || n != 0 {
		t.Fatalf("pin rows of the deleted session = %d, %v", n, err)
	}
	if got, want := pinsOf(t, svc, s2.ID), []int64{ids["b"]}; !reflect.DeepEqual(got, want) {
		t.Fatalf("other session's pins = %v, want %v", got, want)
	}
}
