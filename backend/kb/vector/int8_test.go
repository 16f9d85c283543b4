package vector

import (
	"math"
	"math/rand/v2"
	"testing"
)

func randomCodes(rng *rand.Rand, n int) []int8 {
	out := make([]int8, n)
	for i := range out {
		out[i] = int8(rng.IntN(256) - 128)
	}
	return out
}

func randomQuery(rng *rand.Rand, n int) []int16 {
	top := QueryCodeMax(n)
	out := make([]int16, n)
	for i := range out {
		out[i] = int16(rng.IntN(2*top+1) - top)
	}
	return out
}

func TestDotsInt8MatchesTheGoLoopAtEveryLength(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// Multiples of 32 take the assembly kernel on amd64 with AVX2; the
	// others, and every length elsewhere, the Go loop.
	for _, dim := range []int{1, 7, 31, 32, 64, 100, 256, 1536} {
		q := randomQuery(rng, dim)
		rows := randomCodes(rng, dim*9)
		got := make([]int32, 9)
		DotsInt8(q, rows, 9, got)
		for r := range 9 {
			var want int32
			for i := range dim {
				want += int32(q[i]) * int32(rows[r*dim+i])
			}
			if got[r] != want {
				t.Fatalf("dim %d row %d: DotsInt8 = %d, want %d", dim, r, got[r], want)
			}
		}
	}
	// The extremes: every code at its end of the range, for the largest
	// sums the kernel can meet.
	for _, dim := range []int{256, 1536, 4096} {
		top := QueryCodeMax(dim)
		q, row := make([]int16, dim), make([]int8, dim)
		for i := range q {
			q[i], row[i] = int16(-top), -127
		}
		got := make([]int32, 1)
		DotsInt8(q, row, 1, got)
		if want := int64(dim) * int64(top) * 127; int64(got[0]) != want {
			t.Errorf("dim %d, extreme codes: DotsInt8 = %d, want %d", dim, got[0], want)
		}
	}
}

func randomUnit(rng *rand.Rand, dim int) []float32 {
	v := make([]float32, dim)
	for i := range v {
		v[i] = float32(rng.NormFloat64())
	}
	return Normalize(v)
}

func TestQuantizedProductsStayWithinTheirErrorBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const dim = 256
	q := randomUnit(rng, dim)
	qq := make([]int16, dim)
	sq := QuantizeQuery(q, qq)
	worst := 0.0
	for range 2000 {
		d := randomUnit(rng, dim)
		// A few spiky vectors (one large component) stress the scale.
		if rng.IntN(10) == 0 {
			d[rng.IntN(dim)] += 3
			Normalize(d)
		}
		dq := make([]int8, dim)
		sd := QuantizeInt8(d, dq)
		for i, x := range d {
			if err := math.Abs(float64(x - sd*float32(dq[i]))); err > float64(sd)/2+1e-7 {
				t.Fatalf("component %d: rounding error %g above half a step %g", i, err, sd/2)
			}
		}
		out := make([]int32, 1)
		DotsInt8(qq, dq, 1, out)
		approx := float64(sq) * float64(sd) * float64(out[0])
		exact := float64(Dot(q, d))
		bound := float64(ErrorBound(dim, sq, L1(q), sd, L1(d)))
		if e := math.Abs(approx - exact); e > bound+1e-6 {
			t.Fatalf("error %g above its bound %g", e, bound)
		} else {
			worst = max(worst, e)
		}
	}
	if worst == 0 || worst > 0.02 {
		t.Errorf("worst error of 2000 quantised products = %g; want small but not zero", worst)
	}
	zero := make([]int8, 4)
	if s := QuantizeInt8(make([]float32, 4), zero); s != 0 {
		t.Errorf("zero vector's scale = %v, want 0", s)
	}
}

// BenchmarkScan256 compares the scan of 65,536 section vectors of 256
// dimensions (64 MiB of float32) in float32 and in int8.
func BenchmarkScan256(b *testing.B) {
	const dim, rows = 256, 1 << 16
	rng := rand.New(rand.NewPCG(5, 6))
	q := randomUnit(rng, dim)
	flat := make([]float32, 0, dim*rows)
	codes := make([]int8, dim*rows)
	for r := range rows {
		v := randomUnit(rng, dim)
		flat = append(flat, v...)
		QuantizeInt8(v, codes[r*dim:(r+1)*dim])
	}
	b.Run("float32", func(b *testing.B) {
		var sink float32
		for b.Loop() {
			for r := range rows {
				sink += Dot(q, flat[r*dim:(r+1)*dim])
			}
		}
		_ = sink
	})
	b.Run("int8", func(b *testing.B) {
		qq := make([]int16, dim)
		QuantizeQuery(q, qq)
		out := make([]int32, rows)
		for b.Loop() {
			DotsInt8(qq, codes, rows, out)
		}
	})
}
