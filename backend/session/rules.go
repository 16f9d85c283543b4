package session

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"playchat/backend/apperr"
	"playchat/backend/store"
)

// The rules for what a session may hold. They are the same wherever the data
// comes from: typed into the window (chat.Service.Start, the window's
// Rename), derived from a message (chat.AutoTitle) or read from an imported
// file (Validate).

// MaxTitleRunes is the longest session title, in characters after cleaning.
const MaxTitleRunes = 200

// MaxMessageBytes caps the text of every message (1 MiB,
// store.MaxMessageBytes), whatever its role and wherever it comes from: a
// message typed or edited (CheckUserMessage), a streamed reply (cut there by
// backend/chat), a playchat session file (Validate refuses a longer message),
// a ChatGPT or Claude export (cut there with a visible marker, CapMessage).
const MaxMessageBytes = store.MaxMessageBytes

// ErrEmptyMessage means a user message's text is empty or blank (code
// chat.emptyMessage).
var ErrEmptyMessage error = apperr.New(apperr.ChatEmptyMessage, nil)

// TitleText cleans s into title text without checking its length: invalid
// UTF-8 and control characters (ESC, BEL, NUL, C1, and the bidi controls that
// reorder what a terminal shows) are removed, line breaks and tabs become
// spaces, runs of spaces become one, and the ends are trimmed.
func TitleText(s string) string {
	s = strings.ToValidUTF8(s, "")
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case r == '\n' || r == '\r' || r == '\t' || unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case hiddenRune(r):
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// hiddenRune reports control characters (C0, DEL, C1) and the Unicode bidi
// embedding, override and isolate controls: characters that change how
// surrounding text is shown instead of being shown.
func hiddenRune(r rune) bool {
	return unicode.IsControl(r) || (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069)
}

// CleanTitle applies TitleText to a session title and checks that 1 to
// MaxTitleRunes characters remain; otherwise it returns a coded
// apperr.SessionTitleLength error.
func CleanTitle(title string) (string, error) {
	t := TitleText(title)
	if t == "" || utf8.RuneCountInString(t) > MaxTitleRunes {
		return "", apperr.New(apperr.SessionTitleLength, map[string]any{"max": MaxTitleRunes})
	}
	return t, nil
}

// CheckUserMessage checks the text of a user message: not blank (else
// ErrEmptyMessage), at most MaxMessageBytes (apperr.ChatMessageTooLong) and
// valid UTF-8 (apperr.ChatMessageNotUTF8).
func CheckUserMessage(text string) error {
	if strings.TrimSpace(text) == "" {
		return ErrEmptyMessage
	}
	if err := store.CheckContentSize(text); err != nil {
		return err
	}
	if !utf8.ValidString(text) {
		return apperr.New(apperr.ChatMessageNotUTF8, nil)
	}
	return nil
}

// maxNameRunes is the longest model name or tag a session file may hold.
const maxNameRunes = 200

// checkName checks a short one-line name stored with a session (its model,
// a message's model, a tag): at most maxRunes characters, no control
// characters. It returns the problem in words, or "".
func checkName(s string, maxRunes int) string {
	switch {
	case utf8.RuneCountInString(s) > maxRunes:
		return "is longer than " + strconv.Itoa(maxRunes) + " characters"
	case strings.IndexFunc(s, hiddenRune) >= 0:
		return "contains control characters"
	}
	return ""
}
