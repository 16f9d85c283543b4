package kb

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// analyzerVersion names how the stored FTS terms were made. When it changes
// (another dictionary, other segmentation rules) the next pass rewrites every
// document. rules-2: whole-string NFKC, no fragment unknown words.
// md-goldmark: sections parsed by goldmark (comments in code kept, headings
// with code spans and escapes read in full), front matter by a YAML parser.
const analyzerVersion = "kagome-v2.10/ipa-1.2.6/rules-2/md-goldmark"

// fileInfo is what a walk learns about a document without reading it.
type fileInfo struct {
	size  int64
	mtime time.Time
}

// Reconcile brings the index in line with the folder and returns when it is:
// it creates and seeds the folder when missing, then compares every .md
// file's size and mtime with the index. Files that match are neither read
// nor re-embedded; the others are read and hashed, and re-indexed only when
// the content hash changed. Entries whose file is gone are removed.
// Embeddings are computed afterwards by Start's background loop or by
// EmbedPending.
func (s *Service) Reconcile(ctx context.Context) (ReconcileReport, error) {
	return s.runPass(ctx, false)
}

// Reindex rebuilds the index: every document is read, parsed and written
// again (sections whose text is unchanged keep their embeddings). It also
// re-reads Settings.Dir; a new folder replaces the old one's entries.
func (s *Service) Reindex(ctx context.Context) (ReconcileReport, error) {
	dir := s.o.Settings().Dir
	s.mu.Lock()
	moved := dir != s.dir
	s.dir = dir
	s.mu.Unlock()
	if moved {
		s.passMu.Lock()
		s.mu.Lock()
		if s.osRoot != nil {
			s.osRoot.Close()
		}
		s.root, s.osRoot = "", nil
		w := s.watch
		s.watch = nil
		s.mu.Unlock()
		if w != nil {
			w.close()
		}
		s.passMu.Unlock()
		if _, err := s.prepareRoot(); err != nil {
			return ReconcileReport{}, err
		}
		s.mu.Lock()
		started := s.started
		s.mu.Unlock()
		if started {
			if err := s.startWatcher(); err != nil {
				s.log.Warn("knowledge base watcher did not start", "err", err)
			}
		}
	}
	return s.runPass(ctx, true)
}

// passCounts are a pass's results by kind.
type passCounts struct{ indexed, touched, removed, failed int }

func (s *Service) runPass(ctx context.Context, force bool) (ReconcileReport, error) {
	s.passMu.Lock()
	defer s.passMu.Unlock()
	start := time.Now()
	var rep ReconcileReport
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return rep, ErrClosed
	}
	seeded, err := s.prepareRoot()
	if err != nil {
		return rep, err
	}
	rep.Seeded = seeded
	root, r := s.currentRoot()
	rep.Root = root
	stored, _ := s.meta(ctx, "analyzer")
	if stored != analyzerVersion {
		force = true
	}
	files, err := walkDocs(r)
	if err != nil {
		return rep, err
	}
	rows, err := s.loadRows(ctx)
	if err != nil {
		return rep, err
	}
	rep.Scanned = len(files)
	var jobs []job
	for rel, fi := range files {
		row, ok := rows[rel]
		if !force && ok && row.Error == "" && row.Hash != "" && row.Size == fi.size && sameTime(row.MTime, fi.mtime) {
			rep.Unchanged++
			continue
		}
		jobs = append(jobs, job{rel: rel, force: force, absent: !ok})
	}
	for rel := range rows {
		if _, ok := files[rel]; !ok {
			jobs = append(jobs, job{rel: rel})
		}
	}
	s.mu.Lock()
	s.pass = passState{id: s.pass.id + 1, running: true, total: len(jobs)}
	s.passCounts = passCounts{}
	id := s.pass.id
	for i := range jobs {
		jobs[i].pass = id
	}
	s.notifyLocked()
	s.mu.Unlock()
	s.enqueue(jobs...)
	err = s.waitPass(ctx, id)
	s.mu.Lock()
	c := s.passCounts
	s.pass = passState{id: id}
	s.notifyLocked()
	s.mu.Unlock()
	rep.Indexed, rep.Touched, rep.Removed, rep.Failed = c.indexed, c.touched, c.removed, c.failed
	rep.Duration = time.Since(start)
	if err != nil {
		return rep, err
	}
	if stored != analyzerVersion {
		if err := s.setMeta(ctx, "analyzer", analyzerVersion); err != nil {
			return rep, err
		}
	}
	s.log.Info("knowledge base reconciled", "root", root, "scanned", rep.Scanned, "unchanged", rep.Unchanged,
		"indexed", rep.Indexed, "removed", rep.Removed, "failed", rep.Failed, "took", rep.Duration)
	return rep, nil
}

// Stale counts the documents a Reconcile would read or remove — files new
// or changed (by size or mtime) since they were indexed, failed ones, and
// entries whose file is gone — by one walk of the folder. It changes nothing
// but creates (and seeds) a missing folder.
func (s *Service) Stale(ctx context.Context) (int, error) {
	if _, err := s.prepareRoot(); err != nil {
		return 0, err
	}
	_, r := s.currentRoot()
	files, err := walkDocs(r)
	if err != nil {
		return 0, err
	}
	rows, err := s.loadRows(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for rel, fi := range files {
		row, ok := rows[rel]
		// A document that failed and has not changed since is not pending:
		// indexing it again would fail the same way (Status lists it).
		if !ok || row.Size != fi.size || !sameTime(row.MTime, fi.mtime) || (row.Error == "" && row.Hash == "") {
			n++
		}
	}
	for rel := range rows {
		if _, ok := files[rel]; !ok {
			n++
		}
	}
	return n, nil
}

func (s *Service) waitPass(ctx context.Context, id int) error {
	for {
		s.mu.Lock()
		done := s.pass.id != id || s.pass.done >= s.pass.total || s.closed
		ch := s.changed
		s.mu.Unlock()
		if done {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		case <-s.ctx.Done():
			return ErrClosed
		}
	}
}

// walkDocs lists the documents below the root (hidden and temporary entries
// and symlinked folders skipped) with their size and mtime.
func walkDocs(r *os.Root) (map[string]fileInfo, error) {
	files := map[string]fileInfo{}
	err := fs.WalkDir(r.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == "." {
				return err
			}
			return nil // unreadable folder: skip, keep walking
		}
		if p == "." {
			return nil
		}
		if ignoredName(d.Name()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() || !isDocPath(p) {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			if fi, err = r.Stat(p); err != nil {
				files[p] = fileInfo{size: -1} // escapes or dangles: prepare reports it
				return nil
			}
		}
		if fi.Mode().IsRegular() {
			files[p] = fileInfo{size: fi.Size(), mtime: fi.ModTime().UTC()}
		}
		return nil
	})
	return files, err
}

func (s *Service) loadRows(ctx context.Context) (map[string]docRow, error) {
	rows, err := s.o.DB.Bun().QueryContext(ctx, `SELECT id, path, size, mtime, content_hash, error FROM local_knowledge_docs`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]docRow{}
	for rows.Next() {
		var r docRow
		var p string
		var mt sql.NullTime
		if err := rows.Scan(&r.ID, &p, &r.Size, &mt, &r.Hash, &r.Error); err != nil {
			return nil, err
		}
		r.MTime = mt.Time
		out[p] = r
	}
	return out, rows.Err()
}

func (s *Service) meta(ctx context.Context, key string) (string, error) {
	var v string
	err := s.o.DB.Bun().QueryRowContext(ctx, `SELECT value FROM local_knowledge_meta WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return v, err
}

func (s *Service) setMeta(ctx context.Context, key, value string) error {
	_, err := s.o.DB.Bun().ExecContext(ctx, `INSERT INTO local_knowledge_meta(key, value) VALUES (?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
	return err
}

// relPath turns an absolute path below root into a slash path; ok is false
// for root itself and for paths outside it.
func relPath(root, abs string) (string, bool) {
	if !strings.HasPrefix(abs, root+string(os.PathSeparator)) {
		return "", false
	}
	return filepath.ToSlash(abs[len(root)+1:]), true
}
