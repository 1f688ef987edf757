package petbuild

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

func TestSynthesizeDefault(t *testing.T) {
	s, err := Synthesize(rand.New(rand.NewPCG(42, 0)), SynthOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := s.PET
	if p.NumTaskTypes() != 12 || p.NumMachineTypes() != 8 || p.Step() != 2 {
		t.Fatalf("%d×%d step %v", p.NumTaskTypes(), p.NumMachineTypes(), p.Step())
	}
	checkCells(t, p)
	for i := range 12 {
		for j := range 8 {
			mean, shape := s.Means[i][j], s.Shapes[i][j]
			if shape < 1 || shape > 20 {
				t.Errorf("(%d,%d) shape %v outside [1, 20]", i, j, shape)
			}
			// Sampling error of the mean of 500 gamma draws (sd = mean/√shape), at 4.5σ, plus
			// the upper-edge binning, which adds between 0 and one step to every sample.
			se := mean / math.Sqrt(shape) / math.Sqrt(500)
			got := p.Cell(i, j).Mean()
			if got < mean-4.5*se || got > mean+4.5*se+p.Step() {
				t.Errorf("(%d,%d) mean %v, requested %v (se %v)", i, j, got, mean, se)
			}
			if pr := p.Provenance(i, j); pr.Samples != 500 {
				t.Errorf("(%d,%d) samples %d", i, j, pr.Samples)
			}
		}
	}
}

func TestSynthesizeReproducible(t *testing.T) {
	gen := func(seed uint64) []byte {
		s, err := Synthesize(rand.New(rand.NewPCG(seed, 1)), SynthOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return encode(t, s.PET, FormatJSON)
	}
	a, b, c := gen(7), gen(7), gen(8)
	if !bytes.Equal(a, b) {
		t.Fatal("the same seed gives different PETs")
	}
	if bytes.Equal(a, c) {
		t.Fatal("different seeds give the same PET")
	}
}

func TestSynthesizeGivenMeans(t *testing.T) {
	means := [][]float64{{10, 1000}, {50, 5}}
	s, err := Synthesize(rand.New(rand.NewPCG(1, 2)), SynthOptions{
		Means: means, TaskTypes: []string{"a", "b"}, MachineTypes: []string{"x", "y"},
		Samples: 4000, ShapeMin: 4, ShapeMax: 4, Step: 0.5, TimeUnit: "s",
	})
	if err != nil {
		t.Fatal(err)
	}
	p := s.PET
	if p.TimeUnit() != "s" || p.Step() != 0.5 || p.TaskType(1) != "b" || p.MachineType(1) != "y" {
		t.Fatalf("options ignored: %s %v %v %v", p.TimeUnit(), p.Step(), p.TaskTypes(), p.MachineTypes())
	}
	for i := range 2 {
		for j := range 2 {
			mean := means[i][j]
			se := mean / 2 / math.Sqrt(4000)
			if got := p.Cell(i, j).Mean(); got < mean-4.5*se || got > mean+4.5*se+0.5 {
				t.Errorf("(%d,%d) mean %v, requested %v", i, j, got, mean)
			}
			if s.Shapes[i][j] != 4 {
				t.Errorf("shape %v", s.Shapes[i][j])
			}
		}
	}
	for _, bad := range []SynthOptions{
		{Means: [][]float64{{1, 2}, {3}}},
		{Means: [][]float64{{-1}}},
		{Means: [][]float64{{1}}, TaskTypes: []string{"a", "b"}},
		{Means: [][]float64{{1}}, ShapeMin: 5, ShapeMax: 2},
		{Means: [][]float64{{1}}, Step: -1},
	} {
		if _, err := Synthesize(rand.New(rand.NewPCG(1, 2)), bad); err == nil {
			t.Errorf("options %+v pass", bad)
		}
	}
	if _, err := Synthesize(nil, SynthOptions{}); err == nil {
		t.Error("a nil source passes")
	}
}

func TestDefaultMeans(t *testing.T) {
	m := DefaultMeans(rand.New(rand.NewPCG(5, 5)), 12, 8)
	if len(m) != 12 || len(m[0]) != 8 {
		t.Fatalf("%d×%d", len(m), len(m[0]))
	}
	for i, row := range m {
		avg := 0.0
		for _, x := range row {
			if !(x > 0) {
				t.Fatalf("row %d has mean %v", i, x)
			}
			avg += x / 8
		}
		if avg < 50 || avg > 200 {
			t.Errorf("row %d averages %v, want [50, 200]", i, avg)
		}
	}
	// Inconsistent heterogeneity: some pair of machines swaps order between some pair of types.
	swaps := 0
	for a := range 8 {
		for b := a + 1; b < 8; b++ {
			faster := 0
			for i := range 12 {
				if m[i][a] < m[i][b] {
					faster++
				}
			}
			if faster > 0 && faster < 12 {
				swaps++
			}
		}
	}
	if swaps < 14 { // at least half of the 28 machine pairs
		t.Errorf("only %d of 28 machine pairs change order between types", swaps)
	}
}

// TestCellTable: each cell's kept table is the cell's own cumulative table (its CDF at every
// impulse the running sum of the cell's probabilities, its mean the cell's to the bit), asked
// for from several goroutines at once, as parallel replays of one matrix do.
func TestCellTable(t *testing.T) {
	s, err := Synthesize(rand.New(rand.NewPCG(4, 0)), SynthOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := s.PET
	errs := make(chan string, 4*p.NumTaskTypes()*p.NumMachineTypes())
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i := range p.NumTaskTypes() {
				for j := range p.NumMachineTypes() {
					d, table := p.Cell(i, j), p.CellTable(i, j)
					if table.Mean() != d.Mean() {
						errs <- fmt.Sprintf("(%d,%d): table mean %v, cell mean %v", i, j, table.Mean(), d.Mean())
					}
					sum := 0.0
					for k := range d.Len() {
						sum += d.Prob(k)
						if got := table.CDF(d.Time(k)); math.Abs(got-sum) > 1e-12 {
							errs <- fmt.Sprintf("(%d,%d): CDF(%v) = %v, want %v", i, j, d.Time(k), got, sum)
							break
						}
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestSynthesizeLimits(t *testing.T) {
	means := [][]float64{{10, 100}}
	for name, c := range map[string]struct {
		opt  SynthOptions
		want string
	}{
		"step too long":      {SynthOptions{Means: means, Step: 1e308}, "synth: step 1e+308 exceeds 1e+15"},
		"step too fine":      {SynthOptions{Means: means, Step: 1e-12}, "synth: step 1e-12 is below 1e-09"},
		"step not finite":    {SynthOptions{Means: means, Step: math.NaN()}, "synth: step NaN is not a positive finite number"},
		"step collapses":     {SynthOptions{Means: means, Step: 100}, "step 100 is not shorter than the largest mean execution time 100"},
		"too many samples":   {SynthOptions{Means: means, Samples: MaxSynthSamples + 1}, "10000001 samples a cell exceed the limit of 10000000"},
		"too many draws":     {SynthOptions{Means: [][]float64{{10, 100, 50}}, Samples: MaxSynthDraws/3 + 1}, "3 cells × 6666667 samples = 20000001 draws exceed the limit of 20000000"},
		"negative samples":   {SynthOptions{Means: means, Samples: -1}, "samples per cell -1 must be positive"},
		"zero mean":          {SynthOptions{Means: [][]float64{{10, 0}}}, "synth: mean[0][1] = 0 is not a positive number"},
		"step just fits":     {SynthOptions{Means: means, Step: 99.9}, ""},
		"draws at the limit": {SynthOptions{Means: [][]float64{{10}}, Samples: 1000}, ""},
	} {
		s, err := Synthesize(rand.New(rand.NewPCG(1, 2)), c.opt)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: %v", name, err)
			} else if s.PET.Step() != cmp.Or(c.opt.Step, 2) || s.PET.Provenance(0, 0).Samples != cmp.Or(c.opt.Samples, 500) {
				t.Errorf("%s: step %v, %d samples", name, s.PET.Step(), s.PET.Provenance(0, 0).Samples)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", name, err, c.want)
		}
	}
}

func TestCheckSynthSize(t *testing.T) {
	for _, c := range []struct {
		tasks, machines, samples int
		want                     string // "" when the size is accepted
	}{
		{12, 8, 500, ""},
		{1, 1, MaxSynthSamples, ""},
		{1024, 1024, 1, ""},
		{999999999999, 8, 500, "999999999999 task types exceed the limit of 1048576 cells"},
		{12, 999999999999, 500, "999999999999 machine types exceed the limit of 1048576 cells"},
		{999999999999, 999999999999, 1, "task types exceed"}, // the product would overflow
		{1025, 1024, 1, "1025 task types × 1024 machine types = 1049600 cells exceed the limit of 1048576"},
		{12, 8, 999999999999, "999999999999 samples a cell exceed the limit of 10000000"},
		{100000, 8, 500, "800000 cells × 500 samples = 400000000 draws exceed the limit of 20000000"},
		{1000, 1000, 500, "draws exceed"},
		{0, 8, 500, "all must be positive"},
	} {
		err := CheckSynthSize(c.tasks, c.machines, c.samples)
		if (c.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("CheckSynthSize(%d, %d, %d) = %v, want %q", c.tasks, c.machines, c.samples, err, c.want)
		}
	}
}

// TestSynthesizeCancelled checks that a cancelled synthesis stops with the context's error,
// both between cells and inside a long cell, before it has drawn the samples: it counts the
// random numbers taken (a wall-clock limit failed under load, when allocating the long cell's
// storage alone took over a second). Uncancelled, "many cells" takes thousands of numbers per
// cell and "long cell" one or more per sample of its 10,000,000; cancelled, neither may take a
// whole check interval's worth (drawCheckEvery samples).
func TestSynthesizeCancelled(t *testing.T) {
	for name, opt := range map[string]SynthOptions{
		"many cells": {},
		"long cell":  {Means: [][]float64{{100}}, Samples: MaxSynthSamples},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		src := &countingSource{Source: rand.NewPCG(1, 2)}
		_, err := SynthesizeContext(ctx, rand.New(src), opt)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: error %v, want context.Canceled", name, err)
		}
		if src.n >= drawCheckEvery {
			t.Errorf("%s: took %d random numbers after the context was cancelled, want fewer than %d", name, src.n, drawCheckEvery)
		}
	}
	// The same count without cancelling, so that the bound above can fail.
	src := &countingSource{Source: rand.NewPCG(1, 2)}
	if _, err := SynthesizeContext(context.Background(), rand.New(src), SynthOptions{}); err != nil {
		t.Fatal(err)
	}
	if src.n < drawCheckEvery {
		t.Errorf("uncancelled synthesis took %d random numbers, want at least %d for the check above to mean anything", src.n, drawCheckEvery)
	}
}

// countingSource counts the random numbers drawn from it.
type countingSource struct {
	rand.Source
	n int
}

func (c *countingSource) Uint64() uint64 { c.n++; return c.Source.Uint64() }

// TestLogUniform: over 20,000 seeded draws, every draw lies in [lo, hi], and the shares below
// lo^¾·hi^¼, √(lo·hi) and lo^¼·hi^¾ (the quartiles of a number whose logarithm is uniform) are
// a quarter, a half and three quarters, each within 4.5 standard errors (√(p(1−p)/n) ≤ 0.0036).
func TestLogUniform(t *testing.T) {
	const n = 20000
	r := rand.New(rand.NewPCG(52, 5))
	for _, c := range []struct{ lo, hi float64 }{{0.5, 2}, {1.0 / 3, 3}, {2, 50}} {
		quartiles := []float64{
			math.Pow(c.lo, 0.75) * math.Pow(c.hi, 0.25),
			math.Sqrt(c.lo * c.hi),
			math.Pow(c.lo, 0.25) * math.Pow(c.hi, 0.75),
		}
		below := make([]int, len(quartiles))
		for range n {
			x := logUniform(r, c.lo, c.hi)
			if !(x >= c.lo && x <= c.hi) {
				t.Fatalf("logUniform(%v, %v) drew %v", c.lo, c.hi, x)
			}
			for i, q := range quartiles {
				if x < q {
					below[i]++
				}
			}
		}
		for i, q := range quartiles {
			p := float64(i+1) / 4
			if got := float64(below[i]) / n; math.Abs(got-p) > 4.5*math.Sqrt(p*(1-p)/n) {
				t.Errorf("logUniform(%v, %v): %.4f of draws below %.4g, want %v", c.lo, c.hi, got, q, p)
			}
		}
	}
}

// TestDefaultMeansByHand follows the construction on chosen uniforms u (a source whose
// Float64 returns each u exactly), drawn in the order factors, then per row base and affinities.
//
//	factors: u = 0, 1/2   → s = 0.5·4⁰ = 1/2, 0.5·4^½ = 1
//	row 0:   u = 1/2      → b = 50 + 150/2 = 125
//	         u = 3/4, 1/4 → a = (1/3)·9^¾ = √3, (1/3)·9^¼ = 1/√3
//	         w = s·a = √3/2, 1/√3, whose mean is (3 + 2)/(2√3)/2 = 5/(4√3)
//	         means = 125·w/mean(w) = 125·(6/5), 125·(4/5) = 150, 100
//	row 1:   u = 0        → b = 50
//	         u = 1/2, 1/2 → a = 1, 1; w = 1/2, 1, mean 3/4
//	         means = 50·(2/3), 50·(4/3) = 100/3, 200/3
func TestDefaultMeansByHand(t *testing.T) {
	src := &fixedSource{u: []float64{0, 0.5, 0.5, 0.75, 0.25, 0, 0.5, 0.5}}
	got := DefaultMeans(rand.New(src), 2, 2)
	want := [][]float64{{150, 100}, {100.0 / 3, 200.0 / 3}}
	for i := range want {
		for j := range want[i] {
			if math.Abs(got[i][j]-want[i][j]) > 1e-9*want[i][j] {
				t.Errorf("mean[%d][%d] = %v, want %v", i, j, got[i][j], want[i][j])
			}
		}
	}
	if src.next != len(src.u) {
		t.Errorf("took %d uniforms, want %d", src.next, len(src.u))
	}
}

// fixedSource returns the given uniforms in turn: rand.Rand.Float64 keeps a Uint64's low 53
// bits and divides them by 2⁵³, so u·2⁵³ comes back as u exactly.
type fixedSource struct {
	u    []float64
	next int
}

func (s *fixedSource) Uint64() uint64 {
	u := s.u[s.next%len(s.u)]
	s.next++
	return uint64(u * (1 << 53))
}

// TestDrawChecksContext: draw checks the context before its first draw and again every
// drawCheckEvery draws.
func TestDrawChecksContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	src := &countingSource{Source: rand.NewPCG(1, 2)}
	times := make([]float64, 10)
	if err := draw(ctx, distuv.Gamma{Alpha: 2, Beta: 1, Src: src}, times); !errors.Is(err, context.Canceled) || src.n != 0 {
		t.Errorf("cancelled before the first draw: error %v after %d random numbers, want context.Canceled after none", err, src.n)
	}
	// A context done from its second check on: the first drawCheckEvery draws are made, the
	// rest are not.
	times = make([]float64, 3*drawCheckEvery)
	err := draw(&doneAfterChecks{Context: context.Background(), ok: 1}, distuv.Gamma{Alpha: 2, Beta: 1, Src: rand.NewPCG(1, 2)}, times)
	if !errors.Is(err, context.Canceled) || times[drawCheckEvery-1] == 0 || times[drawCheckEvery] != 0 {
		t.Errorf("done at the second check: error %v, draws %v and %v around the check, want context.Canceled, a draw and 0",
			err, times[drawCheckEvery-1], times[drawCheckEvery])
	}
}

// doneAfterChecks is a context whose Err is nil for its first ok calls and Canceled after.
type doneAfterChecks struct {
	context.Context
	ok, calls int
}

func (c *doneAfterChecks) Err() error {
	c.calls++
	if c.calls > c.ok {
		return context.Canceled
	}
	return nil
}
