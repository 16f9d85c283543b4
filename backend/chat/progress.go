package chat

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"time"

	"playchat/backend/event"
	"playchat/backend/store"
)

// Storing a reply while it streams (issue 21). A reply used to be written
// only when its stream ended, so killing the process (kill -9, a crash, a
// power cut) lost all of it. Now a turn's replyWriter inserts the reply
// with status streaming as soon as its first text (or the first round of
// tool calls) arrives and then updates it at most once per
// streamWriteInterval with what has arrived since — one small UPDATE,
// done by its own goroutine, so the relay of chunks to the window never
// waits on the database. When the turn ends the same row becomes complete,
// partial or error (saveReply), as before. A row left streaming by a
// process that died is marked interrupted by the next start
// (store.RecoverInterrupted).

// streamWriteInterval bounds how often a streaming reply is written.
const streamWriteInterval = time.Second

// replyWriter stores one turn's reply while it streams.
type replyWriter struct {
	db       *store.DB
	log      *slog.Logger
	interval time.Duration
	base     store.Message // session, parent, role and model of the reply

	mu       sync.Mutex
	text     strings.Builder
	activity []event.ToolActivity
	sources  []event.Source
	row      store.Message // the stored row once inserted (ID 0 before)

	dirty    chan struct{} // something new to write (capacity 1)
	stop     chan struct{}
	exited   chan struct{}
	stopOnce sync.Once
}

// newReplyWriter returns the writer of t's reply and starts its goroutine;
// halt stops it.
func (s *Service) newReplyWriter(t *Turn) *replyWriter {
	w := &replyWriter{db: s.db, log: s.log, interval: s.streamWriteEvery,
		base:  store.Message{SessionID: t.SessionID, ParentID: t.parentID(), Role: store.RoleAssistant, Model: t.Model},
		dirty: make(chan struct{}, 1), stop: make(chan struct{}), exited: make(chan struct{})}
	go w.loop()
	return w
}

// addText records a streamed delta. It never waits on the database.
func (w *replyWriter) addText(d string) {
	if w == nil || d == "" {
		return
	}
	w.mu.Lock()
	w.text.WriteString(d)
	w.mu.Unlock()
	w.poke()
}

// setTools records the tool activity and sources after a round of tool
// calls.
func (w *replyWriter) setTools(activity []event.ToolActivity, sources []event.Source) {
	if w == nil {
		return
	}
	w.mu.Lock()
	w.activity = append(w.activity[:0], activity...)
	w.sources = append(w.sources[:0], sources...)
	w.mu.Unlock()
	w.poke()
}

// currentText is the text streamed so far.
func (w *replyWriter) currentText() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.text.String()
}

func (w *replyWriter) poke() {
	select {
	case w.dirty <- struct{}{}:
	default: // a write is due already
	}
}

// loop writes the reply when something new arrived: at once the first
// time, then no sooner than interval after the previous write.
func (w *replyWriter) loop() {
	defer close(w.exited)
	var last time.Time
	for {
		select {
		case <-w.stop:
			return
		case <-w.dirty:
		}
		if wait := w.interval - time.Since(last); !last.IsZero() && wait > 0 {
			timer := time.NewTimer(wait)
			select {
			case <-w.stop:
				timer.Stop()
				return // saveReply writes the end
			case <-timer.C:
			}
		}
		w.write()
		last = time.Now()
	}
}

// write inserts the reply as streaming, or updates the row with what has
// arrived. A failure is logged: the next write (or the end) tries again.
func (w *replyWriter) write() {
	w.mu.Lock()
	m := w.base
	if w.row.ID != 0 {
		m = w.row
	}
	m.Content = w.text.String()
	m.SetTools(w.activity)
	m.SetSources(w.sources)
	w.mu.Unlock()

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if m.ID == 0 {
		m.Status = store.StatusStreaming
		if err := w.db.InsertMessage(ctx, &m); err != nil {
			w.log.Warn("store the streaming reply", "session", m.SessionID, "err", err)
			return
		}
		w.mu.Lock()
		w.row = m
		w.mu.Unlock()
		return
	}
	if err := w.db.UpdateStreaming(ctx, &m); err != nil {
		w.log.Warn("update the streaming reply", "session", m.SessionID, "message", m.ID, "err", err)
	}
}

// halt stops the writer and waits for a write in progress; it returns the
// stored row (ID 0 when the reply was never inserted). Later calls return
// the same; a nil writer returns the zero row.
func (w *replyWriter) halt() store.Message {
	if w == nil {
		return store.Message{}
	}
	w.stopOnce.Do(func() { close(w.stop) })
	<-w.exited
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.row
}

// saveReply stores the end of t's reply: the row its writer inserted while
// streaming becomes reply (FinishReply), or reply is inserted when nothing
// was stored yet. reply gets the row's ID and CreatedAt.
func (s *Service) saveReply(ctx context.Context, t *Turn, reply *store.Message) error {
	row := t.writer.halt()
	if row.ID == 0 {
		return s.db.InsertMessage(ctx, reply)
	}
	reply.ID, reply.CreatedAt, reply.ParentID = row.ID, row.CreatedAt, row.ParentID
	return s.db.FinishReply(ctx, reply)
}
