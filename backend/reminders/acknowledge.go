package reminders

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"playchat/backend/apperr"
)

// NoteNoService is the Note of a reminder shown in the window only because
// no desktop notification service answered.
const NoteNoService = "no notification service"

// SnoozeDefault is the notification's "Snooze 10 min".
const SnoozeDefault = 10 * time.Minute

// MaxSnoozeMinutes caps a snooze set by hand (one week), in minutes.
const MaxSnoozeMinutes = 7 * 24 * 60

// Degraded is the error a Notifier returns when it showed the reminder only
// in part (in the window, while no desktop notification service answered):
// the scheduler marks the reminder delivered with Note, not failed.
type Degraded struct {
	// Note is stored as the reminder's Note (e.g. NoteNoService).
	Note string
	// Err is why the missing part failed.
	Err error
}

func (d *Degraded) Error() string {
	if d.Err == nil {
		return d.Note
	}
	return d.Note + ": " + d.Err.Error()
}

func (d *Degraded) Unwrap() error { return d.Err }

// MarkDeliveredNote is MarkDelivered that also stores note (how the
// delivery went when it reached the person only in part; "" = fully).
func (s *Service) MarkDeliveredNote(ctx context.Context, id int64, due time.Time, late bool, note string) (Reminder, error) {
	return s.update(ctx, id, func(r *Reminder, now time.Time) error {
		if !r.DueAt.Equal(due) {
			return apperr.New(apperr.ReminderNotActive, map[string]any{"id": id, "state": "rescheduled"})
		}
		r.NotifiedAt, r.Late, r.Error, r.Note, r.Attempts = &now, late, "", note, 0
		return s.advance(r, now)
	})
}

// Done acknowledges a reminder (the notification's "Done"): it is marked
// seen, and a one-time reminder still waiting after it fired (snoozed)
// becomes delivered and does not fire again. One that has never fired (done
// before its time, from the panel) is cancelled rather than marked
// delivered: nothing was shown. A repeating reminder keeps its later
// occurrences. A cancelled one is ReminderNotActive.
func (s *Service) Done(ctx context.Context, id int64) (Reminder, error) {
	notCancelled := func(r Reminder) bool { return r.State != StateCancelled }
	return s.updateIf(ctx, id, notCancelled, func(r *Reminder, now time.Time) error {
		r.SeenAt = &now
		if r.RRule == "" && r.Active() && r.NotifiedAt == nil {
			r.State, r.CancelledAt = StateCancelled, &now
			return nil
		}
		if r.RRule == "" && r.Active() {
			r.State = StateDelivered
			if r.NotifiedAt == nil {
				r.NotifiedAt = &now
			}
		}
		return nil
	})
}

// Unseen reports whether the person has not yet seen r's last delivery
// (or failure): the window's badge counts these.
func (r Reminder) Unseen() bool {
	if r.NotifiedAt == nil && r.State != StateFailed {
		return false
	}
	if r.SeenAt == nil {
		return true
	}
	return r.NotifiedAt != nil && r.SeenAt.Before(*r.NotifiedAt)
}

// MarkSeen marks every delivered or failed reminder seen now (the person
// opened the reminders panel) and returns how many changed.
func (s *Service) MarkSeen(ctx context.Context) (int, error) {
	now := s.clock.Now().UTC()
	res, err := s.db.Bun().NewUpdate().Model((*Reminder)(nil)).
		Set("seen_at = ?", now).Set("updated_at = ?", now).
		Where("(notified_at IS NOT NULL OR state = ?)", StateFailed).
		Where("(seen_at IS NULL OR (notified_at IS NOT NULL AND seen_at < notified_at))").
		Exec(ctx)
	if err != nil {
		return 0, fmt.Errorf("mark reminders seen: %w", err)
	}
	n, _ := res.RowsAffected()
	if n > 0 {
		s.changed()
	}
	return int(n), nil
}

// EditReminder is what Edit changes: all three fields replace the stored ones.
type EditReminder struct {
	Content string
	// Due is the local date-time (ParseDue's forms) it fires next.
	Due string
	// Repeat is an RRULE value ("FREQ=WEEKLY") or "" for a one-time reminder.
	Repeat string
}

// Edit replaces a reminder's text, due time and repeat rule, validated like
// Create (the same reminders.* codes). A delivered or failed reminder is
// re-opened (pending); a cancelled one is ReminderNotActive. The zone
// becomes the service's zone.
func (s *Service) Edit(ctx context.Context, id int64, e EditReminder) (Reminder, error) {
	content := strings.TrimSpace(e.Content)
	if content == "" {
		return Reminder{}, apperr.New(apperr.ReminderContentEmpty, nil)
	}
	if c := utf8.RuneCountInString(content); c > MaxContentRunes || !utf8.ValidString(content) {
		return Reminder{}, apperr.New(apperr.ReminderContentTooLong, map[string]any{"n": c, "max": MaxContentRunes})
	}
	due, wall, err := s.checkDueWall(e.Due, s.clock.Now())
	if err != nil {
		return Reminder{}, err
	}
	rrule := ""
	if strings.TrimSpace(e.Repeat) != "" {
		rule, err := NewRuleAtWall(e.Repeat, wall, s.zone)
		if err != nil {
			return Reminder{}, err
		}
		rrule = rule.Stored()
		due = rule.NextAt(due, true)
		if err := s.checkRange(due, s.clock.Now()); err != nil {
			return Reminder{}, err
		}
	}
	notCancelled := func(r Reminder) bool { return r.State != StateCancelled }
	return s.updateIf(ctx, id, notCancelled, func(r *Reminder, _ time.Time) error {
		r.Content, r.DueAt, r.RRule, r.Zone = content, due, rrule, s.zone.String()
		r.State, r.Error, r.Note, r.Late, r.Attempts = StatePending, "", "", false, 0
		return nil
	})
}

// SnoozeMinutes is Snooze by a number of minutes set by hand, 1 to
// MaxSnoozeMinutes (else ReminderSnoozeRange).
func (s *Service) SnoozeMinutes(ctx context.Context, id int64, minutes int) (Reminder, error) {
	if minutes < 1 || minutes > MaxSnoozeMinutes {
		return Reminder{}, apperr.New(apperr.ReminderSnoozeRange, map[string]any{"minutes": minutes, "max": MaxSnoozeMinutes})
	}
	return s.Snooze(ctx, id, time.Duration(minutes)*time.Minute)
}

// asDegraded returns err's Degraded, or nil.
func asDegraded(err error) *Degraded {
	var d *Degraded
	if errors.As(err, &d) {
		return d
	}
	return nil
}
