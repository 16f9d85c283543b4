package chat

import (
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

// fitDocuments shares room tokens among the documents of files in order:
// each takes its whole block while it fits, else the longest part of it
// that fits — the most first pages of a PDF (by its "[page N]" headings),
// the most first characters of other text. The files given are not
// changed.
func fitDocuments(counter tokens.Counter, room int, files []store.MessageFile) fitResult {
	res := fitResult{files: append([]store.MessageFile(nil), files...), first: -1, complete: true}
	for i := range res.files {
		f := &res.files[i]
		if f.Kind == attach.KindImage {
			continue
		}
		f.SentPages, f.SentChars = 0, 0
		if c := counter.Count(fileBlock(*f)); c <= room {
			room -= c
			continue
		}
		if res.first < 0 {
			res.first = i
		}
		paged := f.Pages > 1
		total := f.Pages - 1
		if !paged {
			total = utf8.RuneCountInString(f.Text) - 1
		}
		set := func(n int) {
			if paged {
				f.SentPages = n
			} else {
				f.SentChars = n
			}
		}
		// The largest n in [0, total] whose part fits: parts grow with n.
		lo, hi := 0, total
		for lo < hi {
			mid := (lo + hi + 1) / 2
			set(mid)
			if counter.Count(fileBlock(*f)) <= room {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		set(lo)
		if lo == 0 {
			res.complete = false
			continue
		}
		room -= counter.Count(fileBlock(*f))
	}
	return res
}

// tooLongError is the error of a message that does not fit: ChatAttachmentTooLong
// when it would fit without its documents' text (fit is then how they fit
// the room left), ChatTooLongForModel otherwise.
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
	return apperr.New(apperr.ChatAttachmentTooLong, map[string]any{"name": f.Name, "used": used, "limit": limit,
		"pages": f.Pages, "fitPages": f.SentPages, "chars": utf8.RuneCountInString(f.Text), "fitChars": f.SentChars, "docs": docs})
}
