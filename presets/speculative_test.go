package presets

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/speculate"
	"github.com/hcreplay/hcreplay/report"
)

// TestRunSpecRunsDone checks that runSpecRuns reports each replay that ends as it ends (the
// speculative preset's progress bar moves by it), from several workers at once, and each
// replay's result is kept.
func TestRunSpecRunsDone(t *testing.T) {
	w := speculate.SingleJob(50, 1, 2)
	var runs []*specRun
	for seed := range 7 {
		opt := speculate.DefaultOptions()
		opt.Strategy, opt.Seed = speculate.ESE, uint64(seed+1)
		runs = append(runs, &specRun{w: w, ms: nodes(4), opt: opt})
	}
	var done atomic.Int64
	if err := runSpecRuns(context.Background(), runs, 3, func() { done.Add(1) }); err != nil {
		t.Fatal(err)
	}
	if done.Load() != int64(len(runs)) {
		t.Errorf("done called %d times for %d replays", done.Load(), len(runs))
	}
	for i, r := range runs {
		if r.res == nil || len(r.res.Jobs) != 1 {
			t.Errorf("replay %d: result %v, want one job", i, r.res)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done.Store(0)
	if err := runSpecRuns(ctx, runs, 3, func() { done.Add(1) }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
	if done.Load() != 0 {
		t.Errorf("cancelled before it began: done called %d times", done.Load())
	}
}

// TestSpeculativeClaims checks the claims of speculative.yaml on hand-made replays (three seeds;
// t(2, 0.975) = 4.302653) through the points the runner builds, with the verdicts worked out by
// hand.
func TestSpeculativeClaims(t *testing.T) {
	p, err := Load("speculative")
	if err != nil {
		t.Fatal(err)
	}
	set := specSetup{light: 6, heavy: []float64{30, 40}, sigmas: []float64{1, 1.7071067811865475, 3}, f5Sigmas: []float64{1.75}}
	type vals struct{ flow, small, res [3]float64 }
	runs := func(v vals) []*specRun {
		var out []*specRun
		for i := range 3 {
			s := speculate.Summary{FlowtimeMean: replay.Num(v.flow[i]), FlowtimeSmallMean: replay.Num(v.small[i]), ResourceMean: replay.Num(v.res[i])}
			out = append(out, &specRun{res: &speculate.Result{Summary: s}})
		}
		return out
	}
	same := func(x float64) [3]float64 { return [3]float64{x, x, x} }
	by := map[float64]map[speculate.Strategy][]*specRun{6: {}, 30: {}, 40: {}}
	for _, st := range specStrategies() {
		for _, rate := range []float64{6, 30, 40} {
			by[rate][st] = runs(vals{same(1), same(1), same(1)})
		}
	}
	by[6][speculate.SCA] = runs(vals{flow: [3]float64{2, 4, 6}, small: [3]float64{1, 2, 3}, res: same(1)})
	by[6][speculate.Mantri] = runs(vals{flow: [3]float64{5, 10, 15}, small: same(1), res: same(1)})
	by[6][speculate.SDA] = runs(vals{flow: same(9), small: same(3), res: same(2)})
	by[40][speculate.ESE] = runs(vals{flow: same(8.2), small: same(1), res: same(1)})
	by[40][speculate.Mantri] = runs(vals{flow: same(10), small: same(1), res: same(1)})
	sigma := [][]*specRun{runs(vals{flow: same(6), res: same(3)}), runs(vals{flow: same(5), res: same(1)}), runs(vals{flow: same(4), res: same(2)})}
	f5 := [][]*specRun{runs(vals{}), runs(vals{})}
	checked, err := p.specEvaluate(specPoints(set, by, sigma, f5))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]report.Verdict{
		// SCA [2 4 6] ÷ Mantri [5 10 15] = 0.4 with d = a − 0.4·b = 0: [0.4, 0.4] holds 0.4, not 1.
		"fig2-light/1": report.Holds,
		// Mantri [5 10 15] = 10 ± 4.302653 · 5/√3 = ± 12.42 above SDA 9 ± 0, the intervals overlapping.
		"fig2-light/2": report.ShapeHolds,
		// Resource: Mantri 1 under SDA 2.
		"fig2-light/3": report.DoesNotHold,
		// Small jobs: SDA 3 ± 0 above SCA [1 2 3] = 2 ± 4.302653/√3 = ± 2.48, which reaches 3.
		"fig2-light/4": report.ShapeHolds,
		// SDA's resource at σ 1 (3) falls to 1 at σ* (apart).
		"fig3-sda-sigma/1": report.Holds,
		// SDA's flowtime at σ* (5) falls to 4 at σ 3: the claim says it rises.
		"fig3-sda-sigma/2": report.DoesNotHold,
		// At the last heavy λ (40), ESE 8.2 ÷ Mantri 10 = 0.82 ± 0.
		"fig6-heavy/1": report.Holds,
	}
	if len(checked) != len(want) {
		t.Fatalf("%d claims, want %d", len(checked), len(want))
	}
	for _, c := range checked {
		if w, ok := want[c.ID]; !ok || c.Verdict != w {
			t.Errorf("%s (%s): %s (%s, ours %s), want %s", c.ID, c.Wording, c.Verdict, c.Why, c.Ours, w)
		}
	}
}
