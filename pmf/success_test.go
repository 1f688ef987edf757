package pmf

import (
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
