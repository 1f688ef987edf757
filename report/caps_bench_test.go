package report

import (
	"runtime"
	"testing"
)

// BenchmarkSweepRunBytes reports the heap one listed run of a sweep takes (B/run): the figure
// maxSweepRuns is derived from (runBytes). Issue 49 measured 3.1 GB for 960,000 runs before
// the first one ran, with a cap that assumed far less.
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
	b.ReportMetric(runBytes, "B/run-assumed")
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
