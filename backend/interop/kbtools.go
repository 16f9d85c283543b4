package interop

import (
	"context"
	"errors"
	"io/fs"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"playchat/backend/apperr"
	"playchat/backend/kb"
)

// Limits of the knowledge-base operations.
const (
	// DefaultQueryLimit is query_kb's limit when none is given.
	DefaultQueryLimit = 10
	// MaxQueryLimit caps query_kb's limit.
	MaxQueryLimit = 50
	// MaxQueryRunes caps a query, in characters.
	MaxQueryRunes = 500
	// DefaultReadChars is read_document's max_chars when none is given.
	DefaultReadChars = 20000
	// MaxReadChars caps read_document's max_chars.
	MaxReadChars = 200000
	// domainSearchDepth is how many hits query_kb ranks when it keeps only
	// one domain's.
	domainSearchDepth = 100
)

// ResourceURIPrefix opens every document's resource URI:
// playchat://kb/{domain}/{path} (each element percent-encoded).
const ResourceURIPrefix = "playchat://kb/"

// Domain is one top-level folder of the knowledge base.
type Domain struct {
	// Name is the folder's name: the domain of its documents' addresses.
	Name string `json:"name" jsonschema:"the folder name, as query_kb and read_document take it"`
	// Documents counts the indexed documents below it, at any depth.
	Documents int `json:"documents" jsonschema:"number of indexed documents in this folder, at any depth"`
	// Learned is true for the folder of learned documents (_learned).
	Learned bool `json:"learned" jsonschema:"true for _learned, the folder of documents written by append_learning"`
}

// DomainList is list_kb_domains' result.
type DomainList struct {
	Domains []Domain `json:"domains" jsonschema:"the top-level folders, by name"`
	// RootDocuments counts documents directly at the root (domain "").
	RootDocuments int `json:"root_documents" jsonschema:"number of documents at the root of the knowledge base (their domain is the empty string)"`
}

// ListKBDomains lists the knowledge base's top-level folders from the index.
func (s *Service) ListKBDomains(ctx context.Context) (DomainList, error) {
	n, err := s.o.KB.Folder(ctx, "")
	if err != nil {
		return DomainList{}, err
	}
	out := DomainList{Domains: []Domain{}}
	for _, c := range n.Children {
		if c.Dir {
			out.Domains = append(out.Domains, Domain{Name: c.Name, Documents: c.Count, Learned: c.Name == kb.LearnedDir})
		} else {
			out.RootDocuments++
		}
	}
	return out, nil
}

// QueryKBInput is query_kb's input.
type QueryKBInput struct {
	Query  string `json:"query" jsonschema:"what to look for, in any language (Japanese is segmented into words)"`
	Domain string `json:"domain,omitempty" jsonschema:"only documents of this top-level folder (see list_kb_domains); omit for all"`
	Limit  int    `json:"limit,omitempty" jsonschema:"most hits to return, 1-50 (default 10)"`
}

// KBHit is one document found by QueryKB. Domain and Path are exactly what
// ReadDocument takes.
type KBHit struct {
	Domain string `json:"domain" jsonschema:"the document's top-level folder (\"\" for the root): pass it to read_document"`
	Path   string `json:"path" jsonschema:"the document's path inside its domain: pass it to read_document"`
	URI    string `json:"uri" jsonschema:"the document as a resource (playchat://kb/{domain}/{path})"`
	Title  string `json:"title"`
	// Heading is the heading path of the best-matching section.
	Heading string `json:"heading" jsonschema:"heading path of the best-matching section"`
	// Score is the fused rank score (higher is better; see kb.Hit.Score).
	Score float64 `json:"score" jsonschema:"ranking score, higher is better (comparable within one query only)"`
	// Excerpt is about 160 characters of the best section, matches «marked».
	Excerpt string `json:"excerpt" jsonschema:"about 160 characters of the best-matching section, matched words «marked»"`
	Learned bool   `json:"learned" jsonschema:"true for a document written by append_learning"`
}

// QueryKBOutput is query_kb's result.
type QueryKBOutput struct {
	Hits []KBHit `json:"hits" jsonschema:"best first"`
	// Indexing is true when the knowledge base was still being indexed:
	// documents not indexed yet are missing from Hits.
	Indexing bool `json:"indexing" jsonschema:"true while the knowledge base is still being indexed (results may be incomplete)"`
}

// QueryKB searches the knowledge base (BM25 over Japanese-aware terms,
// fused with embeddings when configured). With a Domain only that folder's
// documents are kept, from the best domainSearchDepth of the whole
// knowledge base. Errors: InteropBadArgument for an empty or overlong query
// or a limit outside 1–50, InteropBadDomain for a domain that is not one
// folder name.
func (s *Service) QueryKB(ctx context.Context, in QueryKBInput) (QueryKBOutput, error) {
	q := strings.TrimSpace(in.Query)
	if q == "" {
		return QueryKBOutput{}, badArg("query", "empty")
	}
	if utf8.RuneCountInString(q) > MaxQueryRunes {
		return QueryKBOutput{}, badArg("query", "longer than "+itoa(MaxQueryRunes)+" characters")
	}
	n, err := limit("limit", in.Limit, DefaultQueryLimit, MaxQueryLimit)
	if err != nil {
		return QueryKBOutput{}, err
	}
	if err := checkDomain(in.Domain, true); err != nil {
		return QueryKBOutput{}, err
	}
	indexing := s.waitIndexed(ctx)
	depth := n
	if in.Domain != "" {
		depth = domainSearchDepth
	}
	hits, err := s.o.KB.Search(ctx, q, depth)
	if err != nil {
		return QueryKBOutput{}, err
	}
	out := QueryKBOutput{Hits: []KBHit{}, Indexing: indexing}
	for _, h := range hits {
		d, p := splitRel(h.Path)
		if in.Domain != "" && d != in.Domain {
			continue
		}
		out.Hits = append(out.Hits, KBHit{Domain: d, Path: p, URI: ResourceURI(d, p), Title: h.Title, Heading: h.Heading,
			Score: h.Score, Excerpt: h.Excerpt, Learned: kb.IsLearnedPath(h.Path)})
		if len(out.Hits) == n {
			break
		}
	}
	return out, nil
}

// waitIndexed waits (at most IndexWait) for this process's first pass and
// reports whether it is still running.
func (s *Service) waitIndexed(ctx context.Context) bool {
	if s.o.Indexing == nil || !s.o.Indexing() {
		return false
	}
	if s.o.WaitIndexed != nil {
		wctx, cancel := context.WithTimeout(ctx, IndexWait)
		s.o.WaitIndexed(wctx)
		cancel()
	}
	return s.o.Indexing()
}

// ReadDocumentInput is read_document's input.
type ReadDocumentInput struct {
	Domain   string `json:"domain" jsonschema:"the document's top-level folder, as a query_kb hit gives it (\"\" for the root)"`
	Path     string `json:"path" jsonschema:"the document's path inside its domain, as a query_kb hit gives it"`
	MaxChars int    `json:"max_chars,omitempty" jsonschema:"most characters of content to return, 1-200000 (default 20000)"`
}

// Document is read_document's result.
type Document struct {
	Domain  string `json:"domain"`
	Path    string `json:"path"`
	URI     string `json:"uri"`
	Title   string `json:"title"`
	Content string `json:"content" jsonschema:"the Markdown as it is on disk (front matter included), cut at max_chars"`
	// Chars is the whole content's length in characters; Truncated says
	// Content holds only the first MaxChars of them.
	Chars     int       `json:"chars" jsonschema:"length of the whole document in characters"`
	Truncated bool      `json:"truncated" jsonschema:"true when content was cut at max_chars"`
	ModTime   time.Time `json:"modified" jsonschema:"last modification, RFC 3339"`
	// Learned is the provenance of a learned document (nil otherwise).
	Learned *kb.LearnedInfo `json:"learned,omitempty" jsonschema:"provenance, for a document written by append_learning"`
}

// ReadDocument returns one document by its {domain, path} address. Errors:
// InteropBadDomain / InteropBadPath for an address that is not a relative
// path inside the knowledge base (.., absolute, backslashes, NUL, empty
// elements, Windows device names, a symlink leading out of it, not a .md
// file), InteropNoDocument when there is none, InteropBadArgument for
// max_chars outside its range.
func (s *Service) ReadDocument(ctx context.Context, in ReadDocumentInput) (Document, error) {
	rel, err := docRel(in.Domain, in.Path)
	if err != nil {
		return Document{}, err
	}
	maxChars, err := limit("max_chars", in.MaxChars, DefaultReadChars, MaxReadChars)
	if err != nil {
		return Document{}, err
	}
	d, err := s.o.KB.Read(ctx, rel)
	if err != nil {
		return Document{}, s.readError(in, err)
	}
	out := Document{Domain: in.Domain, Path: in.Path, URI: ResourceURI(in.Domain, in.Path), Title: d.Title,
		Content: d.Content, Chars: utf8.RuneCountInString(d.Content), ModTime: d.ModTime}
	if out.Chars > maxChars {
		out.Content, out.Truncated = cutRunes(d.Content, maxChars), true
	}
	if kb.IsLearnedPath(d.Path) {
		if li, err := s.o.KB.Learned(ctx, d.Path); err == nil {
			out.Learned = &li
		}
	}
	return out, nil
}

// readError turns kb.Read's errors into the tool layer's codes.
func (s *Service) readError(in ReadDocumentInput, err error) error {
	switch {
	case errors.Is(err, kb.ErrOutsideRoot):
		return apperr.Wrap(apperr.InteropBadPath, kb.ErrOutsideRoot, map[string]any{"path": in.Path,
			"reason": "it leads outside the knowledge base folder"})
	case errors.Is(err, kb.ErrNotDocument):
		return apperr.New(apperr.InteropBadPath, map[string]any{"path": in.Path, "reason": "not a Markdown (.md) document"})
	case errors.Is(err, fs.ErrNotExist):
		return apperr.New(apperr.InteropNoDocument, map[string]any{"domain": in.Domain, "path": in.Path})
	}
	return err
}

// cutRunes returns the first n characters of s.
func cutRunes(s string, n int) string {
	i := 0
	for j := range s {
		if i == n {
			return s[:j]
		}
		i++
	}
	return s
}

// ResourceURI returns a document's resource URI:
// playchat://kb/{domain}/{path}, every element percent-encoded (a root
// document has an empty domain: playchat://kb//guide.md).
func ResourceURI(domain, path string) string {
	var b strings.Builder
	b.WriteString(ResourceURIPrefix)
	b.WriteString(url.PathEscape(domain))
	for el := range strings.SplitSeq(path, "/") {
		b.WriteByte('/')
		b.WriteString(url.PathEscape(el))
	}
	return b.String()
}

// ParseResourceURI reads a document's resource URI back into its address
// (not validated: ReadDocument does that).
func ParseResourceURI(uri string) (domain, path string, err error) {
	rest, ok := strings.CutPrefix(uri, ResourceURIPrefix)
	if !ok {
		return "", "", apperr.New(apperr.InteropBadPath, map[string]any{"path": uri, "reason": "not a " + ResourceURIPrefix + " URI"})
	}
	d, p, ok := strings.Cut(rest, "/")
	if !ok {
		return "", "", apperr.New(apperr.InteropBadPath, map[string]any{"path": uri, "reason": "no document path"})
	}
	if domain, err = url.PathUnescape(d); err != nil {
		return "", "", apperr.New(apperr.InteropBadPath, map[string]any{"path": uri, "reason": "bad percent-encoding"})
	}
	els := strings.Split(p, "/")
	for i, el := range els {
		if els[i], err = url.PathUnescape(el); err != nil {
			return "", "", apperr.New(apperr.InteropBadPath, map[string]any{"path": uri, "reason": "bad percent-encoding"})
		}
		if strings.Contains(els[i], "/") {
			return "", "", apperr.New(apperr.InteropBadPath, map[string]any{"path": uri, "reason": "contains a path separator"})
		}
	}
	return domain, strings.Join(els, "/"), nil
}
