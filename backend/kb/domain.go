package kb

import (
	"context"
	"sort"
	"strings"
)

// Domains: the knowledge base's top-level folders (issue 23). A request from
// another tool may limit context layer 3 to one of them
// (layer.Query.KBDomain, the API's x_playchat_kb_domain); the documents under
// <domain>/ and under the learned documents' _learned/<domain>/ belong to it.

// LearnedFolder is the top-level folder of learned documents
// (_learned/<domain>/<id>.md); it is not a domain of its own.
const LearnedFolder = "_learned"

// domainKey carries the domain a retrieval is limited to.
type domainKey struct{}

// withDomain limits the retrievals made with the returned context to the
// documents of domain ("" = no limit).
func withDomain(ctx context.Context, domain string) context.Context {
	if domain == "" {
		return ctx
	}
	return context.WithValue(ctx, domainKey{}, domain)
}

// domainOf returns the domain ctx limits retrieval to ("" = none).
func domainOf(ctx context.Context) string {
	d, _ := ctx.Value(domainKey{}).(string)
	return d
}

// ValidDomainName reports whether name can name a domain: one path
// segment, not "." or "..", without separators, NUL or control characters,
// and not the learned documents' folder.
func ValidDomainName(name string) bool {
	if name == "" || name == "." || name == ".." || name == LearnedFolder || len(name) > 255 {
		return false
	}
	return !strings.ContainsFunc(name, func(r rune) bool { return r == '/' || r == '\\' || r < 0x20 || r == 0x7f })
}

// Domains returns the top-level folders of the knowledge base that hold
// indexed documents (the learned documents' domains included), sorted. It
// reads only the index.
func (s *Service) Domains(ctx context.Context) ([]string, error) {
	rows, err := s.o.DB.Bun().QueryContext(ctx, `SELECT DISTINCT path FROM local_knowledge_docs WHERE instr(path, '/') > 0`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	seen := map[string]bool{}
	for rows.Next() {
		var p string
		if err := rows.Scan(&p); err != nil {
			return nil, err
		}
		first, rest, _ := strings.Cut(p, "/")
		if first == LearnedFolder {
			var ok bool
			if first, _, ok = strings.Cut(rest, "/"); !ok {
				continue // a file right under _learned/ is in no domain
			}
		}
		if ValidDomainName(first) {
			seen[first] = true
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(seen))
	for d := range seen {
		out = append(out, d)
	}
	sort.Strings(out)
	return out, nil
}

// domainDocs returns the ids of the documents of domain, or nil when
// domain is "" (every document).
func (s *Service) domainDocs(ctx context.Context, q querier, domain string) (map[int64]bool, error) {
	if domain == "" {
		return nil, nil
	}
	esc := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(domain)
	rows, err := q.QueryContext(ctx, `SELECT id FROM local_knowledge_docs WHERE path LIKE ? ESCAPE '\' OR path LIKE ? ESCAPE '\'`,
		esc+"/%", `\_learned/`+esc+"/%")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out[id] = true
	}
	return out, rows.Err()
}
