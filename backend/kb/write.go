package kb

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"playchat/backend/kb/vector"
	"playchat/backend/store"
)

// writeBatch is how many prepared files go into one transaction at most.
// Writes are committed as soon as the writer has nothing else waiting, so a
// single saved file is searchable at once, while a bulk pass amortises the
// commit over many files.
const writeBatch = 256

func (s *Service) writeLoop(ctx context.Context) {
	for {
		var batch []result
		select {
		case r := <-s.results:
			batch = append(batch, r)
		case <-ctx.Done():
			return
		}
	drain:
		for len(batch) < writeBatch {
			select {
			case r := <-s.results:
				batch = append(batch, r)
			default:
				break drain
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

// stmts are the writer's prepared statements for one transaction.
type stmts struct {
	tx *sql.Tx
	m  map[string]*sql.Stmt
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
		for _, r := range batch {
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
		return nil
	})
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
			if _, err := st.exec(ctx, `DELETE FROM `+lx.table+` WHERE rowid = ?`, id); err != nil {
				return nil, err
			}
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
// it touched.
func (s *Service) writeDoc(ctx context.Context, st *stmts, r result, now time.Time) (int64, error) {
	up, err := st.prep(ctx, `INSERT INTO local_knowledge_docs
		(path, title, content_hash, size, mtime, error, indexed_at, updated_at, chunk_count)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(path) DO UPDATE SET title = excluded.title, content_hash = excluded.content_hash,
			size = excluded.size, mtime = excluded.mtime, error = excluded.error,
			indexed_at = excluded.indexed_at, updated_at = excluded.updated_at, chunk_count = excluded.chunk_count
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
	for i, c := range r.doc.Chunks {
		k, keep := old[c.Hash]
		if keep && (model == "" || model == k.model) {
			model = k.model
			if v, err := store.DecodeEmbedding(k.blob); err == nil {
				vecs = append(vecs, v)
			}
		} else {
			allCarried, keep = false, false
			k = carried{}
		}
		res, err := st.exec(ctx, `INSERT INTO local_knowledge_chunks
			(doc_id, ord, heading, text, text_hash, embedding, embedding_model, embedding_dim)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, id, i, c.Heading, c.Text, c.Hash, nullBlob(k.blob), k.model, k.dim)
		if err != nil {
			return 0, err
		}
		cid, err := res.LastInsertId()
		if err != nil {
			return 0, err
		}
		for li, lx := range s.lexes {
			row := r.terms[li][i]
			if _, err := st.exec(ctx, `INSERT INTO `+lx.table+`(rowid, title, heading, body) VALUES (?, ?, ?, ?)`,
				cid, row.title, row.heading, row.body); err != nil {
				return 0, err
			}
		}
	}
	if allCarried && len(vecs) == len(r.doc.Chunks) {
		mean := vector.Mean(vecs)
		_, err = st.exec(ctx, `UPDATE local_knowledge_docs SET embedding = ?, embedding_model = ?, embedding_dim = ? WHERE id = ?`,
			store.EncodeEmbedding(mean), model, len(mean), id)
	} else {
		_, err = st.exec(ctx, `UPDATE local_knowledge_docs SET embedding = NULL, embedding_model = NULL, embedding_dim = 0 WHERE id = ?`, id)
	}
	return id, err
}

func nullBlob(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return b
}
