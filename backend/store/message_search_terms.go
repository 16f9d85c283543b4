package store

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"
)

// The words of the index that begin with a Latin letter or digit
// (MigrationMessageSearchTerms), for the word still being typed at the end
// of a query.
//
// message_fts tokenises each message's terms with unicode61: a token is a
// run of letters and digits (by SQLite's Unicode tables). latinTokens lists,
// for one term, every string that can be such a token beginning with an
// ASCII letter or digit: each ASCII letter or digit not preceded by one
// starts a candidate, which ends at the first other ASCII character or at
// the term's end, and, since a non-ASCII character may or may not separate
// tokens, also just before each non-ASCII character on the way. The list
// thus holds every such token the index has; extra strings match nothing.

// maxPrefixWords is the most words a typed prefix is expanded to; a
// shorter prefix (one or two letters) stays an FTS5 prefix query.
const maxPrefixWords = 32

// isASCIIAlnum reports whether b is an ASCII lower-case letter or digit
// (terms are lower-cased; an upper-case letter counts too).
func isASCIIAlnum(b byte) bool {
	return 'a' <= b && b <= 'z' || '0' <= b && b <= '9' || 'A' <= b && b <= 'Z'
}

// latinTokens appends to out the candidate tokens of term that begin with
// an ASCII letter or digit (see above), lower-cased as unicode61 folds them.
func latinTokens(out []string, term string) []string {
	for i := 0; i < len(term); i++ {
		if !isASCIIAlnum(term[i]) || (i > 0 && isASCIIAlnum(term[i-1])) {
			continue
		}
		j := i
		for j < len(term) {
			c := term[j]
			if c >= utf8.RuneSelf { // may end the token here
				out = append(out, strings.ToLower(term[i:j]))
				_, n := utf8.DecodeRuneInString(term[j:])
				j += n
				continue
			}
			if !isASCIIAlnum(c) {
				break
			}
			j++
		}
		out = append(out, strings.ToLower(term[i:j]))
	}
	return out
}

// saveSearchTerms records the candidate Latin tokens of terms (a message's
// jatext.Segment output each) in message_search_terms, in tx.
func saveSearchTerms(ctx context.Context, tx bun.Tx, terms []string) error {
	seen := map[string]bool{}
	list := []string{}
	var buf []string
	for _, t := range terms {
		for _, term := range strings.Fields(t) {
			buf = latinTokens(buf[:0], term)
			for _, tok := range buf {
				if tok != "" && !seen[tok] {
					seen[tok] = true
					list = append(list, tok)
				}
			}
		}
	}
	if len(list) == 0 {
		return nil
	}
	b, err := json.Marshal(list)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT OR IGNORE INTO message_search_terms (term) SELECT value FROM json_each(?)`, string(b))
	return err
}

// typedPrefixRe finds an FTS5 expression's last part when it is the prefix
// of a Latin word being typed (searchExpr: "serv"*).
var typedPrefixRe = regexp.MustCompile(`"([0-9a-z]+)"\*$`)

// expandPrefix replaces the typed prefix at the end of expr with the words
// of the index it begins, ORed ("serv"* → ("server" OR "service")), when
// there are at most maxPrefixWords of them; none is false when no word of
// the index begins with it (nothing can match). Other expressions come
// back as they are.
func (d *DB) expandPrefix(ctx context.Context, expr string) (out string, none bool, err error) {
	m := typedPrefixRe.FindStringSubmatchIndex(expr)
	if m == nil || (m[0] > 0 && expr[m[0]-1] != ' ') {
		return expr, false, nil
	}
	prefix := expr[m[2]:m[3]]
	upper := prefix[:len(prefix)-1] + string(prefix[len(prefix)-1]+1)
	var words []string
	if err := d.bun.NewRaw(`SELECT term FROM message_search_terms WHERE term >= ? AND term < ? ORDER BY term LIMIT ?`,
		prefix, upper, maxPrefixWords+1).Scan(ctx, &words); err != nil {
		return "", false, err
	}
	switch {
	case len(words) == 0:
		return "", true, nil
	case len(words) > maxPrefixWords:
		return expr, false, nil
	}
	for i, w := range words {
		words[i] = `"` + strings.ReplaceAll(w, `"`, `""`) + `"`
	}
	return expr[:m[0]] + "(" + strings.Join(words, " OR ") + ")", false, nil
}
