// Package reminders keeps the reminders a person sets in the chat window,
// the CLI or (later) Discord (issue 10): a table row per reminder with its
// next due time in UTC, the IANA zone it was set in and an optional RFC 5545
// repeat rule expanded in that zone's wall-clock time (see Rule and
// ResolveLocal for DST); the model's tools (Tools); a context layer telling
// the model the local date and time (ClockLayer); and a Scheduler that
// fires each reminder at its due time through a Notifier.
package reminders

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/jonboulle/clockwork"
	"github.com/uptrace/bun"

	"playchat/backend/apperr"
	"playchat/backend/store"
)

// State is a reminder's delivery state.
type State string

// Delivery states. A repeating reminder stays pending (or snoozed) until it
// is cancelled or its rule has no more occurrences.
const (
	// StatePending waits for DueAt.
	StatePending State = "pending"
	// StateSnoozed waits for DueAt, set by Snooze.
	StateSnoozed State = "snoozed"
	// StateDelivered was shown (NotifiedAt says when) and will not fire again.
	StateDelivered State = "delivered"
	// StateFailed could not be shown; Error says why.
	StateFailed State = "failed"
	// StateCancelled was cancelled (CancelledAt says when).
	StateCancelled State = "cancelled"
)

// Origins of a reminder.
const (
	OriginDesktop = "desktop" // the window, its model or the CLI
	OriginDiscord = "discord" // the Discord bot (a later issue)
)

// MaxContentRunes caps a reminder's text, in characters.
const MaxContentRunes = 2000

// DefaultMaxAheadDays is REMINDER_MAX_AHEAD_DAYS's default.
const DefaultMaxAheadDays = 365

// Reminder is a row of the reminders table.
type Reminder struct {
	bun.BaseModel `bun:"table:reminders"`

	ID int64 `bun:"id,pk,autoincrement" json:"id"`
	// ChannelID, UserID and UserName are the Discord channel and user of
	// the seed's bot; "" for desktop reminders.
	ChannelID string `bun:"channel_id" json:"channelId"`
	UserID    string `bun:"user_id" json:"userId"`
	UserName  string `bun:"user_name" json:"userName"`
	// Content is what to remind of (≤ MaxContentRunes characters).
	Content string `bun:"content" json:"content"`
	// DueAt is the next time it fires, UTC. For a repeating reminder it moves
	// to the next occurrence after each delivery.
	DueAt     time.Time `bun:"due_at" json:"dueAt"`
	CreatedAt time.Time `bun:"created_at" json:"createdAt"`
	// NotifiedAt is the last delivery (UTC), nil before the first.
	NotifiedAt *time.Time `bun:"notified_at" json:"notifiedAt"`
	// CancelledAt is when it was cancelled (UTC), nil when it was not.
	CancelledAt *time.Time `bun:"cancelled_at" json:"cancelledAt"`
	// Origin is OriginDesktop or OriginDiscord.
	Origin string `bun:"origin" json:"origin"`
	// SessionID is the chat it was set in, "" when none (the CLI).
	SessionID string `bun:"session_id" json:"sessionId"`
	// Zone is the IANA zone it was set in; its rule repeats in that zone's wall-clock time.
	Zone string `bun:"zone" json:"zone"`
	// RRule is "" for a one-time reminder, else the rule as Rule.Stored
	// writes it (RFC 5545 DTSTART;TZID and RRULE lines).
	RRule string `bun:"rrule" json:"rrule"`
	State State  `bun:"state" json:"state"`
	// Error is why the last delivery failed ("" when it did not).
	Error string `bun:"error" json:"error"`
	// Late is set when the last delivery came after the app had been
	// closed past the due time.
	Late      bool       `bun:"late" json:"late"`
	UpdatedAt *time.Time `bun:"updated_at" json:"updatedAt"`
	// Note says how the last delivery went when it reached the person only
	// in part (NoteNoService: shown in the window, no desktop
	// notification); "" otherwise.
	Note string `bun:"note" json:"note"`
	// SeenAt is when the person last saw or acknowledged a delivery (the
	// notification's Done, the reminders panel), UTC; nil before.
	SeenAt *time.Time `bun:"seen_at" json:"seenAt"`
	// Attempts counts the failed deliveries of the current due time (the
	// scheduler retries a Discord reminder with backoff and gives up after
	// MaxAttempts). Delivery, snooze, edit and moving on to a repeating
	// reminder's next occurrence reset it to 0; a one-time reminder that
	// failed keeps its count.
	Attempts int `bun:"attempts" json:"attempts"`
}

// Active reports whether the reminder still waits to fire.
func (r Reminder) Active() bool { return r.State == StatePending || r.State == StateSnoozed }

// Repeat returns the RRULE value of a repeating reminder ("FREQ=DAILY"), or "".
func (r Reminder) Repeat() string {
	if r.RRule == "" {
		return ""
	}
	if i := strings.Index(r.RRule, "RRULE:"); i >= 0 {
		return strings.TrimSpace(r.RRule[i+len("RRULE:"):])
	}
	return r.RRule
}

// Location loads the reminder's zone (UTC when it cannot).
func (r Reminder) Location() *time.Location {
	if loc, err := time.LoadLocation(r.Zone); err == nil && r.Zone != "" {
		return loc
	}
	return time.UTC
}

// Options configure New.
type Options struct {
	DB *store.DB
	// Clock is the time source (tests pass a clockwork fake); nil = real.
	Clock clockwork.Clock
	// Zone is the local IANA zone new reminders are set in and due times
	// without an offset are read in; nil = LocalZone().
	Zone *time.Location
	// MaxAheadDays returns REMINDER_MAX_AHEAD_DAYS (read per call, so a
	// setting saved in the window applies at once); nil or ≤ 0 =
	// DefaultMaxAheadDays.
	MaxAheadDays func() int
}

// Service stores reminders. Safe for concurrent use. Changes call the
// functions given to OnChange (the Scheduler re-arms through it).
type Service struct {
	db       *store.DB
	clock    clockwork.Clock
	zone     *time.Location
	maxAhead func() int

	mu       sync.Mutex
	onChange []func()
}

// New returns a Service.
func New(o Options) *Service {
	s := &Service{db: o.DB, clock: o.Clock, zone: o.Zone, maxAhead: o.MaxAheadDays}
	if s.clock == nil {
		s.clock = clockwork.NewRealClock()
	}
	if s.zone == nil {
		s.zone = LocalZone()
	}
	return s
}

// LocalZone returns the machine's zone under its IANA name, read from TZ,
// the target of /etc/localtime (a link into a zoneinfo tree) or
// /etc/timezone; when none names a zone it returns time.Local (named
// "Local": right on this machine, but not portable).
func LocalZone() *time.Location {
	if tz := strings.TrimPrefix(os.Getenv("TZ"), ":"); tz != "" && !strings.HasPrefix(tz, "/") {
		if loc, err := time.LoadLocation(tz); err == nil {
			return loc
		}
	}
	if target, err := readLocaltimeLink(); err == nil {
		if i := strings.Index(target, "zoneinfo/"); i >= 0 {
			if loc, err := time.LoadLocation(target[i+len("zoneinfo/"):]); err == nil {
				return loc
			}
		}
	}
	if b, err := os.ReadFile("/etc/timezone"); err == nil {
		if name := strings.TrimSpace(string(b)); name != "" {
			if loc, err := time.LoadLocation(name); err == nil {
				return loc
			}
		}
	}
	return time.Local
}

// Zone is the zone new reminders are set in.
func (s *Service) Zone() *time.Location { return s.zone }

// Now is the service clock's current time.
func (s *Service) Now() time.Time { return s.clock.Now() }

// OnChange registers fn to run after every change (create, cancel, snooze,
// delivery). fn must not block.
func (s *Service) OnChange(fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.onChange = append(s.onChange, fn)
}

func (s *Service) changed() {
	s.mu.Lock()
	fns := append([]func(){}, s.onChange...)
	s.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

func (s *Service) maxAheadDays() int {
	if s.maxAhead != nil {
		if n := s.maxAhead(); n > 0 {
			return n
		}
	}
	return DefaultMaxAheadDays
}

// NewReminder is what Create needs.
type NewReminder struct {
	Content string
	// Due is the local date-time (ParseDue's forms) of the first time it fires.
	Due string
	// Repeat is an optional RRULE value ("FREQ=DAILY"); the first time it
	// fires is then its first occurrence at or after Due.
	Repeat string
	// SessionID is the chat it is set from ("" for none).
	SessionID string
	// Origin is OriginDesktop when "".
	Origin string
	// ChannelID, UserID and UserName are the Discord channel it is
	// delivered to and the user it mentions (origin discord); "" otherwise.
	ChannelID, UserID, UserName string
}

// Create validates and stores a reminder. Errors are *apperr.Error with a
// reminders.* code, worded for the model to correct: an empty or too long
// text, an unreadable due time, one not after now, one more than
// REMINDER_MAX_AHEAD_DAYS ahead, a bad repeat rule.
func (s *Service) Create(ctx context.Context, n NewReminder) (Reminder, error) {
	content := strings.TrimSpace(n.Content)
	if content == "" {
		return Reminder{}, apperr.New(apperr.ReminderContentEmpty, nil)
	}
	if c := utf8.RuneCountInString(content); c > MaxContentRunes || !utf8.ValidString(content) {
		return Reminder{}, apperr.New(apperr.ReminderContentTooLong, map[string]any{"n": c, "max": MaxContentRunes})
	}
	now := s.clock.Now()
	due, wall, err := s.checkDueWall(n.Due, now)
	if err != nil {
		return Reminder{}, err
	}
	r := Reminder{Content: content, DueAt: due, CreatedAt: now.UTC(), Origin: n.Origin, SessionID: n.SessionID,
		Zone: s.zone.String(), State: StatePending, ChannelID: n.ChannelID, UserID: n.UserID, UserName: n.UserName}
	if r.Origin == "" {
		r.Origin = OriginDesktop
	}
	if strings.TrimSpace(n.Repeat) != "" {
		rule, err := NewRuleAtWall(n.Repeat, wall, s.zone)
		if err != nil {
			return Reminder{}, err
		}
		r.RRule = rule.Stored()
		r.DueAt = rule.NextAt(due, true)
		if err := s.checkRange(r.DueAt, now); err != nil {
			return Reminder{}, err
		}
	}
	t := now.UTC()
	r.UpdatedAt = &t
	if _, err := s.db.Bun().NewInsert().Model(&r).Exec(ctx); err != nil {
		return Reminder{}, fmt.Errorf("save reminder: %w", err)
	}
	s.changed()
	return r, nil
}

// CheckDue parses due (ParseDue, in the service's zone) and checks it is
// after now and at most REMINDER_MAX_AHEAD_DAYS ahead. It returns UTC.
func (s *Service) CheckDue(due string, now time.Time) (time.Time, error) {
	t, _, err := s.checkDueWall(due, now)
	return t, err
}

// checkDueWall is CheckDue, also returning the wall-clock time due names
// (ParseDueWall), which a repeat rule is anchored at.
func (s *Service) checkDueWall(due string, now time.Time) (at, wall time.Time, err error) {
	at, wall, err = ParseDueWall(due, s.zone)
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	return at, wall, s.checkRange(at, now)
}

func (s *Service) checkRange(t, now time.Time) error {
	if !t.After(now) {
		return apperr.New(apperr.ReminderDuePast, map[string]any{"due": s.FormatLocal(t), "now": s.FormatLocal(now)})
	}
	days := s.maxAheadDays()
	if t.Sub(now) > time.Duration(days)*24*time.Hour {
		return apperr.New(apperr.ReminderDueTooFar, map[string]any{"due": s.FormatLocal(t), "maxDays": days})
	}
	return nil
}

// FormatLocal writes t in the service's zone as "2026-12-01T09:00:30+09:00 (Asia/Tokyo)".
func (s *Service) FormatLocal(t time.Time) string {
	return t.In(s.zone).Format("2006-01-02T15:04:05Z07:00") + " (" + s.zone.String() + ")"
}

// ListOptions filter List.
type ListOptions struct {
	// All includes delivered, failed and cancelled reminders; otherwise
	// only active (pending, snoozed) ones are listed.
	All bool
	// Origin, when set, lists only reminders of that origin (OriginDiscord).
	Origin string
	// UserID, when set, lists only that Discord user's reminders.
	UserID string
}

// List returns reminders by due time, then id.
func (s *Service) List(ctx context.Context, o ListOptions) ([]Reminder, error) {
	var rs []Reminder
	q := s.db.Bun().NewSelect().Model(&rs).OrderExpr("due_at, id")
	if !o.All {
		q = q.Where("state IN (?)", bun.In([]State{StatePending, StateSnoozed}))
	}
	if o.Origin != "" {
		q = q.Where("origin = ?", o.Origin)
	}
	if o.UserID != "" {
		q = q.Where("user_id = ?", o.UserID)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, fmt.Errorf("list reminders: %w", err)
	}
	return rs, nil
}

// Get returns one reminder; a missing one is ReminderNotFound.
func (s *Service) Get(ctx context.Context, id int64) (Reminder, error) {
	var r Reminder
	err := s.db.Bun().NewSelect().Model(&r).Where("id = ?", id).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return Reminder{}, apperr.New(apperr.ReminderNotFound, map[string]any{"id": id})
	}
	if err != nil {
		return Reminder{}, fmt.Errorf("read reminder %d: %w", id, err)
	}
	return r, nil
}

// Due returns the active reminders due at or before now, oldest first.
func (s *Service) Due(ctx context.Context, now time.Time) ([]Reminder, error) {
	var rs []Reminder
	err := s.db.Bun().NewSelect().Model(&rs).
		Where("state IN (?)", bun.In([]State{StatePending, StateSnoozed})).
		Where("due_at <= ?", now.UTC()).OrderExpr("due_at, id").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("due reminders: %w", err)
	}
	return rs, nil
}

// update changes an active reminder by fn, refusing one that is not active
// (ReminderNotActive) or missing (ReminderNotFound). It saves only when the
// row still has the due time and state it was read with, so two writers
// (the window and the CLI) never both apply a change.
func (s *Service) update(ctx context.Context, id int64, fn func(r *Reminder, now time.Time) error) (Reminder, error) {
	return s.updateIf(ctx, id, Reminder.Active, fn)
}

// updateIf is update with its own test of which states may change.
func (s *Service) updateIf(ctx context.Context, id int64, may func(Reminder) bool, fn func(r *Reminder, now time.Time) error) (Reminder, error) {
	r, err := s.Get(ctx, id)
	if err != nil {
		return Reminder{}, err
	}
	if !may(r) {
		return r, apperr.New(apperr.ReminderNotActive, map[string]any{"id": id, "state": string(r.State)})
	}
	prevDue, prevState := r.DueAt, r.State
	now := s.clock.Now().UTC()
	if err := fn(&r, now); err != nil {
		return Reminder{}, err
	}
	r.UpdatedAt = &now
	res, err := s.db.Bun().NewUpdate().Model(&r).WherePK().
		Where("due_at = ?", prevDue).Where("state = ?", prevState).Exec(ctx)
	if err != nil {
		return Reminder{}, fmt.Errorf("update reminder %d: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return Reminder{}, fmt.Errorf("reminder %d changed meanwhile", id)
	}
	s.changed()
	return r, nil
}

// Cancel cancels an active reminder (and all its repeats).
func (s *Service) Cancel(ctx context.Context, id int64) (Reminder, error) {
	return s.update(ctx, id, func(r *Reminder, now time.Time) error {
		r.State, r.CancelledAt = StateCancelled, &now
		return nil
	})
}

// Snooze makes the reminder fire again d from now (state snoozed): an
// active one moves its next firing; a delivered or failed one (the
// notification's "Snooze 10 min" comes after delivery) is re-opened. A
// reminder that has never fired and is due later moves to d after its due
// time instead: a snooze never brings a reminder earlier. A repeating
// reminder's later occurrences are unchanged: after the snoozed firing it
// continues with its first occurrence after it. A cancelled reminder cannot
// be snoozed (ReminderNotActive).
func (s *Service) Snooze(ctx context.Context, id int64, d time.Duration) (Reminder, error) {
	if d <= 0 {
		return Reminder{}, fmt.Errorf("snooze by %v: must be positive", d)
	}
	notCancelled := func(r Reminder) bool { return r.State != StateCancelled }
	return s.updateIf(ctx, id, notCancelled, func(r *Reminder, now time.Time) error {
		base := now
		if r.NotifiedAt == nil && r.Active() && r.DueAt.After(now) {
			base = r.DueAt
		}
		r.State, r.DueAt, r.Attempts = StateSnoozed, base.Add(d), 0
		return nil
	})
}

// MarkDelivered records that the reminder due at due was shown at the
// service clock's now (late: after the app had been closed past due). A
// one-time reminder becomes delivered; a repeating one moves to its rule's
// first occurrence after both due and now (occurrences missed while the app
// was closed are not delivered one by one) and stays pending, or becomes
// delivered when the rule has no more. A reminder whose due time changed
// meanwhile (snoozed, edited) is left alone and reported as not active.
func (s *Service) MarkDelivered(ctx context.Context, id int64, due time.Time, late bool) (Reminder, error) {
	return s.update(ctx, id, func(r *Reminder, now time.Time) error {
		if !r.DueAt.Equal(due) {
			return apperr.New(apperr.ReminderNotActive, map[string]any{"id": id, "state": "rescheduled"})
		}
		r.NotifiedAt, r.Late, r.Error, r.Note, r.Attempts = &now, late, "", "", 0
		return s.advance(r, now)
	})
}

// MarkFailed records that showing the reminder due at due failed with
// cause and is not tried again. A one-time reminder becomes failed with the
// error (Attempts counts this failure too); a repeating one keeps the error
// and moves on to its next occurrence like MarkDelivered (Attempts back to 0).
func (s *Service) MarkFailed(ctx context.Context, id int64, due time.Time, cause error) (Reminder, error) {
	return s.update(ctx, id, func(r *Reminder, now time.Time) error {
		if !r.DueAt.Equal(due) {
			return apperr.New(apperr.ReminderNotActive, map[string]any{"id": id, "state": "rescheduled"})
		}
		msg := "delivery failed"
		if cause != nil {
			msg = cause.Error()
		}
		if err := s.advance(r, now); err != nil {
			return err
		}
		r.Error = msg
		r.Attempts++
		if r.State == StateDelivered {
			r.State = StateFailed
		} else {
			r.Attempts = 0 // a fresh count for the next occurrence
		}
		return nil
	})
}

// MarkRetry records that delivering the reminder due at due failed with
// cause and will be tried again: Attempts goes up by one and Error keeps
// the reason (shown in the panel meanwhile); the state and due time stay.
// A reminder whose due time changed meanwhile is ReminderNotActive.
func (s *Service) MarkRetry(ctx context.Context, id int64, due time.Time, cause error) (Reminder, error) {
	return s.update(ctx, id, func(r *Reminder, _ time.Time) error {
		if !r.DueAt.Equal(due) {
			return apperr.New(apperr.ReminderNotActive, map[string]any{"id": id, "state": "rescheduled"})
		}
		r.Error = "delivery failed"
		if cause != nil {
			r.Error = cause.Error()
		}
		r.Attempts++
		return nil
	})
}

// advance sets a fired reminder's next state: the next occurrence of its
// rule (pending), or delivered.
func (s *Service) advance(r *Reminder, now time.Time) error {
	if r.RRule == "" {
		r.State = StateDelivered
		return nil
	}
	rule, err := ParseStoredRule(r.RRule)
	if err != nil {
		r.State = StateDelivered
		r.Error = err.Error()
		return nil
	}
	after := r.DueAt
	if now.After(after) {
		after = now
	}
	next := rule.NextAt(after, false)
	if next.IsZero() {
		r.State = StateDelivered
		return nil
	}
	r.DueAt, r.State = next, StatePending
	return nil
}

// NextDue returns the earliest due time of an active reminder and true, or
// false when none is active.
func (s *Service) NextDue(ctx context.Context) (time.Time, bool, error) {
	var r Reminder
	err := s.db.Bun().NewSelect().Model(&r).
		Where("state IN (?)", bun.In([]State{StatePending, StateSnoozed})).
		OrderExpr("due_at, id").Limit(1).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, err
	}
	return r.DueAt, true, nil
}
