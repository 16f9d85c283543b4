package kb

import (
	"math"
	"sync"

	"playchat/backend/kb/vector"
)

// defaultQuantizeBytes is the size of an index's float32 vectors from which
// its scan reads int8 codes instead: 64 MiB, about 65,000 sections of 256
// dimensions or 11,000 of 1,536. Below it the float32 scan takes a few
// milliseconds and stays exact; above it the scan is bound by memory
// bandwidth (325,000 sections of 256 dimensions at 200,000 documents: 330
// MB a query, ~11 ms on two cores), and a quarter of the bytes, read by an
// AVX2 kernel, take a fifth of the time (issue 29).
const defaultQuantizeBytes = 64 << 20

// quantized holds every packed section vector as int8 codes
// (vector.QuantizeInt8), one row of dim per section in docs order, with
// each row's scale, L1 norm (for its error bound) and chunk id, and each
// document's id and first row. The scan reads only these flat arrays:
// following each document's own slices costs a cache miss per document
// (measured at 200,000 documents: as long as the int8 products).
type quantized struct {
	codes    []int8
	scales   []float32
	l1       []float32
	chunkIDs []int64
	docIDs   []int64
	// docRow[i] is document i's first row; docRow[len(docIDs)] the row count.
	docRow []int32
}

// quantize codes the packed vectors of docs (rows of dim).
func quantize(docs []docVectors, dim int) *quantized {
	if dim == 0 || len(docs) == 0 {
		return nil
	}
	rows := 0
	for i := range docs {
		rows += len(docs[i].chunks)
	}
	z := &quantized{codes: make([]int8, rows*dim), scales: make([]float32, rows), l1: make([]float32, rows),
		chunkIDs: make([]int64, 0, rows), docIDs: make([]int64, len(docs)), docRow: make([]int32, len(docs)+1)}
	for i := range docs {
		d := &docs[i]
		z.docIDs[i], z.docRow[i] = d.docID, int32(len(z.chunkIDs))
		for c, id := range d.chunks {
			r := len(z.chunkIDs)
			v := d.vecs[c*dim : (c+1)*dim]
			z.scales[r] = vector.QuantizeInt8(v, z.codes[r*dim:(r+1)*dim])
			z.l1[r] = vector.L1(v)
			z.chunkIDs = append(z.chunkIDs, id)
		}
	}
	z.docRow[len(docs)] = int32(rows)
	return z
}

// searchQuantized is search over the int8 codes. Every section's product
// with the query (in int16) is computed in integers and bounded by its
// quantisation error (vector.ErrorBound), so each document's exact best similarity is at
// most its estimate plus the bound. The floor comes from the estimates (the
// collection's mean and deviation move far less than the bound); only the
// documents whose bound reaches it are scored again in float32, and those
// at or above it are the matches — the same documents with the same scores
// and sections as the float32 scan gives. This is the refine step of
// quantised vector search (FAISS's SQ8 index with a re-ranking pass,
// Lucene's int8 vectors with oversampling), here with a margin that makes
// it exact instead of a fixed oversampling factor. Called with v.mu
// read-locked and q unit length.
func (v *vectorIndex) searchQuantized(q []float32, minScore float64) vecMatches {
	z, dim := v.quant, v.dim
	qq := make([]int16, dim)
	sq := vector.QuantizeQuery(q, qq)
	l1q := vector.L1(q)
	// hi[i] bounds document i's exact best similarity from above.
	hi := make([]float64, len(z.docIDs))
	var mu sync.Mutex
	var sum, sumSq float64
	v.parallel(func(first, end int) {
		if first >= end {
			return
		}
		row0, rowEnd := int(z.docRow[first]), int(z.docRow[end])
		dots := make([]int32, rowEnd-row0)
		vector.DotsInt8(qq, z.codes[row0*dim:rowEnd*dim], rowEnd-row0, dots)
		var s1, s2 float64
		for i := first; i < end; i++ {
			best, h := math.Inf(-1), math.Inf(-1)
			for r := int(z.docRow[i]); r < int(z.docRow[i+1]); r++ {
				s := float64(sq) * float64(z.scales[r]) * float64(dots[r-row0])
				m := float64(vector.ErrorBound(dim, sq, l1q, z.scales[r], z.l1[r]))
				best, h = max(best, s), max(h, s+m)
			}
			hi[i] = h + 1e-6 // float32 rounding of the products and bounds
			s1 += best
			s2 += best * best
		}
		mu.Lock()
		sum, sumSq = sum+s1, sumSq+s2
		mu.Unlock()
	})
	vm := vecMatches{floor: max(standOutOf(sum, sumSq, len(hi)), minScore)}
	for i, h := range hi {
		if h >= vm.floor {
			if d := v.exactBest(q, i); d.best >= vm.floor {
				vm.matches = append(vm.matches, d)
			}
		}
	}
	return vm
}
