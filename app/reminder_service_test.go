package app

import (
	"context"
	"slices"
	"testing"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/reminders"
)

func TestReminderServiceCreatesEditsSnoozesAndCancelsByHand(t *testing.T) {
	a, p := newTestApp(t)
	c, _ := a.backend()
	c.Reminders.OnChange(func() { p.Emit(EventRemindersChanged, nil) })
	s := &ReminderService{a}
	due := time.Now().In(c.Reminders.Zone()).Add(2 * time.Hour).Format("2006-01-02T15:04")
	r, err := s.Create(ReminderInput{Content: "燃えるゴミ", Due: due, Repeat: "FREQ=WEEKLY", SessionID: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	if r.ID == 0 || r.State != "pending" || r.Repeat != "FREQ=WEEKLY" || r.SessionID != "s1" || r.DueAt == "" {
		t.Errorf("created %+v", r)
	}
	if !slices.Contains(p.events, EventRemindersChanged) {
		t.Errorf("no %s event: %v", EventRemindersChanged, p.events)
	}
	if _, err := s.Create(ReminderInput{Content: "x", Due: "2001-01-01T09:00"}); apperr.CodeOf(err) != apperr.ReminderDuePast {
		t.Errorf("past due: %v", err)
	}
	if _, err := s.Create(ReminderInput{Content: " ", Due: due}); apperr.CodeOf(err) != apperr.ReminderContentEmpty {
		t.Errorf("empty: %v", err)
	}
	e, err := s.Edit(r.ID, ReminderInput{Content: "資源ゴミ", Due: due})
	if err != nil || e.Content != "資源ゴミ" || e.Repeat != "" {
		t.Errorf("edited %+v, %v", e, err)
	}
	if _, err := s.Snooze(r.ID, 0); apperr.CodeOf(err) != apperr.ReminderSnoozeRange {
		t.Errorf("snooze 0: %v", err)
	}
	sn, err := s.Snooze(r.ID, 15)
	if err != nil || sn.State != "snoozed" {
		t.Errorf("snoozed %+v, %v", sn, err)
	}
	l, err := s.List()
	if err != nil || len(l.Upcoming) != 1 || len(l.Past) != 0 || l.Zone == "" {
		t.Fatalf("list %+v, %v", l, err)
	}
	if _, err := s.Cancel(r.ID); err != nil {
		t.Fatal(err)
	}
	l, _ = s.List()
	if len(l.Upcoming) != 0 || len(l.Past) != 1 || l.Past[0].State != "cancelled" || l.Past[0].CancelledAt == "" {
		t.Errorf("after cancel %+v", l)
	}
	if _, err := s.Snooze(r.ID, 10); apperr.CodeOf(err) != apperr.ReminderNotActive {
		t.Errorf("snooze cancelled: %v", err)
	}
}

func TestReminderListCountsUnseenDeliveriesUntilMarkedSeen(t *testing.T) {
	a, _ := newTestApp(t)
	c, _ := a.backend()
	ctx := context.Background()
	s := &ReminderService{a}
	r, err := c.Reminders.Create(ctx, reminders.NewReminder{Content: "tea", Due: time.Now().In(c.Reminders.Zone()).Add(time.Hour).Format("2006-01-02T15:04:05")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Reminders.MarkDeliveredNote(ctx, r.ID, r.DueAt, true, reminders.NoteNoService); err != nil {
		t.Fatal(err)
	}
	l, _ := s.List()
	if l.Unseen != 1 || len(l.Past) != 1 || !l.Past[0].Unseen || l.Past[0].Note != reminders.NoteNoService || !l.Past[0].Late {
		t.Fatalf("list %+v", l)
	}
	if n, err := s.MarkSeen(); err != nil || n != 1 {
		t.Fatalf("MarkSeen = %d, %v", n, err)
	}
	if l, _ = s.List(); l.Unseen != 0 || l.Past[0].Unseen {
		t.Errorf("after MarkSeen %+v", l)
	}
}
