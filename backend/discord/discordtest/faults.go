package discordtest

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// fault is a scripted answer for the next matching REST calls.
type fault struct {
	left       int
	prefix     string
	status     int
	retryAfter time.Duration
}

func (f *fault) matches(route string) bool {
	if f.prefix == "" {
		return route != "/gateway"
	}
	return strings.HasPrefix(route, f.prefix)
}

// FailNext makes the next n REST calls whose Route starts with routePrefix
// ("" = any call except GET /gateway) answer status with Discord's error body
// {"message": "<status>: <text>", "code": 0}. The calls are still recorded
// (with that status). Note discordgo itself retries a 502 up to
// Session.MaxRestRetries times, and a 429 is better scripted with RateLimitNext.
func (s *Server) FailNext(n int, routePrefix string, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &fault{left: n, prefix: routePrefix, status: status})
}

// RateLimitNext makes the next n REST calls whose Route starts with
// routePrefix ("" = any except GET /gateway) answer 429 as Discord does:
// body {"message": "You are being rate limited.", "retry_after": seconds,
// "global": false} and the X-RateLimit-* / Retry-After headers (Retry-After in
// whole seconds, rounded up, as Discord sends it). discordgo waits retry_after
// and retries by itself (Session.ShouldRetryOnRateLimit, on by default).
func (s *Server) RateLimitNext(n int, routePrefix string, retryAfter time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &fault{left: n, prefix: routePrefix, status: http.StatusTooManyRequests, retryAfter: retryAfter})
}

// takeFault consumes the first armed fault matching route, if any.
func (s *Server) takeFault(route string) *fault {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, f := range s.faults {
		if f.left > 0 && f.matches(route) {
			f.left--
			if f.left == 0 {
				s.faults = append(s.faults[:i], s.faults[i+1:]...)
			}
			return f
		}
	}
	return nil
}

// answer gives the status, headers and body of a fault.
func (f *fault) answer() (int, http.Header, any) {
	h := http.Header{}
	if f.status != http.StatusTooManyRequests {
		return f.status, h, apiError{fmt.Sprintf("%d: %s", f.status, http.StatusText(f.status)), 0}
	}
	secs := f.retryAfter.Seconds()
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(secs))))
	h.Set("X-RateLimit-Limit", "5")
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset-After", strconv.FormatFloat(secs, 'f', 3, 64))
	h.Set("X-RateLimit-Bucket", "fake-bucket")
	h.Set("X-RateLimit-Scope", "user")
	return f.status, h, map[string]any{"message": "You are being rate limited.", "retry_after": secs, "global": false}
}
