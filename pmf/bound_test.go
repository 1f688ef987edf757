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
// this).
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
			if got > want+tol {
				t.Fatalf("trial %d %v: bound %.12g above the mean %.12g", trial, model, got, want)
			}
			past := deadline > prev.Time(prev.Len()-1)+exec.Time(execLen-1)
			exact := model != Evict || execLen <= 2 || past || prevLen <= 2
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
