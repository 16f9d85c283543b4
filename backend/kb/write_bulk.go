package kb

import (
	"context"
	"fmt"
	"time"
)

// The writer's path for documents new to the index — all of a first index.
// The SQLite driver compiles every statement anew on each execution, and a
// new document needs none of writeDoc's steps for an existing one (no
// upsert, no old sections to delete or carry embeddings from), so a batch's
// new documents go in by a few multi-row statements: the document rows,
// then their sections, chunkRowsPerInsert rows a statement.

// freshDocs returns the indexes in batch of the documents to write (resIndex
// or resFail) that have no entry yet. It returns none when the batch
// removes anything: a folder's removal must then apply in its place among
// the batch's writes, as writeDoc applies them.
func (s *Service) freshDocs(ctx context.Context, st *stmts, batch []result) ([]int, error) {
	var cand []int
	for i, r := range batch {
		switch r.kind {
		case resDelete:
			return nil, nil
		case resIndex, resFail:
			cand = append(cand, i)
		}
	}
	if len(cand) == 0 {
		return nil, nil
	}
	exists := map[string]bool{}
	for start := 0; start < len(cand); start += chunkRowsPerInsert {
		part := cand[start:min(start+chunkRowsPerInsert, len(cand))]
		args := make([]any, len(part))
		for i, bi := range part {
			args[i] = batch[bi].job.rel
		}
		rows, err := st.tx.QueryContext(ctx, `SELECT path FROM local_knowledge_docs WHERE path IN (`+placeholders(len(args))+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var p string
			if err := rows.Scan(&p); err != nil {
				rows.Close()
				return nil, err
			}
			exists[p] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	fresh := cand[:0]
	for _, bi := range cand {
		if !exists[batch[bi].job.rel] {
			fresh = append(fresh, bi)
		}
	}
	return fresh, nil
}

// insertFresh writes the documents of batch at the indexes fresh (none of
// which has an entry) with their sections, and queues their FTS rows. It
// returns their new ids.
func (s *Service) insertFresh(ctx context.Context, st *stmts, batch []result, fresh []int, now time.Time) ([]int64, error) {
	docIDs := make(map[string]int64, len(fresh))
	for start := 0; start < len(fresh); start += chunkRowsPerInsert {
		part := fresh[start:min(start+chunkRowsPerInsert, len(fresh))]
		args := make([]any, 0, 9*len(part))
		for _, bi := range part {
			r := batch[bi]
			args = append(args, r.job.rel, r.doc.Title, r.hash, r.size, r.mtime, r.err, now, now, len(r.doc.Chunks))
		}
		rows, err := st.tx.QueryContext(ctx, `INSERT INTO local_knowledge_docs
			(path, title, content_hash, size, mtime, error, indexed_at, updated_at, chunk_count)
			VALUES `+rowPlaceholders(len(part), 9)+` RETURNING id, path`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			var p string
			if err := rows.Scan(&id, &p); err != nil {
				rows.Close()
				return nil, err
			}
			docIDs[p] = id
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	// Every section of every new document, in batch order.
	type sec struct {
		bi, ord int
		doc     int64
	}
	var secs []sec
	ids := make([]int64, 0, len(fresh))
	for _, bi := range fresh {
		id, ok := docIDs[batch[bi].job.rel]
		if !ok {
			return nil, fmt.Errorf("kb: %s got no id", batch[bi].job.rel)
		}
		ids = append(ids, id)
		for ord := range batch[bi].doc.Chunks {
			secs = append(secs, sec{bi: bi, ord: ord, doc: id})
		}
	}
	type key struct {
		doc int64
		ord int
	}
	chunkIDs := make(map[key]int64, len(secs))
	for start := 0; start < len(secs); start += chunkRowsPerInsert {
		part := secs[start:min(start+chunkRowsPerInsert, len(secs))]
		args := make([]any, 0, 5*len(part))
		for _, c := range part {
			ch := batch[c.bi].doc.Chunks[c.ord]
			args = append(args, c.doc, c.ord, ch.Heading, ch.Text, ch.Hash)
		}
		rows, err := st.tx.QueryContext(ctx, `INSERT INTO local_knowledge_chunks
			(doc_id, ord, heading, text, text_hash) VALUES `+rowPlaceholders(len(part), 5)+` RETURNING id, doc_id, ord`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var k key
			var id int64
			if err := rows.Scan(&id, &k.doc, &k.ord); err != nil {
				rows.Close()
				return nil, err
			}
			chunkIDs[k] = id
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	for _, c := range secs {
		cid, ok := chunkIDs[key{c.doc, c.ord}]
		if !ok {
			return nil, fmt.Errorf("kb: section %d of %s got no id", c.ord, batch[c.bi].job.rel)
		}
		for li, lx := range s.lexes {
			st.fts = append(st.fts, ftsOp{table: lx.table, id: cid, row: batch[c.bi].terms[li][c.ord]})
		}
	}
	return ids, nil
}
