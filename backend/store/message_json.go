package store

import (
	"encoding/json"

	"playchat/backend/apperr"
	"playchat/backend/event"
	"playchat/backend/redact"
)

// The three JSON columns of messages (tool_activity, sources, error_info)
// are read and written only here, so every reader — the window's message,
// the export, the Markdown export — decodes them the same way.

// Tools is the reply's tool activity (the tool_activity column) in the
// order the activity list showed it; nil when none ran or the stored value
// cannot be read (it is written only by SetTools, so that would be a
// damaged row: the list is hidden rather than the message).
func (m Message) Tools() []event.ToolActivity {
	if m.ToolActivity == "" {
		return nil
	}
	var out []event.ToolActivity
	if json.Unmarshal([]byte(m.ToolActivity), &out) != nil {
		return nil
	}
	return out
}

// SetTools stores acts in the tool_activity column ("" for none).
func (m *Message) SetTools(acts []event.ToolActivity) { m.ToolActivity = jsonArray(acts) }

// SourceList is the pages the reply's turn cited (the sources column); nil
// when none or unreadable.
func (m Message) SourceList() []event.Source {
	if m.Sources == "" {
		return nil
	}
	var out []event.Source
	if json.Unmarshal([]byte(m.Sources), &out) != nil {
		return nil
	}
	return out
}

// SetSources stores srcs in the sources column ("" for none).
func (m *Message) SetSources(srcs []event.Source) { m.Sources = jsonArray(srcs) }

// ErrorValue is the stored error with its code and params (the error_info
// column), the credentials of any URL in it masked (rows stored before they
// were masked may hold one); nil when there is none, it has no code, or it
// cannot be read — the English Error is then all there is.
func (m Message) ErrorValue() *apperr.Info {
	if m.ErrorInfo == "" {
		return nil
	}
	var in apperr.Info
	if json.Unmarshal([]byte(redact.URLCredentials(m.ErrorInfo)), &in) != nil || in.Code == "" {
		return nil
	}
	return &in
}

// SetErrorValue stores in in the error_info column; "" when in is nil or has
// no code (the English Error says it all).
func (m *Message) SetErrorValue(in *apperr.Info) {
	m.ErrorInfo = ""
	if in == nil || in.Code == "" {
		return
	}
	if b, err := json.Marshal(in); err == nil {
		m.ErrorInfo = string(b)
	}
}

func jsonArray[T any](v []T) string {
	if len(v) == 0 {
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}
