package session

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"playchat/backend/store"
)

// ChatGPT's data export (Settings → Data controls → Export data) holds
// conversations.json: a list of conversations, each
//
//	{"title","create_time","update_time" (float epoch seconds, may be null),
//	 "mapping": {node id: {"id","message" (or null),"parent" (or null),"children":[ids]}},
//	 "current_node", "default_model_slug", …}
//
// and each message
//
//	{"author":{"role":"system|user|assistant|tool","name"},"create_time",
//	 "content":{"content_type":"text|multimodal_text|code|execution_output|…","parts":[string|object],"text"},
//	 "metadata":{"model_slug","is_visually_hidden_from_conversation"},"recipient"}.
//
// The mapping is a tree: an edited question or a regenerated answer starts a
// sibling branch. Every branch is imported into the session's message tree
// (gptTree), and the branch ending at current_node (the one ChatGPT's window
// showed) is selected; the other branches are counted in Batch.Branches and
// can be switched to like playchat's own versions. Consecutive assistant and
// tool nodes (a reply that ran code or browsed is several nodes) become one
// assistant message.

type gptConversation struct {
	Title            *string             `json:"title"`
	CreateTime       *float64            `json:"create_time"`
	UpdateTime       *float64            `json:"update_time"`
	Mapping          map[string]*gptNode `json:"mapping"`
	CurrentNode      *string             `json:"current_node"`
	DefaultModelSlug *string             `json:"default_model_slug"`
}

type gptNode struct {
	ID       string      `json:"id"`
	Message  *gptMessage `json:"message"`
	Parent   *string     `json:"parent"`
	Children []string    `json:"children"`
}

type gptMessage struct {
	Author struct {
		Role string  `json:"role"`
		Name *string `json:"name"`
	} `json:"author"`
	CreateTime *float64 `json:"create_time"`
	Content    *struct {
		ContentType string            `json:"content_type"`
		Parts       []json.RawMessage `json:"parts"`
		Text        *string           `json:"text"`
		Result      *string           `json:"result"`
		Title       *string           `json:"title"`
	} `json:"content"`
	Metadata *struct {
		ModelSlug *string `json:"model_slug"`
		Hidden    *bool   `json:"is_visually_hidden_from_conversation"`
	} `json:"metadata"`
	Recipient *string `json:"recipient"`
}

// ParseChatGPT parses ChatGPT's conversations.json (a list of conversations,
// or one conversation object). It does not validate the result: see
// ValidateBatch.
func ParseChatGPT(data []byte) (Batch, error) {
	data = trimBOM(data)
	var list []gptConversation
	if t := firstByte(data); t == '{' {
		var one gptConversation
		if err := json.Unmarshal(data, &one); err != nil {
			return Batch{}, &ValidationError{Problems: []string{"not a ChatGPT conversations.json: " + jsonProblem(err)}}
		}
		list = []gptConversation{one}
	} else if err := json.Unmarshal(data, &list); err != nil {
		return Batch{}, &ValidationError{Problems: []string{"not a ChatGPT conversations.json: " + jsonProblem(err)}}
	}
	b := Batch{Format: FromChatGPT}
	var problems []string
	for i, gc := range list {
		if gc.Mapping == nil {
			problems = append(problems, fmt.Sprintf("conversations[%d] has no mapping: not a ChatGPT conversation", i))
			continue
		}
		c := Conversation{Index: i, Title: deref(gc.Title), CreatedAt: epoch(gc.CreateTime), UpdatedAt: epoch(gc.UpdateTime)}
		path, others := gptBranch(gc)
		b.Branches += others
		var top *gptNode
		if len(path) > 0 {
			top = path[0]
		}
		msgOf := gptTree(gc, top, &b, &c)
		c.Leaf = -1
		if len(path) > 0 {
			if k, ok := msgOf[path[len(path)-1]]; ok {
				c.Leaf = k
			}
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

// gptTree converts every branch of the conversation's mapping into c's
// Messages and Parents, walking down from the roots (nodes without a parent
// in the mapping, in id order) so a parent always comes before its
// children and siblings keep ChatGPT's order. A node that is skipped (a null
// slot, a system or hidden message) passes its place to its children; an
// assistant or tool node that is the only child of a node whose text went
// into an assistant message joins that message (a reply that ran code is
// several nodes). top, the first node of the shown branch, is walked last
// as one more root, so a branch whose parents loop (no root) still comes
// in. It returns, for each node reached, the index of the message holding
// its text or its nearest imported ancestor's (-1: none).
func gptTree(gc gptConversation, top *gptNode, b *Batch, c *Conversation) map[*gptNode]int {
	msgOf := map[*gptNode]int{}
	var roots []*gptNode
	for _, n := range gc.Mapping {
		if n != nil && (n.Parent == nil || gc.Mapping[*n.Parent] == nil) {
			roots = append(roots, n)
		}
	}
	sort.Slice(roots, func(i, j int) bool { return roots[i].ID < roots[j].ID })
	if top != nil {
		roots = append(roots, top) // skipped below when already reached
	}
	type item struct {
		n      *gptNode
		parent int  // the message index the node goes under (-1: a root)
		only   bool // the node is its tree parent's only child
	}
	var stack []item
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, item{roots[i], -1, false})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if _, seen := msgOf[it.n]; seen {
			continue
		}
		at := it.parent
		if fm, ok := gptConvert(gc, it.n.Message, b); ok {
			if p := it.parent; p >= 0 && it.only && fm.Role == store.RoleAssistant && c.Messages[p].Role == store.RoleAssistant {
				prev := &c.Messages[p]
				prev.Content += "\n\n" + fm.Content
				if fm.Model != "" {
					prev.Model = fm.Model
				}
			} else {
				c.Messages = append(c.Messages, fm)
				c.Parents = append(c.Parents, it.parent)
				at = len(c.Messages) - 1
			}
		}
		msgOf[it.n] = at
		kids := it.n.Children
		for k := len(kids) - 1; k >= 0; k-- { // pushed in reverse: popped in order
			if child := gc.Mapping[kids[k]]; child != nil {
				stack = append(stack, item{child, at, len(kids) == 1})
			}
		}
	}
	return msgOf
}

// gptConvert turns one node's message into a ForeignMessage, counting what
// it skips and the placeholders it writes in b; ok is false for a message
// not imported (none, system, hidden, or without text).
func gptConvert(gc gptConversation, m *gptMessage, b *Batch) (ForeignMessage, bool) {
	if m == nil {
		return ForeignMessage{}, false // a null slot (the tree's root): nothing to import
	}
	role := m.Author.Role
	hidden := m.Metadata != nil && m.Metadata.Hidden != nil && *m.Metadata.Hidden
	if role == store.RoleSystem || hidden || (m.Content != nil && m.Content.ContentType == "user_editable_context") {
		b.Skipped++
		return ForeignMessage{}, false
	}
	text, ph := gptText(m)
	if strings.TrimSpace(text) == "" {
		b.Skipped++
		return ForeignMessage{}, false
	}
	b.Placeholders += ph
	model := ""
	if m.Metadata != nil && m.Metadata.ModelSlug != nil {
		model = *m.Metadata.ModelSlug
	}
	if role == "tool" {
		role = store.RoleAssistant
	}
	switch role {
	case store.RoleUser:
		model = ""
	case store.RoleAssistant:
		if model == "" {
			model = deref(gc.DefaultModelSlug)
		}
	default:
		// An author playchat has no role for: kept, marked, as a reply so
		// its text is not lost.
		text = fmt.Sprintf("[%s] %s", placeholderName(role), text)
		role = store.RoleAssistant
	}
	return ForeignMessage{Role: role, Content: text, Model: model, CreatedAt: epoch(m.CreateTime)}, true
}

// gptBranch returns the nodes from the root to the conversation's
// current_node, and how many other branches (leaves not on that path) the
// tree has. Without a usable current_node it follows the newest (last)
// child from the root.
func gptBranch(gc gptConversation) ([]*gptNode, int) {
	end := gc.Mapping[deref(gc.CurrentNode)]
	if end == nil {
		// Find a root (no parent, or a parent not in the mapping) and go down
		// the last children.
		for _, n := range gc.Mapping {
			if n != nil && (n.Parent == nil || gc.Mapping[*n.Parent] == nil) {
				if end == nil || n.ID < end.ID { // deterministic among several roots
					end = n
				}
			}
		}
		seen := map[*gptNode]bool{}
		for end != nil && !seen[end] && len(end.Children) > 0 {
			seen[end] = true
			next := gc.Mapping[end.Children[len(end.Children)-1]]
			if next == nil {
				break
			}
			end = next
		}
	}
	var path []*gptNode
	seen := map[*gptNode]bool{}
	for n := end; n != nil && !seen[n]; {
		seen[n] = true
		path = append(path, n)
		if n.Parent == nil {
			break
		}
		n = gc.Mapping[*n.Parent]
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	leaves := 0
	for _, n := range gc.Mapping {
		if n != nil && len(n.Children) == 0 && n != end {
			leaves++
		}
	}
	return path, leaves
}

// gptText renders a message's content as text, with a placeholder for each
// part playchat cannot show; it returns the text and the placeholder count.
func gptText(m *gptMessage) (string, int) {
	if m.Content == nil {
		return "", 0
	}
	c := m.Content
	ph := 0
	mark := func(s string) string { ph++; return "[" + s + "]" }
	// A message addressed to a tool (recipient other than "all") is a tool
	// call: the code run, the search made.
	if r := deref(m.Recipient); r != "" && r != "all" && m.Author.Role == store.RoleAssistant {
		return mark("tool call omitted: " + placeholderName(r)), ph
	}
	if m.Author.Role == "tool" {
		// A tool's output; an image it made (DALL·E) is still an image.
		var out []string
		for _, p := range c.Parts {
			if s := gptPartPlaceholder(p); strings.HasPrefix(s, "image") {
				out = append(out, mark(s))
			}
		}
		if len(out) > 0 {
			return joinParts(out), ph
		}
		name := placeholderName(deref(m.Author.Name))
		if name == "" {
			return mark("tool output omitted"), ph
		}
		return mark("tool output omitted: " + name), ph
	}
	switch c.ContentType {
	case "text", "multimodal_text", "":
		var out []string
		for _, p := range c.Parts {
			var s string
			if json.Unmarshal(p, &s) == nil {
				out = append(out, s)
				continue
			}
			var obj struct {
				ContentType string `json:"content_type"`
				Text        string `json:"text"`
			}
			if json.Unmarshal(p, &obj) == nil && obj.ContentType == "audio_transcription" && strings.TrimSpace(obj.Text) != "" {
				out = append(out, obj.Text)
				continue
			}
			if string(p) == "null" {
				continue
			}
			out = append(out, mark(gptPartPlaceholder(p)))
		}
		if len(out) == 0 && c.Text != nil {
			return *c.Text, ph
		}
		return joinParts(out), ph
	case "code":
		return mark("code omitted"), ph
	case "execution_output":
		return mark("code output omitted"), ph
	case "tether_browsing_display", "tether_quote":
		return mark("browsing result omitted"), ph
	case "thoughts", "reasoning_recap":
		return mark("reasoning omitted"), ph
	}
	return mark(placeholderName(c.ContentType) + " omitted"), ph
}

// gptPartPlaceholder words a non-text part of a multimodal message:
// "image omitted" for an image, "<content type> omitted" otherwise.
func gptPartPlaceholder(p json.RawMessage) string {
	var obj struct {
		ContentType string `json:"content_type"`
	}
	_ = json.Unmarshal(p, &obj)
	switch {
	case strings.Contains(obj.ContentType, "image"):
		return "image omitted"
	case strings.Contains(obj.ContentType, "audio"):
		return "audio omitted"
	case strings.Contains(obj.ContentType, "video"):
		return "video omitted"
	case obj.ContentType == "":
		return "part omitted"
	}
	return placeholderName(obj.ContentType) + " omitted"
}

// epoch turns float epoch seconds into a UTC time (microsecond precision);
// a missing, zero or impossible value is the zero time.
func epoch(f *float64) time.Time {
	if f == nil || *f <= 0 || math.IsNaN(*f) || math.IsInf(*f, 0) || *f > 1e11 {
		return time.Time{}
	}
	sec, frac := math.Modf(*f)
	return time.Unix(int64(sec), int64(frac*1e9)).UTC().Truncate(time.Microsecond)
}

// fillTimes gives messages without a time the one before them (or the
// conversation's), and a conversation without times its first and last
// message's.
func fillTimes(c *Conversation) {
	if c.CreatedAt.IsZero() {
		for _, m := range c.Messages {
			if !m.CreatedAt.IsZero() {
				c.CreatedAt = m.CreatedAt
				break
			}
		}
	}
	last := c.CreatedAt
	for i := range c.Messages {
		if c.Messages[i].CreatedAt.IsZero() {
			c.Messages[i].CreatedAt = last
		}
		last = c.Messages[i].CreatedAt
	}
	if last.After(c.UpdatedAt) {
		c.UpdatedAt = last
	}
	if c.UpdatedAt.IsZero() {
		c.UpdatedAt = c.CreatedAt
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func trimBOM(data []byte) []byte {
	if len(data) >= 3 && data[0] == 0xef && data[1] == 0xbb && data[2] == 0xbf {
		return data[3:]
	}
	return data
}

// firstByte is the first byte of data that is not white space (0 when none).
func firstByte(data []byte) byte {
	for _, c := range data {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}
