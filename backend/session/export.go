// Package session exports one chat session as a versioned JSON document and
// imports such a document back as a new session.
//
// The document (Format "playchat-session", Version 2):
//
//	{"format":"playchat-session","version":2,"exportedAt":"…",
//	 "session":{"id","title","model","createdAt","updatedAt"},
//	 "activeLeafId":…,
//	 "memories":[{"id","summary","messageCount","level","mergedInto","createdAt","tags"}],
//	 "messages":[{"id","parentId","role","content","status","error","model","promptTokens",
//	              "completionTokens","createdAt","archivedAt","memoryId","tags","toolActivity","sources"}]}
//
// Version 3 added the chat's own settings (issue 26): "settings" (the
// store.ChatSettings JSON: systemPrompt, temperature, topP,
// maxOutputTokens, layersOff, kbDomain; absent when all are defaults; the
// model stays session.model) and "assistant" (the name, icon and version
// of the assistant the chat was started from, for information: an import
// links the chat to no assistant, its settings are its own copy).
//
// Version 4 added attachments (issue 25): each message's "attachments"
// ([{"sha256","name","kind","mime","width","height","originalSize","text"}],
// in order) and the document's "files", every attached file's bytes once,
// in standard base64 by its SHA-256. An import checks each file against its
// hash, so the files come back byte for byte.
//
// Version 2 added the message tree (issue 9): each message's parentId (absent
// for a first message; a parent comes before its children) and the
// activeLeafId ending the selected branch. A file whose messages have no
// parentId at all (every version 1 file) is one branch in file order.
//
// Ids inside a document only link its parts (a message's memoryId and
// parentId, a memory's mergedInto, activeLeafId); an import always creates a new session with new ids,
// so importing the same file twice gives two copies and never overwrites.
// Times are RFC 3339 in UTC.
package session

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/event"
	"playchat/backend/redact"
	"playchat/backend/store"
)

// Format and Version identify the document.
const (
	Format  = "playchat-session"
	Version = 4
)

// Document is an exported session.
type Document struct {
	Format     string    `json:"format"`
	Version    int       `json:"version"`
	ExportedAt time.Time `json:"exportedAt"`
	Session    Summary   `json:"session"`
	// ActiveLeafID is the message ending the selected branch (absent: the
	// last message).
	ActiveLeafID *int64       `json:"activeLeafId,omitempty"`
	Memories     []DocMemory  `json:"memories"`
	Messages     []DocMessage `json:"messages"`
	// Settings are the chat's own settings (Model empty: it is
	// Session.Model); nil when all are defaults.
	Settings *store.ChatSettings `json:"settings,omitempty"`
	// Assistant names the assistant the chat was started from (nil: none).
	Assistant *DocAssistant `json:"assistant,omitempty"`
	// Place is where the chat sat in the list: pinned, its folder (by
	// name; an import finds or makes it), archived (issue 27). Absent for
	// a chat at the top level; older readers ignore it.
	Place *store.PlaceByName `json:"place,omitempty"`
	// Files are the bytes of every attached file, standard base64, by the
	// hex SHA-256 of the bytes (absent when no message has attachments).
	Files map[string]string `json:"files,omitempty"`
}

// DocAssistant is the assistant a chat was started from, as its export
// names it.
type DocAssistant struct {
	Name    string `json:"name"`
	Icon    string `json:"icon,omitempty"`
	Version int    `json:"version"`
}

// DocMemory is one memory of a Document.
type DocMemory struct {
	ID           int64     `json:"id"`
	Summary      string    `json:"summary"`
	MessageCount int       `json:"messageCount"`
	Level        int       `json:"level"`
	MergedInto   *int64    `json:"mergedInto,omitempty"`
	CreatedAt    time.Time `json:"createdAt"`
	Tags         []string  `json:"tags,omitempty"`
}

// DocMessage is one message of a Document, archived ones included.
type DocMessage struct {
	ID int64 `json:"id"`
	// ParentID is the message this one follows (absent for a first
	// message); it must come earlier in the file.
	ParentID         *int64     `json:"parentId,omitempty"`
	Role             string     `json:"role"`
	Content          string     `json:"content"`
	Status           string     `json:"status"`
	Error            string     `json:"error,omitempty"`
	Model            string     `json:"model,omitempty"`
	PromptTokens     int        `json:"promptTokens,omitempty"`
	CompletionTokens int        `json:"completionTokens,omitempty"`
	CreatedAt        time.Time  `json:"createdAt"`
	ArchivedAt       *time.Time `json:"archivedAt,omitempty"`
	MemoryID         *int64     `json:"memoryId,omitempty"`
	Tags             []string   `json:"tags,omitempty"`
	// ToolActivity is the reply's tool activity list (a JSON array), if any.
	ToolActivity json.RawMessage `json:"toolActivity,omitempty"`
	// Sources are the web pages the reply cited, if any (http or https).
	Sources []event.Source `json:"sources,omitempty"`
	// Attachments are the files sent with the message, in order; their
	// bytes are in Document.Files.
	Attachments []DocAttachment `json:"attachments,omitempty"`
}

// Export builds the document of one session.
func Export(ctx context.Context, db *store.DB, sessionID string) (Document, error) {
	s, err := db.GetSession(ctx, sessionID)
	if err != nil {
		return Document{}, err
	}
	msgs, err := db.SessionMessages(ctx, sessionID)
	if err != nil {
		return Document{}, err
	}
	leaf, err := db.ActiveLeaf(ctx, sessionID)
	if err != nil {
		return Document{}, err
	}
	mems, err := db.SessionMemories(ctx, sessionID)
	if err != nil {
		return Document{}, err
	}
	msgIDs := make([]int64, len(msgs))
	for i, m := range msgs {
		msgIDs[i] = m.ID
	}
	memIDs := make([]int64, len(mems))
	for i, m := range mems {
		memIDs[i] = m.ID
	}
	msgTags, err := db.MessageTags(ctx, msgIDs)
	if err != nil {
		return Document{}, err
	}
	memTags, err := db.MemoryTags(ctx, memIDs)
	if err != nil {
		return Document{}, err
	}
	files, err := db.FilesOf(ctx, msgIDs)
	if err != nil {
		return Document{}, err
	}
	doc := Document{Format: Format, Version: Version, ExportedAt: time.Now().UTC(),
		Session:  SummaryOf(s),
		Memories: make([]DocMemory, 0, len(mems)), Messages: make([]DocMessage, 0, len(msgs))}
	for _, m := range mems {
		doc.Memories = append(doc.Memories, DocMemory{ID: m.ID, Summary: m.Summary, MessageCount: m.MessageCount,
			Level: m.Level, MergedInto: m.MergedInto, CreatedAt: m.CreatedAt.UTC(), Tags: memTags[m.ID]})
	}
	for _, m := range msgs {
		dm := DocMessage{ID: m.ID, ParentID: m.ParentID, Role: m.Role, Content: m.Content, Status: m.Status, Error: redact.URLCredentials(m.Error), Model: m.Model,
			PromptTokens: m.PromptTokens, CompletionTokens: m.CompletionTokens, CreatedAt: m.CreatedAt.UTC(),
			MemoryID: m.MemoryID, Tags: msgTags[m.ID]}
		if m.Status == store.StatusStreaming {
			// Still being written (another turn, or another process): the
			// file holds it as a reply cut off at the moment of the export,
			// which an import accepts.
			dm.Status, dm.Error = store.StatusPartial, apperr.New(apperr.ChatReplyUnfinished, nil).Error()
		}
		if m.ToolActivity != "" {
			dm.ToolActivity = json.RawMessage(m.ToolActivity)
		}
		dm.Sources = m.SourceList()
		if m.ArchivedAt != nil {
			t := m.ArchivedAt.UTC()
			dm.ArchivedAt = &t
		}
		if err := exportFiles(db, &doc, &dm, files[m.ID]); err != nil {
			return Document{}, err
		}
		doc.Messages = append(doc.Messages, dm)
	}
	if leaf != 0 {
		doc.ActiveLeafID = &leaf
	}
	if cs := store.DecodeChatSettings(s.Settings); !cs.IsZero() {
		cs.Model = ""
		doc.Settings = &cs
	}
	if s.AssistantID != nil {
		if a, err := db.GetAssistant(ctx, *s.AssistantID); err == nil {
			doc.Assistant = &DocAssistant{Name: a.Name, Icon: a.Icon, Version: s.AssistantVersion}
		}
	}
	if p, err := db.NamedPlaceOf(ctx, sessionID); err != nil {
		return Document{}, err
	} else if !p.Empty() {
		doc.Place = &p
	}
	return doc, nil
}

// ExportJSON is Export rendered as indented JSON.
func ExportJSON(ctx context.Context, db *store.DB, sessionID string) ([]byte, error) {
	doc, err := Export(ctx, db, sessionID)
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode export: %w", err)
	}
	return append(b, '\n'), nil
}
