package kb

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"

	"playchat/backend/apperr"
)

// debounceDelay is how long a path must stay quiet before it is indexed. An
// editor's save is several events (vim: rename the old file away, create the
// new one, write, chmod; VS Code or an atomic writer: write a temp file and
// rename it over the original); waiting for quiet turns them into one
// re-index. 150 ms is well below the 500 ms save → retrievable target.
const debounceDelay = 150 * time.Millisecond

// watcher watches every folder below the root with fsnotify (inotify on
// Linux watches one folder per watch, so each folder is added, and folders
// that appear later are walked and added as their Create event arrives).
type watcher struct {
	s    *Service
	fw   *fsnotify.Watcher
	root string

	mu    sync.Mutex
	dirs  map[string]bool      // watched folders, absolute
	due   map[string]time.Time // slash path → when it may be indexed
	armed bool
	timer *time.Timer
	// unwatched counts the folders the last full walk could not watch
	// (the inotify limit); > 0 runs the poll loop.
	unwatched int
	polling   bool

	done   chan struct{}
	exited chan struct{}
	once   sync.Once
}

// startWatcher watches the current root; errors are also kept for Status.
func (s *Service) startWatcher() error {
	root, _ := s.currentRoot()
	if root == "" {
		return errors.New("kb: no root to watch")
	}
	fw, err := fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		s.setWatchErr(err)
		return err
	}
	w := &watcher{s: s, fw: fw, root: root, dirs: map[string]bool{}, due: map[string]time.Time{},
		done: make(chan struct{}), exited: make(chan struct{})}
	w.timer = time.NewTimer(time.Hour)
	w.timer.Stop()
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		fw.Close()
		return ErrClosed
	}
	s.watch = w
	s.mu.Unlock()
	go w.loop()
	if err := w.addTree(root, false); err != nil {
		if w.limited() {
			// Not a failure of the watcher: it watches what the system
			// allows, and the rest is polled (issue 22).
			return nil
		}
		s.setWatchErr(err)
		return err
	}
	return nil
}

// limited reports whether the last full walk left folders unwatched for
// lack of watches; it starts the poll loop for them and sets the status.
func (w *watcher) limited() bool {
	w.mu.Lock()
	n := w.unwatched
	start := n > 0 && !w.polling
	if start {
		w.polling = true
	}
	w.mu.Unlock()
	if n == 0 {
		return false
	}
	w.s.setWatchErr(watchLimitErr(n, w.s.watchPoll()))
	if start {
		w.s.log.Warn("knowledge base: not every folder can be watched live (fs.inotify.max_user_watches); polling them",
			"unwatched", n, "every", w.s.watchPoll())
		w.s.wg.Add(1)
		go w.poll()
	}
	return true
}

// poll runs while folders are unwatched: every WatchPoll it offers them to
// the watcher again and reconciles the whole folder (so a file saved in an
// unwatched folder is found within one interval). Once every folder is
// watched the status clears and polling stops.
func (w *watcher) poll() {
	defer w.s.wg.Done()
	t := time.NewTicker(w.s.watchPoll())
	defer t.Stop()
	for {
		select {
		case <-w.done:
			return
		case <-w.s.ctx.Done():
			return
		case <-t.C:
		}
		w.s.o.Guard.Do("kb.poll", func() {
			err := w.addTree(w.root, false)
			w.mu.Lock()
			n := w.unwatched
			if n == 0 {
				w.polling = false
			}
			w.mu.Unlock()
			switch {
			case n > 0:
				w.s.setWatchErr(watchLimitErr(n, w.s.watchPoll()))
			case err != nil:
				w.s.setWatchErr(err)
			default:
				w.s.setWatchErr(nil)
				w.s.log.Info("knowledge base: every folder is watched live again")
			}
			if _, err := w.s.Reconcile(w.s.ctx); err != nil && w.s.ctx.Err() == nil {
				w.s.log.Warn("knowledge base poll failed", "err", err)
			}
		})
		w.mu.Lock()
		stop := !w.polling
		w.mu.Unlock()
		if stop {
			return
		}
	}
}

func (s *Service) setWatchErr(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil {
		s.watchErr, s.watchInfo = "", nil
		return
	}
	s.watchErr, s.watchInfo = err.Error(), nil
	if c := apperr.CodeOf(err); c != "" {
		in := apperr.InfoOf(err)
		s.watchInfo = &in
	}
}

// watchLimitErr is the status of a watcher short of inotify watches: n
// folders are checked every poll instead.
func watchLimitErr(n int, poll time.Duration) error {
	return apperr.New(apperr.KBWatchLimit, map[string]any{"folders": n, "seconds": int(poll / time.Second)})
}

// isWatchLimit reports an Add that failed for lack of inotify watches
// (ENOSPC: fs.inotify.max_user_watches reached) or instances (EMFILE).
func isWatchLimit(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE)
}

func (s *Service) watchPoll() time.Duration {
	if s.o.WatchPoll > 0 {
		return s.o.WatchPoll
	}
	return DefaultWatchPoll
}

func (w *watcher) close() {
	w.once.Do(func() {
		close(w.done)
		w.fw.Close()
		<-w.exited
	})
}

func (w *watcher) pendingCount() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.due)
}

// addTree watches dir and every visible folder below it. With schedule, the
// documents found are queued too (a folder created, or moved in, after
// start-up: its files may predate the watch).
func (w *watcher) addTree(dir string, schedule bool) error {
	var first error
	unwatched := 0
	full := dir == w.root
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, inside := relPath(w.root, p)
		if p != w.root && (!inside || ignoredName(d.Name())) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			// Watch before listing, so a file created meanwhile is seen
			// by one or the other.
			w.mu.Lock()
			have := w.dirs[p]
			w.mu.Unlock()
			if have {
				return nil
			}
			if err := w.add(p); err != nil {
				if first == nil {
					first = err
				}
				if isWatchLimit(err) {
					// Out of watches: the folders below cannot be watched
					// either; count them and go on (the poll covers them).
					unwatched += countDirs(p, w.root)
				}
				return fs.SkipDir
			}
			w.mu.Lock()
			w.dirs[p] = true
			w.mu.Unlock()
			return nil
		}
		if schedule && isDocPath(rel) {
			w.schedule(rel)
		}
		return nil
	})
	if full {
		w.mu.Lock()
		w.unwatched = unwatched
		w.mu.Unlock()
	} else if unwatched > 0 {
		// A new folder that could not be watched: the poll loop covers it.
		w.mu.Lock()
		w.unwatched += unwatched
		w.mu.Unlock()
		w.limited()
	}
	if first != nil {
		return first
	}
	return err
}

// add watches dir (fsnotify's Add, or Options.addWatch in tests).
func (w *watcher) add(dir string) error {
	if f := w.s.o.addWatch; f != nil {
		return f(w.fw, dir)
	}
	return w.fw.Add(dir)
}

// countDirs counts dir and the visible folders below it (root is the
// knowledge base's).
func countDirs(dir, root string) int {
	n := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if _, inside := relPath(root, p); p != dir && (!inside || ignoredName(d.Name())) {
			return fs.SkipDir
		}
		n++
		return nil
	})
	return n
}

// forgetTree drops the watches of dir and the folders below it (after a
// delete or a move away; a moved folder comes back as a Create).
func (w *watcher) forgetTree(dir string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	found := false
	for d := range w.dirs {
		if d == dir || strings.HasPrefix(d, dir+string(os.PathSeparator)) {
			delete(w.dirs, d)
			_ = w.fw.Remove(d)
			found = true
		}
	}
	return found
}

// schedule (re)starts rel's debounce delay.
func (w *watcher) schedule(rel string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.due[rel] = time.Now().Add(debounceDelay)
	if !w.armed {
		w.armed = true
		w.timer.Reset(debounceDelay)
	}
}

// flush queues the paths whose delay has passed and re-arms the timer.
func (w *watcher) flush() {
	now := time.Now()
	var jobs []job
	w.mu.Lock()
	next := time.Duration(0)
	for rel, at := range w.due {
		if !at.After(now) {
			jobs = append(jobs, job{rel: rel})
			delete(w.due, rel)
		} else if d := at.Sub(now); next == 0 || d < next {
			next = d
		}
	}
	w.armed = next > 0
	if w.armed {
		w.timer.Reset(next)
	}
	w.mu.Unlock()
	w.s.enqueue(jobs...)
}

func (w *watcher) loop() {
	defer close(w.exited)
	for {
		select {
		case <-w.done:
			return
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			w.s.o.Guard.Do("kb.watch", func() { w.handle(ev) })
		case err, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			w.s.o.Guard.Do("kb.watch", func() { w.onError(err) })
		case <-w.timer.C:
			w.s.o.Guard.Do("kb.watch", w.flush)
		}
	}
}

// onError handles a watcher error or an event queue overflow: events may
// have been lost, so the folder is rescanned in the background.
func (w *watcher) onError(err error) {
	w.s.log.Warn("knowledge base watcher error; rescanning the folder", "err", err)
	w.s.setWatchErr(err)
	w.s.wg.Add(1)
	go func() {
		defer w.s.wg.Done()
		w.s.o.Guard.Do("kb.rescan", func() { w.s.rescan(w) })
	}()
}

func (w *watcher) handle(ev fsnotify.Event) {
	rel, ok := relPath(w.root, ev.Name)
	if !ok || !visiblePath(rel) {
		return
	}
	switch {
	case ev.Has(fsnotify.Create):
		if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
			_ = w.addTree(ev.Name, true)
			return
		}
		if isDocPath(rel) {
			w.schedule(rel)
		}
	case ev.Has(fsnotify.Write):
		if isDocPath(rel) {
			w.schedule(rel)
		}
	case ev.Has(fsnotify.Remove), ev.Has(fsnotify.Rename):
		// A folder's entries go with it: the job removes everything below.
		if w.forgetTree(ev.Name) || isDocPath(rel) {
			w.schedule(rel)
		}
	}
}

// rescan re-adds watches and reconciles after the watcher lost events
// (queue overflow) or failed. Concurrent requests collapse into one.
func (s *Service) rescan(w *watcher) {
	if !s.rescanning.CompareAndSwap(false, true) {
		return
	}
	defer s.rescanning.Store(false)
	if err := w.addTree(w.root, false); err != nil && !w.limited() {
		s.setWatchErr(err)
	}
	if _, err := s.Reconcile(s.ctx); err != nil && s.ctx.Err() == nil {
		s.log.Warn("knowledge base rescan failed", "err", err)
	}
}
