package reminders

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/teambition/rrule-go"

	"playchat/backend/apperr"
)

// ResolveLocal returns the instant at which the wall clock of loc shows the
// given date and time. It is the one policy for local times that a zone
// change makes ambiguous (Go's time.Date leaves that choice unspecified, and
// in practice it differs between zones east and west of UTC):
//
//   - a time in the spring gap (it never shows) moves forward by the gap:
//     02:30 on the day Europe/Berlin or America/New_York springs forward is
//     03:30 summer time;
//   - a time in the autumn overlap (it shows twice) is its first
//     occurrence, still in summer time: 02:30 on the day Europe/Berlin falls
//     back is 00:30Z, 01:30 in New York is 05:30Z.
//
// It assumes at most one offset change within 12 hours, true of every zone.
func ResolveLocal(year int, month time.Month, day, hour, min, sec, nsec int, loc *time.Location) time.Time {
	naive := time.Date(year, month, day, hour, min, sec, nsec, time.UTC)
	_, before := naive.Add(-12 * time.Hour).In(loc).Zone()
	_, after := naive.Add(12 * time.Hour).In(loc).Zone()
	var best time.Time
	for _, off := range []int{before, after} {
		t := naive.Add(-time.Duration(off) * time.Second)
		if sameWall(t.In(loc), naive) && (best.IsZero() || t.Before(best)) {
			best = t
		}
	}
	if !best.IsZero() {
		return best
	}
	// The gap: read the wall time with the offset in force before it, which
	// lands as far past the gap's end as the time was past its start.
	return naive.Add(-time.Duration(before) * time.Second)
}

func sameWall(t, naive time.Time) bool {
	y, m, d := t.Date()
	ny, nm, nd := naive.Date()
	return y == ny && m == nm && d == nd && t.Hour() == naive.Hour() && t.Minute() == naive.Minute() &&
		t.Second() == naive.Second() && t.Nanosecond() == naive.Nanosecond()
}

// floating returns t's wall clock in loc as a time in UTC ("floating" local
// time, RFC 5545 §3.3.5), the form repeat rules are expanded in.
func floating(t time.Time, loc *time.Location) time.Time {
	l := t.In(loc)
	return time.Date(l.Year(), l.Month(), l.Day(), l.Hour(), l.Minute(), l.Second(), l.Nanosecond(), time.UTC)
}

// fromFloating resolves a floating time in loc by ResolveLocal's policy.
func fromFloating(f time.Time, loc *time.Location) time.Time {
	return ResolveLocal(f.Year(), f.Month(), f.Day(), f.Hour(), f.Minute(), f.Second(), f.Nanosecond(), loc)
}

// dueLayouts are the accepted forms of a due time without an offset.
var dueLayouts = []string{"2006-01-02T15:04:05.999999999", "2006-01-02T15:04"}

// ParseDue reads a due time as the model or a person writes it:
// "2026-12-01T09:00" or "2026-12-01T09:00:30" (a space may replace the T),
// local to loc and resolved by ResolveLocal; or the same with an offset or
// Z ("2026-12-01T09:00:30+09:00"), an absolute instant. Seconds (and any
// fraction) are kept. The result is in UTC. An unreadable text is an
// *apperr.Error of code ReminderDueUnparsable.
func ParseDue(s string, loc *time.Location) (time.Time, error) {
	at, _, err := ParseDueWall(s, loc)
	return at, err
}

// ParseDueWall is ParseDue, also returning the wall-clock time the text
// names as a floating time (RFC 5545 §3.3.5: its fields in UTC): what a
// repeat rule is anchored at. For a time in a spring gap the two differ —
// 02:30 on the day New York springs forward is at 03:30 EDT, but a daily
// reminder set then repeats at 02:30 (issue 22). For a text with an offset
// the wall time is the instant's in loc.
func ParseDueWall(s string, loc *time.Location) (at, wall time.Time, err error) {
	text := strings.TrimSpace(s)
	norm := text
	if len(norm) > 10 && norm[10] == ' ' {
		norm = norm[:10] + "T" + norm[11:]
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04Z07:00"} {
		if t, err := time.Parse(layout, norm); err == nil {
			return t.UTC(), floating(t, loc), nil
		}
	}
	for _, layout := range dueLayouts {
		if t, err := time.Parse(layout, norm); err == nil {
			return ResolveLocal(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), loc).UTC(), t, nil
		}
	}
	return time.Time{}, time.Time{}, apperr.New(apperr.ReminderDueUnparsable, map[string]any{"due": text})
}

// Rule is a parsed repeat rule: an RFC 5545 RRULE anchored at a local
// DTSTART in a zone, expanded in floating local time so each occurrence
// keeps its wall-clock time across DST changes (a daily 21:00 in
// Europe/Berlin is 19:00Z in summer and 20:00Z in winter). Occurrences
// that fall into a gap or an overlap follow ResolveLocal.
type Rule struct {
	rule *rrule.RRule
	loc  *time.Location
	text string
}

// untilUTC matches an UNTIL given in UTC (with Z), not in local time.
var untilUTC = regexp.MustCompile(`(^|;)UNTIL=[0-9T]+Z(;|$)`)

// minFreq is the most frequent repeat allowed: hourly (a reminder every
// minute would only be noise).
const minFreq = rrule.HOURLY

// NewRule parses repeat, an RRULE value ("FREQ=DAILY", "RRULE:FREQ=WEEKLY;
// BYDAY=MO"), anchored at start's wall clock in loc. A rule that cannot be
// read, carries its own DTSTART, repeats more often than hourly, or has no
// occurrence at or after start is an *apperr.Error of code
// ReminderBadRepeat. A start in a spring gap has no wall clock of its own:
// use NewRuleAtWall with the time the person chose.
func NewRule(repeat string, start time.Time, loc *time.Location) (*Rule, error) {
	return NewRuleAtWall(repeat, floating(start, loc), loc)
}

// NewRuleAtWall is NewRule anchored at wall, a floating local time (its
// fields in UTC, as ParseDueWall returns): the wall-clock time every
// occurrence keeps, even when the first one falls into a spring gap and is
// moved forward (02:30 daily in New York fires at 03:30 on the day the
// clocks spring forward and at 02:30 on every other day; it used to be
// anchored at the moved instant and repeat at 03:30 for ever).
func NewRuleAtWall(repeat string, wall time.Time, loc *time.Location) (*Rule, error) {
	text := strings.TrimSpace(repeat)
	text = strings.TrimPrefix(strings.TrimPrefix(text, "RRULE:"), "rrule:")
	bad := func(detail string) error {
		return apperr.New(apperr.ReminderBadRepeat, map[string]any{"repeat": repeat, "detail": detail})
	}
	if text == "" || strings.ContainsAny(text, "\r\n") || strings.Contains(strings.ToUpper(text), "DTSTART") {
		return nil, bad("want one RRULE value such as FREQ=DAILY, without DTSTART")
	}
	text = strings.ToUpper(text)
	opt, err := rrule.StrToROptionInLocation(text, time.UTC)
	if err != nil {
		return nil, bad(err.Error())
	}
	if opt.Freq > minFreq {
		return nil, bad("repeating more often than hourly is not allowed")
	}
	if !opt.Until.IsZero() && untilUTC.MatchString(text) {
		// UNTIL in UTC: compare in local wall time like the occurrences.
		opt.Until = floating(opt.Until, loc)
	}
	opt.Dtstart = wall
	r, err := rrule.NewRRule(*opt)
	if err != nil {
		return nil, bad(err.Error())
	}
	rule := &Rule{rule: r, loc: loc, text: text}
	if rule.NextAt(fromFloating(wall, loc), true).IsZero() {
		return nil, bad("the rule has no occurrence at or after the due time")
	}
	return rule, nil
}

// ParseStoredRule reads a rule as Stored wrote it ("DTSTART;TZID=zone:
// 20261020T210000\nRRULE:FREQ=DAILY").
func ParseStoredRule(stored string) (*Rule, error) {
	lines := strings.Split(strings.TrimSpace(stored), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "DTSTART;TZID=") {
		return nil, fmt.Errorf("stored rule %q: want DTSTART;TZID=…\\nRRULE:…", stored)
	}
	zoneAndTime := strings.TrimPrefix(lines[0], "DTSTART;TZID=")
	i := strings.LastIndexByte(zoneAndTime, ':')
	if i < 0 {
		return nil, fmt.Errorf("stored rule %q: no DTSTART time", stored)
	}
	loc, err := time.LoadLocation(zoneAndTime[:i])
	if err != nil {
		return nil, err
	}
	f, err := time.Parse("20060102T150405", zoneAndTime[i+1:])
	if err != nil {
		return nil, err
	}
	return NewRuleAtWall(strings.TrimPrefix(lines[1], "RRULE:"), f, loc)
}

// Stored is the rule as kept in reminders.rrule: RFC 5545 DTSTART with TZID
// and RRULE lines.
func (r *Rule) Stored() string {
	return "DTSTART;TZID=" + r.loc.String() + ":" + r.rule.GetDTStart().Format("20060102T150405") + "\nRRULE:" + r.text
}

// Text is the RRULE value without DTSTART (e.g. "FREQ=DAILY").
func (r *Rule) Text() string { return r.text }

// NextAt returns the first occurrence after t (at or after t when inclusive),
// in UTC, or the zero time when the rule has no more.
func (r *Rule) NextAt(t time.Time, inclusive bool) time.Time {
	// Start two days early in floating time: an occurrence's instant and its
	// floating time differ by the zone offset (< 1 day), and gap/overlap
	// resolution can move it by the size of a change.
	from := floating(t, r.loc).Add(-48 * time.Hour)
	for i := 0; i < 10000; i++ {
		f := r.rule.After(from, i == 0)
		if f.IsZero() {
			return time.Time{}
		}
		at := fromFloating(f, r.loc).UTC()
		if at.After(t) || (inclusive && at.Equal(t)) {
			return at
		}
		from = f
	}
	return time.Time{}
}

// errNoZone is returned for an empty zone name.
var errNoZone = errors.New("no time zone")

// LoadZone loads an IANA zone by name ("Asia/Tokyo"); "Local" and "" are
// refused, so every reminder names a real zone.
func LoadZone(name string) (*time.Location, error) {
	if name == "" || name == "Local" {
		return nil, apperr.Wrap(apperr.ReminderBadZone, errNoZone, map[string]any{"zone": name})
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, apperr.Wrap(apperr.ReminderBadZone, err, map[string]any{"zone": name})
	}
	return loc, nil
}
