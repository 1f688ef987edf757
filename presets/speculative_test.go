package presets

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/hcreplay/hcreplay/replay/speculate"
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
