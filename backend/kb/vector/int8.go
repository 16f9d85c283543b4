package vector

import "math"

// QuantizeInt8 writes v quantised to int8 into dst (len(dst) ≥ len(v)) and
// returns the scale: v[i] ≈ scale × dst[i]. It is symmetric scalar
// quantisation per vector (scale = max|v[i]| / 127, codes in [-127, 127]),
// the "SQ8" of FAISS and of Lucene's int8 HNSW vectors; the rounding error
// of each component is at most scale/2. A zero vector has scale 0.
func QuantizeInt8(v []float32, dst []int8) float32 { return quantize(v, dst, 127) }

// quantize writes v scaled to integer codes in ±top into dst and returns the
// scale (v[i] ≈ scale × dst[i]); a zero vector gets codes 0 and scale 0.
func quantize[T int8 | int16](v []float32, dst []T, top float64) float32 {
	var maxAbs float32
	for _, x := range v {
		maxAbs = max(maxAbs, float32(math.Abs(float64(x))))
	}
	if maxAbs == 0 {
		clear(dst[:len(v)])
		return 0
	}
	scale := maxAbs / float32(top)
	inv := 1 / scale
	for i, x := range v {
		dst[i] = T(max(-top, min(top, math.Round(float64(x*inv)))))
	}
	return scale
}

// QueryCodeMax is the largest int16 code QuantizeQuery gives a query of
// dim components: 32,767, or less when dim × code × 127 (the largest sum
// DotsInt8 can meet) would not fit in an int32 — 11,007 at 1,536 dimensions.
func QueryCodeMax(dim int) int {
	return min(32767, (math.MaxInt32)/(127*max(dim, 1)))
}

// QuantizeQuery writes the query v quantised to int16 into dst (len(dst) ≥
// len(v)) and returns the scale: v[i] ≈ scale × dst[i], codes in
// ±QueryCodeMax(len(v)). The query keeps 16 bits while the vectors it is
// compared with have 8 (asymmetric quantisation, as in FAISS's SQ8 scan):
// an error in the query's codes would shift every product alike — with
// embeddings that share a common direction, by several thousandths, which
// moves a collection-relative threshold — while the vectors' own errors
// are independent and mostly cancel out.
func QuantizeQuery(v []float32, dst []int16) float32 {
	return quantize(v, dst, float64(QueryCodeMax(len(v))))
}

// L1 is the sum of |v[i]|.
func L1(v []float32) float32 {
	var s float64
	for _, x := range v {
		s += math.Abs(float64(x))
	}
	return float32(s)
}

// ErrorBound bounds |a·b − sa·sb·(qa·qb)| for vectors a and b of dim
// components quantised with scales sa and sb (QuantizeQuery, QuantizeInt8),
// given their L1 norms: each rounding error is at most half a scale step, so
// the error is at most L1(a)·sb/2 + L1(b)·sa/2 + dim·sa·sb/4. A ranking by
// the quantised products is therefore exact once every candidate whose
// product plus its bound reaches the ranking's cut is scored again in
// float32.
func ErrorBound(dim int, sa, l1a, sb, l1b float32) float32 {
	return l1a*sb/2 + l1b*sa/2 + float32(dim)*sa*sb/4
}

// DotsInt8 writes into out[r] (len(out) ≥ count) the dot product of the
// query codes q (QuantizeQuery) with row r of rows, count rows of len(q)
// int8 codes (QuantizeInt8) laid end to end. On amd64 with AVX2 and len(q)
// a multiple of 32 (every common embedding size) it runs an assembly
// kernel (sign-extend the row to int16, VPMADDWD, sum in int32) that reads
// 32 components a step; elsewhere a Go loop. The codes' ranges keep every
// sum within an int32.
func DotsInt8(q []int16, rows []int8, count int, out []int32) {
	dim := len(q)
	if count <= 0 || dim == 0 {
		clear(out[:max(count, 0)])
		return
	}
	_ = rows[dim*count-1]
	_ = out[count-1]
	if hasAVX2 && dim%32 == 0 {
		dotsInt8AVX2(&q[0], &rows[0], dim, count, &out[0])
		return
	}
	dotsInt8Go(q, rows, count, out)
}

func dotsInt8Go(q []int16, rows []int8, count int, out []int32) {
	dim := len(q)
	for r := range count {
		row := rows[r*dim : (r+1)*dim]
		var s0, s1, s2, s3 int32
		i := 0
		for ; i+4 <= dim; i += 4 {
			s0 += int32(q[i]) * int32(row[i])
			s1 += int32(q[i+1]) * int32(row[i+1])
			s2 += int32(q[i+2]) * int32(row[i+2])
			s3 += int32(q[i+3]) * int32(row[i+3])
		}
		for ; i < dim; i++ {
			s0 += int32(q[i]) * int32(row[i])
		}
		out[r] = s0 + s1 + s2 + s3
	}
}
