package sweep

import (
	"runtime"
	"strings"
	"testing"
)

// BenchmarkSweepRunBytes reports the heap one listed run of a sweep takes (B/run, live after a
// collection): one part of what a run costs at the sweep's peak, which BenchmarkSweepPeakBytes
// (cmd/hcreplay) measures and runBytes, the cap's figure, is.
func BenchmarkSweepRunBytes(b *testing.B) {
	g, err := ParseGrid([]byte(smallGrid), "grid.yaml")
	if err != nil {
		b.Fatal(err)
	}
	const trials = 25_000 // 8 grid points × 25,000 trials of level a: 200,000 runs
	var perRun float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		runs, err := g.Expand(map[string]int{"a": trials, "b": 2})
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		perRun = float64(after.HeapAlloc-before.HeapAlloc) / float64(len(runs))
		runtime.KeepAlive(runs)
	}
	b.ReportMetric(perRun, "B/run")
}

// TestCapsWithinBudget: each cap times its measured bytes per unit stays within the memory the
// caps allow (issue 49: the generated-task cap allowed 8.4 GB, the run cap 32 GB).
func TestCapsWithinBudget(t *testing.T) {
	for _, c := range []struct {
		name       string
		cap, bytes int
	}{{"generated tasks", maxGeneratedTasks, genTaskBytes}, {"runs", maxSweepRuns, runBytes}} {
		if c.cap*c.bytes > sweepMemory {
			t.Errorf("%s: %d × %d bytes = %d, more than %d", c.name, c.cap, c.bytes, c.cap*c.bytes, sweepMemory)
		}
	}
}

// TestCapsShareTheBudget: the runs and the generated tasks share the memory of the caps, each
// under its own cap: 480,000 runs (1.82 GB at 3,800 bytes) and 14 million generated tasks (1.57
// GB at 112) are refused before any run is listed; 320,000 runs (1.22 GB) with them pass.
func TestCapsShareTheBudget(t *testing.T) {
	grid := strings.Replace(smallGrid, "generate: {level: 5k}\n    trials: 2", "generate: {level: 5k, tasks: 1000000}\n    trials: 14", 1)
	g, err := ParseGrid([]byte(grid), "grid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Validate(); err != nil {
		t.Fatalf("valid grid refused: %v", err)
	}
	_, err = g.Expand(map[string]int{"a": 59_986, "b": 14}) // (59,986 + 14) × 8 points
	if err == nil || !strings.Contains(err.Error(), "480000 runs and 14000000 generated tasks") {
		t.Errorf("480,000 runs and 14M generated tasks: %v", err)
	}
	runs, err := g.Expand(map[string]int{"a": 39_986, "b": 14})
	if err != nil || len(runs) != 320_000 {
		t.Errorf("320,000 runs and 14M generated tasks: %d runs, %v", len(runs), err)
	}
}
