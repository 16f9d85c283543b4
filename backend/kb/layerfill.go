package kb

import (
	"fmt"
	"sort"
	"strings"

	"playchat/backend/tokens"
)

// How layer 3 fills its budget with sections (issue 22).

// sectionCutMark ends a section cut to fit.
const sectionCutMark = "\n[…]"

// sectionsIntro opens the list of the sections a document sent.
const sectionsIntro = "Sections sent, best match first:"

// minCutTokens is the least room, in tokens, worth filling with the start
// of a section that does not fit whole; with less the layer ends there.
const minCutTokens = 64

// bm25Tie weighs a section's BM25 score (relative to its document's best)
// in the order of sections that hold the same share of the question.
const bm25Tie = 0.1

// docPlan is a chosen document's part of layer 3: its sections in the order
// they go and how many of them fit.
type docPlan struct {
	c *candidate
	// order indexes c.chunks: the sections that hold the question, best
	// first, then the others in document order.
	order []int
	// strong counts the leading entries of order that hold the question
	// nearly as well as the best (relativeFloor of its score).
	strong int
	// n counts the entries of order included; the last one cut to cut when
	// cut is not "".
	n   int
	cut string
	// header is the tokens of the document's heading lines, reserved when
	// its first section goes in.
	header int
}

// planDocs orders each chosen document's sections. A section holds the
// question when its prose holds one of the question's terms (or its
// embedding reaches the semantic floor); those are ranked by their
// evidence score plus their cosine similarity, ties by BM25, the rest keep
// the document's order.
func (s *Service) planDocs(r *retrieval, chosen []*candidate, counter tokens.Counter) []*docPlan {
	plans := make([]*docPlan, len(chosen))
	for i, c := range chosen {
		var cos map[int64]float64
		if r.qvec != nil {
			cos = s.vec.chunkScores(r.qvec, c.docID)
		}
		maxBM := 0.0
		for _, ch := range c.chunks {
			maxBM = max(maxBM, r.chunkBM25[ch.id])
		}
		score := make([]float64, len(c.chunks))
		var hold, rest []int
		for j, ch := range c.chunks {
			e := c.ev.secs[j]
			cv, hasCos := cos[ch.id]
			if e.prose > 0 || (hasCos && cv >= r.semFloor) {
				score[j] = e.score() + max(cv, 0)
				if maxBM > 0 {
					score[j] += bm25Tie * r.chunkBM25[ch.id] / maxBM
				}
				hold = append(hold, j)
			} else {
				rest = append(rest, j)
			}
		}
		sort.SliceStable(hold, func(a, b int) bool { return score[hold[a]] > score[hold[b]] })
		// The section the document qualified by leads, whatever the
		// cosine and BM25 terms make of the others.
		if b := indexOf(hold, c.ev.best); b > 0 && c.ev.ok {
			copy(hold[1:b+1], hold[:b])
			hold[0] = c.ev.best
		}
		p := &docPlan{c: c, order: append(hold, rest...)}
		for p.strong < len(hold) && score[hold[p.strong]] >= relativeFloor*score[hold[0]] {
			p.strong++
		}
		p.header = counter.Count(fmt.Sprintf("\n\n### %s\nSource: %s\n%s — %d of %d (cut)\n\n",
			c.title, c.path, sectionsIntro, len(c.chunks), len(c.chunks)))
		plans[i] = p
	}
	return plans
}

func indexOf(xs []int, x int) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// fill decides how much of each plan goes into room tokens: first every
// document's best section (most relevant document first), then the other
// sections that hold the question nearly as well as the best — all of the
// best document's before the next document's — then the remaining sections
// in the same order (those that hold less of the question first). A
// section that does not fit whole is cut at a boundary (tokens.Truncate) to
// the room left, if that is at least minCutTokens, and the layer is full.
func fill(plans []*docPlan, counter tokens.Counter, room int) {
	// Between sections: a blank line; every section opens with its heading
	// (or a line naming it), and the list of sections says what was sent.
	gap := counter.Count("\n\n")
	full := false
	take := func(p *docPlan) {
		text := p.sectionText(p.n)
		extra := gap + counter.Count(p.label(p.n)) + 2
		if p.n == 0 {
			extra += p.header
		}
		n := counter.Count(text)
		if n+extra <= room {
			room -= n + extra
			p.n++
			return
		}
		if avail := room - extra; avail >= minCutTokens {
			if cut := tokens.Truncate(counter, text, avail, sectionCutMark); cut != "" {
				p.cut = cut
				p.n++
			}
		}
		full = true
	}
	for _, p := range plans {
		if full {
			return
		}
		take(p)
	}
	for _, p := range plans {
		for p.n > 0 && p.n < p.strong && !full {
			take(p)
		}
	}
	for _, p := range plans {
		for p.n > 0 && p.n < len(p.order) && !full {
			take(p)
		}
	}
}

// sectionText is the text of the k-th section of p's order: the section's
// Markdown, opened by its heading path when it does not start with its own
// heading (the continuation of a long section, split at a paragraph) and
// does not follow the part before it.
func (p *docPlan) sectionText(k int) string {
	i := p.order[k]
	ch := p.c.chunks[i]
	if ch.heading == "" || (k > 0 && p.order[k-1] == i-1) || dropOwnHeading(ch.text) != strings.TrimLeft(ch.text, "\n") {
		return ch.text
	}
	return "[" + ch.heading + " (continued)]\n\n" + ch.text
}

// label names the k-th section of p's order in the block's list of
// sections: the last part of its heading path ("(opening)" for the text
// before the first heading), with its part number when the section was
// split.
func (p *docPlan) label(k int) string {
	i := p.order[k]
	h := p.c.chunks[i].heading
	name := h
	if j := strings.LastIndex(h, " › "); j >= 0 {
		name = h[j+len(" › "):]
	}
	if name == "" {
		name = "(opening)"
	}
	part, parts := 0, 0
	for j, ch := range p.c.chunks {
		if ch.heading == h {
			parts++
			if j <= i {
				part++
			}
		}
	}
	if parts > 1 {
		name = fmt.Sprintf("%s (part %d)", name, part)
	}
	return name
}

// headerText opens the document in the block: its title, its path and,
// for sent sections of total, which they are.
func (p *docPlan) headerText(sent, total int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n\n### %s\nSource: %s", p.c.title, p.c.path)
	if sent < total || !p.inOrder() || p.cut != "" {
		b.WriteString("\n" + sectionsIntro)
		for k := range sent {
			if k > 0 {
				b.WriteByte(';')
			}
			b.WriteByte(' ')
			b.WriteString(p.label(k))
			if k == sent-1 && p.cut != "" {
				b.WriteString(" (cut)")
			}
		}
		fmt.Fprintf(&b, " — %d of %d", sent, total)
	}
	b.WriteString("\n\n")
	return b.String()
}

// inOrder reports whether the included sections are the document's first
// ones in their order (no list of sections is then needed).
func (p *docPlan) inOrder() bool {
	for k := range p.n {
		if p.order[k] != k {
			return false
		}
	}
	return true
}

// whole reports whether the whole document goes in, uncut.
func (p *docPlan) whole() bool { return p.n == len(p.order) && p.cut == "" }

// write appends the document's header and included sections to b and
// returns the sections' text.
func (p *docPlan) write(b *strings.Builder) string {
	b.WriteString(p.headerText(p.n, len(p.order)))
	var body strings.Builder
	for k := range p.n {
		if k > 0 {
			body.WriteString("\n\n")
		}
		if k == p.n-1 && p.cut != "" {
			body.WriteString(p.cut)
		} else {
			body.WriteString(p.sectionText(k))
		}
	}
	b.WriteString(body.String())
	return body.String()
}
