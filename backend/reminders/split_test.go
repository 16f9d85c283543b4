package reminders

import (
	"testing"
	"time"
)

func TestSplitListPutsActiveFirstAndThePastNewestFirst(t *testing.T) {
	at := func(h int) *time.Time { v := time.Date(2026, 12, 1, h, 0, 0, 0, time.UTC); return &v }
	rs := []Reminder{
		{ID: 1, State: StatePending, DueAt: *at(20)},
		{ID: 2, State: StateDelivered, DueAt: *at(8), NotifiedAt: at(8)},
		{ID: 3, State: StateCancelled, DueAt: *at(23), CancelledAt: at(9)},
		{ID: 4, State: StateSnoozed, DueAt: *at(21)},
		{ID: 5, State: StateFailed, DueAt: *at(7), UpdatedAt: at(10)},
	}
	got := SplitList(rs, 2)
	ids := func(rs []Reminder) (out []int64) {
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}
	if u := ids(got.Upcoming); len(u) != 2 || u[0] != 1 || u[1] != 4 {
		t.Errorf("upcoming = %v, want [1 4] (the order given)", u)
	}
	// Past by last event: failed at 10, cancelled at 9, delivered at 8 — capped at 2.
	if p := ids(got.Past); len(p) != 2 || p[0] != 5 || p[1] != 3 {
		t.Errorf("past = %v, want [5 3]", p)
	}
	if all := SplitList(rs, 0); len(all.Past) != 3 {
		t.Errorf("maxPast 0 kept %d past reminders, want all 3", len(all.Past))
	}
	if e := SplitList(nil, 5); e.Upcoming == nil || e.Past == nil {
		t.Error("an empty list gives nil slices (the window wants [])")
	}
}
