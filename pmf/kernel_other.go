//go:build !amd64 || purego

package pmf

// Without the AVX2 and AVX-512 kernels (another architecture, or the purego build tag),
// convolveInto always takes its scatter form.

func hasAVX2() bool   { return false }
func hasAVX512() bool { return false }

func dot32(out, a, b []float64)  { panic("pmf: dot32 without AVX2") }
func dot16(out, a, b []float64)  { panic("pmf: dot16 without AVX2") }
func dot8(out, a, b []float64)   { panic("pmf: dot8 without AVX2") }
func dot64z(out, a, b []float64) { panic("pmf: dot64z without AVX-512") }

var dotZ [8]func(out, a, b []float64)
