package kb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"playchat/backend/apperr"
	"playchat/backend/jatext"
)

// Service is the knowledge base. It is safe for concurrent use.
type Service struct {
	o     Options
	log   *slog.Logger
	lexes []lexicon // lexical indexes written and searched
	vec   vectorIndex
	qvc   queryVecCache

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	passMu     sync.Mutex // serialises passes (Reconcile, Reindex, rescans)
	rescanning atomic.Bool
	chunkCount atomic.Int64 // sections in the index; -1 when unknown
	ranks      rankCache    // the latest BM25 rankings, until the index changes

	mu         sync.Mutex
	dir        string   // Settings.Dir as configured
	root       string   // dir, absolute with symlinks resolved ("" before the first pass)
	osRoot     *os.Root // opened on root
	queue      jobQueue
	changed    chan struct{} // closed and replaced whenever the state changes
	pipeline   bool          // workers and writer started
	pass       passState
	passCounts passCounts
	lastAt     time.Time
	started    bool
	booting    bool // Start's watcher and first pass are not done yet
	closed     bool
	watch      *watcher
	watchErr   string
	watchInfo  *apperr.Info
	embed      embedState
	results    chan result
	wake       chan struct{}

	// indexCount counts content writes per path (tests check that an atomic
	// save re-indexes a file exactly once).
	indexCount map[string]int
}

type passState struct {
	id          int
	running     bool
	done, total int
}

// New builds the service. It does no I/O: the folder is created, seeded and
// indexed by the first Reconcile or Start.
func New(o Options) (*Service, error) {
	if o.DB == nil || o.Settings == nil {
		return nil, errors.New("kb: DB and Settings are required")
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Service{o: o, log: o.Logger.With("component", "kb"), lexes: []lexicon{kagomeLexicon},
		changed: make(chan struct{}), wake: make(chan struct{}, 1),
		results: make(chan result, 256), indexCount: map[string]int{}}
	s.queue.init()
	s.chunkCount.Store(-1)
	s.embed.wake = make(chan struct{}, 1)
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.dir = o.Settings().Dir
	return s, nil
}

// Start watches the folder and reconciles the index in the background, and
// keeps embeddings up to date, until Close (ctx is not kept: the service runs
// until Close). It returns at once; an error means the service is closed or
// the folder cannot be created. WaitIdle waits for the start-up pass.
func (s *Service) Start(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrClosed
	}
	if s.started {
		s.mu.Unlock()
		return nil
	}
	s.started, s.booting = true, true
	s.mu.Unlock()
	if _, err := s.prepareRoot(); err != nil {
		s.setBooting(false)
		return err
	}
	s.wg.Add(2)
	go func() {
		defer s.wg.Done()
		defer s.setBooting(false)
		s.o.Guard.Do("kb.start", func() {
			// Watch first, so nothing saved during the pass is missed; the
			// pass and the watcher's events go through the same queue.
			if err := s.startWatcher(); err != nil {
				s.log.Warn("knowledge base watcher did not start", "err", err)
			}
			if _, err := s.Reconcile(s.ctx); err != nil && s.ctx.Err() == nil {
				s.log.Warn("knowledge base reconcile failed", "err", err)
			}
			// Load the Japanese dictionary now, off the turn's path, rather
			// than in the first turn (when the pass found nothing to index).
			if s.ctx.Err() == nil && s.o.Settings().TopK > 0 {
				if err := jatext.Load(); err != nil {
					s.log.Warn("Japanese tokenizer unavailable", "err", err)
				}
			}
		})
	}()
	s.mu.Lock()
	s.embed.running = true
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		s.embedLoop(s.ctx)
	}()
	return nil
}

// Close stops the watcher and the workers and waits for them. Work still
// queued is dropped; the next start-up pass picks it up.
func (s *Service) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	w := s.watch
	s.mu.Unlock()
	s.cancel()
	if w != nil {
		w.close()
	}
	s.wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.osRoot != nil {
		s.osRoot.Close()
		s.osRoot = nil
	}
	return nil
}

// WaitIdle blocks until no indexing work is pending — no queued or running
// file, no event waiting out its debounce delay, no pass, and no embedding
// work that can proceed (an embedder in back-off after an error counts as
// idle) — or ctx ends.
func (s *Service) WaitIdle(ctx context.Context) error {
	for {
		s.mu.Lock()
		idle := s.idleLocked()
		ch := s.changed
		s.mu.Unlock()
		if idle {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond): // debounce timers do not signal
		}
	}
}

// BootWait bounds how long a turn waits for the start-up pass: a turn sent
// right after the window opens sees a reconciled index, while a first
// indexing of a huge folder never holds a turn for long (it then uses what
// is indexed so far).
const BootWait = 3 * time.Second

// waitBoot blocks until Start's watcher and first pass are done, at most d.
func (s *Service) waitBoot(ctx context.Context, d time.Duration) {
	deadline := time.After(d)
	for {
		s.mu.Lock()
		booting, ch := s.booting && !s.closed, s.changed
		s.mu.Unlock()
		if !booting {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			return
		case <-ctx.Done():
			return
		}
	}
}

func (s *Service) idleLocked() bool {
	if s.closed {
		return true
	}
	if s.queue.size() > 0 || s.pass.running || s.booting {
		return false
	}
	if s.watch != nil && s.watch.pendingCount() > 0 {
		return false
	}
	// A wake-up the embedding loop has not taken yet is work to come (sections
	// were written while it was busy with an earlier pass).
	if s.embed.running && len(s.embed.wake) > 0 && s.embeddingModel() != "" {
		return false
	}
	return !s.embed.busy
}

func (s *Service) setBooting(b bool) {
	s.mu.Lock()
	s.booting = b
	s.notifyLocked()
	s.mu.Unlock()
}

// notifyLocked wakes WaitIdle callers; s.mu must be held.
func (s *Service) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// Root returns the resolved folder ("" before the first pass).
func (s *Service) Root() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.root
}

// prepareRoot creates the folder (seeding it) when missing, resolves it and
// opens it as an os.Root. It reports whether the folder was seeded.
func (s *Service) prepareRoot() (seeded bool, err error) {
	s.mu.Lock()
	dir, root := s.dir, s.root
	s.mu.Unlock()
	if dir == "" {
		return false, errors.New("kb: no knowledge base folder is configured")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false, err
	}
	if _, err := os.Stat(abs); errors.Is(err, fs.ErrNotExist) {
		if seeded, err = s.createSeeded(abs); err != nil {
			return false, err
		}
	} else if err != nil {
		return false, fmt.Errorf("knowledge base folder: %w", err)
	}
	resolved, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return seeded, fmt.Errorf("knowledge base folder: %w", err)
	}
	if resolved == root {
		return seeded, nil
	}
	r, err := os.OpenRoot(resolved)
	if err != nil {
		return seeded, fmt.Errorf("knowledge base folder: %w", err)
	}
	s.mu.Lock()
	if s.osRoot != nil {
		s.osRoot.Close()
	}
	s.root, s.osRoot = resolved, r
	s.mu.Unlock()
	return seeded, nil
}

// createSeeded creates the missing folder abs with the seed's documents
// (the user guide). The folder appears whole or not at all: it is filled
// under a temporary name beside it and renamed into place, so processes
// that start at once on a new data dir (the window and `playchat ask`)
// never see it half-seeded; when another one's rename wins, its folder is
// kept and this one's copy removed. It reports whether this call seeded
// the folder. A seed that cannot be copied leaves an empty folder (logged).
func (s *Service) createSeeded(abs string) (bool, error) {
	parent := filepath.Dir(abs)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return false, fmt.Errorf("create the knowledge base folder: %w", err)
	}
	if s.o.Seed != nil {
		tmp, err := os.MkdirTemp(parent, "."+filepath.Base(abs)+".seed-")
		if err != nil {
			return false, fmt.Errorf("create the knowledge base folder: %w", err)
		}
		err = seedFolder(tmp, s.o.Seed)
		if err == nil {
			err = os.Chmod(tmp, 0o755)
		}
		if err == nil {
			err = os.Rename(tmp, abs)
			if err == nil {
				return true, nil
			}
			if _, serr := os.Stat(abs); serr == nil {
				os.RemoveAll(tmp) // another process seeded it first
				return false, nil
			}
		}
		os.RemoveAll(tmp)
		s.log.Warn("seeding the knowledge base failed", "err", err)
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return false, fmt.Errorf("create the knowledge base folder: %w", err)
	}
	return false, nil
}

func (s *Service) currentRoot() (string, *os.Root) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.root, s.osRoot
}

// enqueue queues jobs and starts the pipeline on first use.
func (s *Service) enqueue(jobs ...job) {
	if len(jobs) == 0 {
		return
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	for _, j := range jobs {
		s.queue.add(j)
	}
	if !s.pipeline {
		s.pipeline = true
		s.startPipelineLocked()
	}
	s.notifyLocked()
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// errPrepareCrashed is the error recorded for a file whose preparation
// panicked (the guard logged the panic with its stack).
var errPrepareCrashed = errors.New("kb: reading this file crashed (the stack is in the log)")

// startPipelineLocked starts one preparing worker per CPU (reading, parsing
// and segmenting are CPU-bound) and one writer (SQLite has one writer).
func (s *Service) startPipelineLocked() {
	n := max(runtime.GOMAXPROCS(0), 1)
	s.wg.Add(n + 1)
	for range n {
		go func() {
			defer s.wg.Done()
			s.prepareLoop(s.ctx)
		}()
	}
	go func() {
		defer s.wg.Done()
		s.writeLoop(s.ctx)
	}()
}

func (s *Service) prepareLoop(ctx context.Context) {
	for {
		s.mu.Lock()
		j, ok := s.queue.take()
		more := s.queue.ready()
		s.mu.Unlock()
		if !ok {
			select {
			case <-s.wake:
				continue
			case <-ctx.Done():
				return
			}
		}
		if more {
			select {
			case s.wake <- struct{}{}:
			default:
			}
		}
		var r result
		if s.o.Guard.Do("kb.index", func() { r = s.prepare(j) }) {
			// Recorded as a failed file; the worker goes on with the next.
			r = failed(result{job: j}, errPrepareCrashed)
		}
		select {
		case s.results <- r:
		case <-ctx.Done():
			return
		}
	}
}

// finish records a written batch: the jobs leave the queue, the pass
// progresses, WaitIdle callers wake.
func (s *Service) finish(rs []result, changed bool) {
	s.mu.Lock()
	for _, r := range rs {
		s.queue.done(r.job.rel)
		if r.job.pass == s.pass.id && s.pass.running {
			s.pass.done++
			switch r.kind {
			case resIndex:
				s.passCounts.indexed++
			case resTouch:
				s.passCounts.touched++
			case resDelete:
				s.passCounts.removed++
			case resFail:
				s.passCounts.failed++
			}
		}
		if r.kind == resIndex {
			s.indexCount[r.job.rel]++
		}
	}
	if changed {
		s.lastAt = time.Now().UTC()
		s.chunkCount.Store(-1)
	}
	s.notifyLocked()
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}: // deferred jobs may be ready now
	default:
	}
}
