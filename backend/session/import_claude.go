package session

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"playchat/backend/store"
)

// Claude's data export (Settings → Privacy → Export data) holds
// conversations.json: a list of conversations, each
//
//	{"uuid","name","created_at","updated_at" (ISO 8601),"model" (sometimes),
//	 "chat_messages":[{"uuid","sender":"human|assistant","text","created_at",
//	   "content":[{"type":"text|tool_use|tool_result|thinking|image|…","text","name"}],
//	   "attachments":[{"file_name","extracted_content"}],"files":[{"file_name"}]}]}
//
// When content is present it is the message (text items joined, other
// items as placeholders); older exports only have text. Attachments and
// files become "[attachment: name]" and "[file: name]": their extracted
// text is not imported.

type claudeConversation struct {
	Name         *string         `json:"name"`
	CreatedAt    *string         `json:"created_at"`
	UpdatedAt    *string         `json:"updated_at"`
	Model        *string         `json:"model"`
	ChatMessages []claudeMessage `json:"chat_messages"`
}

type claudeMessage struct {
	Sender    string `json:"sender"`
	Text      string `json:"text"`
	CreatedAt string `json:"created_at"`
	Content   []struct {
		Type string  `json:"type"`
		Text *string `json:"text"`
		Name *string `json:"name"`
	} `json:"content"`
	Attachments []struct {
		FileName string `json:"file_name"`
	} `json:"attachments"`
	Files []struct {
		FileName string `json:"file_name"`
	} `json:"files"`
}

// ParseClaude parses Claude's conversations.json (a list of conversations,
// or one conversation object). It does not validate the result: see
// ValidateBatch.
func ParseClaude(data []byte) (Batch, error) {
	data = trimBOM(data)
	var list []claudeConversation
	if firstByte(data) == '{' {
		var one claudeConversation
		if err := json.Unmarshal(data, &one); err != nil {
			return Batch{}, &ValidationError{Problems: []string{"not a Claude conversations.json: " + jsonProblem(err)}}
		}
		list = []claudeConversation{one}
	} else if err := json.Unmarshal(data, &list); err != nil {
		return Batch{}, &ValidationError{Problems: []string{"not a Claude conversations.json: " + jsonProblem(err)}}
	}
	b := Batch{Format: FromClaude}
	var problems []string
	badTime := func(where, v string) {
		problems = append(problems, fmt.Sprintf("%s: %.40q is not an ISO 8601 time", where, v))
	}
	for i, cc := range list {
		where := fmt.Sprintf("conversations[%d]", i)
		c := Conversation{Index: i, Title: deref(cc.Name)}
		var ok bool
		if c.CreatedAt, ok = isoTime(deref(cc.CreatedAt)); !ok {
			badTime(where+".created_at", deref(cc.CreatedAt))
		}
		if c.UpdatedAt, ok = isoTime(deref(cc.UpdatedAt)); !ok {
			badTime(where+".updated_at", deref(cc.UpdatedAt))
		}
		for j, m := range cc.ChatMessages {
			at, ok := isoTime(m.CreatedAt)
			if !ok {
				badTime(fmt.Sprintf("%s.chat_messages[%d].created_at", where, j), m.CreatedAt)
			}
			var role string
			switch m.Sender {
			case "human":
				role = store.RoleUser
			case "assistant":
				role = store.RoleAssistant
			default:
				b.Skipped++ // no such sender in Claude's exports so far
				continue
			}
			text, ph := claudeText(m)
			if strings.TrimSpace(text) == "" {
				b.Skipped++
				continue
			}
			b.Placeholders += ph
			model := ""
			if role == store.RoleAssistant {
				model = deref(cc.Model)
			}
			c.Messages = append(c.Messages, ForeignMessage{Role: role, Content: text, Model: model, CreatedAt: at})
		}
		if len(c.Messages) == 0 {
			b.SkippedConversations++
			continue
		}
		fillTimes(&c)
		b.Conversations = append(b.Conversations, c)
	}
	if len(problems) > 0 {
		return Batch{}, &ValidationError{Problems: problems}
	}
	return b, nil
}

// claudeText renders a message as text with placeholders for what playchat
// cannot show; it returns the text and the placeholder count.
func claudeText(m claudeMessage) (string, int) {
	ph := 0
	mark := func(s string) string { ph++; return "[" + s + "]" }
	var out []string
	for _, a := range m.Attachments {
		out = append(out, mark("attachment: "+orUnnamed(a.FileName)))
	}
	for _, f := range m.Files {
		out = append(out, mark("file: "+orUnnamed(f.FileName)))
	}
	if len(m.Content) == 0 {
		out = append(out, m.Text)
		return joinParts(out), ph
	}
	for _, c := range m.Content {
		name := placeholderName(deref(c.Name))
		switch c.Type {
		case "text":
			out = append(out, deref(c.Text))
		case "tool_use":
			out = append(out, mark(strings.TrimSuffix("tool call omitted: "+name, ": ")))
		case "tool_result":
			out = append(out, mark(strings.TrimSuffix("tool result omitted: "+name, ": ")))
		case "thinking":
			out = append(out, mark("thinking omitted"))
		case "image":
			out = append(out, mark("image omitted"))
		default:
			if c.Type == "" {
				out = append(out, mark("part omitted"))
			} else {
				out = append(out, mark(placeholderName(c.Type)+" omitted"))
			}
		}
	}
	return joinParts(out), ph
}

func orUnnamed(name string) string {
	if n := placeholderName(name); n != "" {
		return n
	}
	return "unnamed"
}

// isoTime parses an ISO 8601 time as Claude writes it (RFC 3339 with
// fractions, e.g. 2024-05-01T09:30:00.123456Z). "" is the zero time and ok;
// fillTimes fills it from the neighbours.
func isoTime(s string) (time.Time, bool) {
	if s == "" {
		return time.Time{}, true
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, false
	}
	return t.UTC().Truncate(time.Microsecond), true
}
