package cli

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// safeWriter is what every command writes through (Run wraps stdout and
// stderr): stored text — session titles, replies, file names, excerpts —
// may hold terminal control sequences (ESC, BEL, C1 CSI, bidi overrides)
// that would retitle, clear or spoof the user's terminal. Each such
// character is written as a visible \uXXXX escape instead; an invalid UTF-8
// byte as \xXX. Newline and tab pass, and CR only as part of CRLF (which
// becomes LF). The escapes are JSON's, so --json output stays valid JSON with
// the same values.
type safeWriter struct {
	mu      sync.Mutex
	w       io.Writer
	pending []byte // an incomplete UTF-8 sequence, or a CR, held for the next Write
}

func newSafeWriter(w io.Writer) *safeWriter { return &safeWriter{w: w} }

// Write escapes p and writes it; it reports len(p) when the underlying
// writer took everything.
func (s *safeWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	buf := append(s.pending, p...)
	s.pending = nil
	var out []byte
	for i := 0; i < len(buf); {
		b := buf[i]
		if b == '\r' {
			switch {
			case i+1 == len(buf):
				s.pending = append(s.pending, b)
				i++
			case buf[i+1] == '\n':
				i++ // CRLF → LF
			default:
				out = append(out, `\u000d`...)
				i++
			}
			continue
		}
		if b < utf8.RuneSelf {
			if b == '\n' || b == '\t' || (b >= 0x20 && b != 0x7f) {
				out = append(out, b)
			} else {
				out = fmt.Appendf(out, `\u%04x`, b)
			}
			i++
			continue
		}
		if !utf8.FullRune(buf[i:]) {
			s.pending = append(s.pending, buf[i:]...)
			break
		}
		r, n := utf8.DecodeRune(buf[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			out = fmt.Appendf(out, `\x%02x`, b)
		case hiddenRune(r):
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = append(out, buf[i:i+n]...)
		}
		i += n
	}
	if _, err := s.w.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what Write held back (a lone CR, a cut UTF-8 sequence), escaped.
func (s *safeWriter) Flush() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.pending) == 0 {
		return nil
	}
	var out []byte
	for _, b := range s.pending {
		if b == '\r' {
			out = append(out, `\u000d`...)
		} else {
			out = fmt.Appendf(out, `\x%02x`, b)
		}
	}
	s.pending = nil
	_, err := s.w.Write(out)
	return err
}

// hiddenRune reports the characters safeWriter escapes: C0 and C1 controls,
// DEL, and the bidi embedding, override and isolate controls.
func hiddenRune(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// oneLine makes stored text fit one line of a table or list: line breaks
// and tabs become spaces (safeWriter escapes anything else).
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '\n', '\r', '\t', '\v', '\f', 0x85, 0x2028, 0x2029:
			return ' '
		}
		return r
	}, s)
}
