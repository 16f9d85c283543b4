//go:build !amd64

package vector

const hasAVX2 = false

func dotsInt8AVX2(q *int16, rows *int8, dim, count int, out *int32) {
	panic("vector: no AVX2 kernel on this architecture")
}
