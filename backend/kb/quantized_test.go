package kb

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"playchat/backend/kb/vector"
	"playchat/backend/store"
)

// twinIndexes loads the same random section vectors into an index scanned
// in float32 and one scanned in int8. Every tenth document is a neighbour
// of the query at a similarity of about 0.88–0.92, so the top of the
// ranking is a real cluster, as for a question with answers in the
// collection, and a floor of 0.9 cuts through it where the int8 estimates
// fall on both sides of it.
func twinIndexes(t *testing.T, docs, dim int, q []float32) (exact, quant *vectorIndex) {
	t.Helper()
	rng := rand.New(rand.NewPCG(7, 8))
	exact = &vectorIndex{model: "m", loaded: true, pos: map[int64]int{}, quantizeBytes: math.MaxInt}
	quant = &vectorIndex{model: "m", loaded: true, pos: map[int64]int{}, quantizeBytes: 1}
	chunk := int64(0)
	for d := range docs {
		for range 1 + rng.IntN(3) {
			chunk++
			v := make([]float32, dim)
			for i := range v {
				v[i] = float32(rng.NormFloat64())
			}
			if d%10 == 0 {
				vector.Normalize(v)
				c := 0.88 + 0.04*rng.Float64()
				for i := range v {
					v[i] = float32(c)*q[i] + float32(math.Sqrt(1-c*c))*v[i]
				}
			}
			blob := store.EncodeEmbedding(v)
			exact.addLocked(int64(d+1), chunk, blob)
			quant.addLocked(int64(d+1), chunk, blob)
		}
	}
	exact.packLocked()
	quant.packLocked()
	if exact.quant != nil || quant.quant == nil {
		t.Fatalf("quantised: exact index %v, int8 index %v", exact.quant != nil, quant.quant != nil)
	}
	return exact, quant
}

func TestTheInt8ScanRanksExactlyAsTheFloat32Scan(t *testing.T) {
	const dim = 256
	rng := rand.New(rand.NewPCG(9, 10))
	q := make([]float32, dim)
	for i := range q {
		q[i] = float32(rng.NormFloat64())
	}
	vector.Normalize(q)
	exact, quant := twinIndexes(t, 6000, dim, q)
	for _, minScore := range []float64{0, 0.5, 0.9} {
		want, ok1 := exact.search(q, minScore)
		got, ok2 := quant.search(q, minScore)
		if !ok1 || !ok2 {
			t.Fatalf("minScore %v: search not ok (%v, %v)", minScore, ok1, ok2)
		}
		// The floor comes from estimated similarities in the int8 scan.
		if math.Abs(got.floor-want.floor) > 1e-4 {
			t.Errorf("minScore %v: semantic floor %v, want %v", minScore, got.floor, want.floor)
		}
		lo, hi := min(got.floor, want.floor), max(got.floor, want.floor)
		byID := func(ds []docScore) map[int64]docScore {
			m := map[int64]docScore{}
			for _, d := range ds {
				m[d.docID] = d
			}
			return m
		}
		g, w := byID(got.matches), byID(want.matches)
		for id, wd := range w {
			if gd, ok := g[id]; ok && gd != wd {
				t.Fatalf("minScore %v: document %d scored %+v, want %+v", minScore, id, gd, wd)
			} else if !ok && wd.best >= hi {
				t.Fatalf("minScore %v: match %+v missing from the int8 scan", minScore, wd)
			}
		}
		for id, gd := range g {
			if _, ok := w[id]; !ok && gd.best >= hi {
				t.Fatalf("minScore %v: %+v matched only in the int8 scan", minScore, gd)
			}
		}
		between := 0
		for _, d := range want.matches {
			if d.best < hi {
				between++
			}
		}
		if len(w) < fuseDepth/10 || between > 2 {
			t.Errorf("minScore %v: %d matches, %d between the floors %v and %v", minScore, len(w), between, lo, hi)
		}
	}
	// bestOf (the cosine of lexical candidates) is exact in both.
	ids := []int64{1, 2, 11, 2999, 99999}
	if w, g := exact.bestOf(q, ids), quant.bestOf(q, ids); len(g) != 4 || !slices.Equal(g, w) {
		t.Errorf("bestOf = %+v, want %+v", g, w)
	}
}

// BenchmarkVectorSearch is the semantic side of one query at 200,000
// documents of 1–3 sections (about 400,000 vectors of 256 dimensions),
// loaded section by section as ensure does, in float32 and in int8.
func BenchmarkVectorSearch(b *testing.B) {
	const dim, docs = 256, 200_000
	rng := rand.New(rand.NewPCG(11, 12))
	q := make([]float32, dim)
	for i := range q {
		q[i] = float32(rng.NormFloat64())
	}
	vector.Normalize(q)
	idx := &vectorIndex{model: "m", loaded: true, pos: map[int64]int{}}
	v := make([]float32, dim)
	chunk := int64(0)
	for d := range docs {
		for range 1 + rng.IntN(3) {
			chunk++
			for i := range v {
				v[i] = float32(rng.NormFloat64())
			}
			idx.addLocked(int64(d+1), chunk, store.EncodeEmbedding(v))
		}
	}
	for _, mode := range []struct {
		name  string
		bytes int
	}{{"float32", math.MaxInt}, {"int8", 1}} {
		b.Run(mode.name, func(b *testing.B) {
			idx.quantizeBytes = mode.bytes
			idx.packLocked()
			for b.Loop() {
				idx.search(q, 0.5)
			}
		})
	}
}
