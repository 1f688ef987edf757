package pmf

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// sameStep reports whether two steps are equal up to rounding.
func sameStep(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(a, b) }

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
	out := make([]float64, len(a)+len(b)-1)
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

// convolveInto adds the first len(out) impulses of the grid convolution of a and b to out, which
// callers pass zeroed, and returns it. An evicting chain link asks only for the impulses up to
// the deadline, since what lands after it is killed and only its total is needed.
//
// It is convolveSlices' loop, each b[j] (b the shorter) scattered over out in turn, with the
// inner loop gonum's floats.AddScaled: a vectorised out[i] += y·a[i] on amd64 (packed multiplies
// and adds, never fused), so each impulse receives the same terms in the same order as in
// convolveSlices and the two agree to the bit, about twice as fast as the scalar loop
// (BenchmarkConvolve).
func convolveInto(out, a, b []float64) []float64 {
	if len(a) < len(b) {
		a, b = b, a
	}
	n := min(len(out), len(a)+len(b)-1)
	for j, y := range b[:min(len(b), n)] {
		if y == 0 {
			continue
		}
		m := min(n-j, len(a))
		floats.AddScaled(out[j:j+m], y, a[:m])
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
