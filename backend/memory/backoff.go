package memory

import (
	"context"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/store"
)

// Summary states (State.Status).
const (
	// StatusIdle: no summary is running and the last one (if any) worked.
	StatusIdle = "idle"
	// StatusRunning: a summary or compaction job runs for the session now.
	StatusRunning = "running"
	// StatusBackoff: the last summaries failed; none is tried before
	// State.NextAttempt, however many turns happen.
	StatusBackoff = "backoff"
)

// Backoff delays after consecutive failures: BackoffBase after the first,
// doubled after each further one, at most BackoffMax.
const (
	BackoffBase = time.Minute
	BackoffMax  = 6 * time.Hour
)

// State is a session's summary state, for the memory panel.
type State struct {
	// Status is StatusIdle, StatusRunning or StatusBackoff.
	Status string
	// Failures counts the consecutive failed jobs (0 after a success).
	Failures int
	// LastError is the last failure in apperr.Stored form: the JSON of its
	// {code, params, message} when it has a code, else its message ("" when
	// the last job worked). apperr.ParseStored reads it back.
	LastError string
	// NextAttempt is when the backoff ends (zero unless Status is
	// StatusBackoff).
	NextAttempt time.Time
}

// failure is the backoff record of one session.
type failure struct {
	count int
	err   string
	next  time.Time
}

// backoffDelay is the wait after n (≥ 1) consecutive failures.
func backoffDelay(n int) time.Duration {
	d := BackoffBase
	for i := 1; i < n && d < BackoffMax; i++ {
		d *= 2
	}
	return min(d, BackoffMax)
}

// State returns the session's summary state. Failures are stored in the
// DB (summary_backoff), so the backoff holds across restarts and across
// CLI runs.
func (s *Summarizer) State(sessionID string) State {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := State{Status: StatusIdle}
	if f, ok := s.failureOf(sessionID); ok {
		st.Failures, st.LastError = f.count, f.err
		if s.now().Before(f.next) {
			st.Status, st.NextAttempt = StatusBackoff, f.next
		}
	}
	if _, ok := s.running[sessionID]; ok {
		st.Status, st.NextAttempt = StatusRunning, time.Time{}
	}
	return st
}

// SetClock replaces time.Now for the backoff (tests).
func (s *Summarizer) SetClock(now func() time.Time) {
	s.mu.Lock()
	s.now = now
	s.mu.Unlock()
}

// failureOf returns the session's failure record, read from the DB the
// first time the session is asked about. Callers hold s.mu.
func (s *Summarizer) failureOf(sessionID string) (failure, bool) {
	if !s.loaded[sessionID] {
		b, ok, err := s.db.GetSummaryBackoff(context.Background(), sessionID)
		if err != nil {
			s.log.Warn("reading the summary backoff", "session", sessionID, "err", err)
			return failure{}, false
		}
		s.loaded[sessionID] = true
		if ok {
			s.failures[sessionID] = failure{count: b.Failures, err: b.LastError, next: b.NextAttemptAt}
		}
	}
	f, ok := s.failures[sessionID]
	return f, ok
}

// backingOff reports whether the session waits out a backoff. Callers hold
// s.mu.
func (s *Summarizer) backingOff(sessionID string) bool {
	f, ok := s.failureOf(sessionID)
	return ok && s.now().Before(f.next)
}

// noteResult records a job's outcome, in memory and in the DB: a success
// clears the session's failures; a failure starts (or lengthens) its
// backoff.
func (s *Summarizer) noteResult(sessionID string, err error) {
	s.mu.Lock()
	prev, had := s.failureOf(sessionID)
	if err == nil {
		delete(s.failures, sessionID)
		s.mu.Unlock()
		if had {
			if derr := s.db.ClearSummaryBackoff(context.Background(), sessionID); derr != nil {
				s.log.Warn("clearing the summary backoff", "session", sessionID, "err", derr)
			}
		}
		return
	}
	f := failure{count: prev.count + 1, err: apperr.Stored(err)}
	f.next = s.now().Add(backoffDelay(f.count))
	s.failures[sessionID] = f
	s.mu.Unlock()
	row := store.SummaryBackoff{SessionID: sessionID, Failures: f.count, LastError: f.err, NextAttemptAt: f.next}
	if derr := s.db.SaveSummaryBackoff(context.Background(), row); derr != nil {
		s.log.Warn("saving the summary backoff", "session", sessionID, "err", derr)
	}
}
