package core

import (
	"context"
	"sync"

	"playchat/backend/llm"
	"playchat/backend/redact"
	"playchat/backend/store"
)

// apiLogQueueMax is how many call records may wait for the writer; a call
// that finds the queue full waits for room (none is dropped).
const apiLogQueueMax = 256

// apiLogWriter stores llm call records in api_logs, with every configured
// secret and every credential in a URL redacted, on a goroutine of its own
// and in the order they come. A turn then ends without waiting for its
// record: redacting a request of tens of kilobytes and writing it was ~1.3
// ms of the turn's own 5 ms (issue 29). FlushAPILogs waits for what is
// queued (the API logs panel reads after it); Close drains the queue before
// the database closes, so a CLI call's record is kept too.
type apiLogWriter struct {
	c *Core

	mu     sync.Mutex
	cond   *sync.Cond
	queue  []llm.APILog
	queued uint64 // records ever queued
	stored uint64 // records taken off the queue and written (or failed)
	closed bool
	done   chan struct{}
}

func newAPILogWriter(c *Core) *apiLogWriter {
	w := &apiLogWriter{c: c, done: make(chan struct{})}
	w.cond = sync.NewCond(&w.mu)
	go w.run()
	return w
}

// RecordAPILog queues l and returns at once; after Close it writes l
// itself. Storage errors are logged by the writer.
func (w *apiLogWriter) RecordAPILog(ctx context.Context, l llm.APILog) error {
	w.mu.Lock()
	for !w.closed && len(w.queue) >= apiLogQueueMax {
		w.cond.Wait()
	}
	if w.closed {
		w.mu.Unlock()
		return w.store(ctx, l)
	}
	w.queue = append(w.queue, l)
	w.queued++
	w.cond.Broadcast()
	w.mu.Unlock()
	return nil
}

func (w *apiLogWriter) run() {
	defer close(w.done)
	w.mu.Lock()
	for {
		for len(w.queue) == 0 && !w.closed {
			w.cond.Wait()
		}
		if len(w.queue) == 0 {
			w.mu.Unlock()
			return
		}
		l := w.queue[0]
		w.queue[0] = llm.APILog{}
		w.queue = w.queue[1:]
		w.mu.Unlock()
		var err error
		w.c.Guard.Do("api log", func() { err = w.store(context.Background(), l) })
		if err != nil {
			w.c.Log.Warn("llm: recording api log failed", "model", l.Model, "err", err)
		}
		w.mu.Lock()
		w.stored++
		w.cond.Broadcast()
	}
}

// store redacts l and writes it.
func (w *apiLogWriter) store(ctx context.Context, l llm.APILog) error {
	cfg := w.c.Config()
	clean := func(v string) string { return redact.URLCredentials(cfg.Redact(v)) }
	return w.c.DB.InsertAPILog(context.WithoutCancel(ctx), &store.APILog{
		SessionID: l.SessionID, Model: l.Model, Purpose: l.Purpose, RequestJSON: clean(l.RequestJSON),
		ResponseText: clean(l.ResponseText), Error: clean(l.Error), LatencyMS: l.LatencyMS, CreatedAt: l.CreatedAt.UTC(),
		PromptTokens: l.PromptTokens, CompletionTokens: l.CompletionTokens,
	})
}

// flush waits until every record queued before the call is stored.
func (w *apiLogWriter) flush() {
	w.mu.Lock()
	target := w.queued
	for w.stored < target {
		w.cond.Wait()
	}
	w.mu.Unlock()
}

// close stores what is queued and stops the writer; later records are
// written by their caller.
func (w *apiLogWriter) close() {
	w.mu.Lock()
	w.closed = true
	w.cond.Broadcast()
	w.mu.Unlock()
	<-w.done
}

// FlushAPILogs waits until every llm call record made so far is in
// api_logs: what reads or clears the table calls it first.
func (c *Core) FlushAPILogs() {
	if c.apiLogs != nil {
		c.apiLogs.flush()
	}
}
