package pmf

import "testing"

// TestSameStep: steps equal up to rounding (10⁻⁹ of the larger) are one step; others are not.
// At 1000, 1000 + 10⁻⁷ is within 10⁻⁶ and 1000 + 10⁻⁵ is not; at 1, 1 + 10⁻¹² is within 10⁻⁹
// and 1.1 is not.
func TestSameStep(t *testing.T) {
	for _, c := range []struct {
		a, b float64
		want bool
	}{{1000, 1000 + 1e-7, true}, {1000 + 1e-7, 1000, true}, {1000, 1000 + 1e-5, false}, {1, 1 + 1e-12, true}, {1, 1.1, false}, {2, 2, true}} {
		if got := sameStep(c.a, c.b); got != c.want {
			t.Errorf("sameStep(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestConvolveMergesSteps: PMFs on steps 1 and 2 convolve on step 2, the finer merged onto it
// (SPEC §3). By hand: 0 and 2 with 1/2 each (step 1: weights .5, 0, .5) plus 2 for sure (step 2)
// is 2 or 4 with 1/2 each. Steps 2 and 3 are no multiples of each other: refused.
func TestConvolveMergesSteps(t *testing.T) {
	fine := mustNew(t, 0, 1, []float64{0.5, 0, 0.5})
	coarse := Impulse(2, 2)
	for _, pair := range [][2]PMF{{fine, coarse}, {coarse, fine}} {
		got, err := Convolve(pair[0], pair[1])
		if err != nil {
			t.Fatal(err)
		}
		if got.Step() != 2 || got.Len() != 2 || got.Time(0) != 2 || got.Prob(0) != 0.5 || got.Prob(1) != 0.5 {
			t.Errorf("Convolve on steps %v and %v: %v, want 2 and 4 with 1/2 each on step 2", pair[0].Step(), pair[1].Step(), got)
		}
	}
	if _, err := Convolve(Impulse(2, 2), Impulse(3, 3)); err == nil {
		t.Error("steps 2 and 3 convolved; want an error")
	}
}
