//go:build !purego

#include "textflag.h"

// The AVX-512 kernels dot64z, dot56z, … dot8z: dot32 for up to 64, 56, … 8 impulses, in as many
// ZMM registers of eight, the same sums in the same order (VMULPD, VADDPD: never fused). Each
// is DOTZ with its count of registers: out[r] for r below min(len(out), width), the last
// register stored under a mask (K1) of its impulses below len(out), so that a last part-block is
// written in place and nothing past len(out) is. The caller guarantees len(out) > width−8 and
// len(a) >= len(b)+width−1.

// ZARGS loads the arguments as dot32 does and sets K1 to the mask of the impulses below len(out)
// in the last register, the registers before it holding full impulses.
#define ZARGS(full) \
	MOVQ    out_base+0(FP), DI; \
	MOVQ    out_len+8(FP), R8; \
	MOVQ    a_base+24(FP), SI; \
	MOVQ    b_base+48(FP), DX; \
	MOVQ    b_len+56(FP), CX; \
	SUBQ    $full, R8; \
	MOVQ    $8, R9; \
	CMPQ    R8, R9; \
	CMOVQGT R9, R8; \
	MOVQ    $1, R9; \
	SHLXQ   R8, R9, R9; \
	DECQ    R9; \
	KMOVB   R9, K1

// ZSTEP adds the products of the eight impulses of a at off with the broadcast b[j] (Z16) to
// the sum acc, through tmp.
#define ZSTEP(off, acc, tmp) \
	VMULPD off(SI), Z16, tmp; \
	VADDPD tmp, acc, acc

#define ZCLR1 VXORPD Z0, Z0, Z0
#define ZCLR2 ZCLR1; VXORPD Z1, Z1, Z1
#define ZCLR3 ZCLR2; VXORPD Z2, Z2, Z2
#define ZCLR4 ZCLR3; VXORPD Z3, Z3, Z3
#define ZCLR5 ZCLR4; VXORPD Z4, Z4, Z4
#define ZCLR6 ZCLR5; VXORPD Z5, Z5, Z5
#define ZCLR7 ZCLR6; VXORPD Z6, Z6, Z6
#define ZCLR8 ZCLR7; VXORPD Z7, Z7, Z7

#define ZSTEP1 ZSTEP(0, Z0, Z17)
#define ZSTEP2 ZSTEP1; ZSTEP(64, Z1, Z18)
#define ZSTEP3 ZSTEP2; ZSTEP(128, Z2, Z19)
#define ZSTEP4 ZSTEP3; ZSTEP(192, Z3, Z20)
#define ZSTEP5 ZSTEP4; ZSTEP(256, Z4, Z21)
#define ZSTEP6 ZSTEP5; ZSTEP(320, Z5, Z22)
#define ZSTEP7 ZSTEP6; ZSTEP(384, Z6, Z23)
#define ZSTEP8 ZSTEP7; ZSTEP(448, Z7, Z24)

#define ZFULL1 VMOVUPD Z0, 0(DI)
#define ZFULL2 ZFULL1; VMOVUPD Z1, 64(DI)
#define ZFULL3 ZFULL2; VMOVUPD Z2, 128(DI)
#define ZFULL4 ZFULL3; VMOVUPD Z3, 192(DI)
#define ZFULL5 ZFULL4; VMOVUPD Z4, 256(DI)
#define ZFULL6 ZFULL5; VMOVUPD Z5, 320(DI)
#define ZFULL7 ZFULL6; VMOVUPD Z6, 384(DI)
#define ZSTORE1 VMOVUPD Z0, K1, 0(DI)
#define ZSTORE2 ZFULL1; VMOVUPD Z1, K1, 64(DI)
#define ZSTORE3 ZFULL2; VMOVUPD Z2, K1, 128(DI)
#define ZSTORE4 ZFULL3; VMOVUPD Z3, K1, 192(DI)
#define ZSTORE5 ZFULL4; VMOVUPD Z4, K1, 256(DI)
#define ZSTORE6 ZFULL5; VMOVUPD Z5, K1, 320(DI)
#define ZSTORE7 ZFULL6; VMOVUPD Z6, K1, 384(DI)
#define ZSTORE8 ZFULL7; VMOVUPD Z7, K1, 448(DI)

// DOTZ is the body of the kernel of n registers of eight impulses: clear, step and store are
// ZCLRn, ZSTEPn and ZSTOREn, full is 8·(n−1).
#define DOTZ(clear, step, store, full) \
	ZARGS(full); \
	clear; \
	TESTQ CX, CX; \
	JZ    done; \
	LEAQ  -8(SI)(CX*8), SI; \
loop: \
	VBROADCASTSD (DX), Z16; \
	step; \
	ADDQ  $8, DX; \
	SUBQ  $8, SI; \
	DECQ  CX; \
	JNZ   loop; \
done: \
	store; \
	VZEROUPPER; \
	RET

// func dot64z(out, a, b []float64)
TEXT ·dot64z(SB), NOSPLIT, $0-72
	DOTZ(ZCLR8, ZSTEP8, ZSTORE8, 56)

// func dot56z(out, a, b []float64)
TEXT ·dot56z(SB), NOSPLIT, $0-72
	DOTZ(ZCLR7, ZSTEP7, ZSTORE7, 48)

// func dot48z(out, a, b []float64)
TEXT ·dot48z(SB), NOSPLIT, $0-72
	DOTZ(ZCLR6, ZSTEP6, ZSTORE6, 40)

// func dot40z(out, a, b []float64)
TEXT ·dot40z(SB), NOSPLIT, $0-72
	DOTZ(ZCLR5, ZSTEP5, ZSTORE5, 32)

// func dot32z(out, a, b []float64)
TEXT ·dot32z(SB), NOSPLIT, $0-72
	DOTZ(ZCLR4, ZSTEP4, ZSTORE4, 24)

// func dot24z(out, a, b []float64)
TEXT ·dot24z(SB), NOSPLIT, $0-72
	DOTZ(ZCLR3, ZSTEP3, ZSTORE3, 16)

// func dot16z(out, a, b []float64)
TEXT ·dot16z(SB), NOSPLIT, $0-72
	DOTZ(ZCLR2, ZSTEP2, ZSTORE2, 8)

// func dot8z(out, a, b []float64)
TEXT ·dot8z(SB), NOSPLIT, $0-72
	DOTZ(ZCLR1, ZSTEP1, ZSTORE1, 0)
