package reminders

import (
	"sort"
	"time"
)

// Split is a reminder list shaped for reading: the active reminders in the
// order given (List returns them by due time), the others most recent
// first, and how many of all are unseen (delivered, not yet looked at).
type Split struct {
	Upcoming []Reminder
	Past     []Reminder
	Unseen   int
}

// SplitList shapes rs (from List with All) for the reminders panel and
// anything else that shows them the same way: at most maxPast past
// reminders (0: all), ordered by LastEvent, newest first.
func SplitList(rs []Reminder, maxPast int) Split {
	out := Split{Upcoming: []Reminder{}, Past: []Reminder{}}
	for _, r := range rs {
		if r.Unseen() {
			out.Unseen++
		}
		if r.Active() {
			out.Upcoming = append(out.Upcoming, r)
		} else {
			out.Past = append(out.Past, r)
		}
	}
	sort.SliceStable(out.Past, func(i, j int) bool { return LastEvent(out.Past[i]).After(LastEvent(out.Past[j])) })
	if maxPast > 0 && len(out.Past) > maxPast {
		out.Past = out.Past[:maxPast]
	}
	return out
}

// LastEvent is when a reminder last changed state: cancelled, notified,
// updated, else its due time.
func LastEvent(r Reminder) time.Time {
	switch {
	case r.CancelledAt != nil:
		return *r.CancelledAt
	case r.NotifiedAt != nil:
		return *r.NotifiedAt
	case r.UpdatedAt != nil:
		return *r.UpdatedAt
	}
	return r.DueAt
}
