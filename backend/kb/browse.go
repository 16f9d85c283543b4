package kb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"playchat/backend/apperr"
)

// Status reports the index's state. It reads the database and the
// service's counters; it never scans the folder.
func (s *Service) Status(ctx context.Context) (Status, error) {
	s.mu.Lock()
	st := Status{
		Root: s.root, Pending: s.queue.size(), LastIndexedAt: s.lastAt,
		Indexing: s.queue.size() > 0 || s.pass.running || s.booting, Watching: s.watch != nil,
		WatchError: s.watchErr, WatchErrorInfo: s.watchInfo, EmbeddingError: s.embed.err, Failed: []FailedDoc{},
	}
	if s.pass.running {
		st.Progress = Progress{Done: s.pass.done, Total: s.pass.total}
	}
	if s.watch != nil {
		st.Pending += s.watch.pendingCount()
	}
	s.mu.Unlock()
	st.EmbeddingModel = s.embeddingModel()
	db := s.o.DB.Bun()
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM local_knowledge_docs WHERE error = ''`).Scan(&st.Indexed); err != nil {
		return st, err
	}
	if st.LastIndexedAt.IsZero() {
		var last sql.NullTime
		err := db.QueryRowContext(ctx, `SELECT indexed_at FROM local_knowledge_docs
			WHERE indexed_at IS NOT NULL ORDER BY indexed_at DESC LIMIT 1`).Scan(&last)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return st, err
		}
		st.LastIndexedAt = last.Time.UTC()
		if !last.Valid {
			st.LastIndexedAt = time.Time{}
		}
	}
	rows, err := db.QueryContext(ctx, `SELECT path, error FROM local_knowledge_docs WHERE error != '' ORDER BY path`)
	if err != nil {
		return st, err
	}
	for rows.Next() {
		var f FailedDoc
		if err := rows.Scan(&f.Path, &f.Error); err != nil {
			rows.Close()
			return st, err
		}
		f.Error, f.ErrorInfo = storedError(f.Error)
		st.Failed = append(st.Failed, f)
	}
	rows.Close()
	if st.EmbeddingModel != "" {
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM local_knowledge_docs
			WHERE error = '' AND chunk_count > 0 AND embedding_model = ?`, st.EmbeddingModel).Scan(&st.Embedded); err != nil {
			return st, err
		}
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM local_knowledge_chunks
			WHERE embedding_model != ? OR embedding IS NULL`, st.EmbeddingModel).Scan(&st.EmbeddingPending); err != nil {
			return st, err
		}
	}
	return st, rows.Err()
}

// Tree returns the indexed documents (failed ones included, with their
// error) as a folder tree, from the index.
func (s *Service) Tree(ctx context.Context) (Node, error) {
	rows, err := s.o.DB.Bun().QueryContext(ctx, `SELECT path, title, size, error FROM local_knowledge_docs ORDER BY path`)
	if err != nil {
		return Node{}, err
	}
	defer rows.Close()
	root := &treeNode{Node: Node{Dir: true}}
	for rows.Next() {
		var n Node
		if err := rows.Scan(&n.Path, &n.Title, &n.Size, &n.Error); err != nil {
			return Node{}, err
		}
		n.Error, n.ErrorInfo = storedError(n.Error)
		n.Name = path.Base(n.Path)
		root.insert(strings.Split(n.Path, "/"), n)
	}
	if err := rows.Err(); err != nil {
		return Node{}, err
	}
	return root.build(), nil
}

// Folder returns the folder dir ("" = the root, slash-separated, relative
// to the root) with its direct entries only: sub-folders first, then
// documents, each by name. A sub-folder's Children are left empty and its
// Count says how many documents it holds, at any depth. Only the documents under
// dir are read (a range scan of the path index), so opening a folder of a
// 45,000-document knowledge base stays cheap. An unknown folder wraps
// ErrNotDocument.
func (s *Service) Folder(ctx context.Context, dir string) (Node, error) {
	dir = strings.Trim(dir, "/")
	q, args := `SELECT path, title, size, error FROM local_knowledge_docs ORDER BY path`, []any{}
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
		// '0' is the byte after '/': every path starting with prefix sorts
		// in [prefix, dir+"0").
		q = `SELECT path, title, size, error FROM local_knowledge_docs WHERE path >= ? AND path < ? ORDER BY path`
		args = []any{prefix, dir + "0"}
	}
	rows, err := s.o.DB.Bun().QueryContext(ctx, q, args...)
	if err != nil {
		return Node{}, err
	}
	defer rows.Close()
	out := Node{Name: path.Base(dir), Path: dir, Dir: true}
	if dir == "" {
		out.Name = ""
	}
	subs := map[string]int{} // sub-folder → documents below it
	var docs []Node
	seen := false
	for rows.Next() {
		var n Node
		if err := rows.Scan(&n.Path, &n.Title, &n.Size, &n.Error); err != nil {
			return Node{}, err
		}
		n.Error, n.ErrorInfo = storedError(n.Error)
		seen = true
		rest := strings.TrimPrefix(n.Path, prefix)
		first, _, nested := strings.Cut(rest, "/")
		if !nested {
			n.Name = first
			docs = append(docs, n)
			continue
		}
		subs[first]++
	}
	if err := rows.Err(); err != nil {
		return Node{}, err
	}
	if dir != "" && !seen {
		return Node{}, fmt.Errorf("folder %q: %w", dir, ErrNotDocument)
	}
	names := make([]string, 0, len(subs))
	for name := range subs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := name
		if dir != "" {
			p = dir + "/" + name
		}
		out.Children = append(out.Children, Node{Name: name, Path: p, Dir: true, Count: subs[name]})
	}
	out.Children = append(out.Children, docs...)
	out.Count = len(docs)
	for _, n := range subs {
		out.Count += n
	}
	return out, nil
}

type treeNode struct {
	Node
	dirs map[string]*treeNode
	docs []Node
}

func (t *treeNode) insert(parts []string, doc Node) {
	if len(parts) == 1 {
		t.docs = append(t.docs, doc)
		return
	}
	if t.dirs == nil {
		t.dirs = map[string]*treeNode{}
	}
	d, ok := t.dirs[parts[0]]
	if !ok {
		p := parts[0]
		if t.Path != "" {
			p = t.Path + "/" + p
		}
		d = &treeNode{Node: Node{Name: parts[0], Path: p, Dir: true}}
		t.dirs[parts[0]] = d
	}
	d.insert(parts[1:], doc)
}

func (t *treeNode) build() Node {
	n := t.Node
	names := make([]string, 0, len(t.dirs))
	for name := range t.dirs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		n.Children = append(n.Children, t.dirs[name].build())
	}
	sort.Slice(t.docs, func(i, j int) bool { return t.docs[i].Name < t.docs[j].Name })
	n.Children = append(n.Children, t.docs...)
	return n
}

// Read returns a document's Markdown for display. relPath is relative to the
// root with either separator; it is refused with ErrOutsideRoot when it is
// absolute, climbs out with "..", or resolves through a symlink to a place
// outside the root, and with ErrNotDocument when it is not a visible .md
// file.
func (s *Service) Read(ctx context.Context, relPath string) (Doc, error) {
	rel, err := cleanRel(relPath)
	if err != nil {
		return Doc{}, err
	}
	if _, err := s.prepareRoot(); err != nil {
		return Doc{}, err
	}
	_, root := s.currentRoot()
	target, err := s.resolve(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return Doc{}, fmt.Errorf("%s: %w", rel, fs.ErrNotExist)
	} else if err != nil {
		return Doc{}, fmt.Errorf("%s: %w", rel, ErrOutsideRoot)
	}
	// target holds no symlink; os.Root still guards against a swap since.
	name := filepath.FromSlash(target)
	fi, err := root.Stat(name)
	if err != nil {
		return Doc{}, fmt.Errorf("%s: %w", rel, ErrOutsideRoot)
	}
	if !fi.Mode().IsRegular() {
		return Doc{}, fmt.Errorf("%s: %w", rel, ErrNotDocument)
	}
	if fi.Size() > maxDocBytes {
		return Doc{}, fmt.Errorf("%s: larger than %d MiB", rel, maxDocBytes>>20)
	}
	data, err := root.ReadFile(name)
	if err != nil {
		return Doc{}, fmt.Errorf("%s: %w", rel, err)
	}
	d := Doc{Path: rel, Content: string(data), Size: fi.Size(), ModTime: fi.ModTime().UTC()}
	if p, err := parseMarkdown(rel, data); err == nil {
		d.Title = p.Title
	}
	return d, nil
}

// cleanRel validates a relative document path and returns it with slashes.
func cleanRel(p string) (string, error) {
	p = strings.ReplaceAll(p, "\\", "/")
	if p == "" || strings.HasPrefix(p, "/") || filepath.IsAbs(p) || filepath.VolumeName(p) != "" {
		return "", fmt.Errorf("%q: %w", p, ErrOutsideRoot)
	}
	clean := path.Clean(p)
	if !filepath.IsLocal(filepath.FromSlash(clean)) {
		return "", fmt.Errorf("%q: %w", p, ErrOutsideRoot)
	}
	if !isDocPath(clean) {
		return "", fmt.Errorf("%q: %w", p, ErrNotDocument)
	}
	return clean, nil
}

// storedError reads a document's error column (apperr.Stored text): the
// English text, and its Info when it has a code.
func storedError(s string) (string, *apperr.Info) {
	in := apperr.ParseStored(s)
	if in.Code == "" {
		return in.Message, nil
	}
	return in.Message, &in
}
