package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	openai "github.com/sashabaranov/go-openai"
)

// TagMarker is the text playchat's tagging prompt (backend/tagging) carries
// in its system message. The fake answers such a request itself with
// FakeTags of the last user message, as {"tags":[…]}: it consumes no
// scripted reply and is recorded in TagRequests, not Requests, so tests and
// end-to-end scripts that count or script turn requests are unaffected by
// the background tagger.
const TagMarker = "playchat:tags"

// IsTagRequest reports whether rec is a tagging request (a system message
// containing TagMarker).
func IsTagRequest(rec RecordedRequest) bool {
	for _, m := range rec.Messages {
		if m.Role == openai.ChatMessageRoleSystem && strings.Contains(m.Content, TagMarker) {
			return true
		}
	}
	return false
}

// tagState is the fake's tagging side (guarded by Server.mu).
type tagState struct {
	requests []RecordedRequest
	fail     int           // the next fail tagging requests answer 503
	prose    string        // non-empty: every tagging request gets this text, not tags
	gate     chan struct{} // non-nil: each request waits for a token
	inFlight int
	maxIn    int
}

// FakeTags is the fake's deterministic tagging of text: its first three
// distinct words of at least two runes (Latin words, and runs of kanji or
// katakana; hiragana runs, mostly particles and endings, are skipped),
// each cut to 8 runes, then "tag1", "tag2"… when there are fewer.
func FakeTags(text string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(w string) {
		if utf8.RuneCountInString(w) < 2 || len(out) >= 3 {
			return
		}
		if r := []rune(w); len(r) > 8 {
			w = string(r[:8])
		}
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	var b strings.Builder
	kind := 0 // 0 none, 1 Latin/digit, 2 kanji/katakana, 3 hiragana
	flush := func() {
		if kind != 3 {
			add(b.String())
		}
		b.Reset()
	}
	for _, r := range text {
		k := 0
		switch {
		case unicode.Is(unicode.Hiragana, r):
			k = 3
		case unicode.In(r, unicode.Han, unicode.Katakana) || r == 'ー':
			k = 2
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			k = 1
		}
		if k != kind {
			flush()
			kind = k
		}
		if k != 0 {
			b.WriteRune(r)
		}
	}
	flush()
	for i := 1; len(out) < 3; i++ {
		add(fmt.Sprintf("tag%d", i))
	}
	return out
}

// TagRequests returns the tagging requests received so far, in order.
func (s *Server) TagRequests() []RecordedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]RecordedRequest(nil), s.tags.requests...)
}

// FailTagRequests makes the next n tagging requests answer HTTP 503.
func (s *Server) FailTagRequests(n int) {
	s.mu.Lock()
	s.tags.fail = n
	s.mu.Unlock()
}

// AnswerTagsWithProse makes every later tagging request answer text
// instead of {"tags":[…]} — a model that does not answer in JSON ("" goes
// back to tags).
func (s *Server) AnswerTagsWithProse(text string) {
	s.mu.Lock()
	s.tags.prose = text
	s.mu.Unlock()
}

// HoldTagRequests makes every later tagging request wait (before answering)
// until ReleaseTagRequest lets it go, one per call; a test can then see
// how many are in flight at once (TagsInFlight).
func (s *Server) HoldTagRequests() {
	s.mu.Lock()
	if s.tags.gate == nil {
		s.tags.gate = make(chan struct{}, 1024)
	}
	s.mu.Unlock()
}

// ReleaseTagRequest lets one held tagging request (or the next one to
// arrive) be answered.
func (s *Server) ReleaseTagRequest() {
	s.mu.Lock()
	g := s.tags.gate
	s.mu.Unlock()
	if g != nil {
		g <- struct{}{}
	}
}

// TagsInFlight returns how many tagging requests are being answered now,
// and the most there ever were at once.
func (s *Server) TagsInFlight() (now, most int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tags.inFlight, s.tags.maxIn
}

func (s *Server) serveTags(w http.ResponseWriter, r *http.Request, rec RecordedRequest) {
	s.mu.Lock()
	s.seq++
	id := fmt.Sprintf("chatcmpl-fake-%d", s.seq)
	s.tags.inFlight++
	s.tags.maxIn = max(s.tags.maxIn, s.tags.inFlight)
	gate := s.tags.gate
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		s.tags.inFlight--
		s.mu.Unlock()
	}()
	if gate != nil {
		select {
		case <-gate:
		case <-r.Context().Done():
			return
		}
	}
	s.mu.Lock()
	fail := s.tags.fail > 0
	if fail {
		s.tags.fail--
	}
	prose := s.tags.prose
	s.mu.Unlock()
	if prose != "" {
		s.respond(w, r, rec, Response{Chunks: []string{prose}}, id)
		return
	}
	if fail {
		writeError(w, http.StatusServiceUnavailable, `{"error":{"message":"fake tagging failure","type":"fake_error"}}`)
		return
	}
	b, _ := json.Marshal(map[string]any{"tags": FakeTags(rec.LastUserMessage())})
	s.respond(w, r, rec, Response{Chunks: []string{string(b)}}, id)
}
