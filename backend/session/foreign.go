package session

// Imports of other chat apps' data exports (ChatGPT and Claude's
// conversations.json). Parsing (import_chatgpt.go, import_claude.go) turns a
// file into a Batch of plain conversations and touches nothing; ValidateBatch
// applies the same rules as a native import (rules.go); ImportBatch writes
// every conversation in one transaction, so a file imports completely or not
// at all.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"playchat/backend/store"
)

// The import formats: FromNative is playchat's own session file (Parse),
// FromChatGPT and FromClaude are those apps' data-export conversations.json,
// and FromAuto asks Sniff.
const (
	FromAuto    = "auto"
	FromNative  = "native"
	FromChatGPT = "chatgpt"
	FromClaude  = "claude"
)

// MaxExportBytes caps a ChatGPT or Claude export file (256 MiB): the whole
// history of an account is one file, larger than a single session file
// (MaxDocumentBytes).
const MaxExportBytes = 256 << 20

// Batch is the conversations parsed from another app's export, ready for
// ValidateBatch and ImportBatch. The counts describe what parsing did.
type Batch struct {
	// Format is FromChatGPT or FromClaude.
	Format        string
	Conversations []Conversation
	// Placeholders counts the short visible markers that stand in for parts
	// playchat cannot show (images, attachments, tool calls and results):
	// "[image omitted]", "[attachment: name]", ….
	Placeholders int
	// Skipped counts messages deliberately not imported: system messages,
	// messages the app hid from its own window, and messages with no text
	// and no part. Null slots of ChatGPT's tree hold nothing and are not
	// counted.
	Skipped int
	// SkippedConversations counts conversations left with no message.
	SkippedConversations int
	// Branches counts the ChatGPT branches (edits and regenerations) other
	// than the one ending at the conversation's current_node (the one its
	// window showed, selected after the import). They are imported too, as
	// versions to switch to (Conversation.Parents).
	Branches int
	// Truncated counts the messages longer than MaxMessageBytes, cut there
	// with a visible marker (CapMessage).
	Truncated int
}

// Conversation is one conversation of a Batch; it becomes one session.
type Conversation struct {
	// Index is the conversation's position in the file (from 0), for
	// problems.
	Index     int
	Title     string
	CreatedAt time.Time
	UpdatedAt time.Time
	Messages  []ForeignMessage
	// Parents keeps the conversation's branches (ChatGPT's edits and
	// regenerations): Parents[i] is the index in Messages of message i's
	// parent, -1 for a first message, always below i. nil chains the
	// messages in order, one branch.
	Parents []int
	// Leaf is the index in Messages of the end of the branch the app
	// showed, selected after the import (out of range: the last message).
	// Read only when Parents is set.
	Leaf int
}

// ForeignMessage is one message of a Conversation. Role is store.RoleUser or
// store.RoleAssistant; Model is the model that wrote an assistant message
// ("" when the export does not say).
type ForeignMessage struct {
	Role      string
	Content   string
	Model     string
	CreatedAt time.Time
}

// Report is what an import of any format created.
type Report struct {
	// Format is FromNative, FromChatGPT or FromClaude.
	Format string `json:"format"`
	// Session is the first session created (the only one for a native file).
	Session              store.Session `json:"session"`
	Sessions             int           `json:"sessions"`
	Messages             int           `json:"messages"`
	Memories             int           `json:"memories"`
	Placeholders         int           `json:"placeholders"`
	Skipped              int           `json:"skipped"`
	SkippedConversations int           `json:"skippedConversations"`
	Branches             int           `json:"branches"`
	// Truncated counts the messages of a ChatGPT or Claude export cut at
	// the one-message limit with a visible marker (Batch.Truncated).
	Truncated int `json:"truncated"`
}

// Sniff names the format of an import file's content: FromNative for an
// object with "format", FromChatGPT for a list of conversations with
// "mapping" (or one such object), FromClaude for a list with "chat_messages"
// (or one such object). It returns a *ValidationError for anything else.
func Sniff(data []byte) (string, error) {
	data = bytes.TrimLeft(data, " \t\r\n\ufeff")
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	var keys map[string]json.RawMessage
	switch {
	case len(data) > 0 && data[0] == '{':
		if err := json.Unmarshal(data, &keys); err != nil {
			return "", &ValidationError{Problems: []string{"not a session file: " + jsonProblem(err)}}
		}
	case len(data) > 0 && data[0] == '[':
		// Only the first conversation is read: the parser reads the rest.
		dec := json.NewDecoder(bytes.NewReader(data))
		if _, err := dec.Token(); err != nil {
			return "", &ValidationError{Problems: []string{"not a conversations file: " + jsonProblem(err)}}
		}
		if !dec.More() {
			return "", &ValidationError{Problems: []string{"the file is an empty list: there are no conversations to import"}}
		}
		if err := dec.Decode(&keys); err != nil {
			return "", &ValidationError{Problems: []string{"not a list of conversations: " + jsonProblem(err)}}
		}
	default:
		return "", &ValidationError{Problems: []string{"not a session file: it is not JSON"}}
	}
	switch {
	case keys["format"] != nil:
		return FromNative, nil
	case keys["mapping"] != nil:
		return FromChatGPT, nil
	case keys["chat_messages"] != nil:
		return FromClaude, nil
	}
	return "", &ValidationError{Problems: []string{"the file is neither a playchat session file nor a ChatGPT or Claude conversations.json"}}
}

// ParseExport parses a ChatGPT (from FromChatGPT) or Claude (FromClaude)
// export, or sniffs which (FromAuto; a native file is refused here: use
// ParseAny). Messages longer than MaxMessageBytes are cut there with a
// visible marker and counted in Batch.Truncated.
func ParseExport(data []byte, from string) (Batch, error) {
	if from == FromAuto {
		f, err := Sniff(data)
		if err != nil {
			return Batch{}, err
		}
		from = f
	}
	var b Batch
	var err error
	switch from {
	case FromChatGPT:
		b, err = ParseChatGPT(data)
	case FromClaude:
		b, err = ParseClaude(data)
	default:
		return Batch{}, &ValidationError{Problems: []string{fmt.Sprintf("%q is not a ChatGPT or Claude export format", from)}}
	}
	if err != nil {
		return Batch{}, err
	}
	capBatch(&b)
	return b, nil
}

// capBatch cuts every message of b longer than MaxMessageBytes with
// CapMessage (after parsing, so a reply joined from several nodes is cut
// as a whole) and counts them in b.Truncated.
func capBatch(b *Batch) {
	for i := range b.Conversations {
		ms := b.Conversations[i].Messages
		for j := range ms {
			if text, cut := CapMessage(ms[j].Content); cut {
				ms[j].Content = text
				b.Truncated++
			}
		}
	}
}

// Parsed is a parsed import file: Doc when Format is FromNative, else Batch.
type Parsed struct {
	Format string
	Doc    Document
	Batch  Batch
}

// ParseAny reads an import file of the format from (FromAuto, FromNative,
// FromChatGPT or FromClaude; "" is FromNative), and validates it completely,
// without touching any database. Problems are a *ValidationError.
func ParseAny(r io.Reader, from string) (Parsed, error) {
	if from == "" {
		from = FromNative
	}
	switch from {
	case FromAuto, FromNative, FromChatGPT, FromClaude:
	default:
		return Parsed{}, &ValidationError{Problems: []string{fmt.Sprintf("unknown import format %q (want auto, native, chatgpt or claude)", from)}}
	}
	data, err := io.ReadAll(io.LimitReader(r, MaxExportBytes+1))
	if err != nil {
		return Parsed{}, fmt.Errorf("read import file: %w", err)
	}
	if len(data) > MaxExportBytes {
		return Parsed{}, &ValidationError{Problems: []string{fmt.Sprintf("the file is larger than %d MiB", MaxExportBytes>>20)}}
	}
	if from == FromAuto {
		if from, err = Sniff(data); err != nil {
			return Parsed{}, err
		}
	}
	if from == FromNative {
		doc, err := Parse(bytes.NewReader(data))
		return Parsed{Format: FromNative, Doc: doc}, err
	}
	b, err := ParseExport(data, from)
	if err != nil {
		return Parsed{}, err
	}
	if err := ValidateBatch(b); err != nil {
		return Parsed{}, err
	}
	return Parsed{Format: from, Batch: b}, nil
}

// ImportParsed writes a ParseAny result: a native document as one session
// (Import), an export as one session per conversation (ImportBatch).
func ImportParsed(ctx context.Context, db *store.DB, p Parsed) (Report, error) {
	if p.Format == FromNative {
		res, err := Import(ctx, db, p.Doc)
		if err != nil {
			return Report{}, err
		}
		return Report{Format: FromNative, Session: res.Session, Sessions: 1, Messages: res.Messages, Memories: res.Memories}, nil
	}
	return ImportBatch(ctx, db, p.Batch)
}

// ImportAny is ParseAny then ImportParsed.
func ImportAny(ctx context.Context, db *store.DB, r io.Reader, from string) (Report, error) {
	p, err := ParseAny(r, from)
	if err != nil {
		return Report{}, err
	}
	return ImportParsed(ctx, db, p)
}

// ValidateBatch checks every conversation with the rules of a native import
// (Validate): a title's length after cleaning (CleanTitle; an empty title is
// an untitled chat), every message's size (MaxMessageBytes, whatever its
// role: ParseExport has cut longer ones), every user message's text
// (CheckUserMessage), UTF-8 everywhere, models free of control characters
// and times present. It returns a *ValidationError listing every problem.
func ValidateBatch(b Batch) error {
	var p []string
	add := func(format string, a ...any) { p = append(p, fmt.Sprintf(format, a...)) }
	if len(b.Conversations) == 0 {
		add("the file has no conversation with a message to import")
	}
	for _, c := range b.Conversations {
		where := fmt.Sprintf("conversations[%d]", c.Index)
		if !utf8.ValidString(c.Title) {
			add("%s: the title is not valid UTF-8", where)
		} else if TitleText(c.Title) != "" {
			if _, err := CleanTitle(c.Title); err != nil {
				add("%s: title: %v (it has %d)", where, err, utf8.RuneCountInString(TitleText(c.Title)))
			}
		}
		if c.CreatedAt.IsZero() {
			add("%s: the creation time is missing", where)
		}
		if len(c.Messages) == 0 {
			add("%s has no message", where)
		}
		for j, m := range c.Messages {
			at := fmt.Sprintf("%s.messages[%d]", where, j)
			switch {
			case m.Role != store.RoleUser && m.Role != store.RoleAssistant:
				add("%s: role %q is not user or assistant", at, m.Role)
			case len(m.Content) > MaxMessageBytes:
				add("%s", tooLongProblem(at, m.Role, len(m.Content)))
			case m.Role == store.RoleUser:
				if err := CheckUserMessage(m.Content); err != nil {
					add("%s: %v", at, err)
				}
			case !utf8.ValidString(m.Content):
				add("%s: the text is not valid UTF-8", at)
			}
			if why := checkName(m.Model, maxNameRunes); why != "" {
				add("%s: the model %s", at, why)
			}
			if m.CreatedAt.IsZero() {
				add("%s: the time is missing", at)
			}
		}
		if c.Parents != nil && len(c.Parents) != len(c.Messages) {
			add("%s: %d parents for %d messages", where, len(c.Parents), len(c.Messages))
		}
		for j, pi := range c.Parents {
			if pi < -1 || pi >= j {
				add("%s.messages[%d]: the parent %d is not an earlier message", where, j, pi)
			}
		}
	}
	if len(p) > 0 {
		return &ValidationError{Problems: p}
	}
	return nil
}

// ImportBatch validates b and writes each conversation as a new session
// (title cleaned by TitleText, the conversation's own creation and update
// times, no session model so the next turn uses DEFAULT_MODEL; each message
// keeps its model), all in one transaction: on any error nothing is written.
func ImportBatch(ctx context.Context, db *store.DB, b Batch) (Report, error) {
	if err := ValidateBatch(b); err != nil {
		return Report{}, err
	}
	rep := Report{Format: b.Format, Placeholders: b.Placeholders, Skipped: b.Skipped,
		SkippedConversations: b.SkippedConversations, Branches: b.Branches, Truncated: b.Truncated}
	err := db.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		for i, c := range b.Conversations {
			updated := c.UpdatedAt
			if updated.Before(c.CreatedAt) {
				updated = c.CreatedAt
			}
			sess := store.Session{ID: uuid.NewString(), Title: TitleText(c.Title),
				CreatedAt: c.CreatedAt.UTC(), UpdatedAt: updated.UTC()}
			if _, err := tx.NewInsert().Model(&sess).Exec(ctx); err != nil {
				return err
			}
			if i == 0 {
				rep.Session = sess
			}
			rows := make([]store.Message, len(c.Messages))
			for j, m := range c.Messages {
				rows[j] = store.Message{SessionID: sess.ID, Role: m.Role, Content: m.Content, Status: store.StatusComplete,
					Model: m.Model, CreatedAt: m.CreatedAt.UTC()}
			}
			leaf := -1 // without Parents, the last message
			if c.Parents != nil {
				leaf = c.Leaf
			}
			if err := writeTree(ctx, tx, sess.ID, rows, c.Parents, leaf, nil); err != nil {
				return err
			}
			rep.Messages += len(c.Messages)
		}
		rep.Sessions = len(b.Conversations)
		return nil
	})
	if err != nil {
		return Report{}, fmt.Errorf("import %s conversations: %w", b.Format, err)
	}
	return rep, nil
}

// joinParts joins the non-blank texts of a multi-part message with blank
// lines between them.
func joinParts(parts []string) string {
	var keep []string
	for _, s := range parts {
		if strings.TrimSpace(s) != "" {
			keep = append(keep, strings.TrimSpace(s))
		}
	}
	return strings.Join(keep, "\n\n")
}

// placeholderName cleans a file or tool name for a placeholder: one line,
// no control characters, at most 100 characters ("" stays "").
func placeholderName(s string) string {
	s = TitleText(s)
	if r := []rune(s); len(r) > 100 {
		s = string(r[:100]) + "…"
	}
	return s
}
