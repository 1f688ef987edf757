package petbuild

import (
	"fmt"
	"math"
	"slices"
	"strconv"
)

// inferStep finds the common step of the times of a file that does not state one (.etc, and
// Parquet without metadata): the largest s such that every time is a whole multiple of s. It is
// the greatest common divisor of the times, computed with Euclid's algorithm on floats, then
// snapped to 12 significant digits so that times written as 0.1, 0.2, 0.3 give the step 0.1
// rather than 0.09999999999999998. Times are multiples of the step, not merely equally spaced,
// because of the grid rule (every origin a whole number of steps; see the package doc).
//
// When the times are not on one lattice (1 and π, say), Euclid's remainders shrink towards
// zero; a step that would need more than maxCellImpulses grid points up to the largest time is
// rejected, and bad is the time at which the common step broke down.
func inferStep(times []float64) (step, bad float64, ok bool) {
	ts := make([]float64, 0, len(times))
	for _, t := range times {
		if t > 0 {
			ts = append(ts, t)
		}
	}
	if len(ts) == 0 {
		// Every impulse is at time 0: any step will do.
		return 1, 0, true
	}
	slices.Sort(ts)
	ts = slices.Compact(ts)
	maxT := ts[len(ts)-1]
	floor := maxT / maxCellImpulses
	tol := maxT * 1e-12
	g := ts[0]
	for _, t := range ts[1:] {
		g = floatGCD(t, g, tol)
		if g < floor {
			return 0, t, false
		}
	}
	snapped, err := strconv.ParseFloat(strconv.FormatFloat(g, 'g', 12, 64), 64)
	if err == nil && snapped > 0 && allOnLattice(ts, snapped) {
		return snapped, 0, true
	}
	for _, t := range ts {
		if !onLattice(t, g) {
			return 0, t, false
		}
	}
	return g, 0, true
}

// floatGCD is Euclid's algorithm with remainders of at most tol counted as zero, as are those
// within tol of the divisor (a multiple of it up to rounding from below).
func floatGCD(a, b, tol float64) float64 {
	if a < b {
		a, b = b, a
	}
	for b > tol {
		r := math.Mod(a, b)
		if b-r <= tol {
			// a is a multiple of b up to rounding from below.
			r = 0
		}
		a, b = b, r
	}
	return a
}

func allOnLattice(ts []float64, step float64) bool {
	for _, t := range ts {
		if !onLattice(t, step) {
			return false
		}
	}
	return true
}

// dense lays a cell's (time, probability) pairs out on the grid origin + k·step, origin being
// the cell's earliest time. Times must lie on the lattice of step and be distinct; on failure
// it returns the index of the offending pair with the reason, and on success -1 (as
// slices.Index does for no match).
func dense(times, probs []float64, step float64) (origin float64, w []float64, bad int, err error) {
	origin = slices.Min(times)
	last := slices.Max(times)
	span := (last - origin) / step
	if span+1 > maxCellImpulses {
		return 0, nil, slices.Index(times, last), fmt.Errorf("the cell spans %.0f steps of %g, %.0f grid points, more than the limit of %d", span, step, span+1, maxCellImpulses)
	}
	w = make([]float64, int(math.Round(span))+1)
	seen := make([]bool, len(w))
	for i, t := range times {
		if !onLattice(t, step) {
			return 0, nil, i, fmt.Errorf("is not a whole multiple of the step %g", step)
		}
		k := int(math.Round((t - origin) / step))
		if seen[k] {
			return 0, nil, i, fmt.Errorf("appears twice in the cell")
		}
		seen[k] = true
		w[k] = probs[i]
	}
	return origin, w, -1, nil
}
