package chat

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"playchat/backend/apperr"
	"playchat/backend/attach"
	"playchat/backend/store"
	"playchat/backend/tokens"
)

// When a document does not fit (issue 25). A message whose documents'
// text makes it too long for the model is never cut silently: the turn is
// refused with apperr.ChatAttachmentTooLong, which says how much of the
// document fits, and nothing is stored or sent. The user may then send
// again with TurnRequest.FitAttachments, and only then does the message
// carry the part that fits — a PDF's first pages, another document's
// first characters — in a block that names that part (attach.PartBlock);
// or add the file to the knowledge base instead (the window's
// AttachmentService.AddToKnowledge).

// layerReserveShare is the share of the input budget a message's documents
// leave to the system layers: room for the smallest of them (the current
// time, the notes index) when a document fills the rest.
const layerReserveShare = 0.05

// fitPlace is what a message with documents is sent with: the chat's own
// system prompt and the conversation before the message (read only when
// the message has documents).
type fitPlace struct {
	system string
	// before returns the active messages before the message, oldest first
	// (nil: a new chat).
	before func() ([]store.Message, error)
}

// reserve is the room, in tokens, the message's documents leave for what
// buildContextWith gives room before any layer — the chat's own system
// prompt and the newest minRecentMessages of the conversation (with their
// attachments; at most a quarter of the input budget) — and
// layerReserveShare of the budget for the layers. The conversation before
// it goes whole when it is shorter.
func (p fitPlace) reserve(counter tokens.Counter, b Budget) (int, error) {
	r := int(float64(b.Input) * layerReserveShare)
	if sys := strings.TrimSpace(p.system); sys != "" {
		r += counter.Count(sys) + tokens.MessageOverhead
	}
	if p.before == nil {
		return r, nil
	}
	before, err := p.before()
	if err != nil {
		return 0, err
	}
	hist := historyMessages(before)
	conv := 0
	for i := len(hist) - 1; i >= 0 && len(hist)-i <= minRecentMessages; i-- {
		c, _ := messageTokens(counter, hist[i])
		conv += c
	}
	return r + min(conv, b.Input/4), nil
}

// hasDocuments reports whether files hold a document (anything but an
// image).
func hasDocuments(files []store.MessageFile) bool {
	for _, f := range files {
		if f.Kind != attach.KindImage {
			return true
		}
	}
	return false
}

// fileBlock is the text block a document adds to a request: the whole
// text (attach.Block), or the part the message sent (attach.PartBlock)
// when SentPages or SentChars is set.
func fileBlock(f store.MessageFile) string {
	switch {
	case f.SentPages > 0 && f.Pages > f.SentPages:
		return attach.PartBlock(f.Name, f.MIME, attach.FirstPages(f.Text, f.SentPages), attach.PagesPart(f.SentPages, f.Pages))
	case f.SentChars > 0:
		if n := utf8.RuneCountInString(f.Text); n > f.SentChars {
			return attach.PartBlock(f.Name, f.MIME, attach.FirstChars(f.Text, f.SentChars), attach.CharsPart(f.SentChars, n))
		}
	}
	return attach.Block(f.Name, f.MIME, f.Text)
}

// fitResult is how a message's documents fit in the room left for them.
type fitResult struct {
	// files are the message's files with the part of each document that
	// fits set (SentPages, SentChars).
	files []store.MessageFile
	// first is the index in files of the first document that does not fit
	// whole (-1: all fit).
	first int
	// complete is false when some document that does not fit whole cannot
	// send even its first page or character.
	complete bool
}

// fitDocuments shares room tokens among the documents of files: first as
// many as fit go whole, the smallest first (so two documents where one is
// short send that one whole, rather than the long one's part and nothing of
// the short one); then the documents left take, in message order, the
// longest part of each that fits what remains (fitPart). The files given
// are not changed.
func fitDocuments(counter tokens.Counter, room int, files []store.MessageFile) fitResult {
	res := fitResult{files: append([]store.MessageFile(nil), files...), first: -1, complete: true}
	type doc struct{ i, tokens int }
	var docs []doc
	for i := range res.files {
		f := &res.files[i]
		if f.Kind == attach.KindImage {
			continue
		}
		f.SentPages, f.SentChars = 0, 0
		docs = append(docs, doc{i, counter.Count(fileBlock(*f))})
	}
	sort.SliceStable(docs, func(a, b int) bool { return docs[a].tokens < docs[b].tokens })
	whole := map[int]bool{}
	for _, d := range docs {
		if d.tokens <= room {
			room -= d.tokens
			whole[d.i] = true
		}
	}
	for i := range res.files {
		f := &res.files[i]
		if f.Kind == attach.KindImage || whole[i] {
			continue
		}
		if res.first < 0 {
			res.first = i
		}
		used, ok := fitPart(counter, room, f)
		if !ok {
			res.complete = false
			continue
		}
		room -= used
	}
	return res
}

// maxPieceRunes is the longest piece of a line a part of text without
// pages may end inside: a part ends at the end of a line, or every this
// many characters along a longer one (minified JSON, a log of one line).
const maxPieceRunes = 1024

// partCut is a place a part of a document may end: its byte offset in the
// text and the SentPages or SentChars of the part that ends there.
type partCut struct{ end, n int }

// partCuts lists where a part of f's text may end, in order; the last is
// the end of the text (the whole document). A PDF of several pages is cut
// after a page (n: the part sends pages 1..n, up to the page before the
// next one with text), other text after a line or piece of one (n: its
// characters).
func partCuts(f store.MessageFile) []partCut {
	var out []partCut
	if f.Pages > 1 {
		pages, ends := attach.PageEnds(f.Text)
		for i := range pages {
			n := f.Pages
			if i+1 < len(pages) {
				n = pages[i+1] - 1
			}
			out = append(out, partCut{ends[i], n})
		}
		return out
	}
	runes, k := 0, 0 // k: runes since the last cut
	for i, r := range f.Text {
		runes++
		k++
		if r == '\n' || k == maxPieceRunes {
			out = append(out, partCut{i + utf8.RuneLen(r), runes})
			k = 0
		}
	}
	if len(out) == 0 || out[len(out)-1].end < len(f.Text) {
		out = append(out, partCut{len(f.Text), runes})
	}
	return out
}

// fitPart sets in f (whose whole block does not fit in room tokens) the
// longest part that does — the most first pages of a PDF, the most first
// lines of other text — and returns its size in tokens; false (and no
// part set) when not even the first page or line fits. Counting every
// candidate part would count a large document dozens of times, so the
// pieces between cuts are counted once each for an estimate, and real
// counts of the block around it find the exact cut (usually two).
func fitPart(counter tokens.Counter, room int, f *store.MessageFile) (int, bool) {
	cuts := partCuts(*f)
	paged := f.Pages > 1
	set := func(i int) {
		f.SentPages, f.SentChars = 0, 0
		switch {
		case i < 0:
		case paged:
			f.SentPages = cuts[i].n
		default:
			f.SentChars = cuts[i].n
		}
	}
	sizes := map[int]int{}
	fits := func(i int) bool {
		set(i)
		sizes[i] = counter.Count(fileBlock(*f))
		return sizes[i] <= room
	}
	// The estimate: the block's frame plus the pieces up to each cut.
	est, guess, prev := counter.Count(attach.PartBlock(f.Name, f.MIME, "", attach.CharsPart(len(f.Text), len(f.Text)))), -1, 0
	for i, c := range cuts[:len(cuts)-1] {
		est += counter.Count(f.Text[prev:c.end])
		prev = c.end
		if est > room {
			break
		}
		guess = i
	}
	// lo fits (-1: none known to), hi does not (the whole document).
	lo, hi := -1, len(cuts)-1
	if guess >= 0 {
		if fits(guess) {
			lo = guess
			for step := 1; lo+step < hi; step *= 2 {
				if !fits(lo + step) {
					hi = lo + step
					break
				}
				lo += step
			}
		} else {
			hi = guess
		}
	}
	for step := 1; lo < 0 && hi > 0; step *= 2 {
		i := max(hi-step, 0)
		if fits(i) {
			lo = i
			break
		}
		hi = i
	}
	for hi-lo > 1 {
		if mid := (lo + hi) / 2; fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	set(lo)
	if lo < 0 {
		return 0, false
	}
	if _, ok := sizes[lo]; !ok {
		fits(lo)
	}
	return sizes[lo], true
}

// tooLongError is the error of a message that does not fit: ChatAttachmentTooLong
// when it would fit without its documents' text (fit is then how they fit
// the room left; its fitPages and fitChars are 0 when some document could
// not send even its beginning, so the offer is the knowledge base alone),
// ChatTooLongForModel otherwise.
func tooLongError(used, limit int, fit fitResult, docsOnly bool) error {
	if !docsOnly || fit.first < 0 {
		return apperr.New(apperr.ChatTooLongForModel, map[string]any{"used": used, "limit": limit})
	}
	f := fit.files[fit.first]
	docs := 0
	for _, g := range fit.files {
		if g.Kind != attach.KindImage {
			docs++
		}
	}
	fitPages, fitChars := f.SentPages, f.SentChars
	if !fit.complete {
		// Some document could not send even its beginning: there is no
		// part to offer, only the knowledge base.
		fitPages, fitChars = 0, 0
	}
	return apperr.New(apperr.ChatAttachmentTooLong, map[string]any{"name": f.Name, "used": used, "limit": limit,
		"pages": f.Pages, "fitPages": fitPages, "chars": utf8.RuneCountInString(f.Text), "fitChars": fitChars, "docs": docs})
}

// wholeFiles returns files with every document sent whole (no part set).
func wholeFiles(files []store.MessageFile) []store.MessageFile {
	out := slices.Clone(files)
	for i := range out {
		out[i].SentPages, out[i].SentChars = 0, 0
	}
	return out
}

// sentPartsDiffer reports whether b sends another part of some document
// than a (the same files, in order).
func sentPartsDiffer(a, b []store.MessageFile) bool {
	for i := range a {
		if i >= len(b) || a[i].SentPages != b[i].SentPages || a[i].SentChars != b[i].SentChars {
			return true
		}
	}
	return len(a) != len(b)
}
