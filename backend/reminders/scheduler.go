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

	mu       sync.Mutex
	armed    map[int64]armedJob // only the scan loop writes it
	inflight map[int64]bool
	lastSeen fingerprint
	wg       sync.WaitGroup
}

type armedJob struct {
	job uuid.UUID
	due time.Time
}

// NewScheduler returns a stopped scheduler.
func NewScheduler(o SchedulerOptions) (*Scheduler, error) {
	if o.Service == nil || o.Notifier == nil {
		return nil, errors.New("reminders: a scheduler needs a service and a notifier")
	}
	s := &Scheduler{svc: o.Service, notifier: o.Notifier, clock: o.Clock, log: o.Logger, every: o.RescanEvery, guard: o.Guard,
		kickCh: make(chan struct{}, 1), tickCh: make(chan struct{}, 1), armed: map[int64]armedJob{}, inflight: map[int64]bool{}}
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

// Start delivers the reminders that fell due while the app was not running
// (late), arms the others and starts firing. It returns once the overdue
// ones are delivered or failed.
func (s *Scheduler) Start(ctx context.Context) error {
	ctx, s.cancel = context.WithCancel(context.WithoutCancel(ctx))
	overdue, err := s.svc.Due(ctx, s.clock.Now())
	if err != nil {
		return err
	}
	for _, r := range overdue {
		s.fire(ctx, r.ID, r.DueAt, true)
	}
	if _, err := s.cron.NewJob(gocron.DurationJob(s.every), gocron.NewTask(s.tick),
		gocron.WithSingletonMode(gocron.LimitModeReschedule)); err != nil {
		return fmt.Errorf("reminders: rescan job: %w", err)
	}
	s.svc.OnChange(s.Kick)
	s.scan(ctx, true)
	s.cron.Start()
	s.done = make(chan struct{})
	go s.loop(ctx)
	return nil
}

// Kick asks for a full rescan now (non-blocking): the service calls it
// after every change in this process.
func (s *Scheduler) Kick() {
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
	defer close(s.done)
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
	s.lastSeen = fp
	s.mu.Unlock()
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
	s.mu.Unlock()
}

// arm adds r's one-time job at its due time (at once when it is past).
func (s *Scheduler) arm(ctx context.Context, r Reminder) {
	id, due := r.ID, r.DueAt
	def := gocron.OneTimeJob(gocron.OneTimeJobStartDateTime(due))
	if !due.After(s.clock.Now()) {
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
	s.armed[id] = armedJob{job: job.ID(), due: due}
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
		if now.Sub(a.due) > missedAfter && !s.inflight[id] {
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
	if d := asDegraded(nerr); d != nil {
		// Shown in part (the window, no desktop notification): delivered, with why.
		s.log.Info("reminders: delivered in part", "id", id, "note", d.Note, "err", d.Err)
		if _, err := s.svc.MarkDeliveredNote(ctx, id, due, late, d.Note); err != nil {
			s.log.Warn("reminders: mark delivered", "id", id, "err", err)
		}
		return
	}
	if nerr != nil {
		s.log.Warn("reminders: delivery failed", "id", id, "err", nerr)
		if _, err := s.svc.MarkFailed(ctx, id, due, nerr); err != nil {
			s.log.Warn("reminders: mark failed", "id", id, "err", err)
		}
		return
	}
	if _, err := s.svc.MarkDelivered(ctx, id, due, late); err != nil {
		s.log.Warn("reminders: mark delivered", "id", id, "err", err)
	}
}
