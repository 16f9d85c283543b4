package weather

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jonboulle/clockwork"

	"playchat/backend/apperr"
)

// jmaServer serves fixture documents at /<office>.json like JMA does and
// records the requests.
type jmaServer struct {
	*httptest.Server
	mu     sync.Mutex
	docs   map[string][]byte // office → document
	status int               // non-zero: answer this status instead
	hits   int
	agents []string
}

func newJMAServer(t *testing.T) *jmaServer {
	s := &jmaServer{docs: map[string][]byte{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.hits++
		s.agents = append(s.agents, r.Header.Get("User-Agent"))
		if s.status != 0 {
			w.WriteHeader(s.status)
			return
		}
		doc, ok := s.docs[strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/"), ".json")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(doc)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *jmaServer) set(office string, doc []byte, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if doc != nil {
		s.docs[office] = doc
	}
	s.status = status
}

func (s *jmaServer) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits
}

// 2022-02-22 22:30 JST: the 17:00 release is current, tomorrow is 02-23.
var evening = time.Date(2022, 2, 22, 13, 30, 0, 0, time.UTC)

func TestServiceTomorrowIsRelativeToTheClockInTokyo(t *testing.T) {
	srv := newJMAServer(t)
	srv.set("130000", readFixture(t, "forecast-tokyo-130000-20220222-2212.json"), 0)
	clock := clockwork.NewFakeClockAt(evening)
	s := NewService(Options{BaseURL: srv.URL, Clock: clock, Version: "1.2.3"})
	d, err := s.Tomorrow(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	checkDay(t, "tomorrow at 22:30 JST", d, want{date: "2022-02-23", code: "111", min: "-1", max: "9", pops: "0,0,10,10", laundry: 5})

	// 00:30 JST on 02-23 (still 02-22 in UTC): tomorrow is 02-24, which the
	// 17:00 release covers in its short-term block.
	clock.Advance(2 * time.Hour)
	d, err = s.Tomorrow(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if d.Date != "2022-02-24" || d.WeatherCode != "101" {
		t.Errorf("after midnight JST: %s %s, want 2022-02-24 101", d.Date, d.WeatherCode)
	}
	if ua := srv.agents[0]; !strings.HasPrefix(ua, "playchat/1.2.3 (+https://") {
		t.Errorf("User-Agent %q", ua)
	}

	s.Configure("130000", "小笠原諸島")
	txt, err := s.TomorrowText(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(txt, "2月24日(木) 小笠原諸島の天気は「曇時々晴」。") || !strings.Contains(txt, "洗濯指数 ") {
		t.Errorf("text %s", txt)
	}
}

func TestServiceCachesPerOfficeAndServesTheStaleDocumentWhenARefetchFails(t *testing.T) {
	srv := newJMAServer(t)
	srv.set("130000", readFixture(t, "forecast-tokyo-130000-20220222-0827.json"), 0)
	srv.set("070000", readFixture(t, "forecast-fukushima-070000-20220222-1117.json"), 0)
	clock := clockwork.NewFakeClockAt(time.Date(2022, 2, 22, 3, 0, 0, 0, time.UTC)) // 12:00 JST
	var logs bytes.Buffer
	s := NewService(Options{BaseURL: srv.URL + "/", Clock: clock, Log: slog.New(slog.NewTextHandler(&logs, nil))})
	ctx := context.Background()

	if _, err := s.Tomorrow(ctx); err != nil {
		t.Fatal(err)
	}
	clock.Advance(9 * time.Minute)
	if _, err := s.Tomorrow(ctx); err != nil {
		t.Fatal(err)
	}
	if n := srv.count(); n != 1 {
		t.Fatalf("%d fetches within 10 minutes, want 1", n)
	}
	// Another office has its own cache entry.
	s.Configure("070000", "")
	d, err := s.Tomorrow(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d.Area != "中通り" || srv.count() != 2 {
		t.Errorf("office 070000: area %q after %d fetches", d.Area, srv.count())
	}
	s.Configure("130000", "")

	// After 10 minutes it fetches again; a newer release replaces the cache.
	srv.set("130000", readFixture(t, "forecast-tokyo-130000-20220222-2212.json"), 0)
	clock.Advance(2 * time.Minute)
	f, err := s.Forecast(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if srv.count() != 3 || f.Report.Hour() != 17 {
		t.Errorf("after 11 minutes: %d fetches, report %v", srv.count(), f.Report)
	}

	// A failing refetch serves the cached release and logs it as stale.
	srv.set("130000", nil, http.StatusServiceUnavailable)
	clock.Advance(RefetchAfter)
	f, err = s.Forecast(ctx)
	if err != nil {
		t.Fatalf("a failing refetch with a cached document: %v", err)
	}
	if f.Report.Hour() != 17 || srv.count() != 4 {
		t.Errorf("stale serve: report %v, %d fetches", f.Report, srv.count())
	}
	if !strings.Contains(logs.String(), "stale") || !strings.Contains(logs.String(), "503") {
		t.Errorf("log does not say the forecast is stale: %s", logs.String())
	}
	// The failed attempt counts: no new fetch within the next 10 minutes.
	clock.Advance(time.Minute)
	if _, err := s.Forecast(ctx); err != nil || srv.count() != 4 {
		t.Errorf("refetched %d times right after a failure (err %v)", srv.count(), err)
	}
}

func TestServiceErrorsAreCoded(t *testing.T) {
	srv := newJMAServer(t)
	clock := clockwork.NewFakeClockAt(evening)
	ctx := context.Background()

	s := NewService(Options{BaseURL: srv.URL, Clock: clock, Office: "13000x"})
	if _, err := s.Tomorrow(ctx); apperr.CodeOf(err) != apperr.WeatherBadOffice || srv.count() != 0 {
		t.Errorf("bad office: %v after %d fetches", err, srv.count())
	}

	srv.set("130000", nil, http.StatusInternalServerError)
	s = NewService(Options{BaseURL: srv.URL, Clock: clock})
	_, err := s.Tomorrow(ctx)
	var ae *apperr.Error
	if apperr.CodeOf(err) != apperr.WeatherFetchStatus {
		t.Errorf("500 without a cache: %v", err)
	} else if !errors.As(err, &ae) || ae.Params["status"] != 500 {
		t.Errorf("status param %v", ae.Params)
	}
	// Within a minute of the failure the error is repeated without a request;
	// after it, JMA is asked again.
	srv.set("130000", readFixture(t, "forecast-tokyo-130000-20220222-2212.json"), 0)
	clock.Advance(30 * time.Second)
	if _, err := s.Tomorrow(ctx); apperr.CodeOf(err) != apperr.WeatherFetchStatus || srv.count() != 1 {
		t.Errorf("right after a failure: %v after %d requests", err, srv.count())
	}
	clock.Advance(RetryFailedAfter)
	if _, err := s.Tomorrow(ctx); err != nil || srv.count() != 2 {
		t.Errorf("a minute after a failure: %v after %d requests", err, srv.count())
	}

	srv.set("130000", readFixture(t, "otiai10-overview_forecast-130000.json"), 0)
	s = NewService(Options{BaseURL: srv.URL, Clock: clock})
	if _, err := s.Tomorrow(ctx); apperr.CodeOf(err) != apperr.WeatherBadDocument {
		t.Errorf("an overview document: %v", err)
	}

	srv.set("130000", readFixture(t, "forecast-tokyo-130000-20220222-2212.json"), 0)
	s = NewService(Options{BaseURL: srv.URL, Clock: clock, Area: "大阪府"})
	if _, err := s.TomorrowText(ctx); apperr.CodeOf(err) != apperr.WeatherUnknownArea {
		t.Errorf("unknown area: %v", err)
	}

	s = NewService(Options{BaseURL: "http://127.0.0.1:1", Clock: clock})
	if _, err := s.Tomorrow(ctx); apperr.CodeOf(err) != apperr.WeatherUnreachable {
		t.Errorf("unreachable: %v", err)
	}
}
