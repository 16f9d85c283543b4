package store

import (
	"reflect"
	"strings"
	"testing"

	"playchat/backend/apperr"
	"playchat/backend/event"
)

func TestMessageJSONColumnsRoundTripAndRefuseDamage(t *testing.T) {
	var m Message
	acts := []event.ToolActivity{{ID: "c1", Name: "web_search", Status: "done", Result: "3 pages"},
		{ID: "c2", Status: "error", Error: &apperr.Info{Code: "tools.unknown", Message: "no tool x"}}}
	srcs := []event.Source{{Title: "天気", URL: "https://www.jma.go.jp/"}}
	m.SetTools(acts)
	m.SetSources(srcs)
	if got := m.Tools(); !reflect.DeepEqual(got, acts) {
		t.Errorf("Tools() = %+v, want %+v", got, acts)
	}
	if got := m.SourceList(); !reflect.DeepEqual(got, srcs) {
		t.Errorf("SourceList() = %+v, want %+v", got, srcs)
	}

	// None: empty columns, nil back.
	m.SetTools(nil)
	m.SetSources([]event.Source{})
	if m.ToolActivity != "" || m.Sources != "" || m.Tools() != nil || m.SourceList() != nil {
		t.Errorf("empty lists stored as %q / %q", m.ToolActivity, m.Sources)
	}

	// A damaged row hides its list rather than the message.
	m.ToolActivity, m.Sources, m.ErrorInfo = "[{", `{"title":1}`, "not json"
	if m.Tools() != nil || m.SourceList() != nil || m.ErrorValue() != nil {
		t.Error("a damaged JSON column decoded to something")
	}

	// The error: only a coded one is kept, and a URL's password never comes back.
	in := &apperr.Info{Code: "chat.unreachable", Params: map[string]any{"server": "https://u:secret@example.com/v1"},
		Message: "cannot reach https://u:secret@example.com/v1"}
	m.SetErrorValue(in)
	got := m.ErrorValue()
	if got == nil || got.Code != "chat.unreachable" || strings.Contains(got.Message, "secret") ||
		strings.Contains(got.Params["server"].(string), "secret") {
		t.Errorf("ErrorValue() = %+v", got)
	}
	m.SetErrorValue(&apperr.Info{Message: "plain"})
	if m.ErrorInfo != "" || m.ErrorValue() != nil {
		t.Errorf("an error without a code was stored as %q", m.ErrorInfo)
	}
	m.SetErrorValue(nil)
	if m.ErrorInfo != "" {
		t.Errorf("nil stored as %q", m.ErrorInfo)
	}
}
