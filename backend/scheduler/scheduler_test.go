package scheduler

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"
)

type post struct {
	at   time.Time
	text string
}

// recPoster records each post with the fake clock's time.
type recPoster struct {
	clock clockwork.Clock
	posts chan post
}

func (p *recPoster) Post(_ context.Context, text string) error {
	p.posts <- post{at: p.clock.Now(), text: text}
	return nil
}

type fakeForecast struct {
	calls atomic.Int32
	fail  func(n int32) error // nil: never
}

func (f *fakeForecast) TomorrowText(context.Context) (string, error) {
	n := f.calls.Add(1)
	if f.fail != nil {
		if err := f.fail(n); err != nil {
			return "", err
		}
	}
	return "明日の東京は晴れ。洗濯指数 5", nil
}

type fakeTips struct {
	calls atomic.Int32
	panic func(n int32) bool
}

func (f *fakeTips) Tip(_ context.Context, hint string, _ []string) (string, error) {
	n := f.calls.Add(1)
	if f.panic != nil && f.panic(n) {
		panic("tip writer exploded")
	}
	return "どうでもいいTips: カタツムリは歯が多い", nil
}

// logSink passes every log message to a channel, so a test can wait for a
// run that posts nothing (a skip or a failure).
type logSink struct{ msgs chan string }

func (h logSink) Enabled(context.Context, slog.Level) bool { return true }
func (h logSink) Handle(_ context.Context, r slog.Record) error {
	select {
	case h.msgs <- r.Message:
	default:
	}
	return nil
}
func (h logSink) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h logSink) WithGroup(string) slog.Handler      { return h }

type harness struct {
	t      *testing.T
	clock  *clockwork.FakeClock
	loc    *time.Location
	poster *recPoster
	fc     *fakeForecast
	tips   *fakeTips
	logs   chan string
	s      *Scheduler
	ctx    context.Context // failsafe: only ends when a test is stuck
}

// newHarness starts a scheduler with set at the given Tokyo wall time.
func newHarness(t *testing.T, tokyo string, set Settings) *harness {
	t.Helper()
	loc, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Skip("no tz database:", err)
	}
	start, err := time.ParseInLocation("2006-01-02 15:04:05", tokyo, loc)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, clock: clockwork.NewFakeClockAt(start), loc: loc, fc: &fakeForecast{}, tips: &fakeTips{}, logs: make(chan string, 100)}
	h.poster = &recPoster{clock: h.clock, posts: make(chan post, 10)}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	h.ctx = ctx
	h.s, err = New(Options{Poster: h.poster, Forecaster: h.fc, Tips: h.tips, Clock: h.clock, Location: loc,
		Log: slog.New(logSink{msgs: h.logs})})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.s.Configure(set); err != nil {
		t.Fatal(err)
	}
	if err := h.s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.s.Stop() })
	return h
}

// armed lets gocron finish its bookkeeping of the last run or change (see
// settle), then waits until at least n timers wait on the fake clock.
func (h *harness) armed(n int) {
	h.t.Helper()
	h.settle()
	if err := h.clock.BlockUntilContext(h.ctx, n); err != nil {
		h.t.Fatalf("%d jobs were never armed", n)
	}
}

// settle makes a request to gocron's scheduler loop, which answers it only
// after the messages it already received: the reschedule and "completed"
// of a run that just posted (both sent before the task runs), or a removed
// job. Without it the test could move the fake clock before gocron reads
// the clock for that bookkeeping, which real time never does.
func (h *harness) settle() {
	for _, j := range h.s.cron.Jobs() {
		_, _ = j.NextRun()
	}
}

// nextPost waits for the next post (failsafe timeout only).
func (h *harness) nextPost(what string) post {
	h.t.Helper()
	select {
	case p := <-h.poster.posts:
		return p
	case <-h.ctx.Done():
		h.t.Fatalf("no post: %s", what)
		return post{}
	}
}

// waitLog waits for a log message containing s.
func (h *harness) waitLog(s string) {
	h.t.Helper()
	for {
		select {
		case m := <-h.logs:
			if strings.Contains(m, s) {
				return
			}
		case <-h.ctx.Done():
			h.t.Fatalf("no log %q", s)
		}
	}
}

func (h *harness) noPost(when string) {
	h.t.Helper()
	select {
	case p := <-h.poster.posts:
		h.t.Fatalf("posted %q at %s, %s", p.text, p.at.In(h.loc).Format(time.DateTime), when)
	default:
	}
}

func (h *harness) local(p post) string { return p.at.In(h.loc).Format("2006-01-02 15:04:05") }

func TestWeatherPostsDailyAtTheLocalTime(t *testing.T) {
	h := newHarness(t, "2026-12-01 07:00:00", Settings{Hour: 8, Minute: 30})
	h.armed(1)
	h.clock.Advance(89*time.Minute + 59*time.Second) // 08:29:59 JST
	h.noPost("before 08:30")
	h.clock.Advance(time.Second)
	p := h.nextPost("at 08:30 JST")
	if got := h.local(p); got != "2026-12-01 08:30:00" || !strings.Contains(p.text, "洗濯指数") {
		t.Fatalf("posted %q at %s, want the forecast at 2026-12-01 08:30:00 JST", p.text, got)
	}
	// Once a day: nothing until the next day's 08:30.
	h.armed(1)
	h.clock.Advance(24*time.Hour - time.Second)
	h.noPost("before the next day's 08:30")
	h.clock.Advance(time.Second)
	if got := h.local(h.nextPost("the next day")); got != "2026-12-02 08:30:00" {
		t.Fatalf("second post at %s", got)
	}
	if n := h.fc.calls.Load(); n != 2 {
		t.Fatalf("forecast asked %d times, want 2", n)
	}
}

func TestReconfigureMovesTheWeatherPost(t *testing.T) {
	h := newHarness(t, "2026-12-01 07:00:00", Settings{Hour: 8, Minute: 0})
	h.armed(1)
	if err := h.s.Configure(Settings{Hour: 9, Minute: 30}); err != nil {
		t.Fatal(err)
	}
	h.armed(1)
	h.clock.Advance(time.Hour) // 08:00: the old time
	h.armed(1)
	h.noPost("at the old time")
	h.clock.Advance(90 * time.Minute)
	if got := h.local(h.nextPost("at the new time")); got != "2026-12-01 09:30:00" {
		t.Fatalf("posted at %s, want 09:30", got)
	}
	if err := h.s.Configure(Settings{Hour: 24, Minute: 0}); err == nil {
		t.Fatal("hour 24 was accepted")
	}
}

func TestTipsEveryNHoursSkipTheThreeOClockHour(t *testing.T) {
	// 23:00 JST, every 2 h: 01:00 posts, 03:00 is skipped, 05:00 posts.
	h := newHarness(t, "2026-11-30 23:00:00", Settings{Hour: 20, Minute: 0, TipsEveryHours: 2})
	h.armed(2) // weather + tips
	h.clock.Advance(2 * time.Hour)
	p := h.nextPost("the 01:00 tip")
	if got := h.local(p); got != "2026-12-01 01:00:00" || !strings.Contains(p.text, "Tips") {
		t.Fatalf("posted %q at %s, want a tip at 01:00", p.text, got)
	}
	h.armed(2)
	h.clock.Advance(2 * time.Hour) // 03:00
	h.waitLog("quiet hour")
	h.noPost("during the 03:00 hour")
	h.armed(2)
	h.clock.Advance(2 * time.Hour)
	if got := h.local(h.nextPost("the 05:00 tip")); got != "2026-12-01 05:00:00" {
		t.Fatalf("tip at %s, want 05:00", got)
	}
	if n := h.tips.calls.Load(); n != 2 {
		t.Fatalf("tip writer asked %d times, want 2 (none at 03:00)", n)
	}
}

func TestZeroHoursPostsNoTips(t *testing.T) {
	h := newHarness(t, "2026-12-01 00:00:00", Settings{Hour: 12, Minute: 0, TipsEveryHours: 1})
	h.armed(2)
	if err := h.s.Configure(Settings{Hour: 12, Minute: 0, TipsEveryHours: 0}); err != nil {
		t.Fatal(err)
	}
	h.armed(1) // only the weather job is left
	for day := range 2 {
		h.clock.Advance(12 * time.Hour)
		if p := h.nextPost("the weather"); !strings.Contains(p.text, "洗濯指数") {
			t.Fatalf("day %d: posted %q, want only the weather", day, p.text)
		}
		h.armed(1)
		h.clock.Advance(12 * time.Hour)
		h.armed(1)
	}
	h.noPost("with tips off")
	if n := h.tips.calls.Load(); n != 0 {
		t.Fatalf("tip writer asked %d times with the interval 0", n)
	}
}

func TestAFailedOrPanickingRunDoesNotStopLaterRuns(t *testing.T) {
	h := newHarness(t, "2026-12-01 05:30:00", Settings{Hour: 6, Minute: 0, TipsEveryHours: 1})
	h.fc.fail = func(n int32) error {
		if n == 1 {
			return errors.New("JMA is down")
		}
		return nil
	}
	h.tips.panic = func(n int32) bool { return n == 1 }
	h.armed(2)
	h.clock.Advance(30 * time.Minute) // 06:00 weather (fails)
	h.waitLog("post failed")
	h.armed(2)
	h.clock.Advance(30 * time.Minute) // 06:30 tip (panics)
	h.waitLog("panicked")
	h.armed(2)
	h.clock.Advance(time.Hour) // 07:30 tip
	if got := h.local(h.nextPost("the tip after the panic")); got != "2026-12-01 07:30:00" {
		t.Fatalf("tip at %s", got)
	}
	h.armed(2)
	h.clock.Advance(22*time.Hour + 30*time.Minute) // tips every hour meanwhile, then 06:00 weather
	var weather bool
	for !weather {
		p := h.nextPost("the next day's weather")
		weather = strings.Contains(p.text, "洗濯指数")
	}
	if n := h.fc.calls.Load(); n != 2 {
		t.Fatalf("forecast asked %d times, want 2", n)
	}
}

func TestPostWeatherRefusesABlankForecast(t *testing.T) {
	rec := &recPoster{clock: clockwork.NewFakeClock(), posts: make(chan post, 1)}
	s, err := New(Options{Poster: rec, Forecaster: blankForecast{}, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.PostWeather(context.Background()); err == nil {
		t.Fatal("a blank forecast was accepted")
	}
	if len(rec.posts) != 0 {
		t.Fatal("a blank forecast was posted")
	}
	if _, err := New(Options{}); err == nil {
		t.Fatal("New without a poster succeeded")
	}
}

type blankForecast struct{}

func (blankForecast) TomorrowText(context.Context) (string, error) { return " \n", nil }

func TestAStoppedSchedulerOnlyRecordsSettings(t *testing.T) {
	rec := &recPoster{clock: clockwork.NewFakeClock(), posts: make(chan post, 1)}
	s, err := New(Options{Poster: rec, Forecaster: &fakeForecast{}, Clock: clockwork.NewFakeClock(), Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Stop(); err != nil {
		t.Fatalf("Stop before Start: %v", err)
	}
	if err := s.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := s.Configure(Settings{Hour: 7}); err != nil {
		t.Fatalf("Configure after Stop: %v", err)
	}
	if len(s.cron.Jobs()) != 0 {
		t.Fatal("Configure after Stop armed a job")
	}
	if err := s.Start(context.Background()); err == nil {
		t.Fatal("a stopped scheduler started again")
	}
}
