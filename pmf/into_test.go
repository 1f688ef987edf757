package pmf

import (
	"errors"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// same reports whether two PMFs are identical to the bit.
func same(a, b PMF) bool {
	if a.origin != b.origin || a.step != b.step || len(a.p) != len(b.p) {
		return false
	}
	for k := range a.p {
		if a.p[k] != b.p[k] {
			return false
		}
	}
	return true
}

// dirty fills a buffer's whole storage with noise, as a reused buffer holds an older result:
// its impulses, and the scratch of its convolutions (pad, conv).
func dirty(r *rand.Rand, b *Buffer) {
	for _, s := range [][]float64{b.p[:cap(b.p)], b.pad[:cap(b.pad)], b.conv[:cap(b.conv)]} {
		for i := range s {
			s[i] = r.Float64()
		}
	}
}

// TestIntoMatchesAllocating: each *Into function gives its allocating counterpart's result to
// the bit (AppendPlainInto and AppendPlainReusing AppendPlain's), whatever its reused buffer
// held before, and a result
// stays intact while other buffers are written. Append, CDFTable, Condition and FromWeights are their *Into with fresh
// storage, so for them this checks the reuse alone (TestAppendMatchesPlain checks the link
// against the textbook one, TestAppendStatsMatchesAppend the table's use against it, TestCondition
// and TestConditionWeights conditioning by hand and impulse by impulse).
func TestIntoMatchesAllocating(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var bufs [2]Buffer
	var own Buffer // AppendPlainReusing's
	var table CDFTable
	for trial := range 5000 {
		step := []float64{1, 0.5, 2}[trial%3]
		prev := randomPMF(r, 50+float64(r.IntN(30))*step, step, 1+r.IntN(60))
		exec := randomPMF(r, float64(r.IntN(8))*step, step, 1+r.IntN(60))
		d := prev.Min() - 2*step + r.Float64()*(prev.Max()+exec.Max()-prev.Min()+4*step)
		if trial%7 == 0 {
			d = prev.Min() + float64(r.IntN(100))*step // on the grid
		}
		strict := trial%2 == 1
		for _, model := range []Model{None, Pending, Evict} {
			want, ws, err := Append(model, prev, exec, d, strict)
			if err != nil {
				t.Fatal(err)
			}
			dirty(r, &bufs[0])
			got, gs, err := AppendInto(&bufs[0], model, prev, exec, d, strict)
			if err != nil {
				t.Fatal(err)
			}
			if gs != ws || !same(got, want) {
				t.Fatalf("trial %d %v: AppendInto %v success %v, Append %v success %v", trial, model, got, gs, want, ws)
			}
			dirty(r, &bufs[1])
			exec.CDFTableInto(&table)
			if got, gs, err := AppendIntoTable(&bufs[1], model, prev, exec, &table, d, strict); err != nil || gs != ws || !same(got, want) {
				t.Fatalf("trial %d %v: AppendIntoTable %v success %v (%v), Append %v success %v", trial, model, got, gs, err, want, ws)
			}
			plain, ps, err := AppendPlain(model, prev, exec, d, strict)
			if err != nil {
				t.Fatal(err)
			}
			dirty(r, &bufs[1])
			if got, gs, err := AppendPlainInto(&bufs[1], model, prev, exec, d, strict); err != nil || gs != ps || !same(got, plain) {
				t.Fatalf("trial %d %v: AppendPlainInto %v success %v (%v), AppendPlain %v success %v", trial, model, got, gs, err, plain, ps)
			}
			dirty(r, &own)
			if got, gs, err := AppendPlainReusing(&own, model, prev, exec, d, strict); err != nil || gs != ps || !same(got, plain) {
				t.Fatalf("trial %d %v: AppendPlainReusing %v success %v (%v), AppendPlain %v success %v", trial, model, got, gs, err, plain, ps)
			}
			// A second link into the other buffer leaves the first result alone.
			dirty(r, &bufs[1])
			next, _, err := AppendInto(&bufs[1], model, got, exec, d+exec.Mean(), strict)
			if err != nil {
				t.Fatal(err)
			}
			if wantNext, _, _ := Append(model, want, exec, d+exec.Mean(), strict); !same(next, wantNext) || !same(got, want) {
				t.Fatalf("trial %d %v: chained AppendInto differs from Append", trial, model)
			}
		}

		dirty(r, &bufs[0])
		conv, err := Convolve(prev, exec)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := ConvolveInto(&bufs[0], prev, exec); err != nil || !same(got, conv) {
			t.Fatalf("trial %d: ConvolveInto %v (%v), Convolve %v", trial, got, err, conv)
		}
		w := append([]float64{0}, exec.p...) // weights with a zero end, which both trim
		w = append(w, 0.25*r.Float64(), 0)
		dirty(r, &bufs[1])
		wantW, wantDef, err := FromWeights(exec.origin, step, w)
		if err != nil {
			t.Fatal(err)
		}
		if got, def, err := FromWeightsInto(&bufs[1], exec.origin, step, w); err != nil || def != wantDef || !same(got, wantW) {
			t.Fatalf("trial %d: FromWeightsInto %v deficit %v (%v), FromWeights %v deficit %v", trial, got, def, err, wantW, wantDef)
		}
		if _, _, err := FromWeightsInto(&bufs[1], exec.origin, step, []float64{0.5, -0.1}); err == nil {
			t.Fatalf("trial %d: FromWeightsInto took a negative weight", trial)
		}

		at := prev.Min() - step + r.Float64()*(prev.Max()-prev.Min()+3*step)
		dirty(r, &bufs[0])
		if got, want := prev.ConditionInto(&bufs[0], at), prev.Condition(at); !same(got, want) {
			t.Fatalf("trial %d: ConditionInto(%v) %v, Condition %v", trial, at, got, want)
		}
		dirty(r, &bufs[1])
		if got := prev.CopyInto(&bufs[1]); !same(got, prev) {
			t.Fatalf("trial %d: CopyInto %v, want %v", trial, got, prev)
		}
		if got, want := ImpulseInto(&bufs[1], at, step), Impulse(at, step); !same(got, want) {
			t.Fatalf("trial %d: ImpulseInto %v, want %v", trial, got, want)
		}
		prev.CDFTableInto(&table)
		want := prev.CDFTable()
		if table.origin != want.origin || table.step != want.step || table.mean != want.mean || len(table.cum) != len(want.cum) {
			t.Fatalf("trial %d: CDFTableInto header differs", trial)
		}
		for j := range want.cum {
			if table.cum[j] != want.cum[j] {
				t.Fatalf("trial %d: CDFTableInto row %d differs", trial, j)
			}
		}
	}
}

// TestIntoReusesStorage: once a buffer has grown, writing a result of the same size into it
// allocates nothing, also when it grew to exactly that size.
func TestIntoReusesStorage(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	prev := randomPMF(r, 10, 1, 40)
	exec := randomPMF(r, 2, 1, 30)
	var a, b, small, tiny, plain, own Buffer
	var table, smallTable CDFTable
	start, one := Impulse(0, 1), Impulse(1, 1)
	run := func() {
		// Below four impulses n + n/4 is n: storage grown to exactly the size asked is reused.
		_ = ImpulseInto(&small, 7, 1)
		Impulse(2, 1).CDFTableInto(&smallTable)
		_, _, _ = AppendPlainInto(&tiny, Pending, start, one, 5, false) // a convolution of 1 impulse
		// The reference engine's link promises the same (AppendPlainInto's doc), and its own
		// (AppendPlainReusing's).
		_, _, _ = AppendPlainInto(&plain, Evict, prev, exec, 45, false)
		_, _, _ = AppendPlainReusing(&own, Evict, prev, exec, 45, false)
		_, _, _ = AppendPlainReusing(&own, None, prev, exec, 45, false)
		head := ImpulseInto(&a, 3, 1)
		free, _, _ := AppendInto(&b, Evict, head, exec, 30, false)
		free = free.ConditionInto(&a, 5)
		next, _, _ := AppendInto(&b, Evict, prev, exec, 45, false)
		next.CDFTableInto(&table)
		_ = free.CopyInto(&a)
		_, _ = ConvolveInto(&a, prev, exec)
		_, _, _ = FromWeightsInto(&b, 0, 1, prev.p)
	}
	run()
	if n := testing.AllocsPerRun(100, run); n != 0 {
		t.Errorf("%v allocations per run, want 0", n)
	}
}

// TestCDFTableCDF: the table's CDF, one lookup, is the PMF's own sum of its impulses up to t, at
// random times on and off the grid, before, inside and after the support; its mean is the PMF's
// to the bit.
func TestCDFTableCDF(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := range 2000 {
		d := randomPMF(r, float64(r.IntN(20)), []float64{1, 0.5, 2}[trial%3], 1+r.IntN(30))
		c := d.CDFTable()
		at := d.Min() - 3 + r.Float64()*(d.Max()-d.Min()+6)
		if trial%4 == 0 {
			at = d.Time(r.IntN(d.Len())) // on an impulse
		}
		want := 0.0
		for k := range d.Len() {
			if d.Time(k) <= at+1e-9*d.Step() {
				want += d.Prob(k)
			}
		}
		if got := c.CDF(at); math.Abs(got-want) > 1e-12 {
			t.Fatalf("trial %d: CDF(%v) = %v, the impulses up to it sum to %v", trial, at, got, want)
		}
		if c.Mean() != d.Mean() { // to the bit, as Mean's doc promises
			t.Fatalf("trial %d: the table's mean %v, the PMF's %v", trial, c.Mean(), d.Mean())
		}
	}
}

// TestConvolveIntoMatchesTextbook: the vectorised convolution gives the textbook scalar
// loop's impulses to the bit, for every prefix length an evicting link may ask for, short and
// long operands in either order, and zeros inside the operands (which the textbook loop skips).
func TestConvolveIntoMatchesTextbook(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	weights := func(n int) []float64 {
		w := make([]float64, n)
		for i := range w {
			if r.IntN(5) > 0 {
				w[i] = r.Float64() * math.Pow(10, -float64(r.IntN(12)))
			}
		}
		return w
	}
	type kernel struct {
		name string
		conv func(out, a, b []float64, n int, pad *[]float64) []float64
	}
	kernels := []kernel{{"scatter", func(out, a, b []float64, n int, _ *[]float64) []float64 { return convolveScatter(out, a, b, n) }}}
	if avx2 {
		kernels = append(kernels, kernel{"gather (AVX2)", convolveGather})
	} else {
		t.Log("no AVX2 here: the gather kernel is not tested")
	}
	if avx512 {
		kernels = append(kernels, kernel{"gather (AVX-512)", convolveGatherZ})
	} else {
		t.Log("no AVX-512 here: its gather kernel is not tested")
	}
	var pad []float64
	for trial := range 3000 {
		a, b := weights(1+r.IntN(40)), weights(1+r.IntN(40))
		if trial%7 == 0 {
			a = weights(1 + r.IntN(3))
		}
		if trial%5 == 0 { // several blocks of 64
			a = weights(1 + r.IntN(200))
		}
		want := convolveSlices(a, b)
		for _, n := range []int{len(want), r.IntN(len(want) + 1), len(want) - 1, 3, 8, 16, 24, 40, 64, 65} { // whole and part blocks of 8 to 64
			n = max(0, min(n, len(want)))
			long, short := a, b
			if len(a) < len(b) {
				long, short = b, a
			}
			for _, k := range kernels {
				guarded := make([]float64, n+64) // a kernel writes the first n, and nothing past them
				for i := n; i < len(guarded); i++ {
					guarded[i] = -1
				}
				got := k.conv(guarded[:n], long, short, n, &pad)
				for i := range n {
					if got[i] != want[i] {
						t.Fatalf("%s, trial %d (%d×%d, first %d): impulse %d is %v, textbook %v", k.name, trial, len(a), len(b), n, i, got[i], want[i])
					}
				}
				for i := n; i < len(guarded); i++ {
					if guarded[i] != -1 {
						t.Fatalf("%s, trial %d (%d×%d, first %d): wrote impulse %d", k.name, trial, len(a), len(b), n, i)
					}
				}
			}
		}
	}
}

// TestAppendIntoTableBehindImpulse: behind a single impulse (a task started at a known time),
// AppendIntoTable copies exec and reads the success chance from its table instead of
// convolving. Append, which convolves and sums, must agree to the bit, and the textbook link
// (AppendPlain) as TestAppendMatchesPlain has it: the same success chance and every impulse
// within 1e-14; on and off the grid, with deadlines before, inside and after exec's support.
func TestAppendIntoTableBehindImpulse(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	var buf Buffer
	for trial := range 3000 {
		step := []float64{1, 0.5, 2}[trial%3]
		start := float64(r.IntN(200)) * step
		if trial%5 == 0 {
			start += 0.3 * step // off the grid: the impulse's own lattice
		}
		prev := Impulse(start, step)
		exec := randomPMF(r, float64(r.IntN(8))*step, step, 1+r.IntN(80))
		d := start - 2*step + r.Float64()*(exec.Max()+4*step)
		if trial%7 == 0 {
			d = start + float64(r.IntN(90))*step // on the grid
		}
		strict := trial%2 == 1
		for _, model := range []Model{Pending, Evict} {
			want, ws, err := Append(model, prev, exec, d, strict)
			if err != nil {
				t.Fatal(err)
			}
			dirty(r, &buf)
			if trial%4 == 0 {
				buf = Buffer{} // fresh storage, as small as the result: nothing may be written past it
			}
			table := exec.CDFTable()
			got, gs, err := AppendIntoTable(&buf, model, prev, exec, &table, d, strict)
			if err != nil || gs != ws || !same(got, want) {
				t.Fatalf("trial %d %v: AppendIntoTable %v success %v (%v), Append %v success %v", trial, model, got, gs, err, want, ws)
			}
			plain, ps, err := AppendPlain(model, prev, exec, d, strict)
			if err != nil || ps != gs || plain.Origin() != got.Origin() || plain.Len() != got.Len() {
				t.Fatalf("trial %d %v: AppendIntoTable %v success %v, AppendPlain %v success %v (%v)", trial, model, got, gs, plain, ps, err)
			}
			for k := range got.Len() {
				if math.Abs(got.Prob(k)-plain.Prob(k)) > 1e-14 {
					t.Fatalf("trial %d %v: impulse %d: %v vs AppendPlain's %v", trial, model, k, got.Prob(k), plain.Prob(k))
				}
			}
		}
	}
}

// TestAppendLinksMatchesAppendIntoTable: a chain built in one call is, link by link, the chain
// of AppendIntoTable calls to the bit (the result and every success chance), with the impulse
// multiplications summed as a replay counts them; under every model, and with links whose
// execution time is on a finer step (merged by AppendIntoTable's general path).
func TestAppendLinksMatchesAppendIntoTable(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	var bufs [2]Buffer
	var want Buffer
	tables, execs := make([]CDFTable, 6), make([]PMF, 6)
	for trial := range 2000 {
		step := []float64{1, 0.5, 2}[trial%3]
		prev := randomPMF(r, 50+float64(r.IntN(30))*step, step, 1+r.IntN(30))
		if trial%4 == 0 {
			prev = Impulse(prev.Min(), step)
		}
		links := make([]Link, 1+r.IntN(6))
		d := prev.Min()
		for i := range links {
			es := step
			if trial%11 == 0 && i == len(links)-1 {
				es = step / 2 // merged onto prev's step
			}
			exec := randomPMF(r, float64(r.IntN(8))*step, es, 1+r.IntN(60))
			d += r.Float64() * exec.Max()
			if trial%7 == 0 {
				d = math.Round(d/step) * step // on the grid
			}
			exec.CDFTableInto(&tables[i])
			links[i] = Link{Exec: &execs[i], Table: &tables[i], Deadline: d}
			execs[i] = exec
		}
		strict := trial%2 == 1
		for _, model := range []Model{None, Pending, Evict} {
			dirty(r, &bufs[0])
			dirty(r, &bufs[1])
			got, succ, mults, err := AppendLinks(&bufs, model, prev, links, strict, []float64{-1})
			if err != nil {
				t.Fatal(err)
			}
			if len(succ) != len(links)+1 || succ[0] != -1 {
				t.Fatalf("trial %d %v: successes %v: want the %d links' appended to [-1]", trial, model, succ, len(links))
			}
			next, wantMults := prev, int64(0)
			for i, l := range links {
				wantMults += int64(next.Len()) * int64(l.Exec.Len())
				var s float64
				if next, s, err = AppendIntoTable(&want, model, next.CopyInto(new(Buffer)), *l.Exec, l.Table, l.Deadline, strict); err != nil {
					t.Fatal(err)
				}
				if succ[i+1] != s {
					t.Fatalf("trial %d %v link %d: success %v, AppendIntoTable %v", trial, model, i, succ[i+1], s)
				}
			}
			if !same(got, next) || mults != wantMults {
				t.Fatalf("trial %d %v: AppendLinks %v (%d multiplications), AppendIntoTable %v (%d)", trial, model, got, mults, next, wantMults)
			}
		}
	}
}

// TestAppendIntoTableNegativeExecOrigin: behind a single impulse, the copy of exec lands where
// its origin puts it, also before prev's grid origin (shift < 0, as TestAppendNegativeExecOrigin
// has for the convolving path). By hand, on step 0.5: prev = 1 for sure, exec = −0.5 or 1.5
// with 1/2 each, so the task completes at 0.5 or 2.5 with 1/2 each; deadline 1.25. Pending keeps
// both (success 1/2). Evict kills the run that would end at 2.5 at 1.25, halfway between the grid
// points 1 and 1.5: its 1/2 splits 1/4 and 1/4 (success 1/2).
func TestAppendIntoTableNegativeExecOrigin(t *testing.T) {
	prev := Impulse(1, 0.5)
	exec := mustNew(t, -0.5, 0.5, []float64{0.5, 0, 0, 0, 0.5})
	table := exec.CDFTable()
	for model, want := range map[Model]map[float64]float64{
		Pending: {0.5: 0.5, 2.5: 0.5},
		Evict:   {0.5: 0.5, 1: 0.25, 1.5: 0.25},
	} {
		next, s, err := AppendIntoTable(new(Buffer), model, prev, exec, &table, 1.25, false)
		if err != nil {
			t.Fatalf("%v: %v", model, err)
		}
		if got := masses(next); s != 0.5 || !maps.Equal(got, want) {
			t.Errorf("%v: next %v, success %v; want %v, .5", model, got, s, want)
		}
	}
}

// TestAppendLinksRejectsWrongTable: a link whose table is not its PMF's (another length) is
// refused, as AppendIntoTable refuses it, whichever path AppendLinks would take for it.
func TestAppendLinksRejectsWrongTable(t *testing.T) {
	exec := mustNew(t, 1, 1, []float64{0.5, 0.5})
	other := mustNew(t, 1, 1, []float64{0.25, 0.25, 0.5}).CDFTable()
	links := []Link{{Exec: &exec, Table: &other, Deadline: 3}}
	for _, model := range []Model{Pending, Evict} {
		var bufs [2]Buffer
		if _, _, _, err := AppendLinks(&bufs, model, Impulse(0, 1), links, false, nil); !errors.Is(err, ErrInvalid) {
			t.Errorf("%v: a table of 3 impulses for a PMF of 2: error %v, want ErrInvalid", model, err)
		}
	}
}

// TestAppendIntoFarNegativeExecOrigin: an exec origin several steps before zero puts the
// convolution below prev's whole support, so next's storage starts there (lo = shift) and the
// pass-through and killed mass lie well above its start. By hand, on step 1: prev = 0 or 1 with
// 1/2 each, exec = −3 or 2 with 1/2 each, deadline 0.5: only the start at 0 is before it, giving
// −3 and 2 with 1/4 each; the 1/2 at 1 passes through (success 1/4). Pending keeps the run ending
// at 2; Evict kills it at 0.5, halfway between 0 and 1: 1/8 to each.
func TestAppendIntoFarNegativeExecOrigin(t *testing.T) {
	prev := mustNew(t, 0, 1, []float64{0.5, 0.5})
	exec := mustNew(t, -3, 1, []float64{0.5, 0, 0, 0, 0, 0.5})
	table := exec.CDFTable()
	appends := map[string]func(Model) (PMF, float64, error){
		"AppendInto": func(m Model) (PMF, float64, error) {
			return AppendInto(new(Buffer), m, prev, exec, 0.5, false)
		},
		"AppendIntoTable": func(m Model) (PMF, float64, error) {
			return AppendIntoTable(new(Buffer), m, prev, exec, &table, 0.5, false)
		},
	}
	wants := map[Model]map[float64]float64{
		Pending: {-3: 0.25, 1: 0.5, 2: 0.25},
		Evict:   {-3: 0.25, 0: 0.125, 1: 0.625},
	}
	checkLinks(t, appends, wants, 0.25)
}

// TestConvolveIntoScratchOfExactSize: the gather kernels need a scratch of lb − 1 + 32 per block
// of output + 32 more for a part-block (AVX2), or lb − 1 + 64 per block (AVX-512); a scratch
// grown elsewhere (as it was by AppendPlainInto when the two shared it, to n + n/4 for a link of
// n impulses: 54 + 13 = 67) may be exactly what 32 outputs of a 4-impulse b need (3 + 32 + 32,
// and 3 + 64): each kernel must work within it, without growing it, and give the textbook
// loop's impulses.
func TestConvolveIntoScratchOfExactSize(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 24))
	a, b := randomPMF(r, 0, 1, 29), randomPMF(r, 0, 1, 4)
	want := convolveSlices(a.p, b.p)
	buf := Buffer{pad: make([]float64, 67)}
	got, err := ConvolveInto(&buf, a, b)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.p, want) {
		t.Fatalf("ConvolveInto: %v, textbook %v", got.p, want)
	}
	kernels := map[string]func(out, a, b []float64, n int, pad *[]float64) []float64{}
	if avx2 {
		kernels["AVX2"] = convolveGather
	}
	if avx512 {
		kernels["AVX-512"] = convolveGatherZ
	}
	for name, conv := range kernels {
		pad := make([]float64, 67)
		out := conv(make([]float64, len(want)), a.p, b.p, len(want), &pad)
		if !slices.Equal(out, want) {
			t.Errorf("%s: %v, textbook %v", name, out, want)
		}
		if cap(pad) != 67 {
			t.Errorf("%s grew the scratch to %d", name, cap(pad))
		}
	}
}
