//go:build !purego

package pmf

// dot32 writes 32 consecutive impulses of a convolution to out (kernel_amd64.s).
//
//go:noescape
func dot32(out, a, b []float64)

// dot16 and dot8 are dot32 for 16 and 8 impulses, for a convolution's last part-block.
//
//go:noescape
func dot16(out, a, b []float64)

//go:noescape
func dot8(out, a, b []float64)

// dot64z is dot32 for 64 impulses in AVX-512 registers, and dot56z to dot8z for fewer, eight at a
// time (kernel_avx512_amd64.s): the same sums in the same order.
//
//go:noescape
func dot64z(out, a, b []float64)

//go:noescape
func dot56z(out, a, b []float64)

//go:noescape
func dot48z(out, a, b []float64)

//go:noescape
func dot40z(out, a, b []float64)

//go:noescape
func dot32z(out, a, b []float64)

//go:noescape
func dot24z(out, a, b []float64)

//go:noescape
func dot16z(out, a, b []float64)

//go:noescape
func dot8z(out, a, b []float64)

// dotZ is the AVX-512 kernels by width in eighths: dotZ[k] sums 8·(k+1) impulses.
var dotZ = [8]func(out, a, b []float64){dot8z, dot16z, dot24z, dot32z, dot40z, dot48z, dot56z, dot64z}

func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() (eax, edx uint32)

// hasAVX2 reports whether the processor and the operating system support AVX2: CPUID's AVX,
// OSXSAVE and AVX2 bits, and XCR0's XMM and YMM state bits.
func hasAVX2() bool {
	if n, _, _, _ := cpuid(0, 0); n < 7 {
		return false
	}
	_, _, c1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if c1&osxsave == 0 || c1&avx == 0 {
		return false
	}
	if x, _ := xgetbv(); x&6 != 6 {
		return false
	}
	_, b7, _, _ := cpuid(7, 0)
	return b7&(1<<5) != 0
}

// hasAVX512 reports whether the processor and the operating system support AVX-512F: hasAVX2's
// conditions, CPUID's AVX512F bit, and XCR0's opmask and upper ZMM state bits.
func hasAVX512() bool {
	if !hasAVX2() {
		return false
	}
	if x, _ := xgetbv(); x&0xe6 != 0xe6 {
		return false
	}
	_, b7, _, _ := cpuid(7, 0)
	return b7&(1<<16) != 0
}
