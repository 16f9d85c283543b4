#include "textflag.h"

// func dotsInt8AVX2(q *int16, rows *int8, dim, count int, out *int32)
//
// For each of count rows of dim int8 codes: sign-extend 16 codes of the row
// to int16 (VPMOVSXBW), multiply them with 16 int16 codes of q and add pairs
// into int32 (VPMADDWD), accumulate in two registers, then add the eight
// lanes.
TEXT ·dotsInt8AVX2(SB), NOSPLIT, $0-40
	MOVQ q+0(FP), SI
	MOVQ rows+8(FP), DI
	MOVQ dim+16(FP), DX
	MOVQ count+24(FP), R8
	MOVQ out+32(FP), R9

row:
	MOVQ  SI, R10
	MOVQ  DX, CX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1

inner:
	VMOVDQU   (R10), Y2
	VPMOVSXBW (DI), Y3
	VPMADDWD  Y3, Y2, Y2
	VPADDD    Y2, Y0, Y0
	VMOVDQU   32(R10), Y4
	VPMOVSXBW 16(DI), Y5
	VPMADDWD  Y5, Y4, Y4
	VPADDD    Y4, Y1, Y1
	ADDQ      $64, R10
	ADDQ      $32, DI
	SUBQ      $32, CX
	JNZ       inner

	VPADDD       Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPADDD       X1, X0, X0
	VPSHUFD      $0x4E, X0, X1
	VPADDD       X1, X0, X0
	VPSHUFD      $0xB1, X0, X1
	VPADDD       X1, X0, X0
	VMOVD        X0, (R9)
	ADDQ         $4, R9
	DECQ         R8
	JNZ          row

	VZEROUPPER
	RET
