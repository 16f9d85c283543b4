package session

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/event"
	"playchat/backend/redact"
	"playchat/backend/store"
)

// Export formats (`playchat sessions export --format`, the window's
// export menu). JSON is the lossless one (every branch, memories, tags);
// Markdown and HTML hold the branch shown, for reading and sharing.
const (
	FormatJSON     = "json"
	FormatMarkdown = "md"
	FormatHTML     = "html"
)

// ExportOptions tune a readable export.
type ExportOptions struct {
	// Now is the export time written in the front matter (tests); zero
	// is now.
	Now time.Time
	// Location shows the times of messages (nil: UTC).
	Location *time.Location
}

// ExportAs writes the session in format and returns the bytes and the
// file extension.
func ExportAs(ctx context.Context, db *store.DB, id, format string, o ExportOptions) ([]byte, string, error) {
	switch strings.ToLower(format) {
	case FormatJSON, "":
		b, err := ExportJSON(ctx, db, id)
		return b, ".json", err
	case FormatMarkdown, "markdown":
		b, err := ExportMarkdown(ctx, db, id, o)
		return b, ".md", err
	case FormatHTML, "htm":
		b, err := ExportHTML(ctx, db, id, o)
		return b, ".html", err
	}
	return nil, "", apperr.New(apperr.ExportFormat, map[string]any{"format": format})
}

// readable is what the Markdown and HTML exports show: the session and the
// messages of the branch the window shows.
type readable struct {
	s    store.Session
	msgs []store.Message
}

func loadReadable(ctx context.Context, db *store.DB, id string) (readable, error) {
	s, err := db.GetSession(ctx, id)
	if err != nil {
		return readable{}, err
	}
	msgs, err := db.BranchMessages(ctx, id)
	if err != nil {
		return readable{}, err
	}
	var shown []store.Message
	for _, m := range msgs {
		if m.Role == store.RoleUser || m.Role == store.RoleAssistant {
			shown = append(shown, m)
		}
	}
	return readable{s: s, msgs: shown}, nil
}

func (o ExportOptions) now() time.Time {
	if o.Now.IsZero() {
		return time.Now().UTC()
	}
	return o.Now.UTC()
}

func (o ExportOptions) local(t time.Time) string {
	loc := o.Location
	if loc == nil {
		loc = time.UTC
	}
	return t.In(loc).Format("2006-01-02 15:04")
}

// yamlString quotes s for YAML front matter (a JSON string is valid YAML).
func yamlString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// ExportMarkdown writes the branch shown as Markdown: YAML front matter
// (title, model, session id, created, updated, exported, message count),
// the title, then each message under a heading naming who wrote it (and
// the reply's model) and when. Contents are kept as written: math, code
// fences and tables stay source. A reply cut off or failed says so; the
// pages a reply cited follow it as links.
func ExportMarkdown(ctx context.Context, db *store.DB, id string, o ExportOptions) ([]byte, error) {
	r, err := loadReadable(ctx, db, id)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	title := r.s.Title
	if strings.TrimSpace(title) == "" {
		title = "Untitled chat"
	}
	b.WriteString("---\n")
	fmt.Fprintf(&b, "title: %s\n", yamlString(title))
	if r.s.Model != "" {
		fmt.Fprintf(&b, "model: %s\n", yamlString(r.s.Model))
	}
	fmt.Fprintf(&b, "session: %s\n", yamlString(r.s.ID))
	fmt.Fprintf(&b, "created: %s\n", r.s.CreatedAt.UTC().Format(time.RFC3339))
	fmt.Fprintf(&b, "updated: %s\n", r.s.UpdatedAt.UTC().Format(time.RFC3339))
	fmt.Fprintf(&b, "exported: %s\n", o.now().Format(time.RFC3339))
	fmt.Fprintf(&b, "messages: %d\n", len(r.msgs))
	b.WriteString("generator: playchat\n---\n\n")
	fmt.Fprintf(&b, "# %s\n", strings.ReplaceAll(title, "\n", " "))
	for _, m := range r.msgs {
		b.WriteString("\n")
		who := "User"
		if m.Role == store.RoleAssistant {
			who = "Assistant"
			if m.Model != "" {
				who += " (" + m.Model + ")"
			}
		}
		fmt.Fprintf(&b, "## %s · %s\n\n", who, o.local(m.CreatedAt))
		content := strings.TrimRight(m.Content, "\n")
		b.WriteString(content)
		b.WriteString("\n")
		if open := openFence(content); open != "" {
			b.WriteString(open + "\n") // a reply cut off inside a code block
		}
		switch m.Status {
		case store.StatusPartial, store.StatusStreaming:
			b.WriteString("\n> *(reply cut off)*\n")
		case store.StatusError:
			b.WriteString("\n> *(no reply: " + oneLine(redact.URLCredentials(m.Error)) + ")*\n")
		}
		if srcs := sourcesOf(m); len(srcs) > 0 {
			b.WriteString("\nSources:\n\n")
			for i, s := range srcs {
				t := s.Title
				if t == "" {
					t = s.URL
				}
				fmt.Fprintf(&b, "%d. [%s](<%s>)\n", i+1, escapeLinkText(t), s.URL)
			}
		}
	}
	return []byte(b.String()), nil
}

func sourcesOf(m store.Message) []event.Source {
	var ok []event.Source
	for _, s := range m.SourceList() {
		if strings.HasPrefix(s.URL, "https://") || strings.HasPrefix(s.URL, "http://") {
			ok = append(ok, s)
		}
	}
	return ok
}

func escapeLinkText(s string) string {
	return strings.NewReplacer(`[`, `\[`, `]`, `\]`, "\n", " ").Replace(s)
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// openFence returns the fence that closes a code block content leaves
// open ("" when none is open).
func openFence(content string) string {
	open := ""
	for line := range strings.SplitSeq(content, "\n") {
		t := strings.TrimLeft(line, " ")
		if len(line)-len(t) > 3 {
			continue
		}
		for _, ch := range []string{"`", "~"} {
			if !strings.HasPrefix(t, strings.Repeat(ch, 3)) {
				continue
			}
			n := len(t) - len(strings.TrimLeft(t, ch))
			fence := strings.Repeat(ch, n)
			switch {
			case open == "":
				open = fence
			case strings.HasPrefix(open, ch) && n >= len(open) && strings.TrimSpace(t[n:]) == "":
				open = ""
			}
		}
	}
	return open
}
