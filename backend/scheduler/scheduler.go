// Package scheduler runs the scheduled Discord posts of issue 13 on gocron
// v2: the daily weather-and-laundry post at WEATHER_NOTIFY_HOUR:MINUTE local
// time and a "useless tips" post every USELESS_TIPS_INTERVAL_HOURS hours,
// left out during the 03:00 local hour. The clock is injectable
// (clockwork), so tests move time by hand.
package scheduler

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/go-co-op/gocron/v2"
	"github.com/google/uuid"
	"github.com/jonboulle/clockwork"

	"playchat/backend/guard"
)

// Poster sends one text to Discord (split into messages as needed):
// discord.WebhookPoster (DISCORD_WEBHOOK_URL) or discord.ChannelPoster (the
// bot, DISCORD_NOTIFY_CHANNEL_ID).
type Poster interface {
	Post(ctx context.Context, text string) error
}

// Forecaster writes tomorrow's weather and laundry index as one Japanese
// paragraph; weather.Service implements it (JMA forecast).
type Forecaster interface {
	TomorrowText(ctx context.Context) (string, error)
}

// TipWriter writes one short Japanese "どうでもいいTips" on a topic close to
// hint (recent talk when hint is ""), drawing only on the chats
// sessionIDs; tagging.Tips implements it.
type TipWriter interface {
	Tip(ctx context.Context, hint string, sessionIDs []string) (string, error)
}

// Job names, as logged and as passed to the guard.
const (
	JobWeather = "scheduler.weather"
	JobTips    = "scheduler.tips"
)

// QuietHour is the local hour (03:00–03:59) during which a tips run is
// skipped; the next run posts as usual.
const QuietHour = 3

// errSkipped is a run that left out its post on purpose (the quiet hour).
var errSkipped = errors.New("scheduler: skipped")

// runTimeout bounds one run (fetching the forecast or writing a tip, then
// posting).
const runTimeout = 3 * time.Minute

// Settings are the knobs of the jobs (from config: WEATHER_NOTIFY_HOUR,
// WEATHER_NOTIFY_MINUTE, USELESS_TIPS_INTERVAL_HOURS).
type Settings struct {
	// Hour and Minute are the local time of the daily weather post
	// (0–23, 0–59).
	Hour, Minute int
	// TipsEveryHours is the interval of the tips post in hours; 0 (or
	// less) switches it off.
	TipsEveryHours int
}

// Options configure New.
type Options struct {
	// Poster receives both posts; required.
	Poster Poster
	// Forecaster writes the weather post; nil: no weather post.
	Forecaster Forecaster
	// Tips writes the tips post; nil: no tips post.
	Tips TipWriter
	// TipSessions returns the chats a tip may draw on: the chat of the
	// channel the posts go to (nil, or nil returned: none — a tip on a
	// topic of the model's choosing). Nothing else is read (issue 21).
	TipSessions func(ctx context.Context) []string
	// Clock defaults to the real clock.
	Clock clockwork.Clock
	// Location is the local time zone of the post time and of the quiet
	// hour; nil means time.Local.
	Location *time.Location
	// Log defaults to slog.Default().
	Log *slog.Logger
	// Guard recovers panics of the runs (jobs JobWeather and JobTips); nil
	// means a guard of its own that logs to Log, so a panic never ends the
	// process.
	Guard *guard.Guard
}

// Scheduler runs the two jobs. Configure may be called at any time; Start
// arms the jobs and Stop ends them. Safe for concurrent use.
type Scheduler struct {
	poster      Poster
	forecast    Forecaster
	tips        TipWriter
	tipSessions func(context.Context) []string
	clock       clockwork.Clock
	loc         *time.Location
	log         *slog.Logger
	guard       *guard.Guard
	cron        gocron.Scheduler

	mu         sync.Mutex
	set        Settings
	configured bool
	ctx        context.Context // the runs' context, from Start; nil before Start and after Stop
	cancel     context.CancelFunc
	stopped    bool
	weatherJob uuid.UUID // uuid.Nil when not armed
	tipsJob    uuid.UUID
}

// New returns a stopped scheduler. It fails when o.Poster is nil.
func New(o Options) (*Scheduler, error) {
	if o.Poster == nil {
		return nil, errors.New("scheduler: a poster is required")
	}
	s := &Scheduler{poster: o.Poster, forecast: o.Forecaster, tips: o.Tips, tipSessions: o.TipSessions, clock: o.Clock, loc: o.Location, log: o.Log, guard: o.Guard}
	if s.clock == nil {
		s.clock = clockwork.NewRealClock()
	}
	if s.loc == nil {
		s.loc = time.Local
	}
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.guard == nil {
		s.guard = guard.New(s.log, nil)
	}
	cron, err := gocron.NewScheduler(gocron.WithClock(s.clock), gocron.WithLocation(s.loc))
	if err != nil {
		return nil, fmt.Errorf("scheduler: new scheduler: %w", err)
	}
	s.cron = cron
	return s, nil
}

// Configure sets the post time and the tips interval. Once started, a job
// whose setting changed is re-armed (the tips interval counts again from
// now); an unchanged job keeps its schedule. It fails, changing nothing,
// when Hour or Minute is out of range.
func (s *Scheduler) Configure(set Settings) error {
	if set.Hour < 0 || set.Hour > 23 || set.Minute < 0 || set.Minute > 59 {
		return fmt.Errorf("scheduler: the post time %d:%02d is not a time of day", set.Hour, set.Minute)
	}
	set.TipsEveryHours = max(set.TipsEveryHours, 0)
	s.mu.Lock()
	defer s.mu.Unlock()
	old, had := s.set, s.configured
	s.set, s.configured = set, true
	if s.ctx == nil {
		return nil
	}
	var errs []error
	if !had || old.Hour != set.Hour || old.Minute != set.Minute {
		errs = append(errs, s.armWeather())
	}
	if !had || old.TipsEveryHours != set.TipsEveryHours {
		errs = append(errs, s.armTips())
	}
	return errors.Join(errs...)
}

// Start arms the jobs with the settings last given to Configure (none
// until Configure is called) and starts running them. Runs use a context
// derived from ctx that ends at Stop (ctx's cancellation is not followed).
func (s *Scheduler) Start(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ctx != nil || s.stopped {
		return errors.New("scheduler: already started (or stopped)")
	}
	s.ctx, s.cancel = context.WithCancel(context.WithoutCancel(ctx))
	if s.configured {
		if err := errors.Join(s.armWeather(), s.armTips()); err != nil {
			s.cancel()
			s.ctx = nil
			return err
		}
	}
	s.cron.Start()
	return nil
}

// Stop ends the jobs, cancels runs in progress and waits for them (up to
// gocron's 10 s stop timeout). A stopped scheduler cannot be started again;
// Configure on it only records the settings. Stop before Start, or twice,
// does nothing.
func (s *Scheduler) Stop() error {
	s.mu.Lock()
	if s.ctx == nil {
		s.mu.Unlock()
		return nil
	}
	s.cancel()
	s.ctx, s.stopped = nil, true
	s.mu.Unlock()
	return s.cron.Shutdown()
}

// armWeather (with s.mu held) replaces the weather job by one at the
// configured local time; none without a Forecaster.
func (s *Scheduler) armWeather() error {
	s.remove(&s.weatherJob)
	if s.forecast == nil {
		return nil
	}
	at := gocron.NewAtTimes(gocron.NewAtTime(uint(s.set.Hour), uint(s.set.Minute), 0))
	ctx := s.ctx
	j, err := s.cron.NewJob(gocron.DailyJob(1, at), gocron.NewTask(func() { s.run(ctx, JobWeather, s.PostWeather) }),
		gocron.WithName(JobWeather))
	if err != nil {
		return fmt.Errorf("scheduler: weather job: %w", err)
	}
	s.weatherJob = j.ID()
	return nil
}

// armTips (with s.mu held) replaces the tips job by one every
// TipsEveryHours from now; none when 0 or without a TipWriter.
func (s *Scheduler) armTips() error {
	s.remove(&s.tipsJob)
	if s.tips == nil || s.set.TipsEveryHours <= 0 {
		return nil
	}
	ctx := s.ctx
	every := time.Duration(s.set.TipsEveryHours) * time.Hour
	j, err := s.cron.NewJob(gocron.DurationJob(every), gocron.NewTask(func() { s.run(ctx, JobTips, s.tipRun) }),
		gocron.WithName(JobTips))
	if err != nil {
		return fmt.Errorf("scheduler: tips job: %w", err)
	}
	s.tipsJob = j.ID()
	return nil
}

func (s *Scheduler) remove(id *uuid.UUID) {
	if *id != uuid.Nil {
		_ = s.cron.RemoveJob(*id)
		*id = uuid.Nil
	}
}

// run calls fn under the guard with a bounded context; an error is logged.
func (s *Scheduler) run(ctx context.Context, job string, fn func(context.Context) error) {
	if ctx.Err() != nil {
		return
	}
	s.guard.Do(job, func() {
		ctx, cancel := context.WithTimeout(ctx, runTimeout)
		defer cancel()
		switch err := fn(ctx); {
		case errors.Is(err, errSkipped):
		case err != nil:
			s.log.Warn("scheduler: post failed", "job", job, "err", err)
		default:
			s.log.Info("scheduler: posted", "job", job)
		}
	})
}

// tipRun is the tips job's run: skipped during the quiet hour.
func (s *Scheduler) tipRun(ctx context.Context) error {
	if now := s.clock.Now().In(s.loc); now.Hour() == QuietHour {
		s.log.Info("scheduler: tips skipped during the quiet hour", "at", now.Format("15:04"))
		return errSkipped
	}
	return s.PostTip(ctx)
}

// PostWeather posts tomorrow's weather and laundry index now (the daily
// job's work; also usable for a "post now" button). It returns the
// Forecaster's or the Poster's error, or an error when there is no
// Forecaster or the forecast text is blank (nothing is posted then).
func (s *Scheduler) PostWeather(ctx context.Context) error {
	if s.forecast == nil {
		return errors.New("scheduler: no forecaster")
	}
	text, err := s.forecast.TomorrowText(ctx)
	if err != nil {
		return fmt.Errorf("scheduler: forecast: %w", err)
	}
	if strings.TrimSpace(text) == "" {
		return errors.New("scheduler: the forecast text is empty")
	}
	return s.poster.Post(ctx, text)
}

// PostTip writes one tip (on recent talk) and posts it now, whatever the
// hour. It returns the TipWriter's or the Poster's error, or an error when
// there is no TipWriter or the tip is blank (nothing is posted then).
func (s *Scheduler) PostTip(ctx context.Context) error {
	if s.tips == nil {
		return errors.New("scheduler: no tip writer")
	}
	var scope []string
	if s.tipSessions != nil {
		scope = s.tipSessions(ctx)
	}
	text, err := s.tips.Tip(ctx, "", scope)
	if err != nil {
		return fmt.Errorf("scheduler: tip: %w", err)
	}
	if strings.TrimSpace(text) == "" {
		return errors.New("scheduler: the tip is empty")
	}
	return s.poster.Post(ctx, text)
}
