package reminders

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/go-co-op/gocron/v2"
	"github.com/google/uuid"
	"github.com/jonboulle/clockwork"

	"playchat/backend/guard"
)

// DefaultRescanEvery is how often the scheduler looks for reminders added
// or changed by another process (the CLI beside the window).
const DefaultRescanEvery = 2 * time.Second

// LateAfter is how long after its due time a firing counts as late (the
// machine slept, the clock jumped).
const LateAfter = time.Minute

// missedAfter is how long past due an armed reminder may stay unfired
// before a rescan fires it itself: a one-time job's timer runs on the
// monotonic clock, which stands still while the machine sleeps and does not
// follow a manual change of the wall clock.
const missedAfter = 2 * time.Second

// MaxAttempts is how many times a reminder of a channel that can fail for
// a while (origin discord: a deleted channel, Discord down) is tried before
// it becomes failed. Desktop reminders are tried once, as before.
const MaxAttempts = 5

// RetryBackoff is the wait after the first failed delivery of such a
// reminder; it doubles after each further failure (1, 2, 4, 8 minutes).
const RetryBackoff = time.Minute

// NotReadyRetry is how long a reminder whose notifier returned ErrNotReady
// waits before the next try when no Kick comes first.
const NotReadyRetry = time.Minute

// SchedulerOptions configure NewScheduler.
type SchedulerOptions struct {
	Service  *Service
	Notifier Notifier
	// Clock defaults to the service's clock.
	Clock  clockwork.Clock
	Logger *slog.Logger
	// RescanEvery defaults to DefaultRescanEvery.
	RescanEvery time.Duration
	// Guard recovers panics of the scan loop (job "reminders.scan") and
	// of deliveries (job "reminders.fire"; the reminder stays due and is
	// tried again at the next rescan): logged and reported, the scheduler
	// keeps running. nil guards nothing.
	Guard *guard.Guard
}

// Scheduler fires each active reminder at its due time: one gocron one-time
// job per reminder, armed at its next due time and re-armed when it changes
// (the service's OnChange, after each delivery, and a rescan every
// RescanEvery that also picks up other processes' changes and fires
// reminders whose timer missed a clock jump). Reminders that fell due
// while the app was not running are delivered by Start, marked late.
//
// A notifier that returns ErrNotReady leaves the reminder due (not a
// failure): it is tried again on Kick or after NotReadyRetry. Other errors
// fail a desktop reminder at once; a reminder of another origin is retried
// after RetryBackoff, doubling, and fails on its MaxAttempts-th failure
// (Reminder.Attempts is stored, so a restart does not start over).
type Scheduler struct {
	svc      *Service
	notifier Notifier
	clock    clockwork.Clock
	log      *slog.Logger
	every    time.Duration
	guard    *guard.Guard

	cron   gocron.Scheduler
	kickCh chan struct{} // a change in this process: full rescan
	tickCh chan struct{} // the periodic rescan: reads the rows only when the fingerprint changed
	cancel context.CancelFunc
	done   chan struct{}
	// caughtUp is closed once the overdue reminders of Start are delivered
	// (or failed, or put off) and the others are armed.
	caughtUp chan struct{}

	mu       sync.Mutex
	armed    map[int64]armedJob // only the scan loop writes it
	inflight map[int64]bool
	retry    map[int64]retryAt // deliveries put off (ErrNotReady, backoff)
	wakeUp   bool              // Kick: try the ErrNotReady ones now
	lastSeen fingerprint
	scanned  bool // lastSeen was read at least once
	wg       sync.WaitGroup
}

type armedJob struct {
	job uuid.UUID
	due time.Time
	// at is when the job fires: due, or the retry time of a put-off delivery.
	at time.Time
}

// retryAt puts off the delivery of a reminder due at due until at.
type retryAt struct {
	due, at  time.Time
	notReady bool // ErrNotReady: Kick brings it forward
}

// NewScheduler returns a stopped scheduler.
func NewScheduler(o SchedulerOptions) (*Scheduler, error) {
	if o.Service == nil || o.Notifier == nil {
		return nil, errors.New("reminders: a scheduler needs a service and a notifier")
	}
	s := &Scheduler{svc: o.Service, notifier: o.Notifier, clock: o.Clock, log: o.Logger, every: o.RescanEvery, guard: o.Guard,
		kickCh: make(chan struct{}, 1), tickCh: make(chan struct{}, 1), armed: map[int64]armedJob{}, inflight: map[int64]bool{},
		retry: map[int64]retryAt{}, caughtUp: make(chan struct{})}
	if s.clock == nil {
		s.clock = o.Service.clock
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.every <= 0 {
		s.every = DefaultRescanEvery
	}
	cron, err := gocron.NewScheduler(gocron.WithClock(s.clock), gocron.WithLocation(time.UTC))
	if err != nil {
		return nil, fmt.Errorf("reminders: new scheduler: %w", err)
	}
	s.cron = cron
	return s, nil
}

// Start arms the active reminders and starts firing; it returns at once.
// The reminders that fell due while the app was not running are delivered
// in the background (late), one after another, before the others are
// armed: Start never waits on a notifier, which may be the window that is
// starting up (issue 21). Stop waits for those deliveries too.
func (s *Scheduler) Start(ctx context.Context) error {
	ctx, s.cancel = context.WithCancel(context.WithoutCancel(ctx))
	overdue, err := s.svc.Due(ctx, s.clock.Now())
	if err != nil {
		return err
	}
	if _, err := s.cron.NewJob(gocron.DurationJob(s.every), gocron.NewTask(s.tick),
		gocron.WithSingletonMode(gocron.LimitModeReschedule)); err != nil {
		return fmt.Errorf("reminders: rescan job: %w", err)
	}
	s.done = make(chan struct{})
	go func() {
		defer close(s.done)
		for _, r := range overdue {
			s.fire(ctx, r.ID, r.DueAt, true)
		}
		if ctx.Err() != nil {
			return
		}
		s.svc.OnChange(s.rescan)
		s.guard.Do("reminders.scan", func() { s.scan(ctx, true) })
		s.cron.Start()
		close(s.caughtUp)
		s.loop(ctx)
	}()
	return nil
}

// CaughtUp is closed once Start has delivered the reminders that fell due
// while the app was not running (each delivered, failed or put off) and
// armed the others. It is never closed when Start was not called or was
// stopped first.
func (s *Scheduler) CaughtUp() <-chan struct{} { return s.caughtUp }

// Kick tries the reminders put off by ErrNotReady now (the Discord bot
// just became ready) and rescans (non-blocking). Reminders waiting for a
// retry after a failure keep their backoff. Safe to call at any time, also
// before Start or after Stop.
func (s *Scheduler) Kick() {
	s.mu.Lock()
	s.wakeUp = true
	s.mu.Unlock()
	s.rescan()
}

// rescan asks for a full rescan now (non-blocking): the service calls it
// after every change in this process.
func (s *Scheduler) rescan() {
	select {
	case s.kickCh <- struct{}{}:
	default:
	}
}

// tick asks for a periodic rescan (non-blocking).
func (s *Scheduler) tick() {
	select {
	case s.tickCh <- struct{}{}:
	default:
	}
}

func (s *Scheduler) loop(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.kickCh:
			s.guard.Do("reminders.scan", func() { s.scan(ctx, true) })
		case <-s.tickCh:
			s.guard.Do("reminders.scan", func() { s.scan(ctx, false) })
		}
	}
}

// Stop stops firing and waits for deliveries in progress.
func (s *Scheduler) Stop() error {
	if s.cancel == nil {
		return nil
	}
	s.cancel()
	if s.done != nil {
		<-s.done
	}
	err := s.cron.Shutdown()
	s.wg.Wait()
	return err
}

// fingerprint summarises the table cheaply, so an idle rescan reads one row.
type fingerprint struct {
	Count   int     `bun:"n"`
	MaxID   int64   `bun:"max_id"`
	Updated *string `bun:"updated"`
}

func (s *Scheduler) fingerprint(ctx context.Context) (fingerprint, error) {
	var f fingerprint
	err := s.svc.db.Bun().NewSelect().TableExpr("reminders").
		ColumnExpr("count(*) AS n, coalesce(max(id), 0) AS max_id, max(coalesce(updated_at, created_at)) AS updated").
		Scan(ctx, &f)
	return f, err
}

// scan re-arms every active reminder whose due time changed, drops jobs of
// reminders no longer active, and fires armed reminders whose timer missed
// (clock jump). Unless force, it reads the reminders only when the table
// changed since the last scan.
func (s *Scheduler) scan(ctx context.Context, force bool) {
	now := s.clock.Now()
	s.wake()
	s.fireMissed(ctx, now)
	fp, err := s.fingerprint(ctx)
	if err != nil {
		s.log.Warn("reminders: rescan", "err", err)
		return
	}
	s.mu.Lock()
	same := fp.Count == s.lastSeen.Count && fp.MaxID == s.lastSeen.MaxID &&
		((fp.Updated == nil && s.lastSeen.Updated == nil) ||
			(fp.Updated != nil && s.lastSeen.Updated != nil && *fp.Updated == *s.lastSeen.Updated))
	s.mu.Unlock()
	if same && !force {
		return
	}
	rs, err := s.svc.List(ctx, ListOptions{})
	if err != nil {
		s.log.Warn("reminders: rescan", "err", err)
		return
	}
	s.mu.Lock()
	first := !s.scanned
	s.lastSeen, s.scanned = fp, true
	s.mu.Unlock()
	if !same && !force && !first {
		// Changed by another process (the CLI beside the window): tell the
		// service's listeners, as a change here does — an open Reminders
		// panel and the tray menu show it without being reopened (issue 22).
		defer s.svc.changed()
	}
	seen := make(map[int64]bool, len(rs))
	for _, r := range rs {
		seen[r.ID] = true
		s.mu.Lock()
		a, ok := s.armed[r.ID]
		s.mu.Unlock()
		if ok && a.due.Equal(r.DueAt) {
			continue
		}
		if ok {
			_ = s.cron.RemoveJob(a.job)
		}
		s.arm(ctx, r)
	}
	s.mu.Lock()
	for id, a := range s.armed {
		if !seen[id] {
			_ = s.cron.RemoveJob(a.job)
			delete(s.armed, id)
		}
	}
	for id := range s.retry {
		if !seen[id] {
			delete(s.retry, id)
		}
	}
	s.mu.Unlock()
}

// wake, after a Kick, drops the ErrNotReady put-offs and their jobs, so the
// scan that follows arms those reminders at their due time (at once).
func (s *Scheduler) wake() {
	s.mu.Lock()
	if !s.wakeUp {
		s.mu.Unlock()
		return
	}
	s.wakeUp = false
	var jobs []uuid.UUID
	for id, rt := range s.retry {
		if !rt.notReady {
			continue
		}
		delete(s.retry, id)
		if a, ok := s.armed[id]; ok {
			jobs = append(jobs, a.job)
			delete(s.armed, id)
		}
	}
	s.mu.Unlock()
	for _, j := range jobs {
		_ = s.cron.RemoveJob(j)
	}
}

// putOff defers the delivery of reminder id due at due until at: its job
// is dropped and the rescan it asks for arms it at at. fire refuses it
// before then, so no stray job can deliver it early or in a loop.
func (s *Scheduler) putOff(id int64, due, at time.Time, notReady bool) {
	s.mu.Lock()
	s.retry[id] = retryAt{due: due, at: at, notReady: notReady}
	a, armed := s.armed[id]
	delete(s.armed, id)
	s.mu.Unlock()
	if armed {
		_ = s.cron.RemoveJob(a.job)
	}
	s.rescan()
}

// heldUntil returns when a put-off delivery of id due at due may run, and
// true while that is after now. A put-off for another due time (snoozed,
// edited, moved to the next occurrence) is stale and dropped.
func (s *Scheduler) heldUntil(id int64, due, now time.Time) (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rt, ok := s.retry[id]
	if !ok {
		return time.Time{}, false
	}
	if !rt.due.Equal(due) {
		delete(s.retry, id)
		return time.Time{}, false
	}
	return rt.at, now.Before(rt.at)
}

// backoff is the wait after the n-th failed delivery (n ≥ 1): RetryBackoff
// doubled n-1 times.
func backoff(n int) time.Duration {
	if n < 1 {
		n = 1
	}
	return RetryBackoff << (n - 1)
}

// retries reports whether a failed delivery of r is tried again (not a
// desktop reminder: those fail at once, as they always did).
func retries(r Reminder) bool { return r.Origin != OriginDesktop && r.Origin != "" }

// arm adds r's one-time job at its due time, or at the retry time of a
// put-off delivery (at once when that is past).
func (s *Scheduler) arm(ctx context.Context, r Reminder) {
	id, due := r.ID, r.DueAt
	at := due
	if until, held := s.heldUntil(id, due, s.clock.Now()); held {
		at = until
	}
	def := gocron.OneTimeJob(gocron.OneTimeJobStartDateTime(at))
	if !at.After(s.clock.Now()) {
		def = gocron.OneTimeJob(gocron.OneTimeJobStartImmediately())
	}
	// WithLimitedRuns(1): gocron drops the job once it has run.
	task := gocron.NewTask(func() { s.fire(ctx, id, due, false) })
	job, err := s.cron.NewJob(def, task, gocron.WithLimitedRuns(1))
	if errors.Is(err, gocron.ErrOneTimeJobStartDateTimePast) {
		// It fell due between the check above and now.
		job, err = s.cron.NewJob(gocron.OneTimeJob(gocron.OneTimeJobStartImmediately()), task, gocron.WithLimitedRuns(1))
	}
	if err != nil {
		// Not armed: make the next periodic rescan read the rows again.
		s.mu.Lock()
		s.lastSeen = fingerprint{Count: -1}
		s.mu.Unlock()
		s.log.Warn("reminders: arm", "id", id, "err", err)
		return
	}
	s.mu.Lock()
	s.armed[id] = armedJob{job: job.ID(), due: due, at: at}
	s.mu.Unlock()
}

// fireMissed fires armed reminders more than missedAfter past due.
func (s *Scheduler) fireMissed(ctx context.Context, now time.Time) {
	s.mu.Lock()
	var missed []struct {
		id  int64
		due time.Time
	}
	for id, a := range s.armed {
		at := a.at
		if rt, ok := s.retry[id]; ok && rt.due.Equal(a.due) && rt.at.After(at) {
			at = rt.at
		}
		if at.Before(a.due) {
			at = a.due
		}
		if now.Sub(at) > missedAfter && !s.inflight[id] {
			missed = append(missed, struct {
				id  int64
				due time.Time
			}{id, a.due})
		}
	}
	s.mu.Unlock()
	for _, m := range missed {
		s.fire(ctx, m.id, m.due, false)
	}
}

// fire delivers reminder id if it is still active and due at due: the
// notifier shows it, then the service marks it delivered (a repeating one
// moves to its next occurrence) or failed. Concurrent fires of one
// reminder deliver once.
func (s *Scheduler) fire(ctx context.Context, id int64, due time.Time, late bool) {
	if _, held := s.heldUntil(id, due, s.clock.Now()); held {
		return // put off (ErrNotReady, backoff): its job at the retry time fires it
	}
	s.mu.Lock()
	if s.inflight[id] || ctx.Err() != nil {
		s.mu.Unlock()
		return
	}
	s.inflight[id] = true
	s.wg.Add(1)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.inflight, id)
		s.mu.Unlock()
		s.wg.Done()
	}()
	s.guard.Do("reminders.fire", func() { s.deliver(ctx, id, due, late) })
}

// deliver is fire's work once the reminder is marked in flight.
func (s *Scheduler) deliver(ctx context.Context, id int64, due time.Time, late bool) {
	r, err := s.svc.Get(ctx, id)
	if err != nil || !r.Active() || !r.DueAt.Equal(due) {
		return // cancelled, snoozed or delivered meanwhile: its new job (if any) fires it
	}
	now := s.clock.Now()
	if now.Sub(due) > LateAfter {
		late = true
	}
	nerr := s.notifier.Notify(ctx, Notification{Reminder: r, Late: late})
	if ctx.Err() != nil {
		return // stopped mid-delivery: it stays due and is delivered at the next start
	}
	if errors.Is(nerr, ErrNotReady) {
		// Not a failure: it stays due until Kick or NotReadyRetry.
		s.log.Debug("reminders: delivery channel not ready", "id", id, "origin", r.Origin, "err", nerr)
		s.putOff(id, due, now.Add(NotReadyRetry), true)
		return
	}
	if d := asDegraded(nerr); d != nil {
		// Shown in part (the window, no desktop notification): delivered, with why.
		s.log.Info("reminders: delivered in part", "id", id, "note", d.Note, "err", d.Err)
		if _, err := s.svc.MarkDeliveredNote(ctx, id, due, late, d.Note); err != nil {
			s.log.Warn("reminders: mark delivered", "id", id, "err", err)
		}
		return
	}
	if nerr != nil && retries(r) && r.Attempts+1 < MaxAttempts {
		wait := backoff(r.Attempts + 1)
		s.log.Warn("reminders: delivery failed, will retry", "id", id, "attempt", r.Attempts+1, "retryIn", wait, "err", nerr)
		// Put off first: the change MarkRetry announces must not re-arm it at its due time.
		s.putOff(id, due, now.Add(wait), false)
		if _, err := s.svc.MarkRetry(ctx, id, due, nerr); err != nil {
			s.log.Warn("reminders: mark retry", "id", id, "err", err)
		}
		return
	}
	if nerr != nil {
		s.log.Warn("reminders: delivery failed", "id", id, "attempts", r.Attempts+1, "err", nerr)
		if _, err := s.svc.MarkFailed(ctx, id, due, nerr); err != nil {
			s.log.Warn("reminders: mark failed", "id", id, "err", err)
		}
		return
	}
	if _, err := s.svc.MarkDelivered(ctx, id, due, late); err != nil {
		s.log.Warn("reminders: mark delivered", "id", id, "err", err)
	}
}
