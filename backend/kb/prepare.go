package kb

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"time"

	"playchat/backend/apperr"
)

// maxDocBytes caps the size of a document that is indexed (8 MiB); a larger
// .md file is reported as failed.
const maxDocBytes = 8 << 20

type resultKind int

const (
	resSkip   resultKind = iota // unchanged: nothing to write
	resTouch                    // same content, new size/mtime
	resIndex                    // new or changed content
	resFail                     // unreadable or unparsable: recorded with its error
	resDelete                   // gone: remove the path (and, for a folder, all below it)
)

// result is a prepared job, ready for the writer.
type result struct {
	job   job
	kind  resultKind
	size  int64
	mtime time.Time
	hash  string
	doc   parsedDoc
	terms [][]ftsRow // per lexicon, one row per chunk
	err   string
}

// isDocPath reports whether a slash path names a file the knowledge base
// indexes: a .md file with no hidden ("." prefix) or temporary element
// (editor swap and backup files: "~" or "#" prefix, "~" suffix).
func isDocPath(rel string) bool {
	if !strings.EqualFold(path.Ext(rel), ".md") {
		return false
	}
	return visiblePath(rel)
}

// visiblePath reports whether no element of rel is hidden or temporary.
func visiblePath(rel string) bool {
	for el := range strings.SplitSeq(rel, "/") {
		if ignoredName(el) {
			return false
		}
	}
	return true
}

func ignoredName(name string) bool {
	if name == "" {
		return false
	}
	switch name[0] {
	case '.', '~', '#':
		return true
	}
	return strings.HasSuffix(name, "~") || strings.HasSuffix(name, ".tmp") ||
		strings.HasSuffix(name, ".swp") || strings.HasSuffix(name, ".part")
}

// resolve returns rel with every symlink resolved, as a slash path relative
// to the root, or ErrOutsideRoot when it leads out of the root. (os.Root
// alone refuses every absolute symlink, even one pointing inside.)
func (s *Service) resolve(rel string) (string, error) {
	root, _ := s.currentRoot()
	p, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		return "", err
	}
	r, ok := relPath(root, p)
	if !ok {
		return "", ErrOutsideRoot
	}
	return r, nil
}

// docRow is what the index knows about a path.
type docRow struct {
	ID    int64
	Size  int64
	MTime time.Time
	Hash  string
	Error string
}

func (s *Service) loadRow(ctx context.Context, rel string) (docRow, bool, error) {
	var r docRow
	var mt sql.NullTime
	err := s.o.DB.Bun().QueryRowContext(ctx,
		`SELECT id, size, mtime, content_hash, error FROM local_knowledge_docs WHERE path = ?`, rel).
		Scan(&r.ID, &r.Size, &mt, &r.Hash, &r.Error)
	if errors.Is(err, sql.ErrNoRows) {
		return r, false, nil
	}
	r.MTime = mt.Time
	return r, err == nil, err
}

// sameTime compares modification times to the microsecond (what survives a
// round trip through every file system and the database).
func sameTime(a, b time.Time) bool {
	return a.UTC().Truncate(time.Microsecond).Equal(b.UTC().Truncate(time.Microsecond))
}

// prepare does a job's reading, hashing, parsing and segmenting — everything
// but the database write — so it runs on several workers at once.
func (s *Service) prepare(j job) result {
	res := result{job: j}
	_, root := s.currentRoot()
	if root == nil {
		res.kind = resSkip
		return res
	}
	name := filepath.FromSlash(j.rel)
	fi, err := root.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		res.kind = resDelete
		return res
	case err != nil:
		return failed(res, err)
	}
	if fi.IsDir() || !isDocPath(j.rel) {
		res.kind = resDelete // a folder or non-document now: drop any entry of that name
		return res
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		// Follow it only to a file inside the root.
		target, err := s.resolve(j.rel)
		if errors.Is(err, fs.ErrNotExist) {
			res.kind = resDelete
			return res
		} else if err != nil {
			return failed(res, apperr.Wrap(apperr.KBSymlink, err, nil))
		}
		name = filepath.FromSlash(target)
		if fi, err = root.Stat(name); err != nil {
			return failed(res, err)
		}
		if fi.IsDir() {
			res.kind = resDelete
			return res
		}
	}
	if !fi.Mode().IsRegular() {
		res.kind = resDelete
		return res
	}
	res.size, res.mtime = fi.Size(), fi.ModTime().UTC()
	if res.size > maxDocBytes {
		return failed(res, apperr.New(apperr.KBFileTooLarge, map[string]any{"maxMiB": maxDocBytes >> 20}))
	}
	// A file the pass found no entry for is read without a second look-up:
	// should one have been written meanwhile (a watcher event), writing the
	// file again only repeats it.
	var row docRow
	ok := false
	if !j.absent {
		var err error
		if row, ok, err = s.loadRow(s.ctx, j.rel); err != nil {
			return failed(res, err)
		}
	}
	if ok && !j.force && row.Error == "" && row.Hash != "" && row.Size == res.size && sameTime(row.MTime, res.mtime) {
		res.kind = resSkip
		return res
	}
	data, err := root.ReadFile(name)
	if err != nil {
		return failed(res, err)
	}
	sum := sha256.Sum256(data)
	res.hash = hex.EncodeToString(sum[:])
	if ok && !j.force && row.Error == "" && row.Hash == res.hash {
		res.kind = resTouch
		return res
	}
	res.doc, err = parseMarkdown(j.rel, data)
	if err != nil {
		return failed(res, err)
	}
	for _, w := range res.doc.Warnings {
		s.log.Warn("knowledge base document read leniently", "path", j.rel, "warning", w)
	}
	for _, lx := range s.lexes {
		rows, err := lx.rows(res.doc)
		if err != nil {
			return failed(res, err)
		}
		res.terms = append(res.terms, rows)
	}
	res.kind = resIndex
	return res
}

// failed marks r as not indexed because of err, kept as apperr.Stored text
// (read back with storedError).
func failed(r result, err error) result {
	r.kind = resFail
	r.err = apperr.Stored(err)
	r.doc = parsedDoc{}
	return r
}
