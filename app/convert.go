package app

import (
	"time"

	"playchat/backend/apperr"
	"playchat/backend/event"
	"playchat/backend/notes"
	"playchat/backend/session"

	"playchat/backend/redact"
	"playchat/backend/store"
)

func ts(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func toSession(s store.Session) Session { return session.SummaryOf(s) }

func toMessage(m store.Message) Message {
	// Rows stored before issue 21 may hold a URL's password in their error.
	out := Message{ID: m.ID, SessionID: m.SessionID, Role: m.Role, Content: m.Content, Status: m.Status,
		Error: redact.URLCredentials(m.Error), Model: m.Model, CreatedAt: ts(m.CreatedAt), Archived: m.ArchivedAt != nil,
		Forgotten: m.ArchivedAt != nil && m.MemoryID == nil, Tools: []event.ToolActivity{}, Sources: []event.Source{}, Tags: []string{},
		Attachments: toAttachments(m.Files)}
	if m.ParentID != nil {
		out.ParentID = *m.ParentID
	}
	// The JSON columns, decoded by the store (message_json.go): an
	// unreadable value only hides the activity list or the chips, and the
	// English Error is shown as it is.
	if tools := m.Tools(); tools != nil {
		out.Tools = tools
	}
	if srcs := m.SourceList(); srcs != nil {
		out.Sources = srcs
	}
	out.ErrorInfo = m.ErrorValue()
	return out
}

func toNotePage(p notes.Page) NotePage {
	return NotePage{ID: p.ID, Title: p.Title, Content: p.Content, Section: p.Section, Position: p.Position, Version: p.Version,
		UpdatedAt: ts(p.UpdatedAt)}
}

func toNotePages(ps []notes.Page) []NotePage {
	out := make([]NotePage, len(ps))
	for i, p := range ps {
		out[i] = toNotePage(p)
	}
	return out
}

func toMemory(m store.Memory) Memory {
	return Memory{ID: m.ID, SessionID: m.SessionID, Summary: m.Summary, MessageCount: m.MessageCount, CreatedAt: ts(m.CreatedAt)}
}

func toPreset(p store.ModelPreset) ModelPreset {
	return ModelPreset{ID: p.ID, Label: p.Label, Value: p.Value}
}

func toLogEntry(l store.APILog) LogEntry {
	preview := []rune(l.ResponseText)
	if len(preview) > 120 {
		preview = append(preview[:120], '…')
	}
	out := LogEntry{ID: l.ID, SessionID: l.SessionID, Model: l.Model, Purpose: l.Purpose, LatencyMS: l.LatencyMS,
		CreatedAt: ts(l.CreatedAt), Preview: string(preview),
		PromptTokens: l.PromptTokens, CompletionTokens: l.CompletionTokens}
	// Written by llm as apperr.Stored text (plain English before codes).
	if in := apperr.ParseStored(l.Error); in.Code != "" {
		out.Error, out.ErrorInfo = in.Message, &in
	} else {
		out.Error = in.Message
	}
	return out
}
