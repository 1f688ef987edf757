//go:build !purego

// The AVX2 convolution kernels convolveGather calls (ops.go), and the CPUID and XGETBV reads that
// tell whether it may run.

#include "textflag.h"

// func dot32(out, a, b []float64)
//
// out[r] = Σⱼ a[len(b)−1−j+r]·b[j] for r in 0..31, summed from +0 in order of increasing j, each
// product rounded before it is added (VMULPD, VADDPD: never fused), as the scalar loop does. The
// caller guarantees len(out) >= 32 and len(a) >= len(b)+31. Eight sums in flight, four impulses
// each, hide the adds' latency.
TEXT ·dot32(SB), NOSPLIT, $0-72
	MOVQ   out_base+0(FP), DI
	MOVQ   a_base+24(FP), SI
	MOVQ   b_base+48(FP), DX
	MOVQ   b_len+56(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	VXORPD Y4, Y4, Y4
	VXORPD Y5, Y5, Y5
	VXORPD Y6, Y6, Y6
	VXORPD Y7, Y7, Y7
	TESTQ  CX, CX
	JZ     done
	LEAQ   -8(SI)(CX*8), SI

loop:
	VBROADCASTSD (DX), Y8
	VMULPD       0(SI), Y8, Y9
	VMULPD       32(SI), Y8, Y10
	VMULPD       64(SI), Y8, Y11
	VMULPD       96(SI), Y8, Y12
	VADDPD       Y9, Y0, Y0
	VADDPD       Y10, Y1, Y1
	VADDPD       Y11, Y2, Y2
	VADDPD       Y12, Y3, Y3
	VMULPD       128(SI), Y8, Y9
	VMULPD       160(SI), Y8, Y10
	VMULPD       192(SI), Y8, Y11
	VMULPD       224(SI), Y8, Y12
	VADDPD       Y9, Y4, Y4
	VADDPD       Y10, Y5, Y5
	VADDPD       Y11, Y6, Y6
	VADDPD       Y12, Y7, Y7
	ADDQ         $8, DX
	SUBQ         $8, SI
	DECQ         CX
	JNZ          loop

done:
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VMOVUPD Y4, 128(DI)
	VMOVUPD Y5, 160(DI)
	VMOVUPD Y6, 192(DI)
	VMOVUPD Y7, 224(DI)
	VZEROUPPER
	RET

// func dot16(out, a, b []float64)
//
// dot32 for 16 impulses: out[r] for r in 0..15, the same sums in the same order. The caller
// guarantees len(out) >= 16 and len(a) >= len(b)+15. Four sums in flight.
TEXT ·dot16(SB), NOSPLIT, $0-72
	MOVQ   out_base+0(FP), DI
	MOVQ   a_base+24(FP), SI
	MOVQ   b_base+48(FP), DX
	MOVQ   b_len+56(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	VXORPD Y2, Y2, Y2
	VXORPD Y3, Y3, Y3
	TESTQ  CX, CX
	JZ     done16
	LEAQ   -8(SI)(CX*8), SI

loop16:
	VBROADCASTSD (DX), Y8
	VMULPD       0(SI), Y8, Y9
	VMULPD       32(SI), Y8, Y10
	VMULPD       64(SI), Y8, Y11
	VMULPD       96(SI), Y8, Y12
	VADDPD       Y9, Y0, Y0
	VADDPD       Y10, Y1, Y1
	VADDPD       Y11, Y2, Y2
	VADDPD       Y12, Y3, Y3
	ADDQ         $8, DX
	SUBQ         $8, SI
	DECQ         CX
	JNZ          loop16

done16:
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, 64(DI)
	VMOVUPD Y3, 96(DI)
	VZEROUPPER
	RET

// func dot8(out, a, b []float64)
//
// dot32 for 8 impulses: out[r] for r in 0..7. The caller guarantees len(out) >= 8 and
// len(a) >= len(b)+7. Two sums in flight.
TEXT ·dot8(SB), NOSPLIT, $0-72
	MOVQ   out_base+0(FP), DI
	MOVQ   a_base+24(FP), SI
	MOVQ   b_base+48(FP), DX
	MOVQ   b_len+56(FP), CX
	VXORPD Y0, Y0, Y0
	VXORPD Y1, Y1, Y1
	TESTQ  CX, CX
	JZ     done8
	LEAQ   -8(SI)(CX*8), SI

loop8:
	VBROADCASTSD (DX), Y8
	VMULPD       0(SI), Y8, Y9
	VMULPD       32(SI), Y8, Y10
	VADDPD       Y9, Y0, Y0
	VADDPD       Y10, Y1, Y1
	ADDQ         $8, DX
	SUBQ         $8, SI
	DECQ         CX
	JNZ          loop8

done8:
	VMOVUPD Y0, 0(DI)
	VMOVUPD Y1, 32(DI)
	VZEROUPPER
	RET

// func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xgetbv() (eax, edx uint32)
TEXT ·xgetbv(SB), NOSPLIT, $0-8
	MOVL   $0, CX
	XGETBV
	MOVL   AX, eax+0(FP)
	MOVL   DX, edx+4(FP)
	RET

// func dot64z(out, a, b []float64)
//
// dot32 for up to 64 impulses in AVX-512 registers: out[r] for r below min(len(out), 64), the
// same sums in the same order (VMULPD, VADDPD, eight impulses at a time). The last register is
// stored under a mask of its impulses below len(out), so that a last part-block is written in
// place. The caller guarantees len(out) > 56 and len(a) >= len(b)+63.
TEXT ·dot64z(SB), NOSPLIT, $0-72
	MOVQ   out_base+0(FP), DI
	MOVQ   out_len+8(FP), R8
	MOVQ   a_base+24(FP), SI
	MOVQ   b_base+48(FP), DX
	MOVQ   b_len+56(FP), CX
	SUBQ   $56, R8 // impulses in the last register
	MOVQ   $8, R9
	CMPQ   R8, R9
	CMOVQGT R9, R8
	MOVQ   $1, R9
	SHLXQ  R8, R9, R9
	DECQ   R9
	KMOVB  R9, K1 // their mask
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	VXORPD Z2, Z2, Z2
	VXORPD Z3, Z3, Z3
	VXORPD Z4, Z4, Z4
	VXORPD Z5, Z5, Z5
	VXORPD Z6, Z6, Z6
	VXORPD Z7, Z7, Z7
	TESTQ  CX, CX
	JZ     done64z
	LEAQ   -8(SI)(CX*8), SI

loop64z:
	VBROADCASTSD (DX), Z16
	VMULPD       0(SI), Z16, Z17
	VMULPD       64(SI), Z16, Z18
	VMULPD       128(SI), Z16, Z19
	VMULPD       192(SI), Z16, Z20
	VMULPD       256(SI), Z16, Z21
	VMULPD       320(SI), Z16, Z22
	VMULPD       384(SI), Z16, Z23
	VMULPD       448(SI), Z16, Z24
	VADDPD       Z17, Z0, Z0
	VADDPD       Z18, Z1, Z1
	VADDPD       Z19, Z2, Z2
	VADDPD       Z20, Z3, Z3
	VADDPD       Z21, Z4, Z4
	VADDPD       Z22, Z5, Z5
	VADDPD       Z23, Z6, Z6
	VADDPD       Z24, Z7, Z7
	ADDQ         $8, DX
	SUBQ         $8, SI
	DECQ         CX
	JNZ          loop64z

done64z:
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, 192(DI)
	VMOVUPD Z4, 256(DI)
	VMOVUPD Z5, 320(DI)
	VMOVUPD Z6, 384(DI)
	VMOVUPD Z7, K1, 448(DI)
	VZEROUPPER
	RET

// func dot56z(out, a, b []float64)
//
// dot64z for up to 56 impulses: the caller guarantees len(out) > 48 and len(a) >= len(b)+55.
TEXT ·dot56z(SB), NOSPLIT, $0-72
	MOVQ   out_base+0(FP), DI
	MOVQ   out_len+8(FP), R8
	MOVQ   a_base+24(FP), SI
	MOVQ   b_base+48(FP), DX
	MOVQ   b_len+56(FP), CX
	SUBQ   $48, R8 // impulses in the last register
	MOVQ   $8, R9
	CMPQ   R8, R9
	CMOVQGT R9, R8
	MOVQ   $1, R9
	SHLXQ  R8, R9, R9
	DECQ   R9
	KMOVB  R9, K1 // their mask
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	VXORPD Z2, Z2, Z2
	VXORPD Z3, Z3, Z3
	VXORPD Z4, Z4, Z4
	VXORPD Z5, Z5, Z5
	VXORPD Z6, Z6, Z6
	TESTQ  CX, CX
	JZ     done56z
	LEAQ   -8(SI)(CX*8), SI

loop56z:
	VBROADCASTSD (DX), Z16
	VMULPD       0(SI), Z16, Z17
	VMULPD       64(SI), Z16, Z18
	VMULPD       128(SI), Z16, Z19
	VMULPD       192(SI), Z16, Z20
	VMULPD       256(SI), Z16, Z21
	VMULPD       320(SI), Z16, Z22
	VMULPD       384(SI), Z16, Z23
	VADDPD       Z17, Z0, Z0
	VADDPD       Z18, Z1, Z1
	VADDPD       Z19, Z2, Z2
	VADDPD       Z20, Z3, Z3
	VADDPD       Z21, Z4, Z4
	VADDPD       Z22, Z5, Z5
	VADDPD       Z23, Z6, Z6
	ADDQ         $8, DX
	SUBQ         $8, SI
	DECQ         CX
	JNZ          loop56z

done56z:
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, 192(DI)
	VMOVUPD Z4, 256(DI)
	VMOVUPD Z5, 320(DI)
	VMOVUPD Z6, K1, 384(DI)
	VZEROUPPER
	RET

// func dot48z(out, a, b []float64)
//
// dot64z for up to 48 impulses: the caller guarantees len(out) > 40 and len(a) >= len(b)+47.
TEXT ·dot48z(SB), NOSPLIT, $0-72
	MOVQ   out_base+0(FP), DI
	MOVQ   out_len+8(FP), R8
	MOVQ   a_base+24(FP), SI
	MOVQ   b_base+48(FP), DX
	MOVQ   b_len+56(FP), CX
	SUBQ   $40, R8 // impulses in the last register
	MOVQ   $8, R9
	CMPQ   R8, R9
	CMOVQGT R9, R8
	MOVQ   $1, R9
	SHLXQ  R8, R9, R9
	DECQ   R9
	KMOVB  R9, K1 // their mask
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	VXORPD Z2, Z2, Z2
	VXORPD Z3, Z3, Z3
	VXORPD Z4, Z4, Z4
	VXORPD Z5, Z5, Z5
	TESTQ  CX, CX
	JZ     done48z
	LEAQ   -8(SI)(CX*8), SI

loop48z:
	VBROADCASTSD (DX), Z16
	VMULPD       0(SI), Z16, Z17
	VMULPD       64(SI), Z16, Z18
	VMULPD       128(SI), Z16, Z19
	VMULPD       192(SI), Z16, Z20
	VMULPD       256(SI), Z16, Z21
	VMULPD       320(SI), Z16, Z22
	VADDPD       Z17, Z0, Z0
	VADDPD       Z18, Z1, Z1
	VADDPD       Z19, Z2, Z2
	VADDPD       Z20, Z3, Z3
	VADDPD       Z21, Z4, Z4
	VADDPD       Z22, Z5, Z5
	ADDQ         $8, DX
	SUBQ         $8, SI
	DECQ         CX
	JNZ          loop48z

done48z:
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, 192(DI)
	VMOVUPD Z4, 256(DI)
	VMOVUPD Z5, K1, 320(DI)
	VZEROUPPER
	RET

// func dot40z(out, a, b []float64)
//
// dot64z for up to 40 impulses: the caller guarantees len(out) > 32 and len(a) >= len(b)+39.
TEXT ·dot40z(SB), NOSPLIT, $0-72
	MOVQ   out_base+0(FP), DI
	MOVQ   out_len+8(FP), R8
	MOVQ   a_base+24(FP), SI
	MOVQ   b_base+48(FP), DX
	MOVQ   b_len+56(FP), CX
	SUBQ   $32, R8 // impulses in the last register
	MOVQ   $8, R9
	CMPQ   R8, R9
	CMOVQGT R9, R8
	MOVQ   $1, R9
	SHLXQ  R8, R9, R9
	DECQ   R9
	KMOVB  R9, K1 // their mask
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	VXORPD Z2, Z2, Z2
	VXORPD Z3, Z3, Z3
	VXORPD Z4, Z4, Z4
	TESTQ  CX, CX
	JZ     done40z
	LEAQ   -8(SI)(CX*8), SI

loop40z:
	VBROADCASTSD (DX), Z16
	VMULPD       0(SI), Z16, Z17
	VMULPD       64(SI), Z16, Z18
	VMULPD       128(SI), Z16, Z19
	VMULPD       192(SI), Z16, Z20
	VMULPD       256(SI), Z16, Z21
	VADDPD       Z17, Z0, Z0
	VADDPD       Z18, Z1, Z1
	VADDPD       Z19, Z2, Z2
	VADDPD       Z20, Z3, Z3
	VADDPD       Z21, Z4, Z4
	ADDQ         $8, DX
	SUBQ         $8, SI
	DECQ         CX
	JNZ          loop40z

done40z:
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, 192(DI)
	VMOVUPD Z4, K1, 256(DI)
	VZEROUPPER
	RET

// func dot32z(out, a, b []float64)
//
// dot64z for up to 32 impulses: the caller guarantees len(out) > 24 and len(a) >= len(b)+31.
TEXT ·dot32z(SB), NOSPLIT, $0-72
	MOVQ   out_base+0(FP), DI
	MOVQ   out_len+8(FP), R8
	MOVQ   a_base+24(FP), SI
	MOVQ   b_base+48(FP), DX
	MOVQ   b_len+56(FP), CX
	SUBQ   $24, R8 // impulses in the last register
	MOVQ   $8, R9
	CMPQ   R8, R9
	CMOVQGT R9, R8
	MOVQ   $1, R9
	SHLXQ  R8, R9, R9
	DECQ   R9
	KMOVB  R9, K1 // their mask
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	VXORPD Z2, Z2, Z2
	VXORPD Z3, Z3, Z3
	TESTQ  CX, CX
	JZ     done32z
	LEAQ   -8(SI)(CX*8), SI

loop32z:
	VBROADCASTSD (DX), Z16
	VMULPD       0(SI), Z16, Z17
	VMULPD       64(SI), Z16, Z18
	VMULPD       128(SI), Z16, Z19
	VMULPD       192(SI), Z16, Z20
	VADDPD       Z17, Z0, Z0
	VADDPD       Z18, Z1, Z1
	VADDPD       Z19, Z2, Z2
	VADDPD       Z20, Z3, Z3
	ADDQ         $8, DX
	SUBQ         $8, SI
	DECQ         CX
	JNZ          loop32z

done32z:
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, 128(DI)
	VMOVUPD Z3, K1, 192(DI)
	VZEROUPPER
	RET

// func dot24z(out, a, b []float64)
//
// dot64z for up to 24 impulses: the caller guarantees len(out) > 16 and len(a) >= len(b)+23.
TEXT ·dot24z(SB), NOSPLIT, $0-72
	MOVQ   out_base+0(FP), DI
	MOVQ   out_len+8(FP), R8
	MOVQ   a_base+24(FP), SI
	MOVQ   b_base+48(FP), DX
	MOVQ   b_len+56(FP), CX
	SUBQ   $16, R8 // impulses in the last register
	MOVQ   $8, R9
	CMPQ   R8, R9
	CMOVQGT R9, R8
	MOVQ   $1, R9
	SHLXQ  R8, R9, R9
	DECQ   R9
	KMOVB  R9, K1 // their mask
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	VXORPD Z2, Z2, Z2
	TESTQ  CX, CX
	JZ     done24z
	LEAQ   -8(SI)(CX*8), SI

loop24z:
	VBROADCASTSD (DX), Z16
	VMULPD       0(SI), Z16, Z17
	VMULPD       64(SI), Z16, Z18
	VMULPD       128(SI), Z16, Z19
	VADDPD       Z17, Z0, Z0
	VADDPD       Z18, Z1, Z1
	VADDPD       Z19, Z2, Z2
	ADDQ         $8, DX
	SUBQ         $8, SI
	DECQ         CX
	JNZ          loop24z

done24z:
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, 64(DI)
	VMOVUPD Z2, K1, 128(DI)
	VZEROUPPER
	RET

// func dot16z(out, a, b []float64)
//
// dot64z for up to 16 impulses: the caller guarantees len(out) > 8 and len(a) >= len(b)+15.
TEXT ·dot16z(SB), NOSPLIT, $0-72
	MOVQ   out_base+0(FP), DI
	MOVQ   out_len+8(FP), R8
	MOVQ   a_base+24(FP), SI
	MOVQ   b_base+48(FP), DX
	MOVQ   b_len+56(FP), CX
	SUBQ   $8, R8 // impulses in the last register
	MOVQ   $8, R9
	CMPQ   R8, R9
	CMOVQGT R9, R8
	MOVQ   $1, R9
	SHLXQ  R8, R9, R9
	DECQ   R9
	KMOVB  R9, K1 // their mask
	VXORPD Z0, Z0, Z0
	VXORPD Z1, Z1, Z1
	TESTQ  CX, CX
	JZ     done16z
	LEAQ   -8(SI)(CX*8), SI

loop16z:
	VBROADCASTSD (DX), Z16
	VMULPD       0(SI), Z16, Z17
	VMULPD       64(SI), Z16, Z18
	VADDPD       Z17, Z0, Z0
	VADDPD       Z18, Z1, Z1
	ADDQ         $8, DX
	SUBQ         $8, SI
	DECQ         CX
	JNZ          loop16z

done16z:
	VMOVUPD Z0, 0(DI)
	VMOVUPD Z1, K1, 64(DI)
	VZEROUPPER
	RET

// func dot8z(out, a, b []float64)
//
// dot64z for up to 8 impulses: the caller guarantees len(out) > 0 and len(a) >= len(b)+7.
TEXT ·dot8z(SB), NOSPLIT, $0-72
	MOVQ   out_base+0(FP), DI
	MOVQ   out_len+8(FP), R8
	MOVQ   a_base+24(FP), SI
	MOVQ   b_base+48(FP), DX
	MOVQ   b_len+56(FP), CX
	MOVQ   $8, R9
	CMPQ   R8, R9
	CMOVQGT R9, R8
	MOVQ   $1, R9
	SHLXQ  R8, R9, R9
	DECQ   R9
	KMOVB  R9, K1 // their mask
	VXORPD Z0, Z0, Z0
	TESTQ  CX, CX
	JZ     done8z
	LEAQ   -8(SI)(CX*8), SI

loop8z:
	VBROADCASTSD (DX), Z16
	VMULPD       0(SI), Z16, Z17
	VADDPD       Z17, Z0, Z0
	ADDQ         $8, DX
	SUBQ         $8, SI
	DECQ         CX
	JNZ          loop8z

done8z:
	VMOVUPD Z0, K1, 0(DI)
	VZEROUPPER
	RET
