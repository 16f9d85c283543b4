package reminders

import (
	"context"
	"testing"
	"time"
	_ "time/tzdata" // zones load without a system tz database

	"playchat/backend/apperr"
)

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	loc, err := LoadZone(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

func utc(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

func TestResolveLocalMovesGapTimesForwardAndTakesTheFirstOfAnOverlap(t *testing.T) {
	cases := []struct {
		zone string
		wall string // local wall time
		want string // UTC
	}{
		// Europe/Berlin: 2026-03-29 02:00 CET → 03:00 CEST; 2026-10-25 03:00 CEST → 02:00 CET.
		{"Europe/Berlin", "2026-03-29T02:30:00", "2026-03-29T01:30:00Z"}, // gap: 03:30 CEST
		{"Europe/Berlin", "2026-03-29T01:59:59", "2026-03-29T00:59:59Z"},
		{"Europe/Berlin", "2026-03-29T03:00:00", "2026-03-29T01:00:00Z"},
		{"Europe/Berlin", "2026-10-25T02:30:00", "2026-10-25T00:30:00Z"}, // overlap: first (CEST)
		{"Europe/Berlin", "2026-10-25T03:00:00", "2026-10-25T02:00:00Z"},
		// America/New_York: 2026-03-08 02:00 EST → 03:00 EDT; 2026-11-01 02:00 EDT → 01:00 EST.
		{"America/New_York", "2026-03-08T02:30:00", "2026-03-08T07:30:00Z"}, // gap: 03:30 EDT
		{"America/New_York", "2026-11-01T01:30:00", "2026-11-01T05:30:00Z"}, // overlap: first (EDT)
		{"America/New_York", "2026-11-01T02:30:00", "2026-11-01T07:30:00Z"},
		// Asia/Tokyo has no DST.
		{"Asia/Tokyo", "2026-12-01T09:00:00", "2026-12-01T00:00:00Z"},
	}
	for _, c := range cases {
		loc := mustZone(t, c.zone)
		w, _ := time.Parse("2006-01-02T15:04:05", c.wall)
		got := ResolveLocal(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), 0, loc)
		if !got.Equal(utc(c.want)) {
			t.Errorf("%s %s = %s, want %s", c.zone, c.wall, got.UTC().Format(time.RFC3339), c.want)
		}
	}
}

func TestParseDueKeepsSecondsAndReadsOffsets(t *testing.T) {
	tokyo := mustZone(t, "Asia/Tokyo")
	cases := map[string]string{
		"2026-12-01T09:00":          "2026-12-01T00:00:00Z",
		"2026-12-01T10:01:45":       "2026-12-01T01:01:45Z", // 「1分後」 at 10:00:45
		"2026-12-01 10:01:45":       "2026-12-01T01:01:45Z",
		"2026-12-01T09:00+09:00":    "2026-12-01T00:00:00Z",
		"2026-12-01T09:00:30+01:00": "2026-12-01T08:00:30Z",
		"2026-12-01T00:00:05Z":      "2026-12-01T00:00:05Z",
	}
	for in, want := range cases {
		got, err := ParseDue(in, tokyo)
		if err != nil || !got.Equal(utc(want)) {
			t.Errorf("ParseDue(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "tomorrow 9am", "2026-13-01T09:00", "2026-12-01", "09:00"} {
		if _, err := ParseDue(bad, tokyo); apperr.CodeOf(err) != apperr.ReminderDueUnparsable {
			t.Errorf("ParseDue(%q) err = %v, want %s", bad, err, apperr.ReminderDueUnparsable)
		}
	}
}

// occurrences lists the first n occurrences from the rule's start.
func occurrences(r *Rule, from time.Time, n int) []string {
	var out []string
	t := r.NextAt(from, true)
	for i := 0; i < n && !t.IsZero(); i++ {
		out = append(out, t.UTC().Format(time.RFC3339))
		t = r.NextAt(t, false)
	}
	return out
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestDailyRuleKeepsLocalWallTimeAcrossTheAutumnChange(t *testing.T) {
	berlin := mustZone(t, "Europe/Berlin")
	start := ResolveLocal(2026, 10, 24, 21, 0, 0, 0, berlin) // 21:00 CEST = 19:00Z
	r, err := NewRule("FREQ=DAILY", start, berlin)
	if err != nil {
		t.Fatal(err)
	}
	got := occurrences(r, start, 3)
	want := []string{"2026-10-24T19:00:00Z", "2026-10-25T20:00:00Z", "2026-10-26T20:00:00Z"}
	if !equalStrings(got, want) {
		t.Errorf("daily 21:00 Berlin = %v, want %v", got, want)
	}
}

func TestDailyRuleAcrossSpringGapAndOverlapInNewYork(t *testing.T) {
	ny := mustZone(t, "America/New_York")
	// Daily at 02:30: on 2026-03-08 02:30 does not exist → 03:30 EDT (07:30Z).
	start := ResolveLocal(2026, 3, 7, 2, 30, 0, 0, ny)
	r, err := NewRule("RRULE:FREQ=DAILY", start, ny)
	if err != nil {
		t.Fatal(err)
	}
	got := occurrences(r, start, 3)
	want := []string{"2026-03-07T07:30:00Z", "2026-03-08T07:30:00Z", "2026-03-09T06:30:00Z"}
	if !equalStrings(got, want) {
		t.Errorf("daily 02:30 NY across the gap = %v, want %v", got, want)
	}
	// Daily at 01:30 across the overlap: the first 01:30 (EDT) fires, once.
	start = ResolveLocal(2026, 10, 31, 1, 30, 0, 0, ny)
	if r, err = NewRule("FREQ=DAILY", start, ny); err != nil {
		t.Fatal(err)
	}
	got = occurrences(r, start, 3)
	want = []string{"2026-10-31T05:30:00Z", "2026-11-01T05:30:00Z", "2026-11-02T06:30:00Z"}
	if !equalStrings(got, want) {
		t.Errorf("daily 01:30 NY across the overlap = %v, want %v", got, want)
	}
}

func TestWeeklyRuleStoredAndReadBackGivesTheSameOccurrences(t *testing.T) {
	tokyo := mustZone(t, "Asia/Tokyo")
	start := ResolveLocal(2026, 12, 1, 9, 0, 0, 0, tokyo) // a Tuesday
	r, err := NewRule("freq=weekly;byday=MO,FR;count=3", start, tokyo)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseStoredRule(r.Stored())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"2026-12-04T00:00:00Z", "2026-12-07T00:00:00Z", "2026-12-11T00:00:00Z"}
	for _, rule := range []*Rule{r, back} {
		if got := occurrences(rule, start, 5); !equalStrings(got, want) {
			t.Errorf("weekly MO,FR ×3 from Tue 09:00 Tokyo = %v, want %v (stored %q)", got, want, r.Stored())
		}
	}
}

func TestBadRulesAreRefusedWithACode(t *testing.T) {
	tokyo := mustZone(t, "Asia/Tokyo")
	start := ResolveLocal(2026, 12, 1, 9, 0, 0, 0, tokyo)
	for _, bad := range []string{"", "FREQ=SOMETIMES", "FREQ=MINUTELY", "DTSTART:20261201T090000\nRRULE:FREQ=DAILY",
		"FREQ=DAILY;UNTIL=20261130T000000Z"} {
		if _, err := NewRule(bad, start, tokyo); apperr.CodeOf(err) != apperr.ReminderBadRepeat {
			t.Errorf("NewRule(%q) err = %v, want %s", bad, err, apperr.ReminderBadRepeat)
		}
	}
}

func TestLocalZoneReadsTZ(t *testing.T) {
	t.Setenv("TZ", "Asia/Tokyo")
	if got := LocalZone().String(); got != "Asia/Tokyo" {
		t.Errorf("LocalZone with TZ=Asia/Tokyo = %s", got)
	}
	t.Setenv("TZ", ":America/New_York")
	if got := LocalZone().String(); got != "America/New_York" {
		t.Errorf("LocalZone with TZ=:America/New_York = %s", got)
	}
}

// Issue 22: a daily reminder first due in a spring-forward gap (New York,
// 2027-03-14 02:30) repeated at 03:30 for ever: the rule was anchored at
// the moved instant, not the wall time the person chose. It fires at 03:30
// that day only and at 02:30 after — daily and weekly, created through the
// service and read back from what it stored, and moved on after a delivery.
func TestARepeatFirstDueInASpringGapKeepsTheChosenWallTime(t *testing.T) {
	for _, tc := range []struct {
		repeat string
		want   []string
	}{
		{"FREQ=DAILY", []string{"2027-03-14T07:30:00Z", "2027-03-15T06:30:00Z", "2027-03-16T06:30:00Z"}},
		{"FREQ=WEEKLY", []string{"2027-03-14T07:30:00Z", "2027-03-21T06:30:00Z", "2027-03-28T06:30:00Z"}},
	} {
		svc, clock := newTestService(t, "America/New_York", "2027-03-13T12:00:00Z")
		ctx := context.Background()
		r, err := svc.Create(ctx, NewReminder{Content: "gap", Due: "2027-03-14T02:30", Repeat: tc.repeat})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for range 3 {
			got = append(got, r.DueAt.UTC().Format(time.RFC3339))
			clock.Advance(r.DueAt.Sub(clock.Now()) + time.Second)
			if r, err = svc.MarkDelivered(ctx, r.ID, r.DueAt, false); err != nil {
				t.Fatal(err)
			}
		}
		if !equalStrings(got, tc.want) {
			t.Errorf("%s at 02:30 from the gap day = %v, want %v (stored %q)", tc.repeat, got, tc.want, r.RRule)
		}
		rule, err := ParseStoredRule(r.RRule)
		if err != nil {
			t.Fatal(err)
		}
		if next := rule.NextAt(utc("2027-04-01T00:00:00Z"), false); next.In(mustZone(t, "America/New_York")).Format("15:04") != "02:30" {
			t.Errorf("%s read back fires at %s, want 02:30", tc.repeat, next.In(mustZone(t, "America/New_York")).Format("15:04"))
		}
	}
}
