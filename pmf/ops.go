package pmf

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// sameStep reports whether two steps are equal up to rounding. The steps of one PET are equal
// to the bit, which the first comparison settles (cachegrind, 10 MM replays: the whole test cost
// 0.9% of the instructions).
func sameStep(a, b float64) bool { return a == b || math.Abs(a-b) <= 1e-9*max(a, b) }

// commonStep returns a and b on one step: the coarser of the two when it is a whole multiple
// of the finer, with the finer PMF merged onto it (SPEC §3).
func commonStep(a, b PMF) (PMF, PMF, error) {
	if sameStep(a.step, b.step) {
		return a, b, nil
	}
	fine, coarse, swapped := a, b, false
	if a.step > b.step {
		fine, coarse, swapped = b, a, true
	}
	ratio := coarse.step / fine.step
	f := math.Round(ratio)
	if math.Abs(ratio-f) > 1e-9*ratio {
		return PMF{}, PMF{}, fmt.Errorf("%w: steps %g and %g are not whole multiples of each other", ErrInvalid, a.step, b.step)
	}
	fine = fine.Merge(int(f))
	if swapped {
		return coarse, fine, nil
	}
	return fine, coarse, nil
}

// Convolve returns the distribution of X + Y for independent X ~ a and Y ~ b: the completion
// time of a task whose execution time is b queued behind a predecessor that finishes at a.
func Convolve(a, b PMF) (PMF, error) {
	a, b, err := commonStep(a, b)
	if err != nil {
		return PMF{}, err
	}
	return PMF{origin: a.origin + b.origin, step: a.step, p: convolveSlices(a.p, b.p)}, nil
}

// convolveSlices is the grid convolution. Ends of a valid PMF are non-zero, so the result has
// non-zero ends as well (up to underflow, which trimmed would repair; it cannot occur with
// probabilities above 1e-154). It is the textbook loop, which the reference engine's links
// (AppendPlain) and Convolve keep; the fast engine's links use convolveInto.
func convolveSlices(a, b []float64) []float64 {
	return convolveSlicesTo(make([]float64, len(a)+len(b)-1), a, b)
}

// convolveSlicesTo is convolveSlices written into out, which callers pass zeroed and of length
// len(a)+len(b)-1.
func convolveSlicesTo(out, a, b []float64) []float64 {
	if len(a) < len(b) {
		a, b = b, a
	}
	for j, y := range b {
		if y == 0 {
			continue
		}
		o := out[j : j+len(a)]
		for i, x := range a {
			o[i] += x * y
		}
	}
	return out
}

// convolveInto writes the first len(out) impulses of the grid convolution of a and b to out,
// which callers pass zeroed, and returns it; pad is its scratch storage. An evicting chain link
// asks only for the impulses up to the deadline, since what lands after it is killed and only its
// total is needed.
//
// Every impulse out[k] = Σⱼ a[k−j]·b[j] (b the shorter) receives its terms in order of
// increasing j, each product rounded before it is added, as in convolveSlices, so the two agree
// to the bit (TestConvolveIntoMatchesTextbook). Where the processor has AVX-512 it sums 64
// impulses at a time in registers (convolveGatherZ), where it has AVX2 only, 32
// (convolveGather); elsewhere, and for a b of fewer than four impulses, it is convolveSlices' own
// scatter with gonum's vectorised inner loop (convolveScatter), which takes 1.5 to 2 times as
// long as AVX2's (BenchmarkConvolve). AVX-512's kernel is 1.4 to 1.8 times as fast as AVX2's on
// the machine the project is built on (its registers hold twice the impulses, and its masked
// stores write a last part-block in place, in as many eights as it needs): MCT replays about
// 1.08 times as fast (BenchmarkReplay).
func convolveInto(out, a, b []float64, pad *[]float64) []float64 {
	if len(a) < len(b) {
		a, b = b, a
	}
	n := min(len(out), len(a)+len(b)-1)
	switch {
	case avx512 && len(b) >= 4:
		return convolveGatherZ(out, a, b, n, pad)
	case avx2 && len(b) >= 4: // shorter b: the scatter's few passes cost less than the copy
		return convolveGather(out, a, b, n, pad)
	}
	return convolveScatter(out, a, b, n)
}

// avx2 is whether dot32 can run here, and avx512 whether dot64z can, found once.
var avx2, avx512 = hasAVX2(), hasAVX512()

// convolveScatter is convolveInto with the inner loop gonum's floats.AddScaled: out[i] += y·a[i]
// in packed multiplies and adds on amd64, never fused.
func convolveScatter(out, a, b []float64, n int) []float64 {
	for j, y := range b[:min(len(b), n)] {
		if y == 0 {
			continue
		}
		m := min(n-j, len(a))
		floats.AddScaled(out[j:j+m], y, a[:m])
	}
	return out
}

// convolveGather is convolveInto 32 impulses at a time (dot32), with the last part-block 8 or
// 16 at a time when it is that short (dot8, dot16: a chain's links often keep only a few
// impulses before their deadline), on a copy of a with zeros on either side, so that every
// impulse takes a term for every j: the terms beyond a's ends are +0, and adding +0 leaves a sum
// of non-negative terms as it was, to the bit. So does the textbook loop's skipping of zero b[j].
// Only a's first n impulses are copied: the first n outputs read no others. It writes out's
// impulses rather than adding to them.
func convolveGather(out, a, b []float64, n int, pad *[]float64) []float64 {
	lb := len(b)
	blocks := (n + 31) / 32
	if need := lb - 1 + blocks*32 + 32; cap(*pad) < need {
		*pad = make([]float64, need, need+need/4)
	}
	ap := (*pad)[:lb-1+blocks*32]
	last := (*pad)[len(ap) : len(ap)+32] // for a last part-block
	clear(ap[:lb-1])                     // ap[lb−1+i] = a[i], zeros elsewhere
	clear(ap[lb-1+copy(ap[lb-1:], a[:min(len(a), n)]):])
	k := 0
	for ; k+32 <= n; k += 32 {
		dot32(out[k:k+32], ap[k:k+lb+31], b)
	}
	r := n - k
	if r == 0 {
		return out
	}
	w := 32
	switch {
	case r <= 8:
		w = 8
	case r <= 16:
		w = 16
	}
	dst := last[:w]
	if r == w {
		dst = out[k : k+w]
	}
	switch w {
	case 8:
		dot8(dst, ap[k:k+lb+7], b)
	case 16:
		dot16(dst, ap[k:k+lb+15], b)
	default:
		dot32(dst, ap[k:k+lb+31], b)
	}
	if r != w {
		copy(out[k:n], dst)
	}
	return out
}

// convolveGatherZ is convolveGather in AVX-512 registers: 64 impulses at a time (dot64z), and
// the last part-block in as many eights as it needs (dotZ), written in place under a mask.
func convolveGatherZ(out, a, b []float64, n int, pad *[]float64) []float64 {
	lb := len(b)
	blocks := (n + 63) / 64
	if need := lb - 1 + blocks*64; cap(*pad) < need {
		*pad = make([]float64, need, need+need/4)
	}
	ap := (*pad)[:lb-1+blocks*64]
	clear(ap[:lb-1]) // ap[lb−1+i] = a[i], zeros elsewhere
	clear(ap[lb-1+copy(ap[lb-1:], a[:min(len(a), n)]):])
	k := 0 // each kernel reads len(b)+63 or fewer impulses of ap from k on, which ap holds
	for ; k+64 <= n; k += 64 {
		dot64z(out[k:k+64], ap[k:], b)
	}
	if r := n - k; r > 0 {
		dotZ[(r-1)/8](out[k:n], ap[k:], b)
	}
	return out
}

// wholeSteps reports the whole number of steps in t, and whether t is (within rounding) such a
// whole number.
func wholeSteps(t, step float64) (int, bool) {
	x := t / step
	r := math.Round(x)
	return int(r), math.Abs(x-r) <= 1e-6
}
