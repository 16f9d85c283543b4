package kb

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"playchat/backend/kb/vector"
	"playchat/backend/store"
)

// writeBatch is how many prepared files go into one transaction at most.
// Writes are committed as soon as the writer has nothing else waiting and
// no other file is being prepared, so a single saved file is searchable at
// once; while more files are on their way (a pass) the writer waits for
// them up to batchWindow, so a bulk pass amortises the commit — and FTS5's
// segment — over many files instead of committing each file as it comes
// (the writer is faster than the workers that prepare).
const writeBatch = 512

// batchWindow bounds how long a batch waits for files still being
// prepared: during a first index, what is written becomes searchable at
// least this often.
const batchWindow = 500 * time.Millisecond

func (s *Service) writeLoop(ctx context.Context) {
	for {
		var batch []result
		select {
		case r := <-s.results:
			batch = append(batch, r)
		case <-ctx.Done():
			return
		}
		var window <-chan time.Time
	drain:
		for len(batch) < writeBatch {
			select {
			case r := <-s.results:
				batch = append(batch, r)
				continue
			default:
			}
			if !s.moreComing(len(batch)) {
				break drain
			}
			if window == nil {
				window = time.After(batchWindow)
			}
			select {
			case r := <-s.results:
				batch = append(batch, r)
			case <-window:
				break drain
			case <-ctx.Done():
				return
			}
		}
		changed := false
		// A panic while writing loses this batch (the next pass over the
		// folder writes it again), not the writer.
		s.o.Guard.Do("kb.write", func() {
			touched, c, err := s.write(ctx, batch)
			changed = c
			if err != nil && ctx.Err() == nil {
				// One bad file must not lose the batch: write them one by one.
				s.log.Warn("knowledge base batch write failed; retrying file by file", "err", err)
				touched, changed = nil, false
				for _, r := range batch {
					t, c, err := s.write(ctx, []result{r})
					if err != nil {
						s.log.Warn("knowledge base write failed", "path", r.job.rel, "err", err)
					}
					touched = append(touched, t...)
					changed = changed || c
				}
			}
			if len(touched) > 0 {
				s.vec.refresh(ctx, s.o.DB, touched)
				s.kickEmbed()
			}
		})
		s.finish(batch, changed)
	}
}

// moreComing reports whether files beyond the n of the writer's batch are
// queued or being prepared (not counting jobs deferred behind one in the
// batch: they wait for its commit).
func (s *Service) moreComing(n int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue.pending)+len(s.queue.inflight) > n
}

// stmts are the writer's prepared statements for one transaction, and the
// FTS5 writes it holds back until the end of the transaction (flushFTS).
type stmts struct {
	tx *sql.Tx
	m  map[string]*sql.Stmt
	// fts are the FTS5 deletes and inserts of the transaction, in order.
	// FTS5 keeps a transaction's postings in memory and writes them out as
	// one segment at commit — but also at every later statement that opens
	// a statement journal (the document upsert does), which made one
	// segment, and its merging, per document. Applied last, they make one
	// segment per transaction. Chunk ids are never reused (AUTOINCREMENT),
	// so no insert of a batch meets a delete of the same rowid.
	fts []ftsOp
}

// ftsOp is one held-back FTS5 write: the row of chunk id in table, deleted
// (del) or inserted with row.
type ftsOp struct {
	table string
	id    int64
	del   bool
	row   ftsRow
}

// flushFTS applies the held-back FTS5 writes, consecutive inserts into
// one table chunkRowsPerInsert to a statement.
func (st *stmts) flushFTS(ctx context.Context) error {
	ops := st.fts
	st.fts = nil
	for len(ops) > 0 {
		op := ops[0]
		if op.del {
			if _, err := st.exec(ctx, `DELETE FROM `+op.table+` WHERE rowid = ?`, op.id); err != nil {
				return err
			}
			ops = ops[1:]
			continue
		}
		n := 1
		for n < len(ops) && n < chunkRowsPerInsert && !ops[n].del && ops[n].table == op.table {
			n++
		}
		args := make([]any, 0, 4*n)
		for _, o := range ops[:n] {
			args = append(args, o.id, o.row.title, o.row.heading, o.row.body)
		}
		if _, err := st.tx.ExecContext(ctx, `INSERT INTO `+op.table+`(rowid, title, heading, body) VALUES `+
			rowPlaceholders(n, 4), args...); err != nil {
			return err
		}
		ops = ops[n:]
	}
	return nil
}

func (st *stmts) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	p, err := st.prep(ctx, q)
	if err != nil {
		return nil, err
	}
	return p.ExecContext(ctx, args...)
}

func (st *stmts) prep(ctx context.Context, q string) (*sql.Stmt, error) {
	if p, ok := st.m[q]; ok {
		return p, nil
	}
	p, err := st.tx.PrepareContext(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("prepare %q: %w", q, err)
	}
	st.m[q] = p
	return p, nil
}

func (st *stmts) close() {
	for _, p := range st.m {
		p.Close()
	}
}

// write applies prepared results in one transaction. It returns the ids of
// documents whose sections changed and whether the index changed at all.
func (s *Service) write(ctx context.Context, batch []result) (touched []int64, changed bool, err error) {
	now := time.Now().UTC()
	err = s.o.DB.Tx(ctx, func(ctx context.Context, tx bun.Tx) error {
		touched, changed = nil, false
		st := &stmts{tx: tx.Tx, m: map[string]*sql.Stmt{}}
		defer st.close()
		fresh, err := s.freshDocs(ctx, st, batch)
		if err != nil {
			return err
		}
		isFresh := make(map[int]bool, len(fresh))
		for _, i := range fresh {
			isFresh[i] = true
		}
		for i, r := range batch {
			if isFresh[i] {
				continue // insertFresh below
			}
			switch r.kind {
			case resSkip:
			case resTouch:
				if _, err := st.exec(ctx, `UPDATE local_knowledge_docs SET size = ?, mtime = ?, indexed_at = ? WHERE path = ?`,
					r.size, r.mtime, now, r.job.rel); err != nil {
					return err
				}
				changed = true
			case resDelete:
				ids, err := s.deletePath(ctx, tx, st, r.job.rel)
				if err != nil {
					return err
				}
				touched = append(touched, ids...)
				changed = changed || len(ids) > 0
			case resIndex, resFail:
				id, err := s.writeDoc(ctx, st, r, now)
				if err != nil {
					return err
				}
				touched = append(touched, id)
				changed = true
			}
		}
		if len(fresh) > 0 {
			ids, err := s.insertFresh(ctx, st, batch, fresh, now)
			if err != nil {
				return err
			}
			touched = append(touched, ids...)
			changed = true
		}
		return st.flushFTS(ctx)
	})
	// After the commit (or the rollback): a ranking begun before it is
	// stale from here on.
	s.ranks.invalidate()
	return touched, changed, err
}

// deletePath removes the entry of rel and, if rel was a folder, every entry
// below it.
func (s *Service) deletePath(ctx context.Context, tx bun.Tx, st *stmts, rel string) ([]int64, error) {
	var ids []int64
	// "/" + 1 == "0": the range holds exactly the paths below rel/.
	rows, err := tx.QueryContext(ctx, `SELECT id FROM local_knowledge_docs WHERE path = ? OR (path >= ? AND path < ?)`,
		rel, rel+"/", rel+"0")
	if err != nil {
		return nil, err
	}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, err
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, id := range ids {
		if _, err := s.deleteChunks(ctx, st, id); err != nil {
			return nil, err
		}
		if _, err := st.exec(ctx, `DELETE FROM local_knowledge_docs WHERE id = ?`, id); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

// carried is an embedding kept from a section whose text did not change.
type carried struct {
	blob  []byte
	model string
	dim   int
}

// deleteChunks removes a document's sections from the chunk table and every
// FTS table, returning their embeddings by text hash for reuse.
func (s *Service) deleteChunks(ctx context.Context, st *stmts, docID int64) (map[string]carried, error) {
	sel, err := st.prep(ctx, `SELECT id, text_hash, embedding, embedding_model, embedding_dim FROM local_knowledge_chunks WHERE doc_id = ?`)
	if err != nil {
		return nil, err
	}
	rows, err := sel.QueryContext(ctx, docID)
	if err != nil {
		return nil, err
	}
	old := map[string]carried{}
	var ids []int64
	for rows.Next() {
		var id int64
		var c carried
		var hash string
		if err := rows.Scan(&id, &hash, &c.blob, &c.model, &c.dim); err != nil {
			rows.Close()
			return nil, err
		}
		ids = append(ids, id)
		if c.model != "" && len(c.blob) > 0 {
			old[hash] = c
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, id := range ids {
		for _, lx := range s.lexes {
			st.fts = append(st.fts, ftsOp{table: lx.table, id: id, del: true})
		}
	}
	if len(ids) > 0 {
		if _, err := st.exec(ctx, `DELETE FROM local_knowledge_chunks WHERE doc_id = ?`, docID); err != nil {
			return nil, err
		}
	}
	return old, nil
}

// writeDoc upserts a document row and replaces its sections. Sections whose
// text is unchanged keep their embeddings, so an edit re-embeds only what
// it touched. The document's mean embedding is cleared by the upsert and
// set again only when every section kept its embedding. (The SQLite driver
// compiles each statement anew on every execution, so the sections go in by
// multi-row statements: chunkRowsPerInsert to one, FTS rows likewise at the
// end of the transaction.)
func (s *Service) writeDoc(ctx context.Context, st *stmts, r result, now time.Time) (int64, error) {
	up, err := st.prep(ctx, `INSERT INTO local_knowledge_docs
		(path, title, content_hash, size, mtime, error, indexed_at, updated_at, chunk_count)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(path) DO UPDATE SET title = excluded.title, content_hash = excluded.content_hash,
			size = excluded.size, mtime = excluded.mtime, error = excluded.error,
			indexed_at = excluded.indexed_at, updated_at = excluded.updated_at, chunk_count = excluded.chunk_count,
			embedding = NULL, embedding_model = NULL, embedding_dim = 0
		RETURNING id`)
	if err != nil {
		return 0, err
	}
	var id int64
	if err := up.QueryRowContext(ctx, r.job.rel, r.doc.Title, r.hash, r.size, r.mtime, r.err, now, now,
		len(r.doc.Chunks)).Scan(&id); err != nil {
		return 0, err
	}
	old, err := s.deleteChunks(ctx, st, id)
	if err != nil {
		return 0, err
	}
	var vecs [][]float32
	allCarried := len(r.doc.Chunks) > 0
	model := ""
	keptBlobs := make([]carried, len(r.doc.Chunks))
	for i, c := range r.doc.Chunks {
		k, keep := old[c.Hash]
		if keep && (model == "" || model == k.model) {
			model = k.model
			if v, err := store.DecodeEmbedding(k.blob); err == nil {
				vecs = append(vecs, v)
			}
			keptBlobs[i] = k
		} else {
			allCarried = false
		}
	}
	ids := make([]int64, len(r.doc.Chunks))
	for start := 0; start < len(r.doc.Chunks); start += chunkRowsPerInsert {
		end := min(start+chunkRowsPerInsert, len(r.doc.Chunks))
		args := make([]any, 0, 8*(end-start))
		for i := start; i < end; i++ {
			c, k := r.doc.Chunks[i], keptBlobs[i]
			args = append(args, id, i, c.Heading, c.Text, c.Hash, nullBlob(k.blob), k.model, k.dim)
		}
		rows, err := st.tx.QueryContext(ctx, `INSERT INTO local_knowledge_chunks
			(doc_id, ord, heading, text, text_hash, embedding, embedding_model, embedding_dim)
			VALUES `+rowPlaceholders(end-start, 8)+` RETURNING id, ord`, args...)
		if err != nil {
			return 0, err
		}
		for rows.Next() {
			var cid int64
			var ord int
			if err := rows.Scan(&cid, &ord); err != nil {
				rows.Close()
				return 0, err
			}
			if ord >= 0 && ord < len(ids) {
				ids[ord] = cid
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return 0, err
		}
	}
	for i, cid := range ids {
		if cid == 0 {
			return 0, fmt.Errorf("kb: section %d of %s got no id", i, r.job.rel)
		}
		for li, lx := range s.lexes {
			st.fts = append(st.fts, ftsOp{table: lx.table, id: cid, row: r.terms[li][i]})
		}
	}
	if allCarried && len(vecs) == len(r.doc.Chunks) {
		mean := vector.Mean(vecs)
		_, err = st.exec(ctx, `UPDATE local_knowledge_docs SET embedding = ?, embedding_model = ?, embedding_dim = ? WHERE id = ?`,
			store.EncodeEmbedding(mean), model, len(mean), id)
	}
	return id, err
}

// chunkRowsPerInsert is how many sections (8 values each) or FTS rows (4
// values) one INSERT statement writes at most: far below SQLite's limit of
// 32,766 bound values.
const chunkRowsPerInsert = 200

// rowPlaceholders returns n rows of cols placeholders for a multi-row
// VALUES clause: "(?, ?), (?, ?)".
func rowPlaceholders(n, cols int) string {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", cols), ", ") + ")"
	return strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")
}

func nullBlob(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return b
}
