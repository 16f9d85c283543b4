package kb

// job asks for one path to be brought in line with the folder: indexed,
// updated, or removed (with everything below it when it was a folder).
type job struct {
	rel   string // slash path relative to the root
	force bool   // re-read and rewrite even when size, mtime and hash match
	pass  int    // the pass that queued it (0 for watcher events)
	// absent is true when the pass that queued it found no index entry for
	// the path: preparing it then skips looking the entry up again.
	absent bool
}

// jobQueue is a FIFO of jobs keyed by path. A path is never prepared by two
// workers at once: a job for a path in flight waits (deferred) until the
// first is written, so the last event always wins. Not safe for concurrent
// use: the Service's mutex guards it.
type jobQueue struct {
	pending  map[string]job
	order    []string
	inflight map[string]bool
	deferred map[string]job
}

func (q *jobQueue) init() {
	q.pending = map[string]job{}
	q.inflight = map[string]bool{}
	q.deferred = map[string]job{}
}

func merge(old, j job) job {
	j.force = j.force || old.force
	j.absent = j.absent && old.absent
	if j.pass == 0 {
		j.pass = old.pass
	}
	return j
}

func (q *jobQueue) add(j job) {
	if q.inflight[j.rel] {
		if old, ok := q.deferred[j.rel]; ok {
			j = merge(old, j)
		}
		q.deferred[j.rel] = j
		return
	}
	if old, ok := q.pending[j.rel]; ok {
		q.pending[j.rel] = merge(old, j)
		return
	}
	q.pending[j.rel] = j
	q.order = append(q.order, j.rel)
}

// take pops the oldest pending job and marks it in flight.
func (q *jobQueue) take() (job, bool) {
	for len(q.order) > 0 {
		rel := q.order[0]
		q.order[0] = ""
		q.order = q.order[1:]
		j, ok := q.pending[rel]
		if !ok {
			continue
		}
		delete(q.pending, rel)
		q.inflight[rel] = true
		if len(q.order) == 0 {
			q.order = nil // let the backing array go
		}
		return j, true
	}
	return job{}, false
}

func (q *jobQueue) ready() bool { return len(q.pending) > 0 }

// done marks rel written and releases a job deferred behind it.
func (q *jobQueue) done(rel string) {
	delete(q.inflight, rel)
	if j, ok := q.deferred[rel]; ok {
		delete(q.deferred, rel)
		q.add(j)
	}
}

// size counts jobs queued, in flight and deferred.
func (q *jobQueue) size() int { return len(q.pending) + len(q.inflight) + len(q.deferred) }

// has reports whether a job for rel is queued, in flight or deferred.
func (q *jobQueue) has(rel string) bool {
	_, p := q.pending[rel]
	_, d := q.deferred[rel]
	return p || d || q.inflight[rel]
}
