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
// From defaultQuantizeBytes on, an int8 copy adds a quarter (quantized.go).
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
	// quant are the packed vectors quantised to int8 for a faster scan
	// (quantized.go); nil below quantizeBytes of float32 vectors.
	quant *quantized
	// quantizeBytes overrides defaultQuantizeBytes (tests).
	quantizeBytes int
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
	v.model, v.dim, v.loaded, v.docs, v.pos, v.packed, v.quant = model, 0, false, nil, map[int64]int{}, false, nil
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
	v.packed, v.quant = false, nil
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
	v.packed, v.quant = true, nil
	limit := v.quantizeBytes
	if limit <= 0 {
		limit = defaultQuantizeBytes
	}
	if 4*total >= limit {
		v.quant = quantize(v.docs, v.dim)
	}
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
	v.packed, v.quant = false, nil
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

// vecMatches is the outcome of a semantic scan. floor is the similarity a
// document needs to match: the larger of minScore (the original's rule) and
// the collection's standOut. matches are every document at or above it,
// with its exact best section, in no particular order.
type vecMatches struct {
	floor   float64
	matches []docScore
}

// search scans every section vector for q (which it normalises) and
// returns the documents that match it semantically; ok is false when no
// vectors of q's dimension are loaded. The scan is split over the CPUs. A
// large index is scanned in int8 (searchQuantized), with the same matches
// and scores; only the floor then comes from estimated similarities.
func (v *vectorIndex) search(q []float32, minScore float64) (vm vecMatches, ok bool) {
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
		return vecMatches{floor: minScore}, false
	}
	q = vector.Normalize(append([]float32(nil), q...))
	if v.quant != nil {
		return v.searchQuantized(q, minScore), true
	}
	out := make([]docScore, len(v.docs))
	v.parallel(func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = v.exactBest(q, i)
		}
	})
	vm.floor = max(standOut(out), minScore)
	for _, d := range out {
		if d.best >= vm.floor {
			vm.matches = append(vm.matches, d)
		}
	}
	return vm, true
}

// exactBest is document i's best section for the unit query q.
func (v *vectorIndex) exactBest(q []float32, i int) docScore {
	d := &v.docs[i]
	best, bestChunk := math.Inf(-1), int64(0)
	for c := range d.chunks {
		s := float64(vector.Dot(q, d.vecs[c*v.dim:(c+1)*v.dim]))
		if s > best {
			best, bestChunk = s, d.chunks[c]
		}
	}
	return docScore{docID: d.docID, best: best, bestChunk: bestChunk}
}

// parallel runs scan over consecutive ranges of v.docs, one per CPU when
// the index is large enough for that to pay.
func (v *vectorIndex) parallel(scan func(lo, hi int)) {
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
			scan(lo, hi)
		}()
	}
	wg.Wait()
}

// bestOf returns the best section for q (which it normalises) of each of
// docIDs that has vectors in the index, in the order of docIDs.
func (v *vectorIndex) bestOf(q []float32, docIDs []int64) []docScore {
	v.mu.RLock()
	defer v.mu.RUnlock()
	if len(q) != v.dim || len(docIDs) == 0 {
		return nil
	}
	q = vector.Normalize(append([]float32(nil), q...))
	out := make([]docScore, 0, len(docIDs))
	for _, id := range docIDs {
		if i, ok := v.pos[id]; ok {
			out = append(out, v.exactBest(q, i))
		}
	}
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
