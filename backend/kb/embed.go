package kb

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"playchat/backend/kb/vector"
	"playchat/backend/store"
)

// Embedding batches: embedBatch sections per request, and at most
// embedInputRunes runes per input (a section is at most maxChunkRunes plus
// its title and heading).
const (
	embedBatch      = 64
	embedInputRunes = 2000
)

// embedState is the embedder's state, guarded by Service.mu.
type embedState struct {
	// running is true once Start has started the embedding loop.
	running bool
	busy    bool
	err     string
	backoff time.Duration
	wake    chan struct{}
}

// kickEmbed tells the embedding loop there may be work.
func (s *Service) kickEmbed() {
	select {
	case s.embed.wake <- struct{}{}:
	default:
	}
}

// embeddingModel is the configured model when embeddings are possible.
func (s *Service) embeddingModel() string {
	if s.o.Embedder == nil {
		return ""
	}
	return strings.TrimSpace(s.o.Settings().EmbeddingModel)
}

// embedLoop keeps section embeddings up to date while the service runs: it
// wakes when sections were written, and retries after errors with an
// exponential back-off (5 s doubling to 5 min).
// errEmbedCrashed is the embedding error shown after a pass panicked (the
// guard logged the panic with its stack).
var errEmbedCrashed = errors.New("kb: computing embeddings crashed (the stack is in the log)")

func (s *Service) embedLoop(ctx context.Context) {
	s.kickEmbed()
	for {
		s.mu.Lock()
		backoff := s.embed.backoff
		s.mu.Unlock()
		var timer <-chan time.Time
		if backoff > 0 {
			timer = time.After(backoff)
		}
		select {
		case <-ctx.Done():
			return
		case <-s.embed.wake:
		case <-timer:
		}
		if s.embeddingModel() == "" {
			continue
		}
		s.setEmbedBusy(true)
		var err error
		if s.o.Guard.Do("kb.embed", func() { _, err = s.EmbedPending(ctx) }) {
			err = errEmbedCrashed // backs off like any failure
		}
		s.mu.Lock()
		switch {
		case err == nil:
			s.embed.err, s.embed.backoff = "", 0
		case ctx.Err() != nil:
		default:
			s.embed.err = err.Error()
			s.embed.backoff = min(max(2*s.embed.backoff, 5*time.Second), 5*time.Minute)
			s.log.Warn("knowledge base embedding failed; lexical search still works", "err", err, "retry_in", s.embed.backoff)
		}
		s.embed.busy = false
		s.notifyLocked()
		s.mu.Unlock()
	}
}

func (s *Service) setEmbedBusy(b bool) {
	s.mu.Lock()
	s.embed.busy = b
	s.notifyLocked()
	s.mu.Unlock()
}

// pendingChunk is a section waiting for an embedding.
type pendingChunk struct {
	id, docID int64
	hash      string
	input     string
}

// EmbedPending embeds, in batches, every section that has no embedding from
// the configured model — new or changed sections, or all of them after the
// model changed — and returns how many it embedded. With no model or no
// embedder it does nothing. Start runs it in the background; one-shot callers
// (the CLI) may call it directly.
func (s *Service) EmbedPending(ctx context.Context) (int, error) {
	model := s.embeddingModel()
	if model == "" {
		return 0, nil
	}
	done := 0
	var cursor int64
	for {
		batch, err := s.pendingChunks(ctx, model, cursor)
		if err != nil || len(batch) == 0 {
			return done, err
		}
		cursor = batch[len(batch)-1].id
		inputs := make([]string, len(batch))
		for i, c := range batch {
			inputs[i] = c.input
		}
		vecs, err := s.o.Embedder.Embed(ctx, model, inputs)
		if err == nil && len(vecs) != len(inputs) {
			err = fmt.Errorf("embedding model returned %d vectors for %d inputs", len(vecs), len(inputs))
		}
		if err != nil {
			return done, fmt.Errorf("embed with %s: %w", model, err)
		}
		docs, err := s.storeEmbeddings(ctx, model, batch, vecs)
		if err != nil {
			return done, err
		}
		done += len(batch)
		s.vec.refresh(ctx, s.o.DB, docs)
		if s.embeddingModel() != model {
			return done, nil // changed mid-way: the next round starts over
		}
	}
}

func (s *Service) pendingChunks(ctx context.Context, model string, after int64) ([]pendingChunk, error) {
	rows, err := s.o.DB.Bun().QueryContext(ctx, `SELECT c.id, c.doc_id, c.text_hash, d.title, c.heading, c.text
		FROM local_knowledge_chunks c JOIN local_knowledge_docs d ON d.id = c.doc_id
		WHERE c.id > ? AND (c.embedding_model != ? OR c.embedding IS NULL) ORDER BY c.id LIMIT ?`, after, model, embedBatch)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []pendingChunk
	for rows.Next() {
		var c pendingChunk
		var title, heading, text string
		if err := rows.Scan(&c.id, &c.docID, &c.hash, &title, &heading, &text); err != nil {
			return nil, err
		}
		c.input = embedInput(title, heading, text)
		out = append(out, c)
	}
	return out, rows.Err()
}

// embedInput is the text embedded for a section: the document title, the
// heading path and the section, cut to embedInputRunes.
func embedInput(title, heading, text string) string {
	in := title
	if heading != "" && heading != title {
		in += "\n" + heading
	}
	in += "\n\n" + text
	if utf8.RuneCountInString(in) > embedInputRunes {
		in = string([]rune(in)[:embedInputRunes])
	}
	return in
}

// storeEmbeddings writes a batch's vectors (only to sections still holding
// the text that was embedded) and, for documents now fully embedded, the
// document-level mean vector. It returns the documents touched.
func (s *Service) storeEmbeddings(ctx context.Context, model string, batch []pendingChunk, vecs [][]float32) ([]int64, error) {
	var docs []int64
	seen := map[int64]bool{}
	err := s.o.DB.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		for i, c := range batch {
			if len(vecs[i]) == 0 {
				return errors.New("embedding model returned an empty vector")
			}
			if _, err := tx.ExecContext(ctx, `UPDATE local_knowledge_chunks SET embedding = ?, embedding_model = ?, embedding_dim = ?
				WHERE id = ? AND text_hash = ?`, store.EncodeEmbedding(vecs[i]), model, len(vecs[i]), c.id, c.hash); err != nil {
				return err
			}
			if !seen[c.docID] {
				seen[c.docID] = true
				docs = append(docs, c.docID)
			}
		}
		for _, id := range docs {
			if err := updateDocEmbedding(ctx, tx, id, model); err != nil {
				return err
			}
		}
		return nil
	})
	return docs, err
}

// updateDocEmbedding sets a document's mean vector once all its sections
// carry an embedding from model.
func updateDocEmbedding(ctx context.Context, tx bun.Tx, docID int64, model string) error {
	rows, err := tx.QueryContext(ctx, `SELECT embedding, embedding_model FROM local_knowledge_chunks WHERE doc_id = ? ORDER BY ord`, docID)
	if err != nil {
		return err
	}
	var vecs [][]float32
	complete := true
	for rows.Next() {
		var blob []byte
		var m string
		if err := rows.Scan(&blob, &m); err != nil {
			rows.Close()
			return err
		}
		v, err := store.DecodeEmbedding(blob)
		if m != model || err != nil || len(v) == 0 {
			complete = false
			continue
		}
		vecs = append(vecs, v)
	}
	rows.Close()
	if !complete || len(vecs) == 0 {
		return rows.Err()
	}
	mean := vector.Mean(vecs)
	_, err = tx.ExecContext(ctx, `UPDATE local_knowledge_docs SET embedding = ?, embedding_model = ?, embedding_dim = ? WHERE id = ?`,
		store.EncodeEmbedding(mean), model, len(mean), docID)
	return err
}

// queryVecCache remembers the last query embeddings, so the search box and
// the chat turn asking about the same text embed it once.
type queryVecCache struct {
	mu    sync.Mutex
	keys  []string
	items map[string][]float32
}

const queryVecCacheSize = 32

func (c *queryVecCache) get(key string) ([]float32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.items[key]
	return v, ok
}

func (c *queryVecCache) put(key string, v []float32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.items == nil {
		c.items = map[string][]float32{}
	}
	if _, ok := c.items[key]; ok {
		return
	}
	if len(c.keys) >= queryVecCacheSize {
		delete(c.items, c.keys[0])
		c.keys = c.keys[1:]
	}
	c.keys = append(c.keys, key)
	c.items[key] = v
}

// queryVector embeds a query with model, once per distinct text.
func (s *Service) queryVector(ctx context.Context, model, q string) ([]float32, error) {
	key := model + "\x00" + q
	if v, ok := s.qvc.get(key); ok {
		return v, nil
	}
	vecs, err := s.o.Embedder.Embed(ctx, model, []string{q})
	if err != nil {
		return nil, err
	}
	if len(vecs) != 1 || len(vecs[0]) == 0 {
		return nil, errors.New("embedding model returned no vector")
	}
	s.qvc.put(key, vecs[0])
	return vecs[0], nil
}
