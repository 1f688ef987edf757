package pmf

import (
	"fmt"
	"math"
)

// Merge returns the PMF on a grid factor times coarser: each impulse moves to the nearest
// point of the coarse grid (ties go to the later point), so no probability moves by more than
// half a coarse step and the mean moves by at most that much. The coarse grid is a sub-lattice of
// the original one (it keeps the origin's phase), so merged PMFs of one PET stay aligned with
// each other. This is the bucketing of 000 §7.2.1 (Fig 6).
func (d PMF) Merge(factor int) PMF {
	if factor <= 1 {
		return d
	}
	f := int64(factor)
	base := int64(math.Round(d.origin / d.step))
	phase := d.origin - float64(base)*d.step
	first := nearestMultiple(base, f)
	last := nearestMultiple(base+int64(len(d.p))-1, f)
	out := make([]float64, (last-first)/f+1)
	for i, x := range d.p {
		j := nearestMultiple(base+int64(i), f)
		out[(j-first)/f] += x
	}
	step := d.step * float64(factor)
	return trimmed(phase+float64(first)*d.step, step, out)
}

// nearestMultiple returns the multiple of f nearest to g, ties upward.
func nearestMultiple(g, f int64) int64 {
	n := 2*g + f
	q := n / (2 * f)
	if n%(2*f) != 0 && n < 0 {
		q--
	}
	return q * f
}

// Crop folds the mass before lo into the first grid point at or after lo, and the mass after
// hi into the last grid point at or before hi (000 §7.2.1, Fig 6). Success chances for deadlines
// inside [lo, hi] are unchanged; the approximate engine crops a queue's completion PMF to the
// latest deadline in the batch. It is an error when no grid point lies in [lo, hi].
func (d PMF) Crop(lo, hi float64) (PMF, error) {
	if math.IsNaN(lo) || math.IsNaN(hi) || lo > hi {
		return PMF{}, fmt.Errorf("%w: crop range [%g, %g]", ErrInvalid, lo, hi)
	}
	a := lastIndexBefore(d.origin, d.step, lo) + 1 // first index at or after lo
	b := d.lastAtOrBefore(hi)                      // last index at or before hi
	if a > b {
		return PMF{}, fmt.Errorf("%w: no grid point of step %g in [%g, %g]", ErrInvalid, d.step, lo, hi)
	}
	a, b = max(a, min(0, b)), min(b, max(len(d.p)-1, a))
	out := make([]float64, b-a+1)
	for k, x := range d.p {
		out[min(max(k, a), b)-a] += x
	}
	return trimmed(d.Time(a), d.step, out), nil
}

// CapImpulses merges the PMF with the smallest factor that leaves at most n impulses (n ≥ 1).
func (d PMF) CapImpulses(n int) PMF {
	if n < 1 || len(d.p) <= n {
		return d
	}
	for f := max(2, (len(d.p)+n-1)/n); ; f++ {
		if m := d.Merge(f); m.Len() <= n {
			return m
		}
	}
}
