package pmf

import (
	"math"
	"testing"
)

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

// TestSameStepAtTheTolerance: steps exactly 10⁻⁹ of the larger apart are still one step (the
// rule is "within", ≤). b = 10⁹·2⁻³⁰ rounds so that 10⁻⁹·b is 2⁻³⁰ exactly, and a = b − 2⁻³⁰ is
// exact (Sterbenz): |a − b| equals 10⁻⁹·max(a, b) to the bit, which the test checks first.
func TestSameStepAtTheTolerance(t *testing.T) {
	b := 0.9313225746154785
	d := math.Ldexp(1, -30)
	a := b - d
	if 1e-9*b != d || b-a != d {
		t.Fatalf("premise: 1e-9·b = %v, b − a = %v, want both 2⁻³⁰ = %v", 1e-9*b, b-a, d)
	}
	if !sameStep(a, b) || !sameStep(b, a) {
		t.Errorf("sameStep(%v, %v): steps 10⁻⁹ of the larger apart are not one step", a, b)
	}
}

// TestConvolveStepTolerance: a coarse step that is a whole multiple of the fine one up to
// 10⁻⁹ of the ratio is merged onto, and one off by more is refused. Steps 1 and 4 + 2·10⁻⁹: the
// ratio is 4 off by 2·10⁻⁹, within 10⁻⁹·4 = 4·10⁻⁹ (and beyond 10⁻⁹/4, a tolerance that shrinks as
// the ratio grows). Steps 1 and 4 + 10⁻⁸: off by 10⁻⁸, beyond 4·10⁻⁹.
func TestConvolveStepTolerance(t *testing.T) {
	fine := Impulse(0, 1)
	for _, c := range []struct {
		coarse float64
		ok     bool
	}{{4 + 2e-9, true}, {4 + 1e-8, false}} {
		got, err := Convolve(fine, Impulse(0, c.coarse))
		if (err == nil) != c.ok {
			t.Errorf("steps 1 and %v: error %v, want merged %v", c.coarse, err, c.ok)
			continue
		}
		if c.ok && math.Abs(got.Step()-4) > 1e-8 {
			t.Errorf("steps 1 and %v: convolved on step %v, want 4 (the fine merged onto the coarse)", c.coarse, got.Step())
		}
	}
}

// TestWholeStepsTolerance: a time counts as a whole number of steps when it is within 10⁻⁶ of a
// step of one, that bound included. 10⁻⁶ on step 1 is x = 10⁻⁶ to the bit, 0 steps off by
// exactly 10⁻⁶; 2·10⁻⁶ is off by more. 3.0000005 on step 1 is 3 steps, 2.5 none.
func TestWholeStepsTolerance(t *testing.T) {
	for _, c := range []struct {
		t, step float64
		n       int
		ok      bool
	}{{1e-6, 1, 0, true}, {-1e-6, 1, 0, true}, {2e-6, 1, 0, false}, {3.0000005, 1, 3, true}, {1.5, 0.5, 3, true}, {2.5, 1, 3, false}} {
		n, ok := wholeSteps(c.t, c.step)
		if ok != c.ok || ok && n != c.n {
			t.Errorf("wholeSteps(%v, %v) = %d, %v; want %d, %v", c.t, c.step, n, ok, c.n, c.ok)
		}
	}
}
