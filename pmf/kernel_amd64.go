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
