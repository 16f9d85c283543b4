package app

import (
	"encoding/json"
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
	if m.ToolActivity != "" {
		// Written by the turn from event.ToolActivity; an unreadable value
		// only hides the activity list.
		_ = json.Unmarshal([]byte(m.ToolActivity), &out.Tools)
	}
	if m.Sources != "" {
		// Written by the turn from event.Source; unreadable, no chips.
		_ = json.Unmarshal([]byte(m.Sources), &out.Sources)
	}
	if m.ErrorInfo != "" {
		// Written by the turn from apperr.Info; unreadable, the English
		// Error is shown as it is.
		var in apperr.Info
		if json.Unmarshal([]byte(redact.URLCredentials(m.ErrorInfo)), &in) == nil && in.Code != "" {
			out.ErrorInfo = &in
		}
	}
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
