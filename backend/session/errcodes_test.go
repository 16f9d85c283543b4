package session

import (
	"strings"
	"testing"

	"playchat/backend/apperr"
)

func TestAnInvalidFileIsCodedWithItsProblemsAsDetail(t *testing.T) {
	_, err := Parse(strings.NewReader(`{"format":"x"}`))
	in := apperr.InfoOf(err)
	if in.Code != apperr.SessionInvalidFile || !strings.HasPrefix(in.Message, "invalid session file: ") {
		t.Fatalf("error as %+v", in)
	}
	if d, _ := in.Params["detail"].(string); d == "" || !strings.HasSuffix(in.Message, d) {
		t.Errorf("detail %q is not the text after the prefix of %q", d, in.Message)
	}
	many := &ValidationError{Problems: strings.Split("a b c d e f g h i j k l", " ")}
	if got := many.Error(); got != "invalid session file: a; b; c; d; e; f; g; h; i; j (and 2 more)" {
		t.Errorf("twelve problems read %q", got)
	}
}
