package petbuild

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestInferStep: hand-worked cases at the edges of the inference.
func TestInferStep(t *testing.T) {
	tiny := 1e-315 // subnormal: the tolerance maxT·10⁻¹² underflows to 0
	for _, c := range []struct {
		name  string
		times []float64
		step  float64
		bad   float64 // the time reported when !ok
		ok    bool
	}{
		// Only time 0: no positive time to take a step from, so any step will do, and 1 is
		// the documented answer.
		{"only zeros", []float64{0, 0}, 1, 0, true},
		// Euclid in floats gives 0.3 mod 0.2 = 0.09999999999999998, and 0.2 mod that is
		// below the tolerance: the raw answer is 0.09999999999999998, which 12 significant
		// digits snap to 0.1, and 0.2, 0.3 are whole multiples of 0.1.
		{"snapped to 0.1", []float64{0.2, 0.3}, 0.1, 0, true},
		// The floor is maxT / 2^20 = 2^20 / 2^20 = 1, and gcd(1, 2^20) = 1 is not below it:
		// step 1 needs exactly 2^20 grid points up to the largest time, which is allowed.
		{"step at the floor", []float64{1, 1 << 20}, 1, 0, true},
		// Half the floor: 0.5 < 2^20 / 2^20 = 1, so the step is rejected at 2^20.
		{"step below the floor", []float64{0.5, 1 << 20}, 0, 1 << 20, false},
		// maxT = 1000, so the tolerance is 10⁻⁹, and 1 + 5·10⁻¹⁰ is 1 up to rounding.
		// Euclid divides the larger by the smaller: (1 + 5·10⁻¹⁰) mod 1 = 5·10⁻¹⁰ ≤ 10⁻⁹
		// ends with 1, and 1000 mod 1 = 0: step 1. Dividing the smaller by the larger instead
		// keeps 1 + 5·10⁻¹⁰, whose remainders with 1000 run far below the floor 1000/2^20.
		{"rounding below tolerance", []float64{1, 1 + 5e-10, 1000}, 1, 0, true},
		// With a tolerance of 0, Euclid must stop at the exact zero remainder:
		// 2·tiny mod tiny = 0, so the step is tiny (a reader then rejects it as too fine).
		{"zero tolerance", []float64{tiny, 2 * tiny}, tiny, 0, true},
		{"off lattice", []float64{1, math.Pi}, 0, math.Pi, false},
	} {
		step, bad, ok := inferStep(c.times)
		if step != c.step || bad != c.bad || ok != c.ok {
			t.Errorf("%s: inferStep(%v) = %v, %v, %v, want %v, %v, %v", c.name, c.times, step, bad, ok, c.step, c.bad, c.ok)
		}
	}
}

// TestInferStepBruteForce: times n·10⁻ᵉ written in decimal, n small integers, against the
// largest candidate k·10⁻ᵉ (k = 1, 2, ... up to the smallest positive n) that divides every n,
// found by trying each k in integers.
func TestInferStepBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(52, 3))
	for range 2000 {
		e := r.IntN(4)
		ns := make([]int, 1+r.IntN(5))
		times := make([]float64, len(ns))
		scale := 1 + r.IntN(6) // a common factor, so the answer is often above 1
		for i := range ns {
			ns[i] = scale * r.IntN(40)
			times[i] = fromDecimal(t, ns[i], e)
		}
		want, wantOK := 1.0, true // every time 0: the documented answer 1
		if k := bruteStep(ns); k > 0 {
			want = fromDecimal(t, k, e)
		}
		step, _, ok := inferStep(times)
		if step != want || ok != wantOK {
			t.Fatalf("inferStep(%v) = %v, %v, want %v", times, step, ok, want)
		}
	}
}

// fromDecimal parses n·10⁻ᵉ from its decimal text, as a reader of a file would.
func fromDecimal(t *testing.T, n, e int) float64 {
	x, err := strconv.ParseFloat(fmt.Sprintf("%de-%d", n, e), 64)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// bruteStep is the largest k dividing every positive n, 0 when none is positive.
func bruteStep(ns []int) int {
	lo := 0
	for _, n := range ns {
		if n > 0 && (lo == 0 || n < lo) {
			lo = n
		}
	}
	for k := lo; k >= 1; k-- {
		all := true
		for _, n := range ns {
			all = all && n%k == 0
		}
		if all {
			return k
		}
	}
	return 0
}

// TestFloatGCD: hand-worked cases in binary fractions (exact in float64), the tolerance 1/4.
func TestFloatGCD(t *testing.T) {
	for _, c := range []struct{ a, b, tol, want float64 }{
		{12, 18, 0, 6}, // 18 mod 12 = 6, 12 mod 6 = 0
		// 1.125 mod 1 = 0.125 ≤ 1/4 counts as 0: gcd 1, whichever argument comes first.
		{1, 1.125, 0.25, 1},
		{1.125, 1, 0.25, 1},
		// 2.75 mod 1 = 0.75, and 1 − 0.75 = 1/4 ≤ 1/4: 2.75 is 3·1 up to rounding from below,
		// so the remainder counts as 0 and the answer is 1 (not gcd(1, 0.75) = 0.25, nor 0.75).
		{2.75, 1, 0.25, 1},
		// b = 1/4 is itself within the tolerance of 0: gcd(3, "0") = 3.
		{3, 0.25, 0.25, 3},
	} {
		if got := floatGCD(c.a, c.b, c.tol); got != c.want {
			t.Errorf("floatGCD(%v, %v, %v) = %v, want %v", c.a, c.b, c.tol, got, c.want)
		}
	}
}

// TestDenseLimit: a cell may hold maxCellImpulses = 2^20 grid points and no more.
func TestDenseLimit(t *testing.T) {
	// From 1 to 2^20 in steps of 1: 2^20 − 1 steps, 2^20 points, the limit itself.
	origin, w, bad, err := dense([]float64{1 << 20, 1}, []float64{0.5, 0.5}, 1)
	if err != nil || origin != 1 || len(w) != maxCellImpulses || w[0] != 0.5 || w[len(w)-1] != 0.5 || bad != -1 {
		t.Fatalf("2^20 points: origin %v, %d weights, bad %d, %v", origin, len(w), bad, err)
	}
	// From 0 to 2^20: 2^20 steps, 2^20 + 1 points, one too many; the last time is blamed.
	_, _, bad, err = dense([]float64{0, 1 << 20}, []float64{0.5, 0.5}, 1)
	if err == nil || bad != 1 || !strings.Contains(err.Error(), "the cell spans 1048576 steps of 1, 1048577 grid points, more than the limit of 1048576") {
		t.Fatalf("2^20 + 1 points: bad %d, %v", bad, err)
	}
}
