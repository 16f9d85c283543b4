package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"playchat/backend/apperr"
	"playchat/backend/redact"
)

// Sentinel errors. Functions wrap them with detail; test with errors.Is.
var (
	// ErrNoModel: the model string is empty or names no model.
	ErrNoModel = errors.New("no model selected")
	// ErrUnknownProvider: the model string has no known provider prefix.
	ErrUnknownProvider = errors.New("unknown model provider")
	// ErrMissingKey: the provider needs an API key that is not configured.
	ErrMissingKey = errors.New("missing API key")
	// ErrInvalidBaseURL: a provider's base URL is set but is not an absolute
	// http(s) URL; nothing is sent (not even to the provider's default).
	ErrInvalidBaseURL = errors.New("invalid base URL")
	// ErrToolsUnsupported: the provider answered 400 saying the model does
	// not support tools / function calling. An *APIError matches it with
	// errors.Is; the caller may retry the request without tools.
	ErrToolsUnsupported = errors.New("model does not support tools")
	// ErrStreamInterrupted: the stream ended before the reply finished (the
	// connection was cut, or the body ended with neither a finish_reason nor
	// "data: [DONE]"). The partial StreamResult is returned with it.
	ErrStreamInterrupted = errors.New("stream interrupted before the reply finished")
)

// interrupted wraps ErrStreamInterrupted and why (both reachable with
// errors.Is/As), coded apperr.LLMInterrupted with why as its detail.
func interrupted(why error) error {
	return apperr.Wrap(apperr.LLMInterrupted, fmt.Errorf("%w: %w", ErrStreamInterrupted, why), map[string]any{"detail": why})
}

// maxRetryAfter caps a provider's Retry-After header.
const maxRetryAfter = 30 * time.Second

// APIError is an error answer from a provider.
type APIError struct {
	// StatusCode is the HTTP status (0 when the error arrived inside an
	// already-started stream without a numeric code).
	StatusCode int
	// Message is the provider's message, with anything key-like scrubbed and
	// cut to a readable length.
	Message string
	// RetryAfter is the provider's Retry-After header (seconds or HTTP date),
	// capped at 30s; 0 when absent.
	RetryAfter time.Duration

	// wrongBase and wrongBaseKey are set (by withBaseURLHint) when a 404
	// came from a base URL the user set; detail is then the provider's own
	// message, before the hint was added to Message.
	wrongBase, wrongBaseKey, detail string
}

// Error returns a short user-readable message, e.g. "provider returned 500: boom".
func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" && e.StatusCode > 0 {
		msg = http.StatusText(e.StatusCode)
	}
	if e.StatusCode > 0 {
		return fmt.Sprintf("provider returned %d: %s", e.StatusCode, msg)
	}
	return "provider error: " + msg
}

// Unwrap returns ErrToolsUnsupported when the error is a 400 whose message
// says tools or function calling are not supported, and nil otherwise.
func (e *APIError) Unwrap() error {
	if e.StatusCode == http.StatusBadRequest && toolsUnsupportedRe.MatchString(e.Message) {
		return ErrToolsUnsupported
	}
	return nil
}

// ErrorCode returns apperr.LLMProviderStatus, or apperr.LLMProviderError
// when the error has no status (apperr.Coded).
func (e *APIError) ErrorCode() apperr.Code {
	if e.wrongBase != "" {
		return apperr.LLMWrongBaseURL
	}
	if e.StatusCode > 0 {
		return apperr.LLMProviderStatus
	}
	return apperr.LLMProviderError
}

// ErrorParams returns {status, detail} as Error words them (apperr.Coded).
func (e *APIError) ErrorParams() map[string]any {
	if e.wrongBase != "" {
		return map[string]any{"detail": e.detail, "baseURL": e.wrongBase, "key": e.wrongBaseKey}
	}
	msg := e.Message
	if msg == "" && e.StatusCode > 0 {
		msg = http.StatusText(e.StatusCode)
	}
	if e.StatusCode > 0 {
		return map[string]any{"status": e.StatusCode, "detail": msg}
	}
	return map[string]any{"detail": msg}
}

// retryable reports whether the status is worth another attempt.
func (e *APIError) retryable() bool {
	return e.StatusCode == http.StatusTooManyRequests || e.StatusCode >= 500
}

var toolsUnsupportedRe = regexp.MustCompile(`(?i)(does ?n[o']t support (tools|tool use|tool calling|tool_choice|function)|(tools?|functions?|function calling|tool calling|tool use|tool_choice)\b[^.]{0,40}\b(not supported|unsupported|not available|not enabled))`)

// maxErrorMessage caps APIError.Message (in bytes, cut on a rune boundary).
const maxErrorMessage = 300

// convertError turns go-openai's errors into *APIError, using the status and
// Retry-After recorded by the transport. Other errors are returned unchanged.
func convertError(err error, st *attemptState) error {
	if err == nil {
		return nil
	}
	var status int
	var msg string
	var oaErr *openai.APIError
	var reqErr *openai.RequestError
	// RequestError first: it may wrap an empty APIError when the body was
	// not OpenAI-shaped (Ollama's {"error":"text"}).
	switch {
	case errors.As(err, &reqErr):
		status = reqErr.HTTPStatusCode
		msg = bodyMessage(reqErr.Body)
	case errors.As(err, &oaErr):
		status = oaErr.HTTPStatusCode
		msg = oaErr.Message
		if status == 0 {
			status = codeAsStatus(oaErr.Code)
		}
	default:
		return err
	}
	ae := &APIError{StatusCode: status, Message: clip(scrub(strings.TrimSpace(msg), ""), maxErrorMessage)}
	if st != nil {
		if ae.StatusCode == 0 && st.status >= 400 {
			ae.StatusCode = st.status
		}
		ae.RetryAfter = st.retryAfter
	}
	return ae
}

// codeAsStatus reads a numeric error "code" (OpenRouter sends HTTP-like codes
// inside streams) as a status, or 0.
func codeAsStatus(code any) int {
	var n int
	switch v := code.(type) {
	case int:
		n = v
	case float64:
		n = int(v)
	case string:
		n, _ = strconv.Atoi(v)
	}
	if n >= 400 && n <= 599 {
		return n
	}
	return 0
}

// bodyMessage extracts a readable message from a non-JSON (or non-standard)
// error body.
func bodyMessage(body []byte) string {
	s := strings.TrimSpace(string(body))
	if s == "" {
		return ""
	}
	// {"error":"text"} (Ollama) or {"message":"text"} or {"detail":"text"}.
	for _, k := range []string{`"error"`, `"message"`, `"detail"`} {
		if i := strings.Index(s, k); i >= 0 {
			rest := strings.TrimLeft(s[i+len(k):], " \t\n:")
			if v, err := strconv.QuotedPrefix(rest); err == nil {
				if u, err := strconv.Unquote(v); err == nil {
					return u
				}
			}
		}
	}
	return s
}

// clip cuts s to at most n bytes on a rune boundary, adding "…" when cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// isConnError reports whether err is a transport failure worth retrying: the
// connection failed or was cut before the reply started. Context errors,
// *APIError and request validation errors are not.
func isConnError(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil {
		return false
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var ae *APIError
	if errors.As(err, &ae) {
		return false
	}
	var ue *url.Error
	var ne net.Error
	return errors.As(err, &ue) || errors.As(err, &ne) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, ErrStreamInterrupted)
}

// parseRetryAfter reads a Retry-After header value: delay-seconds or an HTTP
// date. It returns 0 when absent or unparsable and caps the delay at 30s.
func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	var d time.Duration
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		d = time.Duration(secs * float64(time.Second))
	} else if t, err := http.ParseTime(v); err == nil {
		d = t.Sub(now)
	}
	if d < 0 {
		return 0
	}
	return min(d, maxRetryAfter)
}

var (
	skKeyRe  = regexp.MustCompile(`\bsk-[A-Za-z0-9_\-*.]{3,}`)
	bearerRe = regexp.MustCompile(`(?i)(bearer\s+)[A-Za-z0-9_\-.~+/=*]+`)
)

// scrub removes anything that looks like an API key ("sk-…", "Bearer …"),
// the credentials of URLs (redact.URLCredentials) and every occurrence of
// key (when non-empty) from s.
func scrub(s, key string) string {
	s = redact.URLCredentials(s)
	if key != "" && len(key) >= 4 {
		s = strings.ReplaceAll(s, key, "[redacted]")
	}
	// Neither pattern's match holds a quote or an angle bracket, so each
	// runs only over the parts of s that can hold one (redact.InRuns): s
	// may be the JSON of a request of thousands of messages.
	s = redact.InRuns(s, func(r string) bool { return strings.Contains(r, "sk-") }, func(r string) string {
		return skKeyRe.ReplaceAllString(r, "sk-[redacted]")
	})
	return redact.InRuns(s, hasBearer, func(r string) string {
		return bearerRe.ReplaceAllString(r, "${1}[redacted]")
	})
}

// hasBearer reports whether s holds "bearer" in any case (what bearerRe
// needs to match).
func hasBearer(s string) bool {
	for i := strings.IndexAny(s, "bB"); i >= 0 && i+6 <= len(s); {
		if strings.EqualFold(s[i:i+6], "bearer") {
			return true
		}
		j := strings.IndexAny(s[i+1:], "bB")
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}
