package reminders

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"playchat/backend/apperr"
	"playchat/backend/layer"
	"playchat/backend/store"
	"playchat/backend/tools"
)

// newTestService opens a migrated database in t.TempDir() and a service in
// zone at the fake time now.
func newTestService(t *testing.T, zone, now string) (*Service, *clockwork.FakeClock) {
	t.Helper()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	clock := clockwork.NewFakeClockAt(utc(now))
	return New(Options{DB: db, Clock: clock, Zone: mustZone(t, zone)}), clock
}

func runTool(t *testing.T, svc *Service, name, args string) (string, error) {
	t.Helper()
	for _, tl := range Tools(svc) {
		if tl.Name == name {
			res, err := tl.Run(context.Background(), tools.Call{SessionID: "s1", Args: json.RawMessage(args)})
			return res.Content, err
		}
	}
	t.Fatalf("no tool %s", name)
	return "", nil
}

func TestCreateReminderKeepsSecondsOfARelativeTimeInTokyo(t *testing.T) {
	// 10:00:45 JST; 「1分後」 is 10:01:45.
	svc, _ := newTestService(t, "Asia/Tokyo", "2026-12-01T01:00:45Z")
	out, err := runTool(t, svc, CreateReminderTool, `{"content":"お茶","due":"2026-12-01T10:01:45"}`)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "2026-12-01 10:01:45") {
		t.Errorf("result %q does not name 10:01:45", out)
	}
	rs, err := svc.List(context.Background(), ListOptions{})
	if err != nil || len(rs) != 1 {
		t.Fatalf("list = %v, %v", rs, err)
	}
	r := rs[0]
	if !r.DueAt.Equal(utc("2026-12-01T01:01:45Z")) || r.Zone != "Asia/Tokyo" || r.SessionID != "s1" ||
		r.Origin != OriginDesktop || r.State != StatePending {
		t.Errorf("stored %+v", r)
	}
}

func TestPastTooFarAndUnreadableDueTimesGoBackToTheModel(t *testing.T) {
	svc, _ := newTestService(t, "Europe/Berlin", "2026-12-01T08:00:00Z") // 09:00 CET
	cases := map[string]apperr.Code{
		`{"content":"x","due":"2026-12-01T08:59:59"}`:                       apperr.ReminderDuePast,
		`{"content":"x","due":"2026-12-01T09:00:00"}`:                       apperr.ReminderDuePast, // now is not the future
		`{"content":"x","due":"2027-12-02T09:00"}`:                          apperr.ReminderDueTooFar,
		`{"content":"x","due":"next tuesday"}`:                              apperr.ReminderDueUnparsable,
		`{"content":"  ","due":"2026-12-02T09:00"}`:                         apperr.ReminderContentEmpty,
		`{"content":"x","due":"2026-12-02T09:00","repeat":"FREQ=MINUTELY"}`: apperr.ReminderBadRepeat,
	}
	for args, code := range cases {
		out, err := runTool(t, svc, CreateReminderTool, args)
		if apperr.CodeOf(err) != code {
			t.Errorf("%s: out %q err %v, want code %s", args, out, err, code)
		}
	}
	_, err := runTool(t, svc, CreateReminderTool, `{"content":"x","due":"2027-12-02T09:00"}`)
	if err == nil || !strings.Contains(err.Error(), "365 days") {
		t.Errorf("too-far error %v does not name the 365-day limit", err)
	}
	rs, _ := svc.List(context.Background(), ListOptions{All: true})
	if len(rs) != 0 {
		t.Errorf("refused reminders were stored: %v", rs)
	}
	// A due time exactly 1 second ahead is fine.
	if _, err := runTool(t, svc, CreateReminderTool, `{"content":"x","due":"2026-12-01T09:00:01"}`); err != nil {
		t.Errorf("1 s ahead refused: %v", err)
	}
}

func TestMaxAheadDaysIsReadPerCall(t *testing.T) {
	svc, _ := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	days := 10
	svc.maxAhead = func() int { return days }
	if _, err := svc.Create(context.Background(), NewReminder{Content: "x", Due: "2026-12-12T09:00"}); apperr.CodeOf(err) != apperr.ReminderDueTooFar {
		t.Fatalf("11 days ahead with a 10-day limit: %v", err)
	}
	days = 30
	if _, err := svc.Create(context.Background(), NewReminder{Content: "x", Due: "2026-12-12T09:00"}); err != nil {
		t.Fatalf("11 days ahead with a 30-day limit: %v", err)
	}
}

func TestListAndCancelThroughTheTools(t *testing.T) {
	svc, _ := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	if _, err := runTool(t, svc, CreateReminderTool, `{"content":"燃えるゴミ","due":"2026-12-02T09:00","repeat":"FREQ=WEEKLY;BYDAY=WE"}`); err != nil {
		t.Fatal(err)
	}
	out, err := runTool(t, svc, ListRemindersTool, `{}`)
	if err != nil || !strings.Contains(out, "[id 1] 2026-12-02 09:00:00 (Wed, Asia/Tokyo) · repeats FREQ=WEEKLY;BYDAY=WE · pending — 燃えるゴミ") {
		t.Fatalf("list = %q, %v", out, err)
	}
	if _, err := runTool(t, svc, CancelReminderTool, `{"id":1}`); err != nil {
		t.Fatal(err)
	}
	if out, _ := runTool(t, svc, ListRemindersTool, `{}`); out != "No pending reminders." {
		t.Errorf("after cancel list = %q", out)
	}
	if _, err := runTool(t, svc, CancelReminderTool, `{"id":1}`); apperr.CodeOf(err) != apperr.ReminderNotActive {
		t.Errorf("second cancel: %v", err)
	}
	if _, err := runTool(t, svc, CancelReminderTool, `{"id":9}`); apperr.CodeOf(err) != apperr.ReminderNotFound {
		t.Errorf("cancel of unknown id: %v", err)
	}
}

func TestDeliveryOfADailyReminderMovesToTheNextLocalNineOClock(t *testing.T) {
	// Berlin, the day before the October change: 09:00 CEST = 07:00Z.
	svc, clock := newTestService(t, "Europe/Berlin", "2026-10-24T06:00:00Z")
	ctx := context.Background()
	r, err := svc.Create(ctx, NewReminder{Content: "x", Due: "2026-10-24T09:00", Repeat: "FREQ=DAILY"})
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Hour)
	due, err := svc.Due(ctx, clock.Now())
	if err != nil || len(due) != 1 || due[0].ID != r.ID {
		t.Fatalf("due = %v, %v", due, err)
	}
	got, err := svc.MarkDelivered(ctx, r.ID, due[0].DueAt, false)
	if err != nil {
		t.Fatal(err)
	}
	// Next day is in CET: 09:00 CET = 08:00Z.
	if !got.DueAt.Equal(utc("2026-10-25T08:00:00Z")) || got.State != StatePending || got.NotifiedAt == nil {
		t.Errorf("after delivery %+v", got)
	}
	// A stale delivery (the old due time) is refused.
	if _, err := svc.MarkDelivered(ctx, r.ID, due[0].DueAt, false); err == nil {
		t.Error("delivering the same occurrence twice was accepted")
	}
}

func TestSnoozeFailAndOneTimeDelivery(t *testing.T) {
	svc, clock := newTestService(t, "America/New_York", "2026-12-01T14:00:00Z")
	ctx := context.Background()
	a, _ := svc.Create(ctx, NewReminder{Content: "a", Due: "2026-12-01T09:30"})
	b, _ := svc.Create(ctx, NewReminder{Content: "b", Due: "2026-12-01T09:30"})
	clock.Advance(30 * time.Minute)
	s, err := svc.Snooze(ctx, a.ID, 10*time.Minute)
	if err != nil || s.State != StateSnoozed || !s.DueAt.Equal(utc("2026-12-01T14:40:00Z")) {
		t.Fatalf("snooze = %+v, %v", s, err)
	}
	d, err := svc.MarkDelivered(ctx, s.ID, s.DueAt, false)
	if err != nil || d.State != StateDelivered {
		t.Errorf("delivered snoozed = %+v, %v", d, err)
	}
	f, err := svc.MarkFailed(ctx, b.ID, b.DueAt, errors.New("no notification service"))
	if err != nil || f.State != StateFailed || f.Error != "no notification service" {
		t.Errorf("failed = %+v, %v", f, err)
	}
	if _, ok, _ := svc.NextDue(ctx); ok {
		t.Error("NextDue found an active reminder after all were delivered or failed")
	}
}

func TestClockLayerStatesLocalDateWeekdayTimeAndZone(t *testing.T) {
	svc, _ := newTestService(t, "Asia/Tokyo", "2026-12-01T01:00:45Z")
	blocks, err := ClockLayer(svc).Build(context.Background(), layer.Query{})
	if err != nil || len(blocks) != 1 {
		t.Fatalf("blocks = %v, %v", blocks, err)
	}
	want := "It is now Tuesday 2026-12-01 10:00:45 (Asia/Tokyo, UTC+09:00)"
	if !strings.Contains(blocks[0].Text, want) || blocks[0].Truncatable {
		t.Errorf("clock block %q lacks %q", blocks[0].Text, want)
	}
}

func TestSnoozeAfterDeliveryReopensTheReminderButNotACancelledOne(t *testing.T) {
	svc, clock := newTestService(t, "Asia/Tokyo", "2026-12-01T00:00:00Z")
	ctx := context.Background()
	r, _ := svc.Create(ctx, NewReminder{Content: "x", Due: "2026-12-01T09:00:05"})
	clock.Advance(5 * time.Second)
	if _, err := svc.MarkDelivered(ctx, r.ID, r.DueAt, false); err != nil {
		t.Fatal(err)
	}
	s, err := svc.Snooze(ctx, r.ID, 10*time.Minute)
	if err != nil || s.State != StateSnoozed || !s.DueAt.Equal(utc("2026-12-01T00:10:05Z")) {
		t.Fatalf("snooze after delivery = %+v, %v", s, err)
	}
	if _, err := svc.Cancel(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Snooze(ctx, r.ID, time.Minute); apperr.CodeOf(err) != apperr.ReminderNotActive {
		t.Errorf("snooze of a cancelled reminder: %v", err)
	}
}
