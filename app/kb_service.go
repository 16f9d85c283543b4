package app

import (
	"context"

	"playchat/backend/apperr"
	"playchat/backend/kb"
)

// KBNode is one folder or document. Children holds one level only (folders
// first, then documents); a folder's own children are fetched with Tree
// when it is opened, so a 45,000-document tree never crosses at once.
type KBNode struct {
	Name  string `json:"name"`
	Path  string `json:"path"` // relative to the root, slash-separated
	Dir   bool   `json:"dir"`
	Title string `json:"title"`
	Size  int64  `json:"size"`
	Error string `json:"error"`
	// ErrorInfo is Error with its code and params; nil when it has no code.
	ErrorInfo *apperr.Info `json:"errorInfo,omitempty"`
	// Count is the number of documents in a folder, at any depth.
	Count int `json:"count"`
	// Learned is true for a document (or folder) below _learned/: what
	// another tool wrote through append_learning (issue 23).
	Learned  bool     `json:"learned"`
	Children []KBNode `json:"children"`
}

// KBDoc is a document read for display.
type KBDoc struct {
	Path    string `json:"path"`
	Title   string `json:"title"`
	Content string `json:"content"`
	Size    int64  `json:"size"`
	ModTime string `json:"modTime"`
	// Learned is the provenance of a learned document (below _learned/,
	// written by append_learning), nil for every other document.
	Learned *kb.LearnedInfo `json:"learned,omitempty"`
}

// KBHit is one search result; Excerpt marks matched terms «like this».
type KBHit struct {
	Rank    int     `json:"rank"`
	Path    string  `json:"path"`
	Title   string  `json:"title"`
	Heading string  `json:"heading"`
	Score   float64 `json:"score"`
	Excerpt string  `json:"excerpt"`
}

// KBService is the read-only browser of the local Markdown knowledge base
// (backend/kb). It is named KB, not Knowledge: "knowledge" is what the
// assistant learns from the web.
type KBService struct{ app *App }

// Status reports the index: counts, failures, progress, watcher state. It
// is kb.Status bound as it is (Failed is never nil; LastIndexedAt is the
// zero time, "0001-01-01T00:00:00Z", when the index never changed).
func (s *KBService) Status() (kb.Status, error) {
	c, err := s.app.backend()
	if err != nil {
		return kb.Status{}, err
	}
	st, err := c.KB.Status(context.Background())
	if err != nil {
		return kb.Status{}, err
	}
	if st.Failed == nil {
		st.Failed = []kb.FailedDoc{}
	}
	return st, nil
}

// Tree returns the folder at dir ("" = the root) with its direct entries.
func (s *KBService) Tree(dir string) (KBNode, error) {
	c, err := s.app.backend()
	if err != nil {
		return KBNode{}, err
	}
	node, err := c.KB.Folder(context.Background(), dir)
	if err != nil {
		return KBNode{}, err
	}
	out := toKBNode(node)
	for _, ch := range node.Children {
		out.Children = append(out.Children, toKBNode(ch))
	}
	return out, nil
}

func toKBNode(n kb.Node) KBNode {
	return KBNode{Name: n.Name, Path: n.Path, Dir: n.Dir, Title: n.Title, Size: n.Size, Error: n.Error, ErrorInfo: n.ErrorInfo,
		Count: n.Count, Learned: n.Path == kb.LearnedDir || kb.IsLearnedPath(n.Path), Children: []KBNode{}}
}

// Read returns one document's Markdown. Paths that leave the knowledge
// base (.., absolute paths, symlinks out of it) are refused.
func (s *KBService) Read(path string) (KBDoc, error) {
	c, err := s.app.backend()
	if err != nil {
		return KBDoc{}, err
	}
	d, err := c.KB.Read(context.Background(), path)
	if err != nil {
		return KBDoc{}, err
	}
	doc := KBDoc{Path: d.Path, Title: d.Title, Content: d.Content, Size: d.Size, ModTime: ts(d.ModTime)}
	if kb.IsLearnedPath(d.Path) {
		if info, err := c.KB.Learned(context.Background(), d.Path); err == nil {
			doc.Learned = &info
		}
	}
	return doc, nil
}

// Search runs the same retrieval the chat uses (BM25, fused with
// embeddings when configured); limit 1–50.
func (s *KBService) Search(query string, limit int) ([]KBHit, error) {
	c, err := s.app.backend()
	if err != nil {
		return nil, err
	}
	limit = min(max(limit, 1), 50)
	hits, err := c.KB.Search(context.Background(), query, limit)
	if err != nil {
		return nil, err
	}
	out := make([]KBHit, len(hits))
	for i, h := range hits {
		out[i] = KBHit{Rank: h.Rank, Path: h.Path, Title: h.Title, Heading: h.Heading, Score: h.Score, Excerpt: h.Excerpt}
	}
	return out, nil
}

// Reindex rebuilds the whole index in the background; Status shows its
// progress.
func (s *KBService) Reindex() error {
	c, err := s.app.backend()
	if err != nil {
		return err
	}
	c.Guard.Go("kb.reindex", func() {
		if _, err := c.KB.Reindex(context.Background()); err != nil {
			c.Log.Warn("knowledge base reindex", "err", err)
		}
	})
	return nil
}

// OpenFolder shows the knowledge-base folder in the system's file manager.
func (s *KBService) OpenFolder() error {
	c, err := s.app.backend()
	if err != nil {
		return err
	}
	root := c.KB.Root()
	if root == "" {
		return apperr.New(apperr.KBNotReady, nil)
	}
	// about.go: Wails' BrowserOpenURL refuses file:// URLs.
	return openFolder(root, openFolderWith)
}
