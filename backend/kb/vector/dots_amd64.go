package vector

import "golang.org/x/sys/cpu"

// hasAVX2 is whether the int8 kernel's assembly can run on this CPU.
var hasAVX2 = cpu.X86.HasAVX2

// dotsInt8AVX2 is DotsInt8's kernel (dots_amd64.s): dim > 0 and a multiple
// of 32, q holds dim codes, rows dim×count and out count products.
//
//go:noescape
func dotsInt8AVX2(q *int16, rows *int8, dim, count int, out *int32)
