package weather

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/jonboulle/clockwork"

	"playchat/backend/apperr"
	"playchat/backend/config"
)

// DefaultBaseURL is where JMA serves the forecast documents; the office
// code and ".json" follow it.
const DefaultBaseURL = "https://www.jma.go.jp/bosai/forecast/data/forecast"

// BaseURLEnv names the environment variable that points the forecast
// client at another server than JMA's (the end-to-end scripts); unset or
// empty means DefaultBaseURL.
const BaseURLEnv = "PLAYCHAT_JMA_BASE_URL"

// BaseURLFromEnviron returns BaseURLEnv's last value in environ (KEY=value
// strings, as os.Environ), "" when unset.
func BaseURLFromEnviron(environ []string) string {
	v := ""
	for _, kv := range environ {
		if k, val, ok := strings.Cut(kv, "="); ok && k == BaseURLEnv {
			v = val
		}
	}
	return v
}

// DefaultOffice is the office used when none is configured (Tokyo).
const DefaultOffice = "130000"

// Timeout bounds one fetch (connect, headers and body).
const Timeout = 10 * time.Second

// RefetchAfter is the least time between two fetches of one office: within
// it the cached document is served without asking JMA (JMA updates the
// forecast three times a day, at 05:00, 11:00 and 17:00 JST).
const RefetchAfter = 10 * time.Minute

// maxDocBytes bounds a forecast document (real ones are 7–25 KB).
const maxDocBytes = 2 << 20

// Options configure a Service. Zero values take the defaults.
type Options struct {
	// BaseURL replaces DefaultBaseURL (tests point it at an httptest server).
	BaseURL string
	// HTTP is the client; nil uses one with Timeout.
	HTTP *http.Client
	// Office is the JMA office code (6 digits, WEATHER_OFFICE_CODE); "" = DefaultOffice.
	Office string
	// Area is the forecast area by name or code (WEATHER_AREA); "" = the first.
	Area string
	// Clock gives "now" (tomorrow is the day after now in Asia/Tokyo); nil = the real clock.
	Clock clockwork.Clock
	// Log receives fetch failures and stale serves; nil discards.
	Log *slog.Logger
	// Version goes into the User-Agent ("playchat/<Version> (+…)"); "" = "dev".
	Version string
}

// Service fetches the forecast of the configured office politely (a
// timeout, a User-Agent, at most one fetch per office every RefetchAfter)
// and keeps the last document of each office, keyed by its reportDatetime.
// When a refetch fails it serves the cached document and logs that it is
// stale. It is safe for concurrent use.
type Service struct {
	base, ua string
	hc       *http.Client
	clock    clockwork.Clock
	log      *slog.Logger

	mu           sync.Mutex
	office, area string
	cache        map[string]*cached
	failed       map[string]failure // offices with no document whose last fetch failed
}

// failure is the last failed fetch of an office that has no document.
type failure struct {
	at  time.Time
	err error
}

// RetryFailedAfter is the least time between two fetches of an office
// whose last fetch failed and that has no cached document: within it the
// same error is returned without asking JMA again.
const RetryFailedAfter = time.Minute

// cached is the last document of one office.
type cached struct {
	f         Forecast
	report    string    // its reportDatetime (RFC 3339): the cache key of the release
	fetchedAt time.Time // when it was last fetched or confirmed
	tried     time.Time // the last fetch attempt (success or not)
}

// NewService returns a Service for o.
func NewService(o Options) *Service {
	s := &Service{base: strings.TrimRight(o.BaseURL, "/"), hc: o.HTTP, clock: o.Clock, log: o.Log,
		office: o.Office, area: o.Area, cache: map[string]*cached{}, failed: map[string]failure{}}
	if s.base == "" {
		s.base = DefaultBaseURL
	}
	if s.hc == nil {
		s.hc = &http.Client{Timeout: Timeout}
	}
	if s.clock == nil {
		s.clock = clockwork.NewRealClock()
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	v := o.Version
	if v == "" {
		v = "dev"
	}
	s.ua = "playchat/" + v + " (+https://github.com/playchat/playchat; weather forecast for a personal chat app)"
	return s
}

// OptionsFromConfig returns the office and area of cfg
// (WEATHER_OFFICE_CODE, WEATHER_AREA) as Options; the caller adds the rest.
func OptionsFromConfig(cfg config.Config) Options {
	return Options{Office: cfg.WeatherOfficeCode, Area: cfg.WeatherArea}
}

// Reconfigure takes the office and area of cfg (on a settings change).
func (s *Service) Reconfigure(cfg config.Config) { s.Configure(cfg.WeatherOfficeCode, cfg.WeatherArea) }

// Configure changes the office and area (on a settings change); the cache
// of every office is kept.
func (s *Service) Configure(office, area string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.office, s.area = office, area
}

func (s *Service) settings() (office, area string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	office = strings.TrimSpace(s.office)
	if office == "" {
		office = DefaultOffice
	}
	return office, s.area
}

// ValidOffice reports whether office is 6 ASCII digits.
func ValidOffice(office string) bool {
	if len(office) != 6 {
		return false
	}
	for _, c := range office {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Forecast returns the configured office's forecast: the cached one when it
// was fetched less than RefetchAfter ago, else a fresh fetch; when that
// fails and a document is cached, the cached one (logged as stale). Without
// a cached document a failure is remembered for RetryFailedAfter, during
// which the same error is returned without a request.
// Errors: weather.badOffice, weather.unreachable, weather.fetchStatus,
// weather.badDocument (all without a cached document to fall back on).
func (s *Service) Forecast(ctx context.Context) (Forecast, error) {
	office, _ := s.settings()
	return s.forecast(ctx, office)
}

func (s *Service) forecast(ctx context.Context, office string) (Forecast, error) {
	if !ValidOffice(office) {
		return Forecast{}, apperr.New(apperr.WeatherBadOffice, map[string]any{"office": office})
	}
	now := s.clock.Now()
	s.mu.Lock()
	c := s.cache[office]
	if c != nil && now.Sub(c.tried) < RefetchAfter {
		f := c.f
		s.mu.Unlock()
		return f, nil
	}
	if c != nil {
		c.tried = now // one fetch at a time per window, even when it fails
	} else if fl, ok := s.failed[office]; ok && now.Sub(fl.at) < RetryFailedAfter {
		s.mu.Unlock()
		return Forecast{}, fl.err
	}
	s.mu.Unlock()

	f, err := s.fetch(ctx, office)
	s.mu.Lock()
	defer s.mu.Unlock()
	c = s.cache[office]
	if err != nil {
		if c != nil {
			s.log.Warn("weather: fetch failed; serving the cached forecast (stale)", "office", office,
				"report", c.report, "fetchedAt", c.fetchedAt, "err", err)
			return c.f, nil
		}
		s.failed[office] = failure{at: now, err: err}
		return Forecast{}, err
	}
	delete(s.failed, office)
	report := f.Report.Format(time.RFC3339)
	if c != nil && c.report == report {
		c.fetchedAt, c.tried = now, now // same release: keep it
		return c.f, nil
	}
	s.cache[office] = &cached{f: f, report: report, fetchedAt: now, tried: now}
	return f, nil
}

// fetch GETs and parses one office's document.
func (s *Service) fetch(ctx context.Context, office string) (Forecast, error) {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.base+"/"+office+".json", nil)
	if err != nil {
		return Forecast{}, apperr.Wrap(apperr.WeatherUnreachable, err, map[string]any{"office": office})
	}
	req.Header.Set("User-Agent", s.ua)
	req.Header.Set("Accept", "application/json")
	resp, err := s.hc.Do(req)
	if err != nil {
		return Forecast{}, apperr.Wrap(apperr.WeatherUnreachable, err, map[string]any{"office": office})
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		return Forecast{}, apperr.New(apperr.WeatherFetchStatus, map[string]any{"office": office, "status": resp.StatusCode})
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDocBytes+1))
	if err != nil {
		return Forecast{}, apperr.Wrap(apperr.WeatherUnreachable, err, map[string]any{"office": office})
	}
	if len(body) > maxDocBytes {
		return Forecast{}, badDocument("longer than %d bytes", maxDocBytes)
	}
	f, err := Parse(body)
	if err != nil {
		return Forecast{}, fmt.Errorf("office %s: %w", office, err)
	}
	return f, nil
}

// Tomorrow returns tomorrow's forecast for the configured area, where
// tomorrow is the day after the clock's now in Asia/Tokyo (JST).
func (s *Service) Tomorrow(ctx context.Context) (Day, error) {
	office, area := s.settings()
	f, err := s.forecast(ctx, office)
	if err != nil {
		return Day{}, err
	}
	date := s.clock.Now().In(JST).AddDate(0, 0, 1).Format(dateLayout)
	return f.DayFor(area, date)
}

// TomorrowText returns tomorrow's forecast as one Japanese paragraph for a
// Discord post or the weather reply (see Day.Text). It implements
// scheduler.Forecaster.
func (s *Service) TomorrowText(ctx context.Context) (string, error) {
	d, err := s.Tomorrow(ctx)
	if err != nil {
		return "", err
	}
	return d.Text(), nil
}
