package memory

import (
	"time"
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
	// LastError is the last failure's message ("" when the last job worked).
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

// State returns the session's summary state. Failures are kept in memory
// (per process): a restarted app tries again at once.
func (s *Summarizer) State(sessionID string) State {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := State{Status: StatusIdle}
	if f, ok := s.failures[sessionID]; ok {
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

// backingOff reports whether the session waits out a backoff. Callers hold
// s.mu.
func (s *Summarizer) backingOff(sessionID string) bool {
	f, ok := s.failures[sessionID]
	return ok && s.now().Before(f.next)
}

// noteResult records a job's outcome: a success clears the session's
// failures; a failure starts (or lengthens) its backoff.
func (s *Summarizer) noteResult(sessionID string, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil {
		delete(s.failures, sessionID)
		return
	}
	f := s.failures[sessionID]
	f.count++
	f.err = err.Error()
	f.next = s.now().Add(backoffDelay(f.count))
	s.failures[sessionID] = f
}
