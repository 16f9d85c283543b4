package interop

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"math"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"playchat/backend/kb"
)

// Limits of append_learning.
const (
	// MaxLearningBytes caps a learning's content (1 MiB).
	MaxLearningBytes = 1 << 20
	// MaxLearningTitleRunes caps its title.
	MaxLearningTitleRunes = 200
	// maxSourceRunes caps source_type, source_id and each derived_from.
	maxSourceRunes = 500
	// MaxDerivedFrom caps the derived_from list.
	MaxDerivedFrom = 100
	// learnTimeout bounds writing and indexing one learning.
	learnTimeout = 30 * time.Second
)

// AppendLearningInput is append_learning's input.
type AppendLearningInput struct {
	Domain     string `json:"domain" jsonschema:"the subject, one folder name (e.g. vue or rust): the document goes to _learned/<domain>/"`
	Content    string `json:"content" jsonschema:"what was learned, as Markdown (at most 1 MiB)"`
	Title      string `json:"title,omitempty" jsonschema:"a one-line title (at most 200 characters)"`
	SourceType string `json:"source_type" jsonschema:"what it was derived from, e.g. conversation, document, web, code"`
	SourceID   string `json:"source_id,omitempty" jsonschema:"the source's id in the caller's terms (a URL, a chat id, a file)"`
	// Confidence is required: a pointer tells a missing one from 0.
	Confidence  *float64 `json:"confidence" jsonschema:"how sure the caller is, from 0 to 1"`
	DerivedFrom []string `json:"derived_from,omitempty" jsonschema:"what it was derived from: document addresses ({domain}/{path}), message ids, URLs"`
}

// Learning is append_learning's result: where the document is.
type Learning struct {
	// ID is the generated id (the file name without .md).
	ID string `json:"id" jsonschema:"the generated id of the learned document"`
	// Domain and Path are the document's address for read_document:
	// {"_learned", "<domain>/<id>.md"}.
	Domain string `json:"domain" jsonschema:"the document's address for read_document: domain (always _learned)"`
	Path   string `json:"path" jsonschema:"the document's address for read_document: path (<domain>/<id>.md)"`
	URI    string `json:"uri"`
	// Existing is true when the same content was learned before in this
	// domain: nothing was written and ID is the first document's.
	Existing bool `json:"existing" jsonschema:"true when the same content was already learned: nothing was written, id is the first document's"`
	// Edited is true when that existing document was edited by the user
	// since (it is kept as the user left it).
	Edited      bool   `json:"edited" jsonschema:"true when the existing document was edited by the user (it is never overwritten)"`
	ContentHash string `json:"content_hash"`
}

// AppendLearning writes what a tool learned as a new Markdown document at
// <kb>/_learned/<domain>/<id>.md with its provenance in the front matter
// (source_type, source_id, client, confidence, derived_from, created_at,
// content_hash) and indexes it before returning, so query_kb finds it at
// once. The id is generated; the domain must be one folder name. The same
// content in the same domain again returns the first document (Existing),
// whether or not the user edited it since; nothing is ever overwritten.
// client is the MCP client's name ("" when unknown). Errors:
// InteropWriteNotAllowed, InteropBadDomain, InteropBadArgument (empty or
// overlong content, confidence outside 0–1, …); nothing is written then.
func (s *Service) AppendLearning(ctx context.Context, client string, in AppendLearningInput) (Learning, error) {
	if err := s.canWrite(); err != nil {
		return Learning{}, err
	}
	return s.writeLearning(ctx, client, in)
}

// writeLearning is AppendLearning without the permission check (playchat's
// own memory mirror writes whatever other tools may do).
func (s *Service) writeLearning(ctx context.Context, client string, in AppendLearningInput) (Learning, error) {
	if err := checkDomain(in.Domain, false); err != nil {
		return Learning{}, err
	}
	body, prov, err := learningOf(in)
	if err != nil {
		return Learning{}, err
	}
	prov.Client = oneLine(client, maxSourceRunes)
	ctx, cancel := context.WithTimeout(ctx, learnTimeout)
	defer cancel()
	s.learnMu.Lock()
	defer s.learnMu.Unlock()
	hash := kb.ContentHash(body)
	if old, ok, err := s.o.KB.FindLearned(ctx, in.Domain, hash); err != nil {
		return Learning{}, err
	} else if ok {
		return learningAt(old.Path, strings.TrimSuffix(path.Base(old.Path), ".md"), true, old.Edited, hash), nil
	}
	for range 5 {
		prov.ID = s.newID()
		prov.CreatedAt = s.o.Clock().UTC()
		data, _ := kb.RenderLearned(prov, body)
		rel, err := s.o.KB.CreateLearned(ctx, in.Domain, prov.ID+".md", data)
		if errors.Is(err, fs.ErrExist) {
			continue // the generated id was taken: draw another
		}
		if err != nil && rel == "" {
			return Learning{}, err
		}
		if err != nil {
			// Written but not indexed yet: the watcher or the next pass
			// indexes it.
			s.o.Log.Warn("learned document written but not indexed", "path", rel, "err", err)
		}
		return learningAt(rel, prov.ID, false, false, hash), nil
	}
	return Learning{}, errors.New("interop: no free id for the learned document")
}

func learningAt(rel, id string, existing, edited bool, hash string) Learning {
	d, p := splitRel(rel)
	return Learning{ID: id, Domain: d, Path: p, URI: ResourceURI(d, p), Existing: existing, Edited: edited, ContentHash: hash}
}

// learningOf validates in and returns the document's body (the content,
// trimmed, with one final newline) and its provenance without id, client
// and time.
func learningOf(in AppendLearningInput) (string, kb.Provenance, error) {
	content := strings.TrimSpace(strings.ReplaceAll(in.Content, "\r\n", "\n"))
	switch {
	case content == "":
		return "", kb.Provenance{}, badArg("content", "empty")
	case len(content) > MaxLearningBytes:
		return "", kb.Provenance{}, badArg("content", "larger than 1 MiB")
	case !utf8.ValidString(content):
		return "", kb.Provenance{}, badArg("content", "not valid UTF-8")
	case strings.ContainsRune(content, 0):
		return "", kb.Provenance{}, badArg("content", "contains a NUL character")
	}
	title := strings.TrimSpace(in.Title)
	if err := checkLine("title", title, MaxLearningTitleRunes); err != nil {
		return "", kb.Provenance{}, err
	}
	st := strings.TrimSpace(in.SourceType)
	if st == "" {
		return "", kb.Provenance{}, badArg("source_type", "empty")
	}
	if err := checkLine("source_type", st, 64); err != nil {
		return "", kb.Provenance{}, err
	}
	sid := strings.TrimSpace(in.SourceID)
	if err := checkLine("source_id", sid, maxSourceRunes); err != nil {
		return "", kb.Provenance{}, err
	}
	if in.Confidence == nil {
		return "", kb.Provenance{}, badArg("confidence", "required (a number from 0 to 1)")
	}
	c := *in.Confidence
	if math.IsNaN(c) || c < 0 || c > 1 {
		return "", kb.Provenance{}, badArg("confidence", "must be a number from 0 to 1")
	}
	if len(in.DerivedFrom) > MaxDerivedFrom {
		return "", kb.Provenance{}, badArg("derived_from", "more than "+itoa(MaxDerivedFrom)+" entries")
	}
	var from []string
	for _, d := range in.DerivedFrom {
		d = strings.TrimSpace(d)
		if d == "" {
			continue
		}
		if err := checkLine("derived_from", d, maxSourceRunes); err != nil {
			return "", kb.Provenance{}, err
		}
		from = append(from, d)
	}
	p := kb.Provenance{Title: title, Domain: in.Domain, SourceType: st, SourceID: sid, Confidence: c, DerivedFrom: from}
	return content + "\n", p, nil
}

// checkLine checks a one-line field of at most max characters.
func checkLine(field, v string, max int) error {
	switch {
	case !utf8.ValidString(v):
		return badArg(field, "not valid UTF-8")
	case utf8.RuneCountInString(v) > max:
		return badArg(field, "longer than "+itoa(max)+" characters")
	}
	for _, r := range v {
		if r < 0x20 || r == 0x7f {
			return badArg(field, "must be one line without control characters")
		}
	}
	return nil
}

// oneLine keeps a caller-given name to one line of at most max characters.
func oneLine(v string, max int) string {
	v = strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, v)), " ")
	return cutRunes(v, max)
}

// newID generates a learned document's id: its UTC creation time and 48
// random bits, e.g. "20260518-101500-3f9a0c1b2d4e" (sortable, never from
// the caller).
func (s *Service) newID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return s.o.Clock().UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}
