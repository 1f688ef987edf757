package pmf

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSuccessTable: SuccessTable, from the table of d unshifted, is d.Success after any shift,
// to the bit, on and off the grid, strict or not; and StartsAfter(t) holds exactly when
// conditioning on X > t leaves d as it is.
func TestSuccessTable(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	for trial := range 5000 {
		step := []float64{1, 0.5, 2}[trial%3]
		base := randomPMF(r, float64(r.IntN(10))*step, step, 1+r.IntN(70))
		table := base.CDFTable()
		d := base.Shift(float64(r.IntN(300)) * step)
		if trial%4 == 0 {
			d = base.Shift(r.Float64() * 300) // a start off the grid
		}
		at := d.Min() - 3*step + r.Float64()*(d.Max()-d.Min()+6*step)
		if trial%6 == 0 {
			at = d.Time(r.IntN(d.Len())) // on a grid point
		}
		strict := trial%4 >= 2 // on the grid too (trial%6 == 0)
		if got, want := d.SuccessTable(table, at, strict), d.Success(at, strict); got != want {
			t.Fatalf("trial %d: SuccessTable(%v, %v) = %v, Success %v", trial, at, strict, got, want)
		}
		if got, want := d.StartsAfter(at), same(d.Condition(at), d); got != want {
			t.Fatalf("trial %d: %v StartsAfter(%v) = %v, Condition leaves it: %v", trial, d, at, got, want)
		}
	}
	short := randomPMF(r, 0, 1, 5).CDFTable()
	if d := randomPMF(r, 0, 1, 9); d.SuccessTable(short, 4, false) != d.Success(4, false) {
		t.Fatal("a table of another PMF's length must not be read")
	}
}

// TestCDFTableOriginSteps: a table's origin in whole steps, asked with its own step and with
// others. Origin 6, step 2: 3 of its own steps, 2 steps of 3, 6 of 1, and no whole number of 4
// (6/4 = 1.5). The answer for another step must not be the table's kept one.
func TestCDFTableOriginSteps(t *testing.T) {
	table := mustNew(t, 6, 2, []float64{0.5, 0.5}).CDFTable()
	for _, c := range []struct {
		step  float64
		steps int
		whole bool
	}{{2, 3, true}, {3, 2, true}, {1, 6, true}, {4, 0, false}} {
		steps, whole := table.originSteps(c.step)
		if whole != c.whole || whole && steps != c.steps {
			t.Errorf("origin 6 in steps of %g: (%d, %v), want (%d, %v)", c.step, steps, whole, c.steps, c.whole)
		}
	}
}

// TestCDFTableMoment: the partial first moments of impulses 0.5, 0.3, 0.2 at 6, 8, 10, by hand:
// 0.5·6 = 3, then + 0.3·8 = 5.4, then + 0.2·10 = 7.4, the mean; an index past the last impulse
// gives the whole first moment, one before the first gives 0.
func TestCDFTableMoment(t *testing.T) {
	table := mustNew(t, 6, 2, []float64{0.5, 0.3, 0.2}).CDFTable()
	for j, want := range map[int]float64{-1: 0, 0: 3, 1: 5.4, 2: 7.4, 3: 7.4, 5: 7.4} {
		if got := table.moment(j); math.Abs(got-want) > 1e-12 {
			t.Errorf("moment(%d) = %v, want %v", j, got, want)
		}
	}
}
