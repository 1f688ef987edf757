package pmf

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAppendMeanBound checks AppendMeanBound against the mean of the textbook chain link
// (AppendPlain, which shares no code with it): never above it under any model or deadline; equal
// to it under none and pending; and equal under evict when the chord is g itself, as it is for
// an execution time of at most two grid points (g bends only at X's impulses), when the
// deadline is past every outcome (no run is killed), and when the machine frees at one or two
// grid points (the chord meets g at each: a chord from X's shortest to its longest time fails
// this), and more generally when at most two starts before the deadline leave the run room for
// strictly more than its shortest and less than its longest time (chordStarts).
func TestAppendMeanBound(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	const step = 2.0
	checked, below := 0, 0
	for trial := range 3000 {
		phase := 0.0
		if trial%2 == 1 {
			phase = 0.7 // a machine whose grid is offset: an idle one's now, a running task's start
		}
		prevLen := 1 + r.IntN(30)
		if trial%5 == 0 {
			prevLen = 1 + r.IntN(2)
		}
		prev := randomPMF(r, phase+step*float64(r.IntN(40)), step, prevLen)
		execLen := 1 + r.IntN(12)
		exec := randomPMF(r, step*float64(r.IntN(8)), step, execLen)
		prevTable, execTable := prev.CDFTable(), exec.CDFTable()
		deadline := prev.Origin() + (r.Float64()*1.4-0.2)*(prev.Time(prev.Len()-1)-prev.Origin()+exec.Time(execLen-1))
		if r.IntN(4) == 0 {
			deadline = prev.Origin() + step*float64(r.IntN(60)) + phase // on the grid
		}
		for _, model := range []Model{None, Pending, Evict} {
			next, _, err := AppendPlain(model, prev, exec, deadline, trial%3 == 0)
			if err != nil {
				t.Fatal(err)
			}
			want := next.Mean()
			tol := 1e-9 * (1 + math.Abs(want))
			got := AppendMeanBound(model, &execTable, &prevTable, deadline)
			checked++
			if math.IsNaN(got) || got > want+tol { // NaN passes every comparison below
				t.Fatalf("trial %d %v: bound %.12g above the mean %.12g", trial, model, got, want)
			}
			past := deadline > prev.Time(prev.Len()-1)+exec.Time(execLen-1)
			exact := model != Evict || execLen <= 2 || past || prevLen <= 2 || chordStarts(prev, exec, deadline) <= 2
			if exact && math.Abs(got-want) > tol {
				t.Fatalf("trial %d %v, exec of %d: bound %.12g, want the mean %.12g", trial, model, execLen, got, want)
			}
			if got < want-tol {
				below++
			}
		}
	}
	if below < checked/20 {
		t.Errorf("only %d of %d bounds below the mean: the test meets few curved chords", below, checked)
	}
}

// chordStarts counts the grid points i of prev before the deadline whose start leaves a run
// u = K − i steps strictly between exec's shortest and longest time, for K the grid point just
// before the deadline and the one at or after it (a killed run frees the machine at one or the
// other, KillShare), and returns the larger count: the starts whose g(u) AppendMeanBound takes
// from a chord. Counted here from the grid itself, with a tolerance for deadlines on a grid point.
func chordStarts(prev, exec PMF, deadline float64) int {
	step := prev.Step()
	kc := int(math.Ceil((deadline-prev.Origin())/step - 1e-9)) // the first grid point at or after the deadline
	x0 := int(math.Round(exec.Origin() / step))
	x1 := x0 + exec.Len() - 1
	most := 0
	for _, k := range []int{kc - 1, kc} {
		n := 0
		for i := 0; i < prev.Len() && i < kc; i++ {
			if u := k - i; x0 < u && u < x1 {
				n++
			}
		}
		most = max(most, n)
	}
	return most
}

// TestAppendMeanBoundNotQuiteOne: a PMF's mass may miss 1 by up to MassTolerance, and the bound
// must stay below the mean for such an execution time too. Worked by hand, under evict: the
// machine is free at 0 (an impulse, step 1), the deadline is 1000 and X, of mass
// q = 1 − 8·10⁻¹⁰, takes 2000: the task starts at 0 and is killed at K = 1000 whatever it
// takes, so the machine frees at 1000 for sure (the killed mass is the predecessor's, 1). The
// bound takes g(u) = u·q for every start that leaves no room for a run: 1000·q, 8·10⁻⁷ below.
func TestAppendMeanBoundNotQuiteOne(t *testing.T) {
	const q = 1 - 8e-10
	exec, prev := mustNew(t, 2000, 1, []float64{q}).CDFTable(), Impulse(0, 1).CDFTable()
	if got := AppendMeanBound(Evict, &exec, &prev, 1000); got > 1000 || math.Abs(got-1000*q) > 1e-10 {
		t.Errorf("bound %.12f, want 1000·q = %.12f, below the mean 1000", got, 1000*q)
	}
	if _, mean, err := AppendStatsTable(Evict, mustNew(t, 2000, 1, []float64{q}), &exec, &prev, 1000, false); err != nil || mean != 1000 {
		t.Errorf("mean %v (%v), want 1000", mean, err)
	}
}
