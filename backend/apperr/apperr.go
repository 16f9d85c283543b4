// Package apperr gives the errors a person may see a stable code and
// parameters, so the window can word them in its own language while logs,
// the CLI and tests keep the English text.
//
// An *Error carries a Code, the Params its English template names and an
// optional wrapped cause. Error() renders the code's English template (see
// Codes) followed by ": " and the cause's text when there is a cause. Types
// of other packages that carry a code of their own implement Coded instead.
// CodeOf and InfoOf find the outermost coded error of a chain with
// errors.As, so wrapping with fmt.Errorf("…: %w", err) keeps the code.
//
// The package is a leaf: it imports no other playchat package.
package apperr

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"playchat/backend/redact"
)

// Code names one kind of user-facing error, e.g. "notes.pageNotFound". The
// window looks its message up as the vue-i18n key "errors.code.<code>".
// Codes are stable: never rename a shipped one.
type Code string

// Coded is an error that carries a code without being an *Error (for
// example config.ValueError). Params may hold nested Coded errors.
type Coded interface {
	error
	// ErrorCode returns the error's code.
	ErrorCode() Code
	// ErrorParams returns the values the code's template names (nil when none).
	ErrorParams() map[string]any
}

// Error is a coded error. Construct it with New or Wrap.
type Error struct {
	// Code says what went wrong; it selects the English template.
	Code Code
	// Params are the template's values by placeholder name (strings,
	// numbers, or nested Coded errors).
	Params map[string]any
	// Err is the wrapped cause, or nil. Its text follows the template's.
	Err error
}

// New returns an *Error of code with params (which may be nil).
func New(code Code, params map[string]any) *Error {
	return &Error{Code: code, Params: params}
}

// Wrap returns an *Error of code with params that wraps err: errors.Is and
// errors.As see err. Error() renders err's text where the template says
// {err}, else after the template's text and ": ".
func Wrap(code Code, err error, params map[string]any) *Error {
	return &Error{Code: code, Params: params, Err: err}
}

// Error renders the English template of e.Code with e.Params. The cause's
// text, when e wraps one, goes where the template says {err}, else after
// the template's text and ": ".
func (e *Error) Error() string {
	if e.Err == nil {
		return Render(e.Code, e.Params)
	}
	if t, ok := templates[e.Code]; ok && strings.Contains(t, errPlaceholder) {
		p := make(map[string]any, len(e.Params)+1)
		for k, v := range e.Params {
			p[k] = v
		}
		p["err"] = e.Err.Error()
		return Render(e.Code, p)
	}
	return Render(e.Code, e.Params) + ": " + e.Err.Error()
}

// errPlaceholder marks where a template puts its cause's text; it is not a
// param and the window's messages do not use it.
const errPlaceholder = "{err}"

// Unwrap returns the wrapped cause (nil when none).
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode returns e.Code (Coded).
func (e *Error) ErrorCode() Code { return e.Code }

// ErrorParams returns e.Params (Coded).
func (e *Error) ErrorParams() map[string]any { return e.Params }

// Is reports whether target is an *Error with the same code and neither
// params nor a cause, so errors.Is(err, apperr.New(code, nil)) tests for a
// code (and a sentinel made that way matches every error of its code).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code && t.Params == nil && t.Err == nil
}

// MarshalJSON encodes e as its Info: {"code","params","message"}.
func (e *Error) MarshalJSON() ([]byte, error) { return json.Marshal(InfoOf(e)) }

// CodeOf returns the code of the outermost Coded error in err's chain, or ""
// when there is none (or err is nil).
func CodeOf(err error) Code {
	var c Coded
	if errors.As(err, &c) {
		return c.ErrorCode()
	}
	return ""
}

// Info is an error as the window and the CLI's JSON receive it.
type Info struct {
	// Code is the outermost code of the error's chain; "" for an error
	// without one (the window then shows Message as it is).
	Code Code `json:"code"`
	// Params are that code's values; nested coded errors become *Info.
	Params map[string]any `json:"params,omitempty"`
	// Message is the whole English text (err.Error()).
	Message string `json:"message"`
}

// InfoOf describes err for the window: the code and params of its outermost
// coded error and its full English text. A nil err gives a zero Info.
func InfoOf(err error) Info {
	if err == nil {
		return Info{}
	}
	// Credentials in a URL never reach the window, the database or an
	// export through an error (issue 21), whatever produced it.
	in := Info{Message: redact.URLCredentials(err.Error())}
	var c Coded
	if errors.As(err, &c) {
		in.Code = c.ErrorCode()
		in.Params = plainParams(c.ErrorParams())
	}
	return in
}

// plainParams copies p with every nested error turned into an *Info (coded
// or not), so the result encodes as plain JSON.
func plainParams(p map[string]any) map[string]any {
	if len(p) == 0 {
		return nil
	}
	out := make(map[string]any, len(p))
	for k, v := range p {
		if err, ok := v.(error); ok {
			in := InfoOf(err)
			out[k] = &in
			continue
		}
		if s, ok := v.(string); ok {
			v = redact.URLCredentials(s)
		}
		out[k] = v
	}
	return out
}

// Error returns the English text, so an Info read back from JSON is an
// error again.
func (in Info) Error() string { return in.Message }

// ErrorCode returns in.Code (Coded).
func (in Info) ErrorCode() Code { return in.Code }

// ErrorParams returns in.Params (Coded).
func (in Info) ErrorParams() map[string]any { return in.Params }

// Spec describes one code: its English template and the names of its
// placeholders.
type Spec struct {
	// Code is the code.
	Code Code `json:"code"`
	// Template is the English text with {name} placeholders; {name:q}
	// renders the value Go-quoted ("…" with escapes); {err} is the wrapped
	// cause's text (not a param).
	Template string `json:"template"`
	// Params are the names of the params the code sends: the template's
	// placeholders in order of first use, then any the template does not show.
	Params []string `json:"params"`
}

// Codes lists every code with its English template, sorted by code.
func Codes() []Spec {
	out := make([]Spec, 0, len(templates))
	for c, t := range templates {
		out = append(out, Spec{Code: c, Template: t, Params: append(placeholders(t), extraParams[c]...)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// Template returns the English template of code and whether code is known.
func Template(code Code) (string, bool) {
	t, ok := templates[code]
	return t, ok
}

var placeholderRe = regexp.MustCompile(`\{([A-Za-z][A-Za-z0-9]*)(:q)?\}`)

func placeholders(t string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range placeholderRe.FindAllStringSubmatch(t, -1) {
		if !seen[m[1]] && m[1] != "err" {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	return out
}

// Render returns code's English template with params filled in. A missing
// param renders as ""; an unknown code renders as the code itself followed
// by its params, so nothing is lost.
func Render(code Code, params map[string]any) string {
	t, ok := templates[code]
	if !ok {
		if len(params) == 0 {
			return string(code)
		}
		keys := make([]string, 0, len(params))
		for k := range params {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = k + "=" + text(params[k])
		}
		return string(code) + " (" + strings.Join(parts, ", ") + ")"
	}
	return placeholderRe.ReplaceAllStringFunc(t, func(m string) string {
		sub := placeholderRe.FindStringSubmatch(m)
		v, ok := params[sub[1]]
		if !ok {
			return ""
		}
		if sub[2] == ":q" {
			return strconv.Quote(text(v))
		}
		return text(v)
	})
}

func text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case error: // a nested *Error, Info or *Info too
		return x.Error()
	}
	return fmt.Sprint(v)
}
