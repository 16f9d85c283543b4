package apperr

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite frontend/src/api/errorCodes.ts from Codes()")

func TestErrorRendersTheEnglishTemplateWithParams(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{New(SessionTitleLength, map[string]any{"max": 200}), "a title needs 1 to 200 characters"},
		{Wrap(LLMNoModelName, errors.New("no model selected"), map[string]any{"model": `openai/"x"`}), `no model selected: "openai/\"x\"" names no model after the provider`},
		{Wrap(NotesPageNotFound, errors.New("not found"), map[string]any{"id": 7}), "note page 7: not found"},
		{New(ConfigInvalidValue, map[string]any{"key": "K", "value": "v", "reason": New(ConfigReasonIntMin, map[string]any{"min": 1})}),
			`config: invalid K "v": must be an integer ≥ 1`},
		{New(ChatUnreachable, map[string]any{"host": "http://h"}), "cannot reach the model server at http://h ()"},
		{New("no.such.code", map[string]any{"b": 2, "a": "x"}), "no.such.code (a=x, b=2)"},
		{New("no.such.code", nil), "no.such.code"},
	}
	for _, c := range cases {
		if got := c.err.Error(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
	}
}

func TestCodeSurvivesWrappingAndIsMatchesTheCode(t *testing.T) {
	base := errors.New("boom")
	err := fmt.Errorf("outer: %w", Wrap(KBSymlink, base, nil))
	if got := CodeOf(err); got != KBSymlink {
		t.Fatalf("CodeOf = %q, want %q", got, KBSymlink)
	}
	if !errors.Is(err, base) {
		t.Error("the cause is not reachable with errors.Is")
	}
	if !errors.Is(err, New(KBSymlink, nil)) {
		t.Error("errors.Is does not match an *Error of the same code")
	}
	if errors.Is(err, New(KBNotText, nil)) {
		t.Error("errors.Is matches another code")
	}
	var ae *Error
	if !errors.As(err, &ae) || ae.Err != base {
		t.Errorf("errors.As gave %#v", ae)
	}
	if CodeOf(base) != "" || CodeOf(nil) != "" {
		t.Error("an uncoded error has a code")
	}
}

func TestInfoCarriesTheOutermostCodeAndNestedErrorsAsInfo(t *testing.T) {
	reason := New(ConfigReasonOneOf, map[string]any{"choices": "a, b"})
	err := fmt.Errorf("save: %w", New(ConfigInvalidValue, map[string]any{"key": "K", "value": "x", "reason": reason}))
	b, merr := json.Marshal(InfoOf(err))
	if merr != nil {
		t.Fatal(merr)
	}
	var got struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Params  struct {
			Key    string `json:"key"`
			Reason struct {
				Code   string         `json:"code"`
				Params map[string]any `json:"params"`
			} `json:"reason"`
		} `json:"params"`
	}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got.Code != string(ConfigInvalidValue) || got.Params.Key != "K" || got.Params.Reason.Code != string(ConfigReasonOneOf) ||
		got.Params.Reason.Params["choices"] != "a, b" || got.Message != `save: config: invalid K "x": must be one of a, b` {
		t.Errorf("encoded as %s", b)
	}
	plain := InfoOf(errors.New("plain"))
	if plain.Code != "" || plain.Message != "plain" {
		t.Errorf("uncoded error as %+v", plain)
	}
}

func TestEveryCodeHasATemplateAndNoCodeIsAPrefixOfAnother(t *testing.T) {
	specs := Codes()
	if len(specs) < 50 {
		t.Fatalf("only %d codes", len(specs))
	}
	for i, s := range specs {
		if s.Template == "" {
			t.Errorf("%s has no template", s.Code)
		}
		// vue-i18n reads dots as nesting: "a.b" and "a.b.c" cannot both be messages.
		for _, o := range specs[i+1:] {
			if strings.HasPrefix(string(o.Code), string(s.Code)+".") {
				t.Errorf("%s is a prefix of %s", s.Code, o.Code)
			}
		}
	}
}

// TestFrontendCodeListIsCurrent keeps frontend/src/api/errorCodes.ts (the
// list the locale test walks) equal to Codes(); run with -update to rewrite it.
func TestFrontendCodeListIsCurrent(t *testing.T) {
	path := filepath.Join("..", "..", "frontend", "src", "api", "errorCodes.ts")
	want := FrontendCodeList()
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is stale: run go test ./backend/apperr -update", path)
	}
}

func TestTheCauseGoesWhereTheTemplateSaysErr(t *testing.T) {
	sentinel := errors.New("missing API key")
	err := Wrap(LLMMissingKey, sentinel, map[string]any{"key": "OPENAI_API_KEY"})
	if got, want := err.Error(), "missing API key: OPENAI_API_KEY is not set"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if !errors.Is(err, sentinel) {
		t.Error("the sentinel is lost")
	}
	for _, s := range Codes() {
		for _, p := range s.Params {
			if p == "err" {
				t.Errorf("%s lists {err} as a param", s.Code)
			}
		}
	}
}

func TestExtraParamsBelongToKnownCodesAndAreNotInTheTemplate(t *testing.T) {
	for c, ps := range extraParams {
		tmpl, ok := Template(c)
		if !ok {
			t.Errorf("extra params for unknown code %s", c)
		}
		for _, p := range ps {
			if strings.Contains(tmpl, "{"+p+"}") || strings.Contains(tmpl, "{"+p+":q}") {
				t.Errorf("%s: %s is in the template already", c, p)
			}
		}
	}
}

func TestStoredTextRoundTripsCodedAndPlainErrors(t *testing.T) {
	coded := Wrap(KBSymlink, errors.New("too many links"), nil)
	in := ParseStored(Stored(coded))
	if in.Code != KBSymlink || in.Message != "symlink: too many links" {
		t.Errorf("coded error read back as %+v", in)
	}
	if s := Stored(errors.New("permission denied")); s != "permission denied" {
		t.Errorf("plain error stored as %q", s)
	}
	if in := ParseStored("larger than 10 MiB"); in.Code != "" || in.Message != "larger than 10 MiB" {
		t.Errorf("old plain text read as %+v", in)
	}
	if in := ParseStored(`{"code":`); in.Code != "" || in.Message != `{"code":` {
		t.Errorf("broken JSON read as %+v", in)
	}
	if Stored(nil) != "" {
		t.Error("nil stored as non-empty")
	}
}
