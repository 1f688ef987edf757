package petbuild

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// cellSamples is n samples of one cell.
func cellSamples(task, machine string, times ...float64) []Sample {
	out := make([]Sample, len(times))
	for i, x := range times {
		out[i] = Sample{task, machine, x}
	}
	return out
}

// evenly is n times evenly spaced over [lo, hi], ascending.
func evenly(n int, lo, hi float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = lo + (hi-lo)*float64(i)/float64(n-1)
	}
	return out
}

// TestFitSampleSD checks the provenance's sample standard deviation (n − 1 in the
// denominator) against hand computations.
func TestFitSampleSD(t *testing.T) {
	for _, c := range []struct {
		times []float64
		want  float64
	}{
		{[]float64{7}, 0}, // one sample: no spread to speak of
		// Mean 2, squared deviations 1 + 1 = 2, over n − 1 = 1: sd √2.
		{[]float64{1, 3}, math.Sqrt2},
		// Mean 3, squared deviations 4 + 1 + 9 = 14, over n − 1 = 2: sd √7.
		{[]float64{1, 2, 6}, math.Sqrt(7)},
		// Mean 5, squared deviations 9 + 1 + 1 + 9 = 20, over 3: sd √(20/3).
		{[]float64{8, 4, 2, 6}, math.Sqrt(20.0 / 3)},
	} {
		p, err := FitSlice(cellSamples("a", "x", c.times...), FitOptions{Binning: Binning{Width: 1}, MinSamples: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Provenance(0, 0).SampleSD; !(math.Abs(got-c.want) <= 1e-12) {
			t.Errorf("samples %v: sd %v, want %v", c.times, got, c.want)
		}
	}
}

// TestFitSpanError: a fixed bin width that cannot hold a cell's samples names the cell, the
// samples' range and the narrowest width that would, whichever order the samples come in.
func TestFitSpanError(t *testing.T) {
	// 10 and 3e7 on a width of 2 are 1.5e7 bins apart, more than 2^20. The narrowest width:
	// (3e7 − 10) / (2^20 − 2) = 29999990 / 1048574 = 28.61, rounded up to two digits: 29.
	const want = "sample 2: cell task=a machine=x: samples from 10 to 3e+07 span more than 1048576 bins of width 2; use a wider bin: 29 or more fits them"
	for _, times := range [][]float64{{10, 3e7}, {3e7, 10}} {
		_, err := FitSlice(cellSamples("a", "x", times...), FitOptions{Binning: Binning{Width: 2}, MinSamples: 1})
		var se *SpanError
		if !errors.As(err, &se) || se.Min != 10 || se.Max != 3e7 || se.Step != 2 {
			t.Fatalf("samples %v: error %v (%+v), want a span error from 10 to 3e7", times, err, se)
		}
		if err.Error() != want {
			t.Errorf("samples %v: error\n%s\nwant\n%s", times, err, want)
		}
	}
	// Without a cell the message starts at the samples.
	e := &SpanError{Min: 10, Max: 3e7, Step: 2}
	if got := e.Error(); !strings.HasPrefix(got, "samples from 10 to 3e+07") {
		t.Errorf("span error without a cell: %q", got)
	}
}

func TestSpanErrorMinWidth(t *testing.T) {
	const bins = 1<<20 - 2 // the samples' range over this many bins leaves room at both ends
	for _, c := range []struct {
		e    SpanError
		want float64
	}{
		// No range to divide: twice the step.
		{SpanError{Min: 5, Max: 5, Step: 3}, 6},
		// Range 120·bins + 1 from 2e7: w = 120 + 1/bins = 120.00000095; two significant digits
		// are steps of 10 here (10^(⌊log10 w⌋ − 1)), and w rounds up to 130.
		{SpanError{Min: 2e7, Max: 2e7 + 120*bins + 1, Step: 1}, 130},
		// Range 3.35·bins from 1: w = 3.35, in steps of 0.1, rounds up to 3.4.
		{SpanError{Min: 1, Max: 1 + 3.35*bins, Step: 0.5}, 3.4},
	} {
		if got := c.e.MinWidth(); !(math.Abs(got-c.want) <= 1e-9*c.want) {
			t.Errorf("%+v: MinWidth %v, want %v", c.e, got, c.want)
		}
	}
}

// TestFitTypeOrder: a given task or machine type list fixes that side's order; the other side
// is the types seen, in natural order.
func TestFitTypeOrder(t *testing.T) {
	var s []Sample
	for _, k := range [][2]string{{"t2", "m10"}, {"t1", "m2"}, {"t10", "m2"}, {"t2", "m2"}, {"t1", "m10"}, {"t10", "m10"}} {
		s = append(s, Sample{k[0], k[1], 3})
	}
	for _, c := range []struct {
		opt             FitOptions
		tasks, machines []string
	}{
		{FitOptions{}, []string{"t1", "t2", "t10"}, []string{"m2", "m10"}},
		{FitOptions{TaskTypes: []string{"t10", "t1", "t2"}}, []string{"t10", "t1", "t2"}, []string{"m2", "m10"}},
		{FitOptions{MachineTypes: []string{"m10", "m2"}}, []string{"t1", "t2", "t10"}, []string{"m10", "m2"}},
		{FitOptions{TaskTypes: []string{"t2", "t10", "t1"}, MachineTypes: []string{"m10", "m2"}}, []string{"t2", "t10", "t1"}, []string{"m10", "m2"}},
	} {
		c.opt.Binning, c.opt.MinSamples = Binning{Width: 1}, 1
		p, err := FitSlice(s, c.opt)
		if err != nil {
			t.Errorf("%+v: %v", c.opt, err)
			continue
		}
		if !equalStrings(p.TaskTypes(), c.tasks) || !equalStrings(p.MachineTypes(), c.machines) {
			t.Errorf("%+v: types %v × %v, want %v × %v", c.opt, p.TaskTypes(), p.MachineTypes(), c.tasks, c.machines)
		}
	}
}

// TestFitFillFromExactMinimum: a donor cell with exactly the minimum number of samples has
// enough of its own (MinSamples is a minimum, not a bound to exceed).
func TestFitFillFromExactMinimum(t *testing.T) {
	s := append(cellSamples("t", "a", 1, 2, 3), cellSamples("t", "b", 5)...)
	p, err := FitSlice(s, FitOptions{Binning: Binning{Width: 1}, MinSamples: 3, FillFrom: map[string]string{"b": "a"}})
	if err != nil {
		t.Fatal(err)
	}
	if pr := p.Provenance(0, 1); pr.FilledFrom != "a" || pr.Samples != 3 {
		t.Errorf("t/b provenance %+v, want filled from a's 3 samples", pr)
	}
}

// TestFitMergeOneIsNoMerge: a merge factor of 1 is no merge (Compaction's doc), so it fits as
// factor 0 does, step checks included: a step a rule derived is not checked against the cell
// means, while a fixed width is, as a bin width rather than a merged step.
func TestFitMergeOneIsNoMerge(t *testing.T) {
	// 29 zeros and a 100: Bins 1 proposes width 100; the cap, half the sample sd (18.3) rounded
	// down to 1/2/5×10^k, is 5: a rule's step above the cell's mean, 10/3.
	zeros := make([]float64, 29)
	cases := []struct {
		s   []Sample
		bin Binning
	}{
		{cellSamples("a", "x", append(zeros, 100)...), Binning{Bins: 1}},
		{cellSamples("a", "x", 1, 2), Binning{Width: 1.5}},
	}
	for _, c := range cases {
		p0, err0 := FitSlice(c.s, FitOptions{Binning: c.bin, MinSamples: 1})
		p1, err1 := FitSlice(c.s, FitOptions{Binning: c.bin, MinSamples: 1, Compaction: Compaction{Merge: 1}})
		if (err0 == nil) != (err1 == nil) || err0 != nil && err0.Error() != err1.Error() {
			t.Errorf("%v: merge 0 gives error %v, merge 1 %v", c.bin, err0, err1)
			continue
		}
		if err0 == nil {
			samePET(t, p0, p1, true)
		}
	}
	if p, err := FitSlice(cases[0].s, FitOptions{Binning: cases[0].bin, MinSamples: 1}); err != nil || p.Step() != 5 {
		t.Errorf("29 zeros and a 100 by one bin: step %v, error %v; want step 5", p.Step(), err)
	}
}

// TestFitSampleOrder: the fit does not depend on the order the samples come in. The rule's
// widths are read from each cell's sorted samples; out of order, a cell's range over Bins is
// the gap between its first and last sample (here its smallest gap, below every cell's width).
// The three widest cells are the first three, so that a sort skipped for the first cell, or
// for any two of the first five, lowers the median.
func TestFitSampleOrder(t *testing.T) {
	// Cell k holds 31 samples evenly over [100, 100 + R] with R = 5, 20, 10, 1, 2 (in matrix
	// order): widths R/100 = 0.05, 0.2, 0.1, 0.01, 0.02, median 0.05. The cap, half the
	// narrowest cell's sd (31 points over a range of 1: sd 0.30) rounded down, is 0.1: the
	// step is 0.05. Out of order, a cell's width is its gap over 100, at most 20/30/100.
	ranges := []float64{5, 20, 10, 1, 2}
	var ascending, scrambled []Sample
	for k, r := range ranges {
		x := evenly(31, 100, 100+r)
		m := string(rune('a' + k))
		ascending = append(ascending, cellSamples("t", m, x...)...)
		// The smallest first, then the rest from the largest down.
		out := []float64{x[0]}
		for i := len(x) - 1; i > 0; i-- {
			out = append(out, x[i])
		}
		scrambled = append(scrambled, cellSamples("t", m, out...)...)
	}
	opt := FitOptions{Binning: Binning{Bins: 100}}
	a, err := FitSlice(scrambled, opt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := FitSlice(ascending, opt)
	if err != nil {
		t.Fatal(err)
	}
	if a.Step() != 0.05 {
		t.Errorf("step %v, want 0.05", a.Step())
	}
	samePET(t, a, b, false)
	// The step is the rounded median, not capped; the provenance says so.
	if pr := a.Provenance(0, 0).Binning; !strings.Contains(pr, "rounded to 1/2/5×10^k)") || strings.Contains(pr, "capped") {
		t.Errorf("provenance %q does not describe an uncapped step", pr)
	}
}

// TestFitSpreadCap: the step is capped at half the smallest sample sd of a cell, rounded down
// to 1/2/5×10^k, counting cells of two samples and leaving out cells without spread.
func TestFitSpreadCap(t *testing.T) {
	// b: 31 samples evenly over [10, 30] (gaps of 2/3): sample variance (31² − 1)/12 · (2/3)² ·
	// 31/30 = 36.7, sd 6.06; Bins 2 gives it width 10.
	b := cellSamples("t", "b", evenly(31, 10, 30)...)
	for _, c := range []struct {
		name  string
		other []Sample
		want  float64
	}{
		// a = {10, 10.2}: sd 0.1·√2 = 0.141, half 0.0707 → 0.05. Widths 0.1 and 10, median 5.05
		// → 5; capped at 0.05.
		{"two samples", cellSamples("t", "a", 10, 10.2), 0.05},
		// a = {5, 5}: no spread, no width; b alone: width 10 → 10, capped at half of 6.06 → 2.
		{"no spread", cellSamples("t", "a", 5, 5), 2},
	} {
		p, err := FitSlice(append(append([]Sample(nil), c.other...), b...), FitOptions{Binning: Binning{Bins: 2}, MinSamples: 2})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if p.Step() != c.want {
			t.Errorf("%s: step %v, want %v", c.name, p.Step(), c.want)
		}
	}
}

// TestFitCellLimit: a fit holds at most maxCells cells (3 here, by the field the limit is read
// from); the sample that would open one more is refused, naming the limit, while samples of
// the cells it holds are still taken.
func TestFitCellLimit(t *testing.T) {
	f, err := NewFitter(FitOptions{Binning: Binning{Width: 1}, MinSamples: 1})
	if err != nil {
		t.Fatal(err)
	}
	if f.maxCells != maxCells {
		t.Fatalf("limit %d, want maxCells %d", f.maxCells, maxCells)
	}
	f.maxCells = 3
	for _, task := range []string{"a", "b", "c", "a"} {
		if err := f.Add(Sample{task, "m", 1}); err != nil {
			t.Fatalf("task %s: %v", task, err)
		}
	}
	if err := f.Add(Sample{"d", "m", 1}); err == nil || !strings.Contains(err.Error(), "sample 5 (task=d machine=m): more than 3 cells") {
		t.Fatalf("a fourth cell: error %v, want the limit", err)
	}
	if err := f.Add(Sample{"c", "m", 2}); err != nil {
		t.Fatalf("a sample of a cell within the limit: %v", err)
	}
}

// TestThinCellsErrorMessage: the cells are listed after the colon, separated by commas.
func TestThinCellsErrorMessage(t *testing.T) {
	for _, c := range []struct {
		cells []CellCount
		want  string
	}{
		{[]CellCount{{"t", "c", 5}}, "1 cell(s) have fewer than 30 samples: task=t machine=c (5)"},
		{[]CellCount{{"t", "c", 5}, {"u", "b", 0}, {"u", "c", 29}},
			"3 cell(s) have fewer than 30 samples: task=t machine=c (5), task=u machine=b (0), task=u machine=c (29)"},
	} {
		if got := (&ThinCellsError{Min: 30, Cells: c.cells}).Error(); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}
