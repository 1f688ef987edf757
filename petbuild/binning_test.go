package petbuild

import (
	"math"
	"testing"
)

// TestCellWidth: each binning's proposed width on samples small enough to work by hand.
func TestCellWidth(t *testing.T) {
	for _, c := range []struct {
		name string
		b    Binning
		x    []float64
		want float64
	}{
		// One sample has no spread.
		{"one sample", Binning{Bins: 2}, []float64{3}, 0},
		// Two samples are enough: range 5 − 1 = 4 over 2 bins.
		{"bins", Binning{Bins: 2}, []float64{1, 5}, 2},
		// Range 4 over ⌈√5⌉ = 3 bins.
		{"sqrt", Binning{Rule: RuleSqrt}, []float64{1, 2, 3, 4, 5}, 4.0 / 3},
		// Mean 2, squares of deviations 8 × 4 = 32, s = √(32/7); n = 8 so n^(−1/3) = 1/2:
		// 3.49 · √(32/7) / 2.
		{"scott", Binning{Rule: RuleScott}, []float64{0, 0, 0, 0, 4, 4, 4, 4}, 3.49 * math.Sqrt(32.0/7) / 2},
		// Quartiles by R's type 7: h = 0.25 · 7 = 1.75 gives 1 + 0.75 · (2 − 1) = 1.75, h = 0.75 · 7
		// = 5.25 gives 16 + 0.25 · (32 − 16) = 20; IQR 18.25, n^(−1/3) = 1/2: 2 · 18.25 / 2.
		{"fd", Binning{Rule: RuleFreedmanDiaconis}, []float64{0, 1, 2, 4, 8, 16, 32, 64}, 18.25},
	} {
		if got := c.b.cellWidth(c.x); math.Abs(got-c.want) > 1e-12*c.want {
			t.Errorf("%s: cellWidth(%v) = %v, want %v", c.name, c.x, got, c.want)
		}
	}
}

// TestQuantile checks the type 7 quantile against R: quantile(c(1, 2, 10, 20), p, type = 7).
func TestQuantile(t *testing.T) {
	x := []float64{1, 2, 10, 20}
	for _, c := range []struct{ p, want float64 }{
		{0, 1},
		{0.25, 1.75}, // h = 0.75: 1 + 0.75 · (2 − 1)
		{0.5, 6},     // h = 1.5: 2 + 0.5 · (10 − 2)
		{0.75, 12.5}, // h = 2.25: 10 + 0.25 · (20 − 10)
		{1, 20},      // h = 3, the last sample: nothing above it to interpolate with
	} {
		if got := quantile(x, c.p); got != c.want {
			t.Errorf("quantile(%v, %v) = %v, want %v", x, c.p, got, c.want)
		}
	}
	if got := quantile([]float64{5}, 0.25); got != 5 {
		t.Errorf("quantile of one sample = %v, want 5", got)
	}
}

// TestSampleSD checks the n − 1 standard deviation against the textbook, and that it does not
// depend on where the samples sit: times 10⁷ units from 0 (a replay's clock in ms) with a
// spread of tenths keep the spread of the same samples near 0 to a millionth.
func TestSampleSD(t *testing.T) {
	// 1..5: mean 3, squares of deviations 4 + 1 + 0 + 1 + 4 = 10, s² = 10/4.
	want := math.Sqrt(2.5)
	if got := sampleSD([]float64{1, 2, 3, 4, 5}); math.Abs(got-want) > 1e-15 {
		t.Errorf("sampleSD(1..5) = %v, want %v", got, want)
	}
	// 0, 0, 0, 0, 4, 4, 4, 4: deviations ±2, s² = 32/7.
	if got, want := sampleSD([]float64{0, 0, 0, 0, 4, 4, 4, 4}), math.Sqrt(32.0/7); math.Abs(got-want) > 1e-15 {
		t.Errorf("sampleSD(0⁴ 4⁴) = %v, want %v", got, want)
	}
	shifted := []float64{1e7 + 0.1, 1e7 + 0.2, 1e7 + 0.3, 1e7 + 0.4, 1e7 + 0.5}
	if got := sampleSD(shifted); math.Abs(got/(want/10)-1) > 1e-6 {
		t.Errorf("sampleSD(10⁷ + 0.1..0.5) = %v, want %v", got, want/10)
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		x    []float64
		want float64
	}{
		{[]float64{3, 1, 2}, 2},       // sorted 1 2 3: the middle one
		{[]float64{10, 1, 3, 2}, 2.5}, // sorted 1 2 3 10: (2 + 3) / 2
		{[]float64{7}, 7},
	} {
		if got := median(c.x); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

// TestParseBinningOneBin: one bin per cell is a positive count like any other.
func TestParseBinningOneBin(t *testing.T) {
	if b, err := ParseBinning("bins:1"); err != nil || b != (Binning{Bins: 1}) {
		t.Errorf("ParseBinning(bins:1) = %+v, %v; want bins 1", b, err)
	}
}

// TestNiceNumberUnderflow: 1 × 10⁻⁴⁰⁰ parses to 0 (below the smallest float64), which is no
// width, so niceNumber falls back to the width it was given.
func TestNiceNumberUnderflow(t *testing.T) {
	if got := niceNumber(1, -400, 3); got != 3 {
		t.Errorf("niceNumber(1, -400, 3) = %v, want 3", got)
	}
	if got := niceNumber(2, -3, 3); got != 0.002 {
		t.Errorf("niceNumber(2, -3, 3) = %v, want 0.002", got)
	}
}

// TestBinIndex: bins are ((k−1)·step, k·step], so a time on the grid is the upper edge of its
// bin; 2.1 / 0.3 is 7.000000000000001 in float64 and still goes to bin 7. Indices up to
// maxBinIndex = 2⁵⁰ are allowed.
func TestBinIndex(t *testing.T) {
	for _, c := range []struct {
		t, step float64
		want    int
	}{
		{2, 2, 1}, {2.5, 2, 2}, {4, 2, 2}, {0, 2, 1}, {2.1, 0.3, 7}, {0.3, 0.1, 3},
		{1 << 50, 1, 1 << 50},
	} {
		if got, err := binIndex(c.t, c.step); err != nil || got != c.want {
			t.Errorf("binIndex(%v, %v) = %d, %v; want %d", c.t, c.step, got, err, c.want)
		}
	}
	if _, err := binIndex(1<<50+1, 1); err == nil {
		t.Error("binIndex(2⁵⁰ + 1, 1): no error")
	}
}

// TestLinearIndex: a time between grid points is split so the mean is kept; one within 10⁻⁹
// steps of a grid point (2.1 / 0.3 = 7.000000000000001, 0.3 / 0.1 = 2.9999999999999996) goes
// to it whole. At exactly 10⁻⁹ steps the share is kept, so the mean stays the time itself.
func TestLinearIndex(t *testing.T) {
	for _, c := range []struct {
		t, step float64
		k       int
		f       float64
	}{
		{4, 2, 2, 0}, {5, 2, 2, 0.5}, {2.1, 0.3, 7, 0}, {0.3, 0.1, 3, 0}, {1e-9, 1, 0, 1e-9},
		{1 << 50, 1, 1 << 50, 0},
	} {
		k, f, err := linearIndex(c.t, c.step)
		if err != nil || k != c.k || f != c.f {
			t.Errorf("linearIndex(%v, %v) = %d, %v, %v; want %d, %v", c.t, c.step, k, f, err, c.k, c.f)
		}
	}
	if _, _, err := linearIndex(1<<50+1, 1); err == nil {
		t.Error("linearIndex(2⁵⁰ + 1, 1): no error")
	}
}

// TestHistogramSpan: a cell may span maxCellImpulses bins, grown downwards or upwards, and not
// one more. On step 1 a whole time k is bin k (TestBinIndex).
func TestHistogramSpan(t *testing.T) {
	const m = maxCellImpulses
	for _, c := range []struct {
		name  string
		times []float64
		ok    bool
	}{
		{"down, m bins", []float64{m + 10, 11}, true},    // bins 11..m+10
		{"down, m+1 bins", []float64{m + 10, 10}, false}, // bins 10..m+10
		{"up, m bins", []float64{10, m + 9}, true},
		{"up, m+1 bins", []float64{10, m + 10}, false},
		// Grown up by one bin, then down to m − 1 bins: 3..m+1.
		{"up then down", []float64{m, m + 1, 3}, true},
	} {
		d, err := histogram(c.times, 1)
		if (err == nil) != c.ok {
			t.Errorf("%s: error %v, want ok %v", c.name, err, c.ok)
			continue
		}
		if !c.ok {
			continue
		}
		// The impulses are the times themselves, evenly weighted, from the smallest to the
		// largest time.
		lo, hi := c.times[0], c.times[0]
		for _, x := range c.times {
			lo, hi = min(lo, x), max(hi, x)
		}
		n := float64(len(c.times))
		if d.Origin() != lo || d.Max() != hi || d.Len() != int(hi-lo)+1 || d.Prob(0) != 1/n || d.Prob(d.Len()-1) != 1/n {
			t.Errorf("%s: histogram origin %v max %v len %d first %v last %v; want %v..%v, %v each",
				c.name, d.Origin(), d.Max(), d.Len(), d.Prob(0), d.Prob(d.Len()-1), lo, hi, 1/n)
		}
	}
}

// TestNiceFloorCeil: the nearest of 1, 2, 5 × 10^k below and above, a nice number itself
// being both.
func TestNiceFloorCeil(t *testing.T) {
	for _, c := range []struct{ w, floor, ceil float64 }{
		{1, 1, 1}, {1.5, 1, 2}, {2, 2, 2}, {3, 2, 5}, {4, 2, 5}, {5, 5, 5}, {7, 5, 10},
		{0.15, 0.1, 0.2}, {0.019, 0.01, 0.02}, {140, 100, 200},
	} {
		if got := niceFloor(c.w); got != c.floor {
			t.Errorf("niceFloor(%v) = %v, want %v", c.w, got, c.floor)
		}
		if got := niceCeil(c.w); got != c.ceil {
			t.Errorf("niceCeil(%v) = %v, want %v", c.w, got, c.ceil)
		}
	}
}
