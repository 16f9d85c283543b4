package kb

import (
	"context"
	"math"
	"runtime"
	"sync"

	"playchat/backend/kb/vector"
	"playchat/backend/store"
)

// vectorIndex holds the section embeddings of one model in memory,
// normalised to unit length, so a query costs one dot product per section
// and no database read. It costs 4 × dim bytes per section (1536-dim
// vectors: 6 KiB a section; 45,000 one-section documents: 276 MiB), loaded on
// the first semantic query and kept in step by the writer and the embedder.
type vectorIndex struct {
	mu     sync.RWMutex
	model  string
	dim    int
	loaded bool
	docs   []docVectors
	pos    map[int64]int // doc id → index in docs
	// packed is true while every document's vecs lie, in docs order, in
	// one contiguous array: the scan then reads memory sequentially
	// instead of hopping between tens of thousands of small allocations
	// (measured at 45,000 documents: about half the scan's time).
	packed bool
}

// docVectors are one document's section vectors, dim floats each.
type docVectors struct {
	docID  int64
	chunks []int64 // chunk ids
	vecs   []float32
}

// ensure loads the vectors of model unless they are loaded already.
func (v *vectorIndex) ensure(ctx context.Context, db *store.DB, model string) error {
	v.mu.RLock()
	ok := v.loaded && v.model == model
	v.mu.RUnlock()
	if ok {
		return nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.loaded && v.model == model {
		return nil
	}
	v.model, v.dim, v.loaded, v.docs, v.pos, v.packed = model, 0, false, nil, map[int64]int{}, false
	rows, err := db.Bun().QueryContext(ctx, `SELECT doc_id, id, embedding FROM local_knowledge_chunks
		WHERE embedding_model = ? AND embedding IS NOT NULL ORDER BY doc_id, ord`, model)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var docID, id int64
		var blob []byte
		if err := rows.Scan(&docID, &id, &blob); err != nil {
			return err
		}
		v.addLocked(docID, id, blob)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	v.loaded = true
	return nil
}

func (v *vectorIndex) addLocked(docID, chunkID int64, blob []byte) {
	vec, err := store.DecodeEmbedding(blob)
	if err != nil || len(vec) == 0 {
		return
	}
	if v.dim == 0 {
		v.dim = len(vec)
	}
	if len(vec) != v.dim {
		return // a provider changed dimension under the same name: re-embedded later
	}
	vector.Normalize(vec)
	i, ok := v.pos[docID]
	if !ok {
		i = len(v.docs)
		v.pos[docID] = i
		v.docs = append(v.docs, docVectors{docID: docID})
	}
	d := &v.docs[i]
	d.chunks = append(d.chunks, chunkID)
	d.vecs = append(d.vecs, vec...)
	v.packed = false
}

// packLocked copies every document's vectors into one array and points the
// documents into it (capacity-limited, so a later append reallocates
// instead of overwriting a neighbour). The old allocations are left to the
// garbage collector; peak memory is briefly twice the vectors.
func (v *vectorIndex) packLocked() {
	total := 0
	for i := range v.docs {
		total += len(v.docs[i].vecs)
	}
	flat := make([]float32, 0, total)
	for i := range v.docs {
		d := &v.docs[i]
		off := len(flat)
		flat = append(flat, d.vecs...)
		d.vecs = flat[off:len(flat):len(flat)]
	}
	v.packed = true
}

// removeLocked drops a document (swap with the last).
func (v *vectorIndex) removeLocked(docID int64) {
	i, ok := v.pos[docID]
	if !ok {
		return
	}
	last := len(v.docs) - 1
	if i != last {
		v.docs[i] = v.docs[last]
		v.pos[v.docs[i].docID] = i
	}
	v.docs[last] = docVectors{}
	v.docs = v.docs[:last]
	delete(v.pos, docID)
	v.packed = false
}

// refresh reloads the vectors of the given documents when the index is
// loaded (deleted documents simply disappear).
func (v *vectorIndex) refresh(ctx context.Context, db *store.DB, docIDs []int64) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.loaded {
		return
	}
	for _, id := range docIDs {
		v.removeLocked(id)
	}
	for start := 0; start < len(docIDs); start += 500 {
		part := docIDs[start:min(start+500, len(docIDs))]
		args := []any{v.model}
		for _, id := range part {
			args = append(args, id)
		}
		rows, err := db.Bun().QueryContext(ctx, `SELECT doc_id, id, embedding FROM local_knowledge_chunks
			WHERE embedding_model = ? AND embedding IS NOT NULL AND doc_id IN (`+placeholders(len(part))+`) ORDER BY doc_id, ord`, args...)
		if err != nil {
			v.loaded = false // reload on the next query
			return
		}
		for rows.Next() {
			var docID, id int64
			var blob []byte
			if rows.Scan(&docID, &id, &blob) == nil {
				v.addLocked(docID, id, blob)
			}
		}
		rows.Close()
	}
}

// docScore is a document's best section by cosine similarity.
type docScore struct {
	docID     int64
	best      float64
	bestChunk int64
}

// search returns every document's best cosine similarity to q (which it
// normalises), in no particular order. The scan is split over the CPUs.
func (v *vectorIndex) search(q []float32) []docScore {
	v.mu.RLock()
	if v.loaded && !v.packed {
		v.mu.RUnlock()
		v.mu.Lock()
		if v.loaded && !v.packed {
			v.packLocked()
		}
		v.mu.Unlock()
		v.mu.RLock()
	}
	defer v.mu.RUnlock()
	if !v.loaded || len(q) != v.dim || len(v.docs) == 0 {
		return nil
	}
	q = vector.Normalize(append([]float32(nil), q...))
	out := make([]docScore, len(v.docs))
	workers := 1
	if len(v.docs)*v.dim > 1<<20 {
		workers = runtime.GOMAXPROCS(0)
	}
	var wg sync.WaitGroup
	per := (len(v.docs) + workers - 1) / workers
	for w := range workers {
		lo, hi := w*per, min((w+1)*per, len(v.docs))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				d := &v.docs[i]
				best, bestChunk := math.Inf(-1), int64(0)
				for c := range d.chunks {
					s := float64(vector.Dot(q, d.vecs[c*v.dim:(c+1)*v.dim]))
					if s > best {
						best, bestChunk = s, d.chunks[c]
					}
				}
				out[i] = docScore{docID: d.docID, best: best, bestChunk: bestChunk}
			}
		}()
	}
	wg.Wait()
	return out
}

// chunkScores returns the cosine similarity of q to each section of docID.
func (v *vectorIndex) chunkScores(q []float32, docID int64) map[int64]float64 {
	v.mu.RLock()
	defer v.mu.RUnlock()
	i, ok := v.pos[docID]
	if !ok || len(q) != v.dim {
		return nil
	}
	q = vector.Normalize(append([]float32(nil), q...))
	d := &v.docs[i]
	out := make(map[int64]float64, len(d.chunks))
	for c, id := range d.chunks {
		out[id] = float64(vector.Dot(q, d.vecs[c*v.dim:(c+1)*v.dim]))
	}
	return out
}
