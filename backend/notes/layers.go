package notes

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"playchat/backend/layer"
)

// Settings are the notes options read for every request (so a change saved
// in the GUI applies to the next turn).
type Settings struct {
	// ContentLimit is SESSION_NOTES_CONTENT_LIMIT: at most this many
	// characters (runes) of each pinned page go into the context; ≤ 0 means
	// DefaultContentLimit.
	ContentLimit int
}

// DefaultContentLimit is SESSION_NOTES_CONTENT_LIMIT's default, in
// characters per pinned page.
const DefaultContentLimit = 8000

// PreviewRunes is how many characters of each page the index shows.
const PreviewRunes = 40

// Layer names (layer.Block.Layer and layer.Layer.Name).
const (
	IndexLayerName  = "notes"
	PinnedLayerName = "pinned_notes"
)

// IndexPreamble opens the notes index (layer 2).
const IndexPreamble = "# Shared notes\n" +
	"The user and you share these note pages. Below are their titles and the first characters of each page, " +
	"grouped by section. Read a page in full with read_note (page_id or title); change one or make a new one " +
	"with write_note. Use them when the user refers to their notes or asks you to remember or write something down."

// UngroupedHeading heads the pages that belong to no section in the index.
const UngroupedHeading = "## (no section)"

func limitOf(settings func() Settings) int {
	if settings == nil {
		return DefaultContentLimit
	}
	if n := settings().ContentLimit; n > 0 {
		return n
	}
	return DefaultContentLimit
}

// IndexLayer returns context layer 2 (name "notes"): one truncatable block
// listing every page as "- [id N] title — preview" in position order, under
// a "## <section>" heading per section run (UngroupedHeading for pages with
// no section). The preview is the first PreviewRunes characters of the
// content with line breaks collapsed. Pages pinned to the query's session
// are marked as shown in full below (or in part, when longer than the
// content limit). No pages, no block. settings may be nil.
func IndexLayer(svc *Service, settings func() Settings) layer.Layer {
	return indexLayer{svc: svc, settings: settings}
}

type indexLayer struct {
	svc      *Service
	settings func() Settings
}

func (indexLayer) Name() string { return IndexLayerName }

func (l indexLayer) Build(ctx context.Context, q layer.Query) ([]layer.Block, error) {
	if q.Outside || q.NoNotes {
		return nil, nil // the owner's private data stays in the window
	}
	ps, err := l.svc.List(ctx)
	if err != nil || len(ps) == 0 {
		return nil, err
	}
	pinned, err := l.svc.Pins(ctx, q.SessionID)
	if err != nil {
		return nil, err
	}
	isPinned := make(map[int64]bool, len(pinned))
	for _, id := range pinned {
		isPinned[id] = true
	}
	limit := limitOf(l.settings)
	var b strings.Builder
	b.WriteString(IndexPreamble)
	items := make([]layer.Item, 0, len(ps))
	for i, p := range ps {
		items = append(items, layer.Item{Kind: layer.KindNote, ID: strconv.FormatInt(p.ID, 10), Title: p.Title, Start: b.Len()})
		if i == 0 || ps[i-1].Section != p.Section {
			b.WriteString("\n\n")
			if p.Section == "" {
				b.WriteString(UngroupedHeading)
			} else {
				b.WriteString("## " + p.Section)
			}
		}
		fmt.Fprintf(&b, "\n- [id %d] %s — %s", p.ID, p.Title, Preview(p.Content, PreviewRunes))
		if isPinned[p.ID] {
			if n := utf8.RuneCountInString(p.Content); n > limit {
				fmt.Fprintf(&b, " (pinned: first %d of %d characters below — read_note only for the rest)", limit, n)
			} else {
				b.WriteString(" (pinned: full text below — do not read_note it again)")
			}
		}
	}
	return []layer.Block{{Layer: IndexLayerName, Text: b.String(), Truncatable: true, Items: items}}, nil
}

// Preview returns the first n characters (runes) of content with every run
// of white space (line breaks included) collapsed to one space, followed by
// "…" when there is more; "(empty)" for a page with no text.
func Preview(content string, n int) string {
	text := strings.Join(strings.Fields(content), " ")
	if text == "" {
		return "(empty)"
	}
	if utf8.RuneCountInString(text) <= n {
		return text
	}
	r := []rune(text)
	return strings.TrimRight(string(r[:n]), " ") + "…"
}

// PinnedLayer returns context layer 2.5 (name "pinned_notes"): one
// truncatable block per page pinned to the query's session, in position
// order, with the page's full text cut at Settings.ContentLimit characters
// and a visible TruncatedMarker. No session or no pins, no blocks. settings
// may be nil.
func PinnedLayer(svc *Service, settings func() Settings) layer.Layer {
	return pinnedLayer{svc: svc, settings: settings}
}

type pinnedLayer struct {
	svc      *Service
	settings func() Settings
}

func (pinnedLayer) Name() string { return PinnedLayerName }

// Priority is layer.PriorityUserChoice: the pages the user pinned get their
// room in the context before what retrieval picked (the local KB), so a
// short window cuts a barely related document before a pinned page.
func (pinnedLayer) Priority() int { return layer.PriorityUserChoice }

func (l pinnedLayer) Build(ctx context.Context, q layer.Query) ([]layer.Block, error) {
	if q.Outside || q.NoNotes {
		return nil, nil // the owner's private data stays in the window
	}
	ps, err := l.svc.pinnedPages(ctx, q.SessionID)
	if err != nil || len(ps) == 0 {
		return nil, err
	}
	limit := limitOf(l.settings)
	out := make([]layer.Block, 0, len(ps))
	for _, p := range ps {
		var b strings.Builder
		fmt.Fprintf(&b, "# Pinned note: %s [id %d]", p.Title, p.ID)
		if p.Section != "" {
			fmt.Fprintf(&b, " (section: %s)", p.Section)
		}
		b.WriteString("\nThe user pinned this shared note to the conversation; its text follows.\n\n")
		text, cut := Truncate(p.Content, limit)
		if strings.TrimSpace(text) == "" {
			text = "(empty page)"
		}
		b.WriteString(text)
		item := layer.Item{Kind: layer.KindNote, ID: strconv.FormatInt(p.ID, 10), Title: p.Title}
		var left []layer.Omission
		if cut {
			total := utf8.RuneCountInString(p.Content)
			b.WriteString(TruncatedMarker(limit, total))
			o := layer.Omit(item, layer.ReasonCharLimit)
			o.Kept, o.Total, o.Unit = limit, total, layer.UnitCharacters
			left = append(left, o)
		}
		out = append(out, layer.Block{Layer: PinnedLayerName, Text: b.String(), Truncatable: true, CutMarker: PinnedCutMarker,
			Items: []layer.Item{item}, LeftOut: left})
	}
	return out, nil
}

// Truncate returns the first limit characters (runes) of s and whether it
// cut anything.
func Truncate(s string, limit int) (string, bool) {
	if limit < 0 || utf8.RuneCountInString(s) <= limit {
		return s, false
	}
	return string([]rune(s)[:limit]), true
}

// PinnedCutMarker ends a pinned page that the context builder cut to fit
// the model's context window (the index still lists the page as pinned).
const PinnedCutMarker = "\n…(cut here to fit the context window; read_note for the rest)"

// TruncatedMarker is the line that ends a pinned page cut to shown of total
// characters.
func TruncatedMarker(shown, total int) string {
	return fmt.Sprintf("\n…(truncated: %d of %d characters shown; read_note for the rest)", shown, total)
}
