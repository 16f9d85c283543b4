// Package kb is the local Markdown knowledge base (issue 4, DESIGN.md §5
// layer 3): every .md file below a folder, watched live, indexed in SQLite for
// Japanese lexical search (FTS5 + BM25 over kagome segmentation) and, when an
// embedding model is configured, semantic search over per-section
// embeddings; the two are fused by reciprocal rank fusion. It also serves a
// read-only browser (Tree, Read), the index status and a folder import.
//
// Life cycle: New builds the service (no I/O). Reconcile brings the index in
// line with the folder and returns when it is (the CLI and `ask` call it
// before the first turn). Start does that in the background and then watches
// the folder with fsnotify and computes missing embeddings; Close stops it.
// No request ever scans the folder: Search and the context layer read only
// the index.
//
// Paths in the API are relative to the knowledge base root and
// slash-separated ("guide/intro.md"). Every path is resolved, symlinks
// included, through os.Root, and refused when it leaves the root.
//
// This package is the service (watcher, reconcile, index, search, browse,
// import, layer). Its pure parts are packages of their own, with no storage:
// kb/markdown reads a document (front matter, sections), kb/vector does the
// vector arithmetic and rank fusion, and backend/jatext analyses Japanese
// text (also for other searches than this one).
package kb

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"time"

	"github.com/fsnotify/fsnotify"

	"playchat/backend/apperr"
	"playchat/backend/guard"
	"playchat/backend/store"
)

// Settings are read whenever they matter (each pass, each query), so changes
// saved in the GUI apply without a restart — except Dir, which is read by New
// and by Reindex (a new folder is indexed from scratch).
type Settings struct {
	// Dir is the knowledge base folder (KNOWLEDGE_BASE_DIR), created and
	// seeded on the first pass when missing.
	Dir string
	// EmbeddingModel is EMBEDDING_MODEL as "provider/model"; "" disables
	// embeddings and retrieval is lexical only.
	EmbeddingModel string
	// TopK is LOCAL_KB_TOP_K: how many documents context layer 3 injects at
	// most (0 disables the layer).
	TopK int
	// MinScore is LOCAL_KB_MIN_SCORE: the cosine similarity, in [0, 1], a
	// document's best section must reach to qualify on embeddings alone
	// (and stand out from the collection: see standOut). It does not apply
	// to the lexical match (see minEvidence).
	MinScore float64
	// TokenBudget caps layer 3's text, in tokens; 0 means DefaultTokenBudget
	// of the turn's model.
	TokenBudget int
}

// Embedder computes embeddings; (*llm.Client).Embed implements it. It
// returns one vector per input, in order.
type Embedder interface {
	Embed(ctx context.Context, model string, inputs []string) ([][]float32, error)
}

// Options configure New.
type Options struct {
	// DB is the open, migrated database (required).
	DB *store.DB
	// Settings returns the current settings (required).
	Settings func() Settings
	// Embedder computes embeddings; nil means lexical retrieval only.
	Embedder Embedder
	// Logger receives warnings and progress; nil discards.
	Logger *slog.Logger
	// Seed holds the Markdown files (at its root) copied into a knowledge
	// base folder that does not exist yet; nil seeds nothing.
	Seed fs.FS
	// Guard recovers panics of the background jobs (the start-up pass,
	// indexing a file, writing a batch, the watcher, embedding): the job
	// is logged and reported, the service keeps running. nil guards
	// nothing (a panic ends the process).
	Guard *guard.Guard
	// WatchPoll is how often the folders the watcher could not watch (the
	// system's inotify limit was reached) are checked for changes and
	// offered to the watcher again; 0 means DefaultWatchPoll.
	WatchPoll time.Duration

	// addWatch replaces fsnotify's Add (tests make it fail as a full
	// inotify table does).
	addWatch func(fw *fsnotify.Watcher, dir string) error
}

// DefaultWatchPoll is Options.WatchPoll's default: folders the watcher
// cannot watch live are checked every 30 s.
const DefaultWatchPoll = 30 * time.Second

// Errors returned by the browse API.
var (
	// ErrOutsideRoot refuses a path that is absolute, climbs with "..", or
	// resolves (through a symlink) to somewhere outside the root.
	ErrOutsideRoot error = apperr.New(apperr.KBOutsideRoot, nil)
	// ErrNotDocument refuses a path that is not a visible .md file.
	ErrNotDocument error = apperr.New(apperr.KBNotDocument, nil)
	// ErrClosed is returned after Close.
	ErrClosed = errors.New("knowledge base is closed")
)

// ReconcileReport counts what a pass over the folder did.
type ReconcileReport struct {
	// Root is the folder, absolute with symlinks resolved.
	Root string `json:"root"`
	// Seeded is true when the folder was created and seeded by this pass.
	Seeded bool `json:"seeded"`
	// Scanned counts the Markdown files found.
	Scanned int `json:"scanned"`
	// Unchanged files matched the index by size and mtime and were not read.
	Unchanged int `json:"unchanged"`
	// Indexed files were (re)read and written to the index; Touched were read
	// but their content hash was unchanged (only size/mtime were updated).
	Indexed int `json:"indexed"`
	Touched int `json:"touched"`
	// Removed counts index entries whose file is gone.
	Removed int `json:"removed"`
	// Failed counts files that could not be read or parsed (see Status).
	Failed int `json:"failed"`
	// Duration is the pass's wall time.
	Duration time.Duration `json:"duration"`
}

// Status is the index's state for the KB browser and `playchat kb status`.
type Status struct {
	// Root is the folder, absolute with symlinks resolved ("" before the
	// first pass).
	Root string `json:"root"`
	// Indexed counts documents in the index without error.
	Indexed int `json:"indexed"`
	// Pending counts files waiting to be (re)indexed, including events not
	// yet past the debounce delay.
	Pending int `json:"pending"`
	// Failed lists documents that could not be read or parsed.
	Failed []FailedDoc `json:"failed"`
	// LastIndexedAt is when the index last changed (zero when never), UTC.
	// The window gets it as an RFC 3339 string (ts_type for the generated
	// TypeScript; the zero time is "0001-01-01T00:00:00Z").
	LastIndexedAt time.Time `json:"lastIndexedAt" ts_type:"string"`
	// Indexing is true while a pass or queued work is running.
	Indexing bool `json:"indexing"`
	// Progress counts the current pass's files (done of total); both are 0
	// when no pass runs.
	Progress Progress `json:"progress"`
	// Watching is true while the fsnotify watcher runs; WatchError is its
	// last error ("" when none), in English; WatchErrorInfo is the same with
	// its code and params for the window to word (nil when none or without
	// a code). Past the system's inotify limit it is kb.watchLimit: the
	// folders not watched live are checked every WatchPoll and watched
	// again as soon as the limit allows.
	Watching       bool         `json:"watching"`
	WatchError     string       `json:"watchError"`
	WatchErrorInfo *apperr.Info `json:"watchErrorInfo,omitempty"`
	// EmbeddingModel is the configured model ("" when embeddings are off).
	EmbeddingModel string `json:"embeddingModel"`
	// Embedded counts documents all of whose sections have an embedding
	// from EmbeddingModel; EmbeddingPending counts sections still missing
	// one; EmbeddingError is the last embedding failure ("" when none).
	Embedded         int    `json:"embedded"`
	EmbeddingPending int    `json:"embeddingPending"`
	EmbeddingError   string `json:"embeddingError"`
}

// Progress is done of total files in the running pass.
type Progress struct {
	Done  int `json:"done"`
	Total int `json:"total"`
}

// FailedDoc is a document that could not be indexed and why.
type FailedDoc struct {
	Path  string `json:"path"`
	Error string `json:"error"`
	// ErrorInfo is Error with its code and params (apperr), nil when the
	// error has no code or was stored before codes existed.
	ErrorInfo *apperr.Info `json:"errorInfo,omitempty"`
}

// Hit is one search result.
type Hit struct {
	// Rank is 1 for the best hit.
	Rank int `json:"rank"`
	// Path is relative to the root, slash-separated.
	Path  string `json:"path"`
	Title string `json:"title"`
	// Heading is the heading path of the best-matching section.
	Heading string `json:"heading"`
	// Score is the fused ranking score: the sum over the rankings the
	// document appears in (BM25, embeddings) of 1/(60+rank) — reciprocal
	// rank fusion with k = 60 (Cormack, Clarke and Büttcher, SIGIR 2009).
	// With one ranking it lies in (0, 1/61]; with two in (0, 2/61].
	Score float64 `json:"score"`
	// BM25 is the best section's FTS5 BM25 score, sign flipped so higher is
	// better (0 when no term matched).
	BM25 float64 `json:"bm25"`
	// Cosine is the best section's cosine similarity to the query (0 when
	// there are no embeddings).
	Cosine float64 `json:"cosine"`
	// Coverage is the share, in [0, 1], of the query's terms that Heading's
	// section holds in its prose, heading path or document title (code only
	// for words the query writes as code), each weighted by its inverse
	// document frequency, verbs by half — the evidence context layer 3
	// needs half of (minEvidence). 0 when no section holds a term.
	Coverage float64 `json:"coverage"`
	// Excerpt is about 160 characters of the best section with every
	// matched term marked «like this».
	Excerpt string `json:"excerpt"`
}

// Node is a folder or document of the tree the KB browser shows.
type Node struct {
	// Name is the last path element ("" for the root).
	Name string `json:"name"`
	// Path is relative to the root, slash-separated ("" for the root).
	Path string `json:"path"`
	Dir  bool   `json:"dir"`
	// Title, Size and Error describe a document.
	Title string `json:"title,omitempty"`
	Size  int64  `json:"size,omitempty"`
	Error string `json:"error,omitempty"`
	// ErrorInfo is Error with its code and params (see FailedDoc).
	ErrorInfo *apperr.Info `json:"errorInfo,omitempty"`
	// Count is the number of documents in a folder, at any depth (set by
	// Folder, whose sub-folders come without their Children).
	Count int `json:"count,omitempty"`
	// Children are folders first, then documents, each by name.
	Children []Node `json:"children,omitempty"`
}

// Doc is a document read for display.
type Doc struct {
	Path  string `json:"path"`
	Title string `json:"title"`
	// Content is the file's Markdown as it is on disk.
	Content string    `json:"content"`
	Size    int64     `json:"size"`
	ModTime time.Time `json:"modTime"`
}
