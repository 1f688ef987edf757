package petbuild

import (
	"fmt"
	"math"
)

// Limits on a cell's grid origin + k·step. New enforces them for every PET, and every reader
// reports a breach as a *ReadError naming the file, the cell and the value (assemble), so a
// matrix that passes them can be replayed without the index arithmetic overflowing.
const (
	// maxTime bounds every time of a PET, the step included: 1e15 time units (31,700 years in
	// ms). float64 holds whole numbers exactly only up to 2^53 ≈ 9e15, so near 1e15 adjacent
	// floats are already 1/8 unit apart and a finer grid could no longer be laid out.
	maxTime = 1e15
	// minStep is the finest step, a billionth of the time unit (a picosecond in ms). A replay
	// adds execution times to clock times of up to about 1e7 units, where adjacent float64
	// values are 2e-9 apart, so a finer step would vanish in rounding and every task would
	// finish the moment it started.
	minStep = 1e-9
	// maxGridIndex bounds a cell's largest time in steps from 0. Package pmf saturates grid
	// indices at ±2^31 (pmf clampIndex); half of that leaves room to add the indices of two
	// cells, as a convolution does, without reaching the saturation point.
	maxGridIndex = 1 << 30
)

// gridError says which part of a cell's grid is unusable, with the value, so that readers
// can report it as a field and a value and New as one line.
type gridError struct {
	field string // "step", "origin" or "last time"
	value float64
	msg   string
}

func (e *gridError) Error() string { return e.field + " " + num(e.value) + " " + e.msg }

// checkStep reports a step the package cannot work with: not a finite number in
// [minStep, maxTime].
func checkStep(step float64) *gridError {
	switch {
	case !(step > 0) || math.IsInf(step, 0):
		return &gridError{"step", step, "is not a positive finite number"}
	case step < minStep:
		return &gridError{"step", step, fmt.Sprintf("is below %g, the finest usable step (it would vanish in rounding once added to clock times)", float64(minStep))}
	case step > maxTime:
		return &gridError{"step", step, fmt.Sprintf("exceeds %g, the longest usable time", float64(maxTime))}
	}
	return nil
}

// checkGrid reports why the grid origin + k·step, 0 ≤ k < n, of a cell is unusable: a bad
// step, an origin that is negative or not finite, or a support that reaches beyond maxTime or
// more than maxGridIndex steps from 0.
func checkGrid(origin, step float64, n int) *gridError {
	if err := checkStep(step); err != nil {
		return err
	}
	if !(origin >= 0) || math.IsInf(origin, 0) {
		return &gridError{"origin", origin, "is not a non-negative finite number"}
	}
	for _, x := range []struct {
		field string
		t     float64
	}{{"origin", origin}, {"last time", origin + float64(n-1)*step}} {
		if x.t > maxTime {
			return &gridError{x.field, x.t, fmt.Sprintf("exceeds %g, the longest usable time", float64(maxTime))}
		}
		if k := x.t / step; k > maxGridIndex {
			return &gridError{x.field, x.t, fmt.Sprintf("is %.4g steps of %s from 0, beyond the %d grid points the index arithmetic allows", k, num(step), maxGridIndex)}
		}
	}
	return nil
}

// coarseStepError is the rule for a step a user chooses (a synthetic PET's step, a fixed bin
// width, a merge): it must be shorter than the largest mean execution time of the matrix,
// since otherwise even the slowest cell's typical time falls in its first bin and every
// histogram collapses into a bin or two.
// what names the step in the message, e.g. "bin width".
func coarseStepError(what string, step, largestMean float64) error {
	if step < largestMean {
		return nil
	}
	return fmt.Errorf("%s %s is not shorter than the largest mean execution time %.6g: every cell's histogram would collapse into a bin or two",
		what, num(step), largestMean)
}
