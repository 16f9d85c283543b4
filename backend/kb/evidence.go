package kb

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"playchat/backend/jatext"
	"playchat/backend/kb/markdown"
)

// This file is the relevance evidence of context layer 3 (issue 22): which
// of a question's terms a section holds where a reader reads them — its
// document's title, its heading path and its prose — as opposed to inside
// code, where ordinary words (number, return, name) occur as identifiers and
// say nothing about what the section is about.

// zones splits a section's Markdown into its prose and, when wantCode, its
// code, both in jatext.Normalize's form ("" code otherwise). Code is the
// content of fenced code blocks and inline code spans (except in headings,
// where it names the section); prose is the rest without the Markdown
// around it: HTML tags (their text stays), link and image targets, bare
// URLs, heading attributes ({#id}) and VitePress container lines (:::).
func zones(md string, wantCode bool) (prose, code string) {
	var p, c strings.Builder
	p.Grow(len(md))
	cb := &c
	if !wantCode {
		cb = nil
	}
	fence := ""
	for line := range strings.SplitSeq(md, "\n") {
		t := strings.TrimSpace(line)
		if fence != "" {
			if strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "" {
				fence = ""
				continue
			}
			if wantCode {
				c.WriteString(line)
				c.WriteByte('\n')
			}
			continue
		}
		if f := fenceOpen(t); f != "" {
			fence = f
			continue
		}
		if strings.HasPrefix(t, ":::") {
			continue
		}
		if markdown.HeadingLevel(t) > 0 {
			proseLine(&p, &p, t) // a heading's code names the section
		} else {
			proseLine(&p, cb, t)
		}
		p.WriteByte('\n')
	}
	if wantCode {
		code = jatext.Normalize(c.String())
	}
	return jatext.Normalize(p.String()), code
}

// fenceOpen returns the fence (``` or ~~~, as long as written) a trimmed
// line opens, or "".
func fenceOpen(t string) string {
	for _, ch := range []byte{'`', '~'} {
		n := 0
		for n < len(t) && t[n] == ch {
			n++
		}
		if n >= 3 && (ch == '~' || !strings.Contains(t[n:], "`")) {
			return t[:n]
		}
	}
	return ""
}

// proseLine writes the prose of one line outside code blocks to p and its
// inline code spans to c (dropped when c is nil).
func proseLine(p, c *strings.Builder, t string) {
	for i := 0; i < len(t); {
		switch t[i] {
		case '`':
			n := 0
			for i+n < len(t) && t[i+n] == '`' {
				n++
			}
			end := strings.Index(t[i+n:], t[i:i+n])
			if end < 0 {
				i += n // an unmatched run is text, and says nothing
				continue
			}
			if c != nil {
				c.WriteString(t[i+n : i+n+end])
				c.WriteByte(' ')
			}
			p.WriteByte(' ')
			i += n + end + n
		case '<':
			end := strings.IndexByte(t[i:], '>')
			if end < 0 {
				p.WriteByte('<')
				i++
				continue
			}
			p.WriteByte(' ')
			i += end + 1
		case ']':
			p.WriteByte(' ')
			i++
			if i < len(t) && t[i] == '(' {
				if end := strings.IndexByte(t[i:], ')'); end >= 0 {
					i += end + 1
				}
			}
		case '{':
			if i+1 < len(t) && (t[i+1] == '#' || t[i+1] == '.') {
				if end := strings.IndexByte(t[i:], '}'); end >= 0 {
					p.WriteByte(' ')
					i += end + 1
					continue
				}
			}
			p.WriteByte('{')
			i++
		case 'h':
			if strings.HasPrefix(t[i:], "http://") || strings.HasPrefix(t[i:], "https://") {
				end := strings.IndexFunc(t[i:], func(r rune) bool { return unicode.IsSpace(r) || r == ')' || r == '>' })
				if end < 0 {
					end = len(t) - i
				}
				p.WriteByte(' ')
				i += end
				continue
			}
			p.WriteByte('h')
			i++
		default:
			p.WriteByte(t[i])
			i++
		}
	}
}

// minEvidenceSections is the least number of sections the evidence's IDF
// assumes. In a small knowledge base every word it holds is in a large
// share of its sections and, by Okapi IDF, weighs several times less than a
// word it lacks (ln 1.3 against ln 4 with one section), so one idle word of
// the question (やる, 方法) would outweigh the two it holds; as if the
// collection were larger, a held word weighs nearly as much as a missing
// one. Collections of this size or more are weighed as they are.
const minEvidenceSections = 1000

// verbWeight scales the weight of a Japanese verb or adjective in the
// evidence: 使い分ける, 書き換える say what the user wants to do, the nouns
// what it is about, and a paraphrased verb the documents never use should
// not sink a question whose subject they hold.
const verbWeight = 0.5

// queryTerm is a question's term prepared for matching: its weight (IDF,
// scaled by verbWeight for a verb), its forms in normalised form, whether
// it is an alphabetic word (matched as a whole word, with its inflections),
// whether it is a verb or adjective, and whether the question writes it as
// code (see codeWords).
type queryTerm struct {
	key    string
	weight float64
	forms  []string
	latin  bool
	verb   bool
	code   bool
}

// prepareTerms turns a retrieval's terms for query into queryTerms.
func prepareTerms(r *retrieval, query string) []queryTerm {
	code := codeWords(query)
	out := make([]queryTerm, 0, len(r.terms))
	for _, t := range r.terms {
		q := queryTerm{key: t.Key, weight: r.evidenceIDF[t.Key], verb: t.Verb, code: code[t.Key]}
		if q.verb {
			q.weight *= verbWeight
		}
		r0, _ := utf8.DecodeRuneInString(t.Key)
		q.latin = r0 < utf8.RuneSelf || unicode.In(r0, unicode.Latin, unicode.Greek, unicode.Cyrillic)
		seen := map[string]bool{}
		add := func(f string) {
			if f != "" && !seen[f] {
				seen[f] = true
				q.forms = append(q.forms, f)
			}
		}
		for _, f := range t.Forms {
			f = jatext.Normalize(f)
			if !q.latin {
				add(f)
				continue
			}
			for _, g := range inflect(f) {
				add(g)
			}
		}
		out = append(out, q)
	}
	return out
}

// in reports whether text (normalised) holds the term: a Japanese form
// anywhere, an alphabetic one as a whole word (see inflect for its forms).
func (q queryTerm) in(text string) bool {
	for _, f := range q.forms {
		if q.latin && wordIn(text, f) || !q.latin && strings.Contains(text, f) {
			return true
		}
	}
	return false
}

// wordIn reports whether text holds w as a whole word (turn is not in
// return, my not in mycomponent).
func wordIn(text, w string) bool {
	for from := 0; ; {
		i := strings.Index(text[from:], w)
		if i < 0 {
			return false
		}
		i += from
		from = i + 1
		if i > 0 {
			if r, _ := utf8.DecodeLastRuneInString(text[:i]); isWordRune(r) {
				continue
			}
		}
		if r, _ := utf8.DecodeRuneInString(text[i+len(w):]); i+len(w) == len(text) || !isWordRune(r) {
			return true
		}
	}
}

// inflect returns the forms of an English word a section may write it in:
// the word, with -s, -es, -ed, -d and -ing (a final e dropped before -ing:
// caching for cache), and, for a word of six letters or more that carries
// one of those endings, the forms of what is left (cached → cache, caches,
// caching). Irregular forms are not known.
func inflect(w string) []string {
	out := []string{w}
	add := func(stem string) {
		out = append(out, stem+"s", stem+"es", stem+"ed", stem+"d", stem+"ing")
		if strings.HasSuffix(stem, "e") {
			out = append(out, stem[:len(stem)-1]+"ing")
		}
	}
	add(w)
	if len(w) >= 6 {
		for _, suf := range []string{"ing", "ies", "es", "ed", "s"} {
			if st, ok := strings.CutSuffix(w, suf); ok {
				out = append(out, st, st+"e")
				add(st)
				add(st + "e")
				break
			}
		}
	}
	return out
}

func isWordRune(r rune) bool {
	return r == '_' || (r < utf8.RuneSelf && ('a' <= r && r <= 'z' || '0' <= r && r <= '9' || 'A' <= r && r <= 'Z')) ||
		(r >= utf8.RuneSelf && unicode.In(r, unicode.Latin, unicode.Greek, unicode.Cyrillic))
}

// sectionEvidence is what one section holds of a question, as shares in
// [0, 1] of the question's terms weighted by IDF.
type sectionEvidence struct {
	// prose is the share found in the document's title, the section's
	// heading path or its prose.
	prose float64
	// head is the share found in the document's title or the section's
	// heading path (part of prose).
	head float64
	// terms counts the terms found in prose.
	terms int
	// topical is true when a term found in prose is not a verb or
	// adjective: the section names what the question is about.
	topical bool
}

// headBonus weighs, in a section's score, the share of the question's
// terms that its heading path or its document's title holds: a section
// named after the question's subject is more likely its answer than one
// that mentions it in passing.
const headBonus = 0.5

// score is the section's evidence score, in [0, 1 + headBonus]: its prose
// share plus headBonus times its heading share.
func (s sectionEvidence) score() float64 { return s.prose + headBonus*s.head }

// minEvidence is the lexical relevance gate of context layer 3: a section
// matches a question when its prose holds at least this share of the
// question's terms, weighted by IDF (verbs by verbWeight). Half the
// question: on the relevance evaluation set (evalset_test.go) the
// answering sections that pass hold 0.50–1.00, while no message without an
// answer in the corpus reaches more than 0.43 in any section.
const minEvidence = 0.5

// matches reports whether the section is enough evidence on its own for
// the document to go into the context: it holds minEvidence of the question
// in prose, a noun among what it holds (not only verbs and adjectives: 見る,
// 行く, かける match everywhere), and either two terms or one that names the
// section (in its heading or the document's title) — a single word met in
// passing (name, 好き) is an incidental match.
func (s sectionEvidence) matches() bool {
	return s.prose >= minEvidence && s.topical && (s.terms >= 2 || s.head > 0)
}

// docEvidence is what a document holds of a question: each section's
// evidence (in c.chunks order) and its best section — the one with the
// highest score among those that match, else among all.
type docEvidence struct {
	secs []sectionEvidence
	best int
	// ok is true when a section matches.
	ok bool
}

// score is the document's score: its best section's.
func (e docEvidence) score() float64 {
	if len(e.secs) == 0 {
		return 0
	}
	return e.secs[e.best].score()
}

// evidenceOf measures candidate c against the question's terms. With no
// terms, or terms of no weight, every share is 0.
func evidenceOf(terms []queryTerm, c *candidate) docEvidence {
	ev := docEvidence{secs: make([]sectionEvidence, len(c.chunks))}
	var all float64
	for _, t := range terms {
		all += t.weight
	}
	if all <= 0 || len(c.chunks) == 0 {
		return ev
	}
	wantCode := false
	for _, t := range terms {
		wantCode = wantCode || t.code
	}
	title := jatext.Normalize(c.title)
	for i, ch := range c.chunks {
		prose, code := zones(ch.text, wantCode)
		head := title + "\n" + jatext.Normalize(ch.heading) + "\n"
		s := &ev.secs[i]
		for _, t := range terms {
			switch {
			case t.in(head):
				s.head += t.weight
				fallthrough
			case t.in(prose), t.code && t.in(code):
				s.prose += t.weight
				s.terms++
				s.topical = s.topical || !t.verb
			}
		}
		s.prose /= all
		s.head /= all
		m := s.matches()
		if (m && !ev.ok) || (m == ev.ok && s.score() > ev.secs[ev.best].score()) {
			ev.best, ev.ok = i, m
		}
	}
	return ev
}

// codeWords returns the words (in jatext.Normalize's form) of the parts of
// a question written as code: text in backticks, and runs of ASCII letters,
// digits and symbols that read as an identifier, an option or a type rather
// than a word — joined by - _ . : / (v-if, or_insert, v-model.number,
// --test-threads), holding < > ( ) [ ] { } = $ # @ (Rc<T>, nextTick(),
// $emit), or in camelCase (inheritAttrs, KeepAlive). In a Japanese question
// every alphabetic word counts (Resultを, mutな, bodyの): Japanese text
// names APIs, types and commands in Latin letters, as the documentation does
// in code. A section that holds such a word in its code answers the
// question as much as its prose would; an ordinary word of an English
// message (number, name, turn) found only in code does not.
func codeWords(q string) map[string]bool {
	out := map[string]bool{}
	japanese := strings.IndexFunc(q, func(r rune) bool {
		return unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Han)
	}) >= 0
	addWords := func(s string) {
		for _, w := range strings.FieldsFunc(jatext.Normalize(s), func(r rune) bool { return !isWordRune(r) }) {
			out[w] = true
		}
	}
	for i := 0; i < len(q); {
		if q[i] == '`' {
			if end := strings.IndexByte(q[i+1:], '`'); end >= 0 {
				addWords(q[i+1 : i+1+end])
				i += end + 2
				continue
			}
		}
		if !isCodeByte(q[i]) {
			i++
			continue
		}
		j := i
		for j < len(q) && isCodeByte(q[j]) && q[j] != '`' {
			j++
		}
		if run := strings.TrimRight(q[i:j], ".:?!,"); japanese || codeLike(run) {
			addWords(run)
		}
		i = j
	}
	return out
}

// isCodeByte reports whether b may be part of code written in a question.
func isCodeByte(b byte) bool {
	return b < utf8.RuneSelf && b > ' ' && !strings.ContainsRune(`"',;!?`, rune(b))
}

// codeLike reports whether an ASCII run reads as code (see codeWords).
func codeLike(run string) bool {
	if strings.HasPrefix(run, "-") && len(strings.TrimLeft(run, "-")) > 0 {
		return true // an option
	}
	if strings.ContainsAny(run, "<>()[]{}=$#@") {
		return true
	}
	for i := 1; i+1 < len(run); i++ {
		if strings.IndexByte("-_.:/", run[i]) >= 0 && isAlnum(run[i-1]) && isAlnum(run[i+1]) {
			return true
		}
	}
	for i := 1; i < len(run); i++ {
		if 'a' <= run[i-1] && run[i-1] <= 'z' && 'A' <= run[i] && run[i] <= 'Z' {
			return true // camelCase
		}
	}
	return false
}

func isAlnum(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}
