//go:build !amd64 || purego

package pmf

// Without the AVX2 kernel (another architecture, or the purego build tag), convolveInto always
// takes its scatter form.

func hasAVX2() bool { return false }

func dot32(out, a, b []float64) { panic("pmf: dot32 without AVX2") }
func dot16(out, a, b []float64) { panic("pmf: dot16 without AVX2") }
func dot8(out, a, b []float64)  { panic("pmf: dot8 without AVX2") }
