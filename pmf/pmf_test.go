package pmf

import (
	"errors"
	"maps"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

func mustNew(t testing.TB, origin, step float64, p []float64) PMF {
	t.Helper()
	d, err := New(origin, step, p)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// randomPMF returns a PMF of n impulses (some zero inside) at whole steps from origin.
func randomPMF(r *rand.Rand, origin, step float64, n int) PMF {
	w := make([]float64, n)
	for i := range w {
		if r.IntN(5) > 0 || i == 0 || i == n-1 {
			w[i] = 0.01 + r.Float64()
		}
	}
	d, _, err := FromWeights(origin, step, w)
	if err != nil {
		panic(err)
	}
	return d
}

func TestConstructionErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name         string
		origin, step float64
		p            []float64
		want         string
	}{
		{"empty", 0, 1, nil, "no impulses"},
		{"nan prob", 0, 1, []float64{0.5, nan}, "not finite"},
		{"inf prob", 0, 1, []float64{inf}, "not finite"},
		{"negative", 0, 1, []float64{1.5, -0.5}, "negative probability"},
		{"zero step", 0, 0, []float64{1}, "step"},
		{"negative step", 0, -1, []float64{1}, "step"},
		{"inf step", 0, inf, []float64{1}, "step"},
		{"nan origin", nan, 1, []float64{1}, "origin"},
		{"inf origin", -inf, 1, []float64{1}, "origin"},
		{"all zero", 0, 1, []float64{0, 0}, "total mass"},
		{"mass below 1", 0, 1, []float64{0.5, 0.4}, "total mass"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := New(c.origin, c.step, c.p)
			if err == nil || !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("New(%v, %v, %v) error = %v, want ErrInvalid mentioning %q", c.origin, c.step, c.p, err, c.want)
			}
		})
	}
	// FromWeights normalises, so a mass below 1 is fine, but no mass at all cannot be normalised.
	if _, _, err := FromWeights(0, 1, []float64{0, 0}); !errors.Is(err, ErrInvalid) {
		t.Errorf("FromWeights of all-zero weights: error %v, want ErrInvalid", err)
	}
	// Impulse has no error to return: a bad time or step is a programming error, and panics.
	for _, c := range []struct{ at, step float64 }{{0, 0}, {0, -1}, {0, inf}, {nan, 1}, {inf, 1}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Impulse(%v, %v) did not panic", c.at, c.step)
				}
			}()
			Impulse(c.at, c.step)
		}()
	}
	a := mustNew(t, 0, 1, []float64{1})
	b := mustNew(t, 0, 0.7, []float64{1})
	if _, err := Convolve(a, b); err == nil || !errors.Is(err, ErrInvalid) {
		t.Fatalf("Convolve with steps 1 and 0.7: error %v, want ErrInvalid", err)
	}
	if _, _, err := Append(Evict, a, mustNew(t, 0.5, 1, []float64{1}), 3, false); err == nil {
		t.Fatal("Append with an execution PMF off the lattice: no error")
	}
}

// TestTrimmed: zeros at both ends go and the origin moves past those in front, by hand:
// 0, 0, .25, 0, .75, 0 from 10 on step .5 is .25, 0, .75 from 11. trimmedFrom skips the scan
// below its start. With nothing non-zero from its start on (all zeros, which only internal
// underflow makes, or a start past the end) the result is an impulse of mass 1 at the origin, a
// valid PMF.
func TestTrimmed(t *testing.T) {
	p := []float64{0, 0, 0.25, 0, 0.75, 0}
	want := PMF{origin: 11, step: 0.5, p: []float64{0.25, 0, 0.75}}
	for _, from := range []int{0, 1, 2} {
		if got := trimmedFrom(10, 0.5, append([]float64(nil), p...), from); !same(got, want) {
			t.Errorf("trimmedFrom(10, .5, %v, %d) = %v %v, want %v %v", p, from, got, got.p, want, want.p)
		}
	}
	impulse := PMF{origin: 10, step: 0.5, p: []float64{1}}
	for _, c := range []struct {
		p    []float64
		from int
	}{{[]float64{0, 0}, 0}, {[]float64{0.5, 0.5}, 2}, {[]float64{0.5, 0.5}, 3}} {
		if got := trimmedFrom(10, 0.5, c.p, c.from); !same(got, impulse) {
			t.Errorf("trimmedFrom(10, .5, %v, %d) = %v %v, want an impulse at 10", c.p, c.from, got, got.p)
		}
	}
}

// TestCheck: Check passes a valid PMF and reports each broken invariant, built by hand past the
// constructors: a mass off 1 by more than MassTolerance, a negative or NaN impulse, a zero at
// either end, a step that is not positive.
func TestCheck(t *testing.T) {
	if err := (PMF{origin: 1, step: 0.5, p: []float64{0.25, 0, 0.75}}).Check(); err != nil {
		t.Errorf("a valid PMF: %v", err)
	}
	for _, d := range []PMF{
		{origin: 1, step: 0.5, p: []float64{0.5}},
		{origin: 1, step: 0.5, p: []float64{0.5, 0.5 + 1e-8}},
		{origin: 1, step: 0.5, p: []float64{1.5, -0.5}},
		{origin: 1, step: 0.5, p: []float64{math.NaN(), 1}},
		{origin: 1, step: 0.5, p: []float64{0, 1}},
		{origin: 1, step: 0.5, p: []float64{1, 0}},
		{origin: 1, step: 0, p: []float64{1}},
	} {
		if err := d.Check(); !errors.Is(err, ErrInvalid) {
			t.Errorf("origin %v step %v impulses %v: Check says %v, want ErrInvalid", d.origin, d.step, d.p, err)
		}
	}
}

func TestNormaliseTrimAndDeficit(t *testing.T) {
	d, deficit, err := FromWeights(10, 2, []float64{0, 0, 0.2, 0, 0.6, 0.196, 0})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(deficit-0.004) > 1e-15 {
		t.Errorf("deficit %v, want 0.004", deficit)
	}
	if d.Origin() != 14 || d.Len() != 4 || d.Max() != 20 {
		t.Errorf("trimmed to origin %v len %d max %v, want 14, 4, 20", d.Origin(), d.Len(), d.Max())
	}
	if math.Abs(d.Prob(2)-0.6/0.996) > 1e-15 {
		t.Errorf("p(18) = %v, want %v", d.Prob(2), 0.6/0.996)
	}
	if err := d.Check(); err != nil {
		t.Error(err)
	}
}

// TestMoments compares mean, variance and CDF with sums written directly over the support.
func TestMomentsAndCDF(t *testing.T) {
	d := mustNew(t, 3, 0.5, []float64{0.1, 0, 0.3, 0.4, 0.2})
	// Times 3, 3.5, 4, 4.5, 5.
	mean := 3*0.1 + 4*0.3 + 4.5*0.4 + 5*0.2
	v := 0.1*(3-mean)*(3-mean) + 0.3*(4-mean)*(4-mean) + 0.4*(4.5-mean)*(4.5-mean) + 0.2*(5-mean)*(5-mean)
	if math.Abs(d.Mean()-mean) > 1e-12 || math.Abs(d.Variance()-v) > 1e-12 {
		t.Errorf("mean %v var %v, want %v %v", d.Mean(), d.Variance(), mean, v)
	}
	for _, c := range []struct{ x, le, lt float64 }{
		{2.9, 0, 0}, {3, 0.1, 0}, {3.9, 0.1, 0.1}, {4, 0.4, 0.1}, {4.5, 0.8, 0.4}, {5, 1, 0.8}, {99, 1, 1},
	} {
		if got := d.CDF(c.x); math.Abs(got-c.le) > 1e-12 {
			t.Errorf("CDF(%v) = %v, want %v", c.x, got, c.le)
		}
		if got := d.CDFStrict(c.x); math.Abs(got-c.lt) > 1e-12 {
			t.Errorf("CDFStrict(%v) = %v, want %v", c.x, got, c.lt)
		}
	}
	for _, c := range []struct{ q, want float64 }{{0, 3}, {0.1, 3}, {0.11, 4}, {0.8, 4.5}, {0.81, 5}, {1, 5}} {
		if got := d.Quantile(c.q); got != c.want {
			t.Errorf("Quantile(%v) = %v, want %v", c.q, got, c.want)
		}
	}
}

// TestGammaSkewness checks the skewness of a finely discretised gamma against 2/√k.
func TestGammaSkewness(t *testing.T) {
	for _, k := range []float64{1.5, 4, 9, 20} {
		g := distuv.Gamma{Alpha: k, Beta: 1}
		const step = 0.01
		n := int(g.Quantile(1-1e-12)/step) + 2
		w := make([]float64, n)
		for i := range w {
			w[i] = g.CDF(float64(i+1)*step) - g.CDF(float64(i)*step)
		}
		d, _, err := FromWeights(step/2, step, w) // bin midpoints
		if err != nil {
			t.Fatal(err)
		}
		want := 2 / math.Sqrt(k)
		if got := d.Skewness(); math.Abs(got-want) > 0.01*want {
			t.Errorf("gamma shape %v: skewness %v, want %v", k, got, want)
		}
		if got, b := d.BoundedSkewness(), math.Min(1, want); math.Abs(got-b) > 0.01 {
			t.Errorf("gamma shape %v: bounded skewness %v, want %v", k, got, b)
		}
	}
	left := mustNew(t, 0, 1, []float64{0.05, 0.05, 0.9})
	if s := left.BoundedSkewness(); s != -1 {
		t.Errorf("left-skewed bounded skewness %v, want -1 (raw %v)", s, left.Skewness())
	}
	if s := Impulse(4, 1).Skewness(); s != 0 {
		t.Errorf("impulse skewness %v", s)
	}
}

func TestCondition(t *testing.T) {
	// Started at 10, execution 2..6 with p = .1 .2 .3 .4 (times 12, 14, 16, 18 at step 2).
	d := mustNew(t, 2, 2, []float64{0.1, 0.2, 0.3, 0.4}).Shift(10)
	// Still running at 14: outcomes 16 and 18, renormalised over 0.7.
	c := d.Condition(14)
	if c.Origin() != 16 || c.Len() != 2 || math.Abs(c.Prob(0)-3.0/7) > 1e-15 || math.Abs(c.Prob(1)-4.0/7) > 1e-15 {
		t.Errorf("Condition(14) = %v %v, want 16: 3/7, 18: 4/7", c, c.Probs())
	}
	if c := d.Condition(13.5); c.Origin() != 14 || math.Abs(c.Prob(0)-0.2/0.9) > 1e-15 {
		t.Errorf("Condition(13.5) = %v %v", c, c.Probs())
	}
	if c := d.Condition(5); c.Origin() != d.Origin() || c.Len() != d.Len() {
		t.Errorf("Condition before the support changed the PMF: %v", c)
	}
	// Overran everything: the earliest grid point after now.
	if c := d.Condition(19); c.Origin() != 20 || c.Len() != 1 {
		t.Errorf("Condition(19) = %v, want an impulse at 20", c)
	}
}

func TestConvolveByHand(t *testing.T) {
	a := mustNew(t, 1, 1, []float64{0.5, 0.5})       // 1 or 2
	b := mustNew(t, 10, 1, []float64{0.25, 0, 0.75}) // 10 or 12
	c, err := Convolve(a, b)
	if err != nil {
		t.Fatal(err)
	}
	want := map[float64]float64{11: 0.125, 12: 0.125, 13: 0.375, 14: 0.375}
	for k := 0; k < c.Len(); k++ {
		if math.Abs(c.Prob(k)-want[c.Time(k)]) > 1e-15 {
			t.Errorf("P(%v) = %v, want %v", c.Time(k), c.Prob(k), want[c.Time(k)])
		}
	}
	// Different steps rebin to the coarser one: 0.5-step {1, 1.5} merges to 2-step {2}.
	f := mustNew(t, 1, 0.5, []float64{0.5, 0.5})
	g, err := Convolve(f, Impulse(4, 2))
	if err != nil || g.Step() != 2 || g.Len() != 1 || g.Origin() != 6 {
		t.Errorf("mixed steps: %v, %v; want an impulse at 6 with step 2", g, err)
	}
}

// TestOffGridDeadlineEviction works the evict rule on an off-grid deadline by hand: the killed
// mass is split between the grid points around the deadline so that it frees the machine at the
// deadline on average. Started at 10, the task takes 2 or 4: it finishes at 12 (success, .5) or
// would finish at 14 > 13.25 and is killed at 13.25, a quarter of a step past 13: of the killed
// .5, .25·.5 = .125 at 14 and .375 at 13 (mean .375·13 + .125·14 = 6.625 = .5·13.25).
func TestOffGridDeadlineEviction(t *testing.T) {
	exec := mustNew(t, 2, 1, []float64{0.5, 0, 0.5}) // 2 or 4
	next, s, err := Append(Evict, Impulse(10, 1), exec, 13.25, false)
	if err != nil {
		t.Fatal(err)
	}
	if s != 0.5 || next.Origin() != 12 || next.Len() != 3 || next.Prob(0) != 0.5 || next.Prob(1) != 0.375 || next.Prob(2) != 0.125 {
		t.Errorf("next %v %v success %v; want {12: .5, 13: .375, 14: .125}, .5", next, next.Probs(), s)
	}
}

// TestAppendNegativeExecOrigin works a chain link by hand whose execution time starts a step
// before 0 (shift −1: the link's grid extends below prev's), on a grid of step .5 (so that the
// origin's step count and its time differ). prev = {.5: .5, 1.5: .5}, exec = {−.5: .5, 1.5: .5},
// deadline 1.25. The task starts after prev's outcomes before 1.25: .5 (.5); the convolution of
// that half with exec is {0: .25, 2: .25}; the outcome 1.5 (.5) never lets it start and passes
// through. Success: the completion at 0, .25.
//
//	pending: {0: .25, 1.5: .5, 2: .25} (the completion at 2 runs late)
//	evict:   {0: .25, 1: .125, 1.5: .625} (the completion at 2 is killed at 1.25, half-way
//	         between the grid points 1 and 1.5, which get half of its .25 each)
func TestAppendNegativeExecOrigin(t *testing.T) {
	prev := mustNew(t, 0.5, 0.5, []float64{0.5, 0, 0.5})
	exec := mustNew(t, -0.5, 0.5, []float64{0.5, 0, 0, 0, 0.5})
	wants := map[Model]map[float64]float64{
		Pending: {0: 0.25, 1.5: 0.5, 2: 0.25},
		Evict:   {0: 0.25, 1: 0.125, 1.5: 0.625},
	}
	appends := map[string]func(Model) (PMF, float64, error){
		"Append":          func(m Model) (PMF, float64, error) { return Append(m, prev, exec, 1.25, false) },
		"AppendPlain":     func(m Model) (PMF, float64, error) { return AppendPlain(m, prev, exec, 1.25, false) },
		"AppendPlainInto": func(m Model) (PMF, float64, error) { return AppendPlainInto(new(Buffer), m, prev, exec, 1.25, false) },
		"AppendPlainReusing": func(m Model) (PMF, float64, error) {
			return AppendPlainReusing(new(Buffer), m, prev, exec, 1.25, false)
		},
	}
	checkLinks(t, appends, wants, 0.25)
}

// checkLinks checks each chain link builder of appends under each model of wants: next's non-zero
// impulses (time to mass, masses()) and the success chance, both to the bit.
func checkLinks(t *testing.T, appends map[string]func(Model) (PMF, float64, error), wants map[Model]map[float64]float64, success float64) {
	t.Helper()
	for name, f := range appends {
		for model, want := range wants {
			next, s, err := f(model)
			if err != nil {
				t.Fatalf("%s %v: %v", name, model, err)
			}
			if got := masses(next); s != success || !maps.Equal(got, want) {
				t.Errorf("%s %v: next %v, success %v; want %v, %v", name, model, got, s, want, success)
			}
		}
	}
}

// masses maps the times of d's non-zero impulses to their probabilities.
func masses(d PMF) map[float64]float64 {
	m := map[float64]float64{}
	for k := range d.Len() {
		if d.Prob(k) != 0 {
			m[d.Time(k)] = d.Prob(k)
		}
	}
	return m
}

func TestSuccessFormsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 500; trial++ {
		step := []float64{1, 0.5, 2}[trial%3]
		prev := randomPMF(r, 100+float64(r.IntN(50))*step+0.37, step, 1+r.IntN(60))
		exec := randomPMF(r, float64(1+r.IntN(10))*step, step, 1+r.IntN(40))
		conv, err := Convolve(prev, exec)
		if err != nil {
			t.Fatal(err)
		}
		table := prev.CDFTable()
		for range 5 {
			d := conv.Min() - 3*step + r.Float64()*(conv.Max()-conv.Min()+6*step)
			if r.IntN(3) == 0 {
				d = conv.Time(r.IntN(conv.Len())) // exactly on a grid point
			}
			for _, strict := range []bool{false, true} {
				want := conv.Success(d, strict)
				a1, err := SuccessAlg1(exec, prev, d, strict)
				if err != nil {
					t.Fatal(err)
				}
				cdf := SuccessCDF(exec, table, d, strict)
				if math.Abs(a1-want) > 1e-12 || math.Abs(cdf-want) > 1e-12 {
					t.Fatalf("trial %d deadline %v strict %v: convolution %.15g, Algorithm 1 %.15g, CDF form %.15g",
						trial, d, strict, want, a1, cdf)
				}
				for _, model := range []Model{Pending, Evict} {
					_, s, err := Append(model, prev, exec, d, strict)
					if err != nil {
						t.Fatal(err)
					}
					if math.Abs(s-want) > 1e-12 {
						t.Fatalf("trial %d: %v chain success %.15g, convolution %.15g", trial, model, s, want)
					}
				}
			}
		}
	}
}

func TestMergeConservesMassAndMean(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 300; trial++ {
		step := []float64{1, 0.25, 3}[trial%3]
		d := randomPMF(r, float64(r.IntN(40)-20)*step+0.1*float64(trial%2), step, 1+r.IntN(200))
		f := 1 + r.IntN(9)
		m := d.Merge(f)
		if err := m.Check(); err != nil {
			t.Fatalf("Merge(%d): %v", f, err)
		}
		if m.Step() != step*float64(f) {
			t.Fatalf("Merge(%d) step %v", f, m.Step())
		}
		if dm := math.Abs(m.Mean() - d.Mean()); dm > m.Step()/2+1e-9 {
			t.Fatalf("Merge(%d) moved the mean by %v > half a bucket %v", f, dm, m.Step()/2)
		}
		// The coarse grid keeps the lattice: every coarse point is a fine grid point.
		if _, ok := wholeSteps(m.Origin()-d.Origin(), step); !ok {
			t.Fatalf("Merge(%d) left the lattice: origin %v vs %v", f, m.Origin(), d.Origin())
		}
		if c := d.CapImpulses(10); c.Len() > 10 || math.Abs(c.Mass()-1) > 1e-9 {
			t.Fatalf("CapImpulses(10) = %d impulses, mass %v", c.Len(), c.Mass())
		}
	}
	// Fig 6 of 000: bucket 2, impulses at 51..59 merge to even points.
	d := mustNew(t, 51, 1, []float64{0.1, 0.1, 0.1, 0.1, 0.2, 0.1, 0.1, 0.1, 0.1})
	m := d.Merge(2) // 51→52, 52→52, 53→54, 54→54, 55→56, 56→56, 57→58, 58→58, 59→60
	want := []float64{0.2, 0.2, 0.3, 0.2, 0.1}
	if m.Origin() != 52 || m.Len() != len(want) {
		t.Fatalf("Merge(2) = %v", m)
	}
	for i, w := range want {
		if math.Abs(m.Prob(i)-w) > 1e-15 {
			t.Errorf("Merge(2) p(%v) = %v, want %v", m.Time(i), m.Prob(i), w)
		}
	}
}

func TestCropFoldsTails(t *testing.T) {
	d := mustNew(t, 50, 1, []float64{0.05, 0.1, 0.15, 0.2, 0.2, 0.1, 0.1, 0.05, 0.05}) // 50..58
	c, err := d.Crop(52, 56)
	if err != nil {
		t.Fatal(err)
	}
	want := map[float64]float64{52: 0.05 + 0.1 + 0.15, 53: 0.2, 54: 0.2, 55: 0.1, 56: 0.1 + 0.05 + 0.05}
	if c.Len() != 5 || c.Origin() != 52 {
		t.Fatalf("Crop = %v", c)
	}
	for k := 0; k < c.Len(); k++ {
		if math.Abs(c.Prob(k)-want[c.Time(k)]) > 1e-15 {
			t.Errorf("P(%v) = %v, want %v", c.Time(k), c.Prob(k), want[c.Time(k)])
		}
	}
	// Success chances for deadlines inside the range are unchanged.
	for _, x := range []float64{52, 53.5, 55} {
		if math.Abs(c.CDF(x)-d.CDF(x)) > 1e-15 {
			t.Errorf("CDF(%v) changed by cropping: %v vs %v", x, c.CDF(x), d.CDF(x))
		}
	}
	// Ranges beyond the support fold everything into one point; an empty range is an error.
	if c, err := d.Crop(70, 80); err != nil || c.Len() != 1 || c.Origin() != 70 {
		t.Errorf("Crop(70, 80) = %v, %v", c, err)
	}
	if c, err := d.Crop(10.5, 20); err != nil || c.Len() != 1 || c.Origin() != 20 {
		t.Errorf("Crop(10.5, 20) = %v, %v", c, err)
	}
	if _, err := d.Crop(52.2, 52.8); err == nil {
		t.Error("Crop with no grid point in range: no error")
	}
}

// TestSamplerBeyondTheMass: impulses that sum to a little under 1 (.5 and .5 − 10⁻¹², which New
// accepts) leave draws u between their total and 1 that no cumulative probability reaches; those
// draw the last impulse, as Quantile gives it, never a time past the support.
func TestSamplerBeyondTheMass(t *testing.T) {
	d := mustNew(t, 0, 1, []float64{0.5, 0.5 - 1e-12})
	u := math.Nextafter(1, 0) // above .5 + .5 − 10⁻¹²
	if got := NewSampler(d).At(u); got != 1 || d.Quantile(u) != 1 {
		t.Errorf("At(%v) = %v, Quantile %v; want the last impulse's time, 1", u, got, d.Quantile(u))
	}
}

func TestSamplingMatchesProbabilities(t *testing.T) {
	d := mustNew(t, 5, 2, []float64{0.1, 0, 0.25, 0.4, 0.25})
	s := NewSampler(d)
	r := rand.New(rand.NewPCG(9, 10))
	const n = 200000
	counts := map[float64]int{}
	for range n {
		counts[s.Sample(r)]++
	}
	for k := 0; k < d.Len(); k++ {
		if !withinSampling(d.Prob(k), counts[d.Time(k)], n) {
			t.Errorf("P(%v) = %v, sampled %d/%d", d.Time(k), d.Prob(k), counts[d.Time(k)], n)
		}
	}
	// Sample and Sampler agree draw for draw on equal streams, and so does a Sampler given d's
	// table; one given another PMF's table builds d's own.
	other := mustNew(t, 5, 2, []float64{0.5, 0.5})
	withTable, wrongTable := NewSamplerTable(d, d.CDFTable()), NewSamplerTable(d, other.CDFTable())
	r1, r2 := rand.New(rand.NewPCG(1, 1)), rand.New(rand.NewPCG(1, 1))
	for range 1000 {
		u := r2.Float64()
		a := d.Sample(r1)
		for _, b := range []float64{s.At(u), withTable.At(u), wrongTable.At(u)} {
			if a != b {
				t.Fatalf("Sample %v != Sampler %v", a, b)
			}
		}
	}
	// At a cumulative probability exactly, the first impulse that reaches it, as Quantile's scan
	// finds it: the binary search must not step past an entry equal to u (binary fractions, so
	// that the running sums are exact), nor stop at a zero impulse after it.
	exact := mustNew(t, 5, 2, []float64{0.25, 0, 0.25, 0.5})
	es := NewSampler(exact)
	for _, u := range []float64{0, 0.125, 0.25, 0.375, 0.5, 0.75, 1} {
		if got, want := es.At(u), exact.Quantile(u); got != want {
			t.Errorf("Sampler.At(%v) = %v, Quantile %v", u, got, want)
		}
	}
}

func TestParseModel(t *testing.T) {
	for _, m := range []Model{Evict, Pending, None} {
		got, err := ParseModel(strings.ToUpper(m.String()))
		if err != nil || got != m {
			t.Errorf("ParseModel(%q) = %v, %v", m.String(), got, err)
		}
	}
	if _, err := ParseModel("kill"); err == nil {
		t.Error("ParseModel(kill): no error")
	}
}

// TestModelStringOutOfRange: a model value past the three named ones (3, the count of names)
// or below them prints as Model(n) instead of indexing past the names.
func TestModelStringOutOfRange(t *testing.T) {
	for m, want := range map[Model]string{3: "Model(3)", -1: "Model(-1)", None: "none"} {
		if got := m.String(); got != want {
			t.Errorf("Model(%d).String() = %q, want %q", int(m), got, want)
		}
	}
}

// TestAppendStatsMatchesAppend: the success chance and mean that AppendStats computes without a
// convolution equal those of the PMF Append builds, under every model, on random inputs with
// deadlines on and off the grid.
func TestAppendStatsMatchesAppend(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 2000; trial++ {
		step := []float64{1, 0.5, 2}[trial%3]
		prev := randomPMF(r, 50+float64(r.IntN(30))*step+[]float64{0, 0.3}[trial%2], step, 1+r.IntN(40))
		exec := randomPMF(r, float64(1+r.IntN(8))*step, step, 1+r.IntN(30))
		d := prev.Min() - 2*step + r.Float64()*(prev.Max()+exec.Max()-prev.Min()+4*step)
		if r.IntN(3) == 0 {
			d = prev.Time(r.IntN(prev.Len())) + exec.Time(r.IntN(exec.Len())) // on a grid point
		}
		table := prev.CDFTable()
		for _, model := range []Model{None, Pending, Evict} {
			for _, strict := range []bool{false, true} {
				next, want, err := Append(model, prev, exec, d, strict)
				if err != nil {
					t.Fatal(err)
				}
				s, mean, err := AppendStats(model, exec, table, d, strict)
				if err != nil {
					t.Fatal(err)
				}
				if math.Abs(s-want) > 1e-12 || math.Abs(mean-next.Mean()) > 1e-9*math.Max(1, next.Mean()) {
					t.Fatalf("trial %d %v strict=%v deadline %v: stats (%.15g, %.15g), Append (%.15g, %.15g)",
						trial, model, strict, d, s, mean, want, next.Mean())
				}
			}
		}
	}
}

// TestNextAfter checks NextAfter against its promise by brute force: for a grid of times t,
// Condition is unchanged on [t, NextAfter(t)) and changes at NextAfter(t). The answer is the
// next grid point less the grid tolerance (1e-9 steps of 2, so 2e-9), to the float64 where
// Condition changes: one float64 below it, Condition is still the old one (issue 51: a cache
// kept past the old answer, the grid point itself, held a stale chain in that window).
func TestNextAfter(t *testing.T) {
	d := mustNew(t, 2, 2, []float64{0.1, 0.2, 0.3, 0.4}).Shift(10) // impulses at 12, 14, 16, 18
	for _, c := range []struct{ at, want float64 }{{0, 12}, {11.9, 12}, {12, 14}, {13, 14}, {17.99, 18}, {18, 20}, {21, 22}, {11.9999999995, 14}} {
		got := d.NextAfter(c.at)
		if math.Abs(got-(c.want-2e-9)) > 1e-14 {
			t.Errorf("NextAfter(%g) = %.17g, want %g less 2e-9", c.at, got, c.want)
		}
		if below := math.Nextafter(got, 0); !same(d.Condition(below), d.Condition(c.at)) || same(d.Condition(got), d.Condition(c.at)) {
			t.Errorf("NextAfter(%g) = %.17g: Condition does not change exactly there", c.at, got)
		}
	}
	for at := 5.0; at < 25; at += 0.25 {
		next := d.NextAfter(at)
		for u := at; u < math.Min(next, 30); u += 0.125 {
			if !same(d.Condition(u), d.Condition(at)) {
				t.Fatalf("Condition(%g) differs from Condition(%g) though NextAfter(%g) = %g", u, at, at, next)
			}
		}
		if !math.IsInf(next, 1) && same(d.Condition(next), d.Condition(at)) {
			t.Errorf("Condition(NextAfter(%g) = %g) did not change", at, next)
		}
	}
}

// TestAppendMatchesPlain: the evicting link that convolves only up to the deadline gives the
// textbook link's PMF and success chance to rounding, on random inputs with deadlines on and off
// the grid (the brute-force oracles check both against enumeration on smaller cases).
func TestAppendMatchesPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for trial := 0; trial < 2000; trial++ {
		step := []float64{1, 0.5, 2}[trial%3]
		prev := randomPMF(r, 50+float64(r.IntN(30))*step, step, 1+r.IntN(60))
		exec := randomPMF(r, float64(1+r.IntN(8))*step, step, 1+r.IntN(60))
		d := prev.Min() - 2*step + r.Float64()*(prev.Max()+exec.Max()-prev.Min()+4*step)
		for _, model := range []Model{None, Pending, Evict} {
			strict := trial%2 == 1
			a, sa, err := Append(model, prev, exec, d, strict)
			if err != nil {
				t.Fatal(err)
			}
			b, sb, err := AppendPlain(model, prev, exec, d, strict)
			if err != nil {
				t.Fatal(err)
			}
			if sa != sb || a.Origin() != b.Origin() || a.Len() != b.Len() {
				t.Fatalf("trial %d %v: Append %v success %v, AppendPlain %v success %v", trial, model, a, sa, b, sb)
			}
			for k := range a.Len() {
				if math.Abs(a.Prob(k)-b.Prob(k)) > 1e-14 {
					t.Fatalf("trial %d %v: impulse %d: %v vs %v", trial, model, k, a.Prob(k), b.Prob(k))
				}
			}
		}
	}
}

// TestConditionWeights: Condition(t) is the impulses of d after t, each divided by norm, and
// kept is their mass; before the support nothing is divided, past it there is no mixture.
func TestConditionWeights(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 32))
	for trial := range 2000 {
		d := randomPMF(r, float64(r.IntN(20)), 0.5, 1+r.IntN(30))
		at := d.Min() - 2 + r.Float64()*(d.Max()-d.Min()+4)
		if trial%5 == 0 {
			at = d.Time(r.IntN(d.Len())) // on a grid point: conditioning is on C > t
		}
		kept, norm, ok := d.ConditionWeights(at)
		if ok != (at < d.Max()) {
			t.Fatalf("trial %d: t %v, support up to %v: ok %v", trial, at, d.Max(), ok)
		}
		if !ok {
			continue
		}
		c := d.Condition(at)
		mass := 0.0
		for k := range d.Len() {
			if d.Time(k) <= at {
				continue
			}
			mass += d.Prob(k)
			if d.Prob(k) == 0 {
				continue // trimmed off the conditioned PMF's ends
			}
			j := int(math.Round((d.Time(k) - c.Min()) / c.Step()))
			if math.Abs(d.Prob(k)/norm-c.Prob(j)) > 1e-15 {
				t.Fatalf("trial %d: impulse at %v: %v / %v, conditioned %v", trial, d.Time(k), d.Prob(k), norm, c.Prob(j))
			}
		}
		want := kept // renormalised ...
		if at < d.Min() {
			want = 1 // ... unless nothing was cut
		}
		if math.Abs(mass-kept) > 1e-14 || norm != want {
			t.Fatalf("trial %d: t %v min %v: kept %v (mass %v) norm %v", trial, at, d.Min(), kept, mass, norm)
		}
	}
}

// TestCompactEdges works by hand the edges of Merge's rounding, Crop and CapImpulses.
//
// nearestMultiple, ties upward: −3 to a multiple of 2 is −2 (between −4 and −2, a tie), −5 is
// −4, −4 to a multiple of 3 is −3 (1 away, against 2 to −6), 5 to a multiple of 2 is 6.
// Crop(2, 2) of {1: .5, 3: .5}: the range holds one grid point, 2; both halves fold into it.
// CapImpulses(1) of {1: .5, 2: .5}: Merge(2) moves 1 (a tie between 0 and 2) and 2 to 2: one
// impulse at 2, on a grid of step 2. CapImpulses(2) of it: already 2 impulses, unchanged.
// CapImpulses(3) of .2 at each of 0, 1, 2, 3, 4: the smallest factor is 2 (⌈5/3⌉), where 0 stays,
// 1 (a tie) and 2 go to 2, 3 (a tie) and 4 to 4: {0: .2, 2: .4, 4: .4}, 3 impulses.
func TestCompactEdges(t *testing.T) {
	for _, c := range [][3]int64{{-3, 2, -2}, {-5, 2, -4}, {-4, 3, -3}, {5, 2, 6}} {
		if got := nearestMultiple(c[0], c[1]); got != c[2] {
			t.Errorf("nearestMultiple(%d, %d) = %d, want %d", c[0], c[1], got, c[2])
		}
	}
	c, err := mustNew(t, 1, 1, []float64{0.5, 0, 0.5}).Crop(2, 2)
	if err != nil || c.Len() != 1 || c.Origin() != 2 || c.Prob(0) != 1 {
		t.Errorf("Crop(2, 2): %v %v, %v; want an impulse at 2", c, c.Probs(), err)
	}
	m := mustNew(t, 1, 1, []float64{0.5, 0.5}).CapImpulses(1)
	if m.Len() != 1 || m.Origin() != 2 || m.Step() != 2 || m.Prob(0) != 1 {
		t.Errorf("CapImpulses(1): %v %v; want an impulse at 2, step 2", m, m.Probs())
	}
	if m := mustNew(t, 1, 1, []float64{0.5, 0.5}).CapImpulses(2); m.Len() != 2 || m.Origin() != 1 || m.Step() != 1 {
		t.Errorf("CapImpulses(2) of 2 impulses: %v %v; want it unchanged", m, m.Probs())
	}
	m = mustNew(t, 0, 1, []float64{0.2, 0.2, 0.2, 0.2, 0.2}).CapImpulses(3)
	if m.Len() != 3 || m.Origin() != 0 || m.Step() != 2 || m.Prob(0) != 0.2 || m.Prob(1) != 0.4 || m.Prob(2) != 0.4 {
		t.Errorf("CapImpulses(3) of 5 impulses: %v %v; want {0: .2, 2: .4, 4: .4}", m, m.Probs())
	}
}
