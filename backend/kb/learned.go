package kb

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"playchat/backend/apperr"
)

// LearnedDir is the root folder of learned documents: what other tools
// (MCP clients) told playchat through append_learning, one file per
// learning at "_learned/<domain>/<id>.md", with its provenance in the front
// matter (issue 23, DESIGN.md §10). The folder is indexed like any other.
const LearnedDir = "_learned"

// maxLearnedHeader caps the bytes read to find a learned document's front
// matter when looking documents up by content hash.
const maxLearnedHeader = 16 << 10

// Provenance is where a learned document came from: the front matter
// append_learning writes.
type Provenance struct {
	// Title is the document's title ("" when the caller gave none).
	Title string `yaml:"title,omitempty" json:"title"`
	// Learned is always true in a learned document (the marker the KB
	// browser and Learned look for).
	Learned bool `yaml:"learned" json:"learned"`
	// ID is the generated id, the file name without ".md".
	ID string `yaml:"learned_id" json:"id"`
	// Domain is the folder below LearnedDir.
	Domain string `yaml:"domain" json:"domain"`
	// SourceType says what the learning was derived from, as the caller
	// put it ("conversation", "document", "web", …).
	SourceType string `yaml:"source_type" json:"sourceType"`
	// SourceID is the caller's id of the source ("" when none).
	SourceID string `yaml:"source_id,omitempty" json:"sourceId"`
	// Client is the name the MCP client gave in its initialize request
	// ("" when unknown).
	Client string `yaml:"client,omitempty" json:"client"`
	// Confidence is the caller's confidence in [0, 1].
	Confidence float64 `yaml:"confidence" json:"confidence"`
	// DerivedFrom lists what the learning was derived from (document
	// addresses, message ids, URLs), as the caller gave them.
	DerivedFrom []string `yaml:"derived_from,omitempty" json:"derivedFrom"`
	// CreatedAt is when the document was written, UTC.
	CreatedAt time.Time `yaml:"created_at" json:"createdAt" ts_type:"string"`
	// ContentHash is "sha256:<hex>" of the body as written (the text after
	// the front matter); a body that no longer matches it was edited.
	ContentHash string `yaml:"content_hash" json:"contentHash"`
}

// LearnedInfo is a learned document's provenance as the KB browser shows it.
type LearnedInfo struct {
	// Path is the document, relative to the root, slash-separated.
	Path       string     `json:"path"`
	Provenance Provenance `json:"provenance"`
	// Edited is true when the body no longer matches ContentHash: the user
	// changed it since it was learned (playchat never overwrites it).
	Edited bool `json:"edited"`
}

// ErrNotLearned is returned by Learned for a document that is not a
// learned document (not below LearnedDir, or without its front matter).
var ErrNotLearned error = apperr.New(apperr.KBNotLearned, nil)

// ContentHash returns "sha256:<hex>" of body.
func ContentHash(body string) string {
	sum := sha256.Sum256([]byte(body))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// IsLearnedPath reports whether rel (slash-separated, relative to the root)
// is below LearnedDir.
func IsLearnedPath(rel string) bool {
	return strings.HasPrefix(rel, LearnedDir+"/")
}

// RenderLearned returns a learned document's file: p as YAML front matter
// (Learned and ContentHash are set from body), a blank line, then body.
func RenderLearned(p Provenance, body string) ([]byte, Provenance) {
	p.Learned = true
	p.ContentHash = ContentHash(body)
	p.CreatedAt = p.CreatedAt.UTC().Truncate(time.Second)
	y, _ := yaml.Marshal(p)
	return []byte("---\n" + string(y) + "---\n\n" + body), p
}

// ParseLearned reads a learned document's front matter and body. ok is
// false when raw has no front matter with "learned: true".
func ParseLearned(raw []byte) (p Provenance, body string, ok bool) {
	s := strings.ReplaceAll(string(raw), "\r\n", "\n")
	if !strings.HasPrefix(s, "---\n") {
		return Provenance{}, "", false
	}
	end := strings.Index(s[4:], "\n---\n")
	if end < 0 {
		return Provenance{}, "", false
	}
	head, rest := s[4:4+end+1], s[4+end+5:]
	if err := yaml.Unmarshal([]byte(head), &p); err != nil || !p.Learned {
		return Provenance{}, "", false
	}
	return p, strings.TrimPrefix(rest, "\n"), true
}

// Learned returns the provenance of the learned document at relPath
// (relative to the root, either separator). Errors: those of Read, and
// ErrNotLearned for a document that is not a learned one.
func (s *Service) Learned(ctx context.Context, relPath string) (LearnedInfo, error) {
	d, err := s.Read(ctx, relPath)
	if err != nil {
		return LearnedInfo{}, err
	}
	if !IsLearnedPath(d.Path) {
		return LearnedInfo{}, fmt.Errorf("%s: %w", d.Path, ErrNotLearned)
	}
	p, body, ok := ParseLearned([]byte(d.Content))
	if !ok {
		return LearnedInfo{}, fmt.Errorf("%s: %w", d.Path, ErrNotLearned)
	}
	return LearnedInfo{Path: d.Path, Provenance: p, Edited: ContentHash(body) != p.ContentHash}, nil
}

// FindLearned looks in LearnedDir/domain for a learned document whose
// front matter's content_hash is hash and returns it (found false when
// there is none). domain must be one folder name (the caller validates it).
// Files that cannot be read are skipped.
func (s *Service) FindLearned(ctx context.Context, domain, hash string) (info LearnedInfo, found bool, err error) {
	if _, err := s.prepareRoot(); err != nil {
		return LearnedInfo{}, false, err
	}
	_, root := s.currentRoot()
	dir := path.Join(LearnedDir, domain)
	entries, err := fs.ReadDir(root.FS(), dir)
	if errors.Is(err, fs.ErrNotExist) {
		return LearnedInfo{}, false, nil
	} else if err != nil {
		return LearnedInfo{}, false, err
	}
	for _, e := range entries {
		if ctx.Err() != nil {
			return LearnedInfo{}, false, ctx.Err()
		}
		if !e.Type().IsRegular() || !isDocPath(e.Name()) {
			continue
		}
		rel := path.Join(dir, e.Name())
		f, err := root.Open(filepath.FromSlash(rel))
		if err != nil {
			continue
		}
		head, _ := io.ReadAll(io.LimitReader(f, maxLearnedHeader))
		f.Close()
		if !bytes.Contains(head, []byte(hash)) {
			continue
		}
		raw, err := root.ReadFile(filepath.FromSlash(rel))
		if err != nil {
			continue
		}
		p, body, ok := ParseLearned(raw)
		if ok && p.ContentHash == hash {
			return LearnedInfo{Path: rel, Provenance: p, Edited: ContentHash(body) != hash}, true, nil
		}
	}
	return LearnedInfo{}, false, nil
}

// CreateLearned writes data as a new document at LearnedDir/domain/name
// (domain one folder name, name a file name ending in .md, both validated by
// the caller) and indexes it before returning, so a search finds it at once.
// The file appears whole or not at all (a temporary file linked into place)
// and an existing file is never replaced: that is an error wrapping
// fs.ErrExist. Every step goes through the root's os.Root, so a symlink
// cannot lead the write out of the knowledge base. It returns the document's
// path relative to the root.
func (s *Service) CreateLearned(ctx context.Context, domain, name string, data []byte) (string, error) {
	if _, err := s.prepareRoot(); err != nil {
		return "", err
	}
	_, root := s.currentRoot()
	dir := path.Join(LearnedDir, domain)
	rel := path.Join(dir, name)
	if path.Dir(rel) != dir || !isDocPath(rel) {
		return "", fmt.Errorf("%q: %w", rel, ErrOutsideRoot)
	}
	for _, d := range []string{LearnedDir, dir} {
		if fi, err := root.Lstat(filepath.FromSlash(d)); err == nil && !fi.IsDir() {
			// A symlink or a file where the folder should be: refused, even
			// when it points inside the root.
			return "", fmt.Errorf("%s: %w", d, ErrOutsideRoot)
		}
	}
	if err := root.MkdirAll(filepath.FromSlash(dir), 0o755); err != nil {
		return "", fmt.Errorf("create %s: %w", dir, err)
	}
	var rnd [6]byte
	_, _ = rand.Read(rnd[:])
	tmp := path.Join(dir, ".playchat-"+hex.EncodeToString(rnd[:])+".tmp")
	f, err := root.OpenFile(filepath.FromSlash(tmp), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return "", fmt.Errorf("write %s: %w", rel, err)
	}
	defer root.Remove(filepath.FromSlash(tmp))
	if _, err := f.Write(data); err != nil {
		f.Close()
		return "", fmt.Errorf("write %s: %w", rel, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return "", fmt.Errorf("write %s: %w", rel, err)
	}
	if err := f.Close(); err != nil {
		return "", fmt.Errorf("write %s: %w", rel, err)
	}
	// A hard link never replaces an existing name (unlike a rename).
	if err := root.Link(filepath.FromSlash(tmp), filepath.FromSlash(rel)); err != nil {
		return "", fmt.Errorf("write %s: %w", rel, err)
	}
	if err := s.IndexNow(ctx, rel); err != nil {
		return rel, err
	}
	return rel, nil
}

// IndexNow brings the index entry of relPath (relative to the root, either
// separator) in line with the file and returns when that is written, or
// when ctx ends: a document just written is searchable when it returns,
// without waiting for the watcher (which may not run in this process).
func (s *Service) IndexNow(ctx context.Context, relPath string) error {
	rel, err := cleanRel(relPath)
	if err != nil {
		return err
	}
	if _, err := s.prepareRoot(); err != nil {
		return err
	}
	s.enqueue(job{rel: rel})
	for {
		s.mu.Lock()
		busy, closed, ch := s.queue.has(rel), s.closed, s.changed
		s.mu.Unlock()
		if closed {
			return ErrClosed
		}
		if !busy {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}
