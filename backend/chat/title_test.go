package chat

import (
	"context"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/session"
)

// A title derived from the first message follows the title rules every
// title meets (session.TitleText): no terminal escapes reach the session list.
func TestAutoTitleDropsControlCharacters(t *testing.T) {
	got := AutoTitle("\x1b]0;owned\x07\x00こんにちは\x1b[2J 世界\nつづき")
	if got != "]0;ownedこんにちは[2J 世界" {
		t.Errorf("AutoTitle = %q", got)
	}
	if strings.ContainsAny(got, "\x1b\x07\x00") {
		t.Errorf("AutoTitle kept control characters: %q", got)
	}
}

// Start checks a typed message with the rule an imported one meets.
func TestStartUsesTheSharedUserMessageRule(t *testing.T) {
	s := &Service{}
	for text, want := range map[string]error{
		"   ":                                  session.ErrEmptyMessage,
		strings.Repeat("x", MaxMessageBytes+1): session.CheckUserMessage(strings.Repeat("x", MaxMessageBytes+1)),
		"bad \xff":                             session.CheckUserMessage("bad \xff"),
	} {
		_, err := s.Start(context.Background(), TurnRequest{Text: text}, nil)
		if err == nil || err.Error() != want.Error() || apperr.CodeOf(err) != apperr.CodeOf(want) {
			t.Errorf("Start(%.10q…) = %v, want %v", text, err, want)
		}
	}
}
