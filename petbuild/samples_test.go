package petbuild

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// sampleSets are sample sets the fitter must sort exactly as slices.Sort would: ties, zeros,
// subnormals, huge values, and lengths around radixMin and the block size.
func sampleSets(rng *rand.Rand) map[string][]float64 {
	gen := func(n int, f func() float64) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = f()
		}
		return x
	}
	sets := map[string][]float64{}
	for _, n := range []int{0, 1, 2, 3, radixMin - 1, radixMin, radixMin + 1, blockLen - 1, blockLen, blockLen + 1, 3*blockLen + 5, 50_000} {
		sets[fmt.Sprintf("exp-µs/%d", n)] = gen(n, func() float64 { return math.Round((20+rng.ExpFloat64()*100)*1000) / 1000 })
	}
	sets["ties"] = gen(20_000, func() float64 { return float64(rng.IntN(7)) })
	sets["all-equal"] = gen(5_000, func() float64 { return 42 })
	sets["zeros"] = gen(5_000, func() float64 { return float64(rng.IntN(2)) * rng.Float64() })
	sets["subnormal"] = gen(5_000, func() float64 { return math.SmallestNonzeroFloat64 * float64(rng.IntN(1000)) })
	sets["huge"] = gen(5_000, func() float64 { return math.MaxFloat64 / float64(1+rng.IntN(1000)) })
	sets["mixed"] = gen(9_000, func() float64 {
		switch rng.IntN(5) {
		case 0:
			return 0
		case 1:
			return math.SmallestNonzeroFloat64 * float64(rng.IntN(9))
		case 2:
			return math.MaxFloat64 * rng.Float64()
		case 3:
			return math.Ldexp(rng.Float64(), rng.IntN(2000)-1000)
		}
		return float64(rng.IntN(100))
	})
	sets["neg-zero"] = gen(5_000, func() float64 { return []float64{0, math.Copysign(0, -1), 1, 2.5}[rng.IntN(4)] })
	return sets
}

// TestSorterMatchesSlicesSort checks the cell storage and its sort against the slice and
// sort the fitter used before: the same float64s in the same order, bit for bit (slices.Sort
// for the bits, as −0 and 0 are equal to sort.Float64s but not in a file), and ascending by
// sort.Float64s, which shares no code with either.
func TestSorterMatchesSlicesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(50, 1))
	var s sorter // one sorter for all, as a goroutine of sortTimes reuses it
	for name, x := range sampleSets(rng) {
		var tm times
		for _, v := range x {
			tm.add(v)
		}
		for i, v := range x {
			if math.Float64bits(tm.at(i)) != math.Float64bits(v) {
				t.Fatalf("%s: sample %d stored as %v, added as %v", name, i, tm.at(i), v)
			}
		}
		s.sort(&tm)
		want := slices.Clone(x)
		slices.Sort(want)
		byValue := slices.Clone(x)
		sort.Float64s(byValue)
		if tm.len() != len(want) {
			t.Fatalf("%s: %d samples after the sort, want %d", name, tm.len(), len(want))
		}
		for i := range want {
			if math.Float64bits(tm.at(i)) != math.Float64bits(want[i]) || tm.at(i) != byValue[i] {
				t.Fatalf("%s: sorted sample %d is %v, slices.Sort has %v, sort.Float64s %v", name, i, tm.at(i), want[i], byValue[i])
			}
		}
	}
}

// logSamples draws a log of many cells of very different sizes and ranges, rounded to µs as
// logs are, with names split off one string so that some share their bytes' address but not
// their length ("type1" and "type12").
func logSamples(rng *rand.Rand, n int) []Sample {
	const names = "type123456789"
	tasks := []string{names[:5], names[:6], names[:7], "x", "long task type name"}
	machines := []string{"m", "m5.large", names[:4], names[:5]}
	out := make([]Sample, n)
	for i := range out {
		ti, mi := rng.IntN(len(tasks)), rng.IntN(len(machines))
		scale := float64(1 + 37*ti + 5*mi)
		out[i] = Sample{TaskType: tasks[ti], MachineType: machines[mi], Time: math.Round(scale*rng.ExpFloat64()*1e3) / 1e3}
		if rng.IntN(50) == 0 {
			out[i].Time = math.Round(scale) // ties on a grid point
		}
	}
	return out
}

// oracleCell is the cell PMF fitted the way the fitter did before issue 50's blocks and radix
// sort: one slice, sort.Float64s, and linear binning written out again here. A sample at
// (k + f)·step gives 1 − f to k·step and f to (k+1)·step, or all to a grid point within 1e-9
// steps; the weights are summed in ascending order of the samples, so the sums match.
func oracleCell(times []float64, step float64) (pmf.PMF, error) {
	x := slices.Clone(times)
	sort.Float64s(x)
	w := map[int]float64{}
	lo, hi := math.MaxInt, math.MinInt
	put := func(k int, v float64) {
		w[k] += v
		lo, hi = min(lo, k), max(hi, k)
	}
	for _, t := range x {
		q := t / step
		if r := math.Round(q); math.Abs(q-r) < 1e-9 {
			put(int(r), 1)
			continue
		}
		k := math.Floor(q)
		put(int(k), 1-(q-k))
		put(int(k)+1, q-k)
	}
	weights := make([]float64, hi-lo+1)
	for k, v := range w {
		weights[k-lo] = v
	}
	d, _, err := pmf.FromWeights(float64(lo)*step, step, weights)
	return d, err
}

// oracleFD is the median over the cells of the Freedman–Diaconis width 2·IQR·n^(−1/3), with
// the type-7 quantiles of R's default, from slices sorted by sort.Float64s.
func oracleFD(cells map[cellKey][]float64) float64 {
	var widths []float64
	for _, c := range cells {
		x := slices.Clone(c)
		sort.Float64s(x)
		q := func(p float64) float64 {
			h := p * float64(len(x)-1)
			lo := int(math.Floor(h))
			if lo >= len(x)-1 {
				return x[len(x)-1]
			}
			return x[lo] + (h-float64(lo))*(x[lo+1]-x[lo])
		}
		if w := 2 * (q(0.75) - q(0.25)) * math.Cbrt(1/float64(len(x))); w > 0 {
			widths = append(widths, w)
		}
	}
	sort.Float64s(widths)
	if n := len(widths); n%2 == 0 {
		return (widths[n/2-1] + widths[n/2]) / 2
	}
	return widths[len(widths)/2]
}

// TestFitMatchesOracle fits logs of one cell and of many, with names interned (one string per
// name, as the log readers give them) and copied per sample, and checks every cell's PMF bit
// for bit and its sample count against the oracle, and the median cell width the provenance
// states against oracleFD.
func TestFitMatchesOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(50, 2))
	many := logSamples(rng, 60_000)
	one := logSamples(rng, 20_000)
	for i := range one {
		one[i].TaskType, one[i].MachineType = "t", "m"
	}
	for name, samples := range map[string][]Sample{"many": many, "one": one} {
		cells := map[cellKey][]float64{}
		for _, s := range samples {
			k := cellKey{s.TaskType, s.MachineType}
			cells[k] = append(cells[k], s.Time)
		}
		copied := slices.Clone(samples)
		for i := range copied {
			copied[i].TaskType = strings.Clone(copied[i].TaskType)
			copied[i].MachineType = strings.Clone(copied[i].MachineType)
		}
		var json []byte
		for how, in := range map[string][]Sample{"interned": samples, "copied": copied} {
			p, err := FitSlice(in, FitOptions{MinSamples: 1})
			if err != nil {
				t.Fatalf("%s/%s: %v", name, how, err)
			}
			if want := fmt.Sprintf("median cell width %.4g over %d cells", oracleFD(cells), len(cells)); !strings.Contains(p.Provenance(0, 0).Binning, want) {
				t.Errorf("%s/%s: binning %q does not say %q", name, how, p.Provenance(0, 0).Binning, want)
			}
			for i, task := range p.TaskTypes() {
				for j, machine := range p.MachineTypes() {
					x := cells[cellKey{task, machine}]
					want, err := oracleCell(x, p.Step())
					if err != nil {
						t.Fatal(err)
					}
					got := p.Cell(i, j)
					if got.Origin() != want.Origin() || !equalFloats(got.Probs(), want.Probs()) {
						t.Fatalf("%s/%s: cell %s×%s: %v, oracle %v", name, how, task, machine, got, want)
					}
					if n := p.Provenance(i, j).Samples; n != len(x) {
						t.Fatalf("%s/%s: cell %s×%s has %d samples, the log %d", name, how, task, machine, n, len(x))
					}
				}
			}
			b := encode(t, p, FormatJSON)
			if json != nil && !bytes.Equal(b, json) {
				t.Errorf("%s: the PET of copied names differs from that of interned names", name)
			}
			json = b
		}
	}
}

// BenchmarkFitterAdd is the fit's serial part of pet build: Fitter.Add on a log of 12 task
// types × 8 machine types with interned names, as the log readers give them (issue 50).
func BenchmarkFitterAdd(b *testing.B) {
	rng := rand.New(rand.NewPCG(50, 4))
	var tasks, machines []string
	for i := range 12 {
		tasks = append(tasks, fmt.Sprintf("type%d", i))
	}
	for i := range 8 {
		machines = append(machines, fmt.Sprintf("m%d.large", i))
	}
	samples := make([]Sample, 1<<20)
	for i := range samples {
		samples[i] = Sample{tasks[rng.IntN(len(tasks))], machines[rng.IntN(len(machines))], math.Round((20+rng.ExpFloat64()*100)*1000) / 1000}
	}
	f, err := NewFitter(FitOptions{})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		if i%len(samples) == 0 {
			f, _ = NewFitter(FitOptions{}) // bounds the memory held
		}
		if err := f.Add(samples[i%len(samples)]); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFitFirstSpanError fits a matrix whose cells c and e each hold one sample a million
// steps out, so both fail, and checks the error names c, the first in the matrix's order,
// however the cores share the cells out. By hand: every cell's samples 10, 10.001, ..., 10.039
// have an IQR of 0.0195 and a Freedman–Diaconis width of 2·0.0195·40^(−1/3) ≈ 0.0114, so the
// step is 0.01; the far sample at 1e7 is 1e9 steps out, past maxCellImpulses.
func TestFitFirstSpanError(t *testing.T) {
	var samples []Sample
	for _, task := range []string{"a", "b", "c", "d", "e"} {
		for k := range 40 {
			x := 10 + 0.001*float64(k)
			if k == 39 && (task == "c" || task == "e") {
				x = 1e7
			}
			samples = append(samples, Sample{task, "m", x})
		}
	}
	for range 20 {
		_, err := FitSlice(samples, FitOptions{})
		var se *SpanError
		if !errors.As(err, &se) || se.Cell != cellName("c", "m") || se.Step != 0.01 {
			t.Fatalf("got %v, want the span error of cell c at step 0.01", err)
		}
	}
}

// TestFitSpanErrorNamesItsCell: with several machines, the span error names its own cell, not
// one found by another index of the matrix. Tasks a, b, c × machines x, y; every cell holds the
// samples of TestFitFirstSpanError, and only (a, y) the far one. In the matrix's order (task,
// then machine) (a, y) is cell 1 of 6: task 1/2 = 0 (a), machine 1 mod 2 = 1 (y); 1·2 = 2 would
// name task c.
func TestFitSpanErrorNamesItsCell(t *testing.T) {
	var samples []Sample
	for _, task := range []string{"a", "b", "c"} {
		for _, m := range []string{"x", "y"} {
			for k := range 40 {
				x := 10 + 0.001*float64(k)
				if k == 39 && task == "a" && m == "y" {
					x = 1e7
				}
				samples = append(samples, Sample{task, m, x})
			}
		}
	}
	_, err := FitSlice(samples, FitOptions{})
	var se *SpanError
	if !errors.As(err, &se) || se.Cell != cellName("a", "y") {
		t.Fatalf("got %v, want the span error of cell task=a machine=y", err)
	}
	if !strings.Contains(err.Error(), "cell task=a machine=y:") {
		t.Errorf("error %q does not name cell task=a machine=y", err)
	}
}

// TestLookupTellsNamesApart: the recent-cell table must answer only for the very name pair it
// holds. Two pairs whose names have equal lengths and land in one slot — found by trying
// substrings of one long string, so that their bytes lie at different addresses — are told
// apart: a pair that is not a cell gets nil, whichever of the task or the machine differs.
func TestLookupTellsNamesApart(t *testing.T) {
	// names(a, b) are substrings "a…" and "b…" of one string, each at many addresses.
	names := func(a, b string) (as, bs []string) {
		long := strings.Repeat(a+b, 2048)
		for i := 0; i+2*len(a) <= len(long); i += 2 * len(a) {
			as, bs = append(as, long[i:i+len(a)]), append(bs, long[i+len(a):i+2*len(a)])
		}
		return as, bs
	}
	tasks, others := names("task", "tusk")
	machines, otherMachines := names("m1", "m2")
	for _, c := range []struct {
		name        string
		task, task2 []string // the cell's task, the other pair's task
		mach, mach2 []string
	}{
		{"task differs", tasks, others, machines[:1], machines[:1]},
		{"machine differs", tasks[:1], tasks[:1], machines, otherMachines},
	} {
		found := false
		for _, ta := range c.task {
			for _, ma := range c.mach {
				for _, tb := range c.task2 {
					for _, mb := range c.mach2 {
						if found || recentSlot(ta, ma) != recentSlot(tb, mb) {
							continue
						}
						found = true
						f, err := NewFitter(FitOptions{})
						if err != nil {
							t.Fatal(err)
						}
						acc := &cellAcc{}
						f.cells[cellKey{ta, ma}] = acc
						if f.lookup(ta, ma) != acc {
							t.Fatalf("%s: the cell itself not found", c.name)
						}
						if got := f.lookup(tb, mb); got != nil {
							t.Errorf("%s: (%s, %s) answered with the cell of (%s, %s)", c.name, tb, mb, ta, ma)
						}
					}
				}
			}
		}
		if !found {
			t.Fatalf("%s: no two pairs share a slot", c.name)
		}
	}
}
