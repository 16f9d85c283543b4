package reminders

import (
	"context"
	"errors"
	"testing"
	"time"

	"playchat/backend/apperr"
)

func TestDoneEndsASnoozedOneTimeReminderAndMarksItSeen(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	r, err := svc.Create(ctx, NewReminder{Content: "薬", Due: "2026-12-01T10:00"})
	if err != nil {
		t.Fatal(err)
	}
	// It fires at 10:00 Tokyo (01:00Z) and the person snoozes the notification.
	clock.Advance(time.Hour)
	if _, err := svc.MarkDelivered(ctx, r.ID, r.DueAt, false); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Snooze(ctx, r.ID, SnoozeDefault); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	got, err := svc.Done(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != StateDelivered || got.SeenAt == nil || got.NotifiedAt == nil || got.Unseen() {
		t.Errorf("after Done: %+v", got)
	}
	if active, _ := svc.List(ctx, ListOptions{}); len(active) != 0 {
		t.Errorf("still active: %+v", active)
	}
}

// Done on a reminder that has not fired yet (from the panel) ends it without
// inventing a delivery: it is cancelled, not "delivered" at a time nothing
// was shown.
func TestDoneBeforeAReminderFiredCancelsItWithoutADelivery(t *testing.T) {
	svc, _ := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	r, err := svc.Create(ctx, NewReminder{Content: "燃えるゴミ", Due: "2026-12-01T10:00"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := svc.Done(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != StateCancelled || got.NotifiedAt != nil || got.CancelledAt == nil {
		t.Errorf("done before it fired: %+v", got)
	}
}

func TestDoneKeepsTheNextOccurrenceOfARepeatingReminder(t *testing.T) {
	svc, _ := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	r, err := svc.Create(ctx, NewReminder{Content: "日報", Due: "2026-12-01T18:00", Repeat: "FREQ=DAILY"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := svc.Done(ctx, r.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != StatePending || !got.DueAt.Equal(r.DueAt) || got.SeenAt == nil {
		t.Errorf("after Done: %+v", got)
	}
	if _, err := svc.Cancel(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Done(ctx, r.ID); apperr.CodeOf(err) != apperr.ReminderNotActive {
		t.Errorf("Done on a cancelled reminder: %v", err)
	}
}

func TestMarkSeenClearsTheBadgeUntilTheNextDelivery(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	a, _ := svc.Create(ctx, NewReminder{Content: "a", Due: "2026-12-01T09:00:01"})
	b, _ := svc.Create(ctx, NewReminder{Content: "b", Due: "2026-12-01T09:00:02"})
	clock.Advance(3 * time.Second)
	if _, err := svc.MarkDeliveredNote(ctx, a.ID, a.DueAt, false, NoteNoService); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.MarkFailed(ctx, b.ID, b.DueAt, errors.New("boom")); err != nil {
		t.Fatal(err)
	}
	unseen := func() int {
		rs, _ := svc.List(ctx, ListOptions{All: true})
		n := 0
		for _, r := range rs {
			if r.Unseen() {
				n++
			}
		}
		return n
	}
	if n := unseen(); n != 2 {
		t.Fatalf("unseen = %d, want 2", n)
	}
	got, _ := svc.Get(ctx, a.ID)
	if got.Note != NoteNoService || got.State != StateDelivered {
		t.Errorf("delivered in part: %+v", got)
	}
	clock.Advance(time.Second)
	if n, err := svc.MarkSeen(ctx); err != nil || n != 2 {
		t.Fatalf("MarkSeen = %d, %v", n, err)
	}
	if n := unseen(); n != 0 {
		t.Errorf("unseen after MarkSeen = %d", n)
	}
	if n, _ := svc.MarkSeen(ctx); n != 0 {
		t.Errorf("second MarkSeen changed %d", n)
	}
}

func TestEditReschedulesAndValidatesLikeCreate(t *testing.T) {
	svc, clock := newTestService(t, "Europe/Berlin", "2026-12-01T08:00:00Z") // 09:00 CET
	ctx := context.Background()
	r, err := svc.Create(ctx, NewReminder{Content: "x", Due: "2026-12-01T10:00"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := svc.Edit(ctx, r.ID, EditReminder{Content: " y ", Due: "2026-12-02T07:30", Repeat: "FREQ=WEEKLY"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Content != "y" || !got.DueAt.Equal(utc("2026-12-02T06:30:00Z")) || got.Repeat() != "FREQ=WEEKLY" || got.State != StatePending {
		t.Errorf("edited %+v", got)
	}
	for e, code := range map[EditReminder]apperr.Code{
		{Content: "", Due: "2026-12-02T07:30"}:  apperr.ReminderContentEmpty,
		{Content: "y", Due: "2026-12-01T08:00"}: apperr.ReminderDuePast,
		{Content: "y", Due: "tomorrow"}:         apperr.ReminderDueUnparsable,
	} {
		if _, err := svc.Edit(ctx, r.ID, e); apperr.CodeOf(err) != code {
			t.Errorf("%+v: %v, want %s", e, err, code)
		}
	}
	// A delivered reminder is re-opened by an edit.
	clock.Advance(23 * time.Hour)
	if _, err := svc.MarkDelivered(ctx, r.ID, got.DueAt, false); err != nil {
		t.Fatal(err)
	}
	again, err := svc.Edit(ctx, r.ID, EditReminder{Content: "z", Due: "2026-12-03T09:00"})
	if err != nil || again.State != StatePending || again.RRule != "" {
		t.Errorf("re-opened %+v, %v", again, err)
	}
}

func TestSnoozeByHandIsOneMinuteToAWeek(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	r, _ := svc.Create(ctx, NewReminder{Content: "x", Due: "2026-12-01T10:00"})
	for _, m := range []int{0, -5, MaxSnoozeMinutes + 1} {
		if _, err := svc.SnoozeMinutes(ctx, r.ID, m); apperr.CodeOf(err) != apperr.ReminderSnoozeRange {
			t.Errorf("snooze %d: %v", m, err)
		}
	}
	// Not fired yet and due in an hour: a snooze moves it 30 minutes after
	// its due time, never earlier (snoozing from now would bring it forward).
	got, err := svc.SnoozeMinutes(ctx, r.ID, 30)
	if err != nil || got.State != StateSnoozed || !got.DueAt.Equal(r.DueAt.Add(30*time.Minute)) {
		t.Errorf("snoozed before it fired: %+v, %v", got, err)
	}
	// Once it has fired, a snooze counts from now.
	clock.Advance(2 * time.Hour)
	if _, err := svc.MarkDelivered(ctx, r.ID, got.DueAt, false); err != nil {
		t.Fatal(err)
	}
	got, err = svc.SnoozeMinutes(ctx, r.ID, 30)
	if err != nil || got.State != StateSnoozed || !got.DueAt.Equal(clock.Now().Add(30*time.Minute)) {
		t.Errorf("snoozed after it fired: %+v, %v", got, err)
	}
}

func TestSchedulerStoresTheNoteOfADeliveryInPart(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:59:59Z")
	ctx := context.Background()
	r, _ := svc.Create(ctx, NewReminder{Content: "x", Due: "2026-12-01T10:00:00"})
	rec := NewRecordingNotifier()
	rec.Err = &Degraded{Note: NoteNoService, Err: errors.New("ServiceUnknown")}
	s := startScheduler(t, svc, rec)
	waitFor(t, "the reminder to be armed", func() bool { _, ok := s.armedDue(r.ID); return ok })
	if err := clock.BlockUntilContext(ctx, 2); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Second)
	waitFor(t, "the delivery to be stored", func() bool {
		got, _ := svc.Get(ctx, r.ID)
		return got.State != StatePending
	})
	got, _ := svc.Get(ctx, r.ID)
	if got.State != StateDelivered || got.Note != NoteNoService || got.Error != "" {
		t.Errorf("stored %+v", got)
	}
}
