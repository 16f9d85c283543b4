package kb

import (
	"strings"

	"playchat/backend/jatext"
)

// ftsRow is what one chunk puts into an FTS5 table.
type ftsRow struct{ title, heading, body string }

// lexicon is one way of making text searchable with FTS5: how a chunk is
// turned into the table's columns and a question into terms.
//
// The knowledge base uses kagomeLexicon alone. The choice was measured
// (TestTokenizerChoice on the 40-question corpus set; TestScale at 45,000
// documents):
//
//	                 hit@3  hit@1  MRR@10  index 45k docs  query p50  database
//	kagome           0.975  0.725  0.852   39 s            14 ms      185 MB
//	trigram          0.975  0.675  0.819   —               —          —
//	kagome+trigram   0.975  0.825  0.904   88 s            32 ms      443 MB
//
// All three put the answer in the top 3 equally often — the operating point
// of context layer 3 (TOP_K 3). Fusing the trigram index ranks it first more
// often, but doubles the query time and the database and misses the 60 s
// indexing and 20 ms query targets at 45,000 documents; trigram alone ranks
// worse and cannot match two-kanji words (借用, 参照) at all, as a trigram
// needs three characters. trigramLexicon stays for the measurement.
type lexicon struct {
	name  string
	table string // the FTS5 table (rowid = chunk id)
	vocab string // its fts5vocab 'row' table, for document frequencies
	// rows turns a document's chunks into FTS5 rows.
	rows func(d parsedDoc) ([]ftsRow, error)
	// terms extracts a query's terms.
	terms func(q string) ([]jatext.Term, error)
	// phrases adds adjacent-term phrases to the MATCH expression.
	phrases bool
}

// bm25Weights weigh the FTS5 columns title, heading and body: a term in the
// document's title or the section's heading says more about the section than
// one in passing in its body.
const bm25Weights = "5.0, 2.0, 1.0"

var kagomeLexicon = lexicon{
	name: "kagome", table: "local_knowledge_fts", vocab: "local_knowledge_fts_vocab",
	rows: func(d parsedDoc) ([]ftsRow, error) {
		title, err := jatext.Segment(d.Title)
		if err != nil {
			return nil, err
		}
		heads := headingSegmenter{title: d.Title, titleTerms: title}
		out := make([]ftsRow, len(d.Chunks))
		for i, c := range d.Chunks {
			h, err := heads.segment(c.Heading)
			if err != nil {
				return nil, err
			}
			b, err := jatext.Segment(c.Text)
			if err != nil {
				return nil, err
			}
			out[i] = ftsRow{title: title, heading: h, body: b}
		}
		return out, nil
	},
	terms:   jatext.QueryTerms,
	phrases: true,
}

// headingPathSep joins the headings of a section's heading path
// (markdown.Chunk.Heading).
const headingPathSep = " › "

// headingSegmenter segments the heading paths of one document's sections,
// each heading once: the sections below one heading share its text, and
// the top heading is often the title. A path's terms are its headings'
// terms in order — what segmenting the whole path gives, as the separator
// holds no word.
type headingSegmenter struct {
	title, titleTerms string
	seen              map[string]string
}

func (h *headingSegmenter) segment(path string) (string, error) {
	if path == "" {
		return "", nil
	}
	var b strings.Builder
	for el := range strings.SplitSeq(path, headingPathSep) {
		terms, ok := h.seen[el]
		if !ok && el == h.title {
			terms, ok = h.titleTerms, true
		}
		if !ok {
			var err error
			if terms, err = jatext.Segment(el); err != nil {
				return "", err
			}
			if h.seen == nil {
				h.seen = map[string]string{}
			}
			h.seen[el] = terms
		}
		b.WriteString(terms)
	}
	return b.String(), nil
}

// trigramSchema creates the trigram tokenizer's table (used by the
// tokenizer measurement only).
var trigramSchema = []string{
	`CREATE VIRTUAL TABLE local_knowledge_trigram USING fts5(title, heading, body,
		content='', contentless_delete=1, tokenize='trigram')`,
	`CREATE VIRTUAL TABLE local_knowledge_trigram_vocab USING fts5vocab(local_knowledge_trigram, 'row')`,
}

var trigramLexicon = lexicon{
	name: "trigram", table: "local_knowledge_trigram", vocab: "local_knowledge_trigram_vocab",
	rows: func(d parsedDoc) ([]ftsRow, error) {
		title := jatext.Normalize(d.Title)
		out := make([]ftsRow, len(d.Chunks))
		for i, c := range d.Chunks {
			out[i] = ftsRow{title: title, heading: jatext.Normalize(c.Heading), body: jatext.Normalize(c.Text)}
		}
		return out, nil
	},
	terms: func(q string) ([]jatext.Term, error) { return jatext.TrigramTerms(q), nil },
}

// matchExpr builds an FTS5 MATCH expression from the kept terms: each
// OR-ed, plus a phrase for each pair of adjacent kept terms (so 所有 権 as a
// compound ranks above 所有 and 権 apart). Terms are quoted, so no query text
// is parsed as FTS5 syntax.
func matchExpr(terms []jatext.Term, keep []bool, phrases bool) string {
	var parts []string
	for i, t := range terms {
		if !keep[i] {
			continue
		}
		parts = append(parts, quoteFTS(t.Key))
		if phrases && t.Next && i > 0 && keep[i-1] {
			parts = append(parts, quoteFTS(terms[i-1].Key+" "+t.Key))
		}
	}
	return strings.Join(parts, " OR ")
}

func quoteFTS(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
