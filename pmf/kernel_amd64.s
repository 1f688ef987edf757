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
