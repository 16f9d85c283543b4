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
		s.setWatchErr(err)
		return err
	}
	return nil
}

func (s *Service) setWatchErr(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watchErr = err.Error()
	if errors.Is(err, syscall.ENOSPC) {
		s.watchErr = "too many folders to watch: raise fs.inotify.max_user_watches (" + err.Error() + ")"
	}
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
			if err := w.fw.Add(p); err != nil {
				if first == nil {
					first = err
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
	if first != nil {
		return first
	}
	return err
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
	if err := w.addTree(w.root, false); err != nil {
		s.setWatchErr(err)
	}
	if _, err := s.Reconcile(s.ctx); err != nil && s.ctx.Err() == nil {
		s.log.Warn("knowledge base rescan failed", "err", err)
	}
}
