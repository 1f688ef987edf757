package prune

import (
	"runtime"
	"testing"

	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
)

// TestHeuristicsAllocateNothing: once their buffers have grown, the mapping heuristics and the
// pruner allocate nothing per mapping event (issue 6: "no allocation in the steady-state event
// loop"; the engine alone is checked in replay's TestEventLoopAllocatesNothing). Each heuristic,
// with and without pruning, replays 1,000 and then 3,000 streamed tasks of the HCW19-like 34k
// workload; the longer replay may make a few more allocations than the shorter one, for buffers
// that grow late (up to one per 20 extra tasks), but one allocation per event or per task would
// show as thousands.
func TestHeuristicsAllocateNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("replays 4,000 tasks per heuristic and variant")
	}
	allocs := func(name string, v Variant, n int) (uint64, replay.Summary) {
		c := hcw19Streamed(t, n)
		pc := DefaultConfig()
		pc.Variant = v
		if name != "MM" {
			// Deferral after the heuristic's choice (the default) makes a retrofit rank the
			// whole batch at every event: ten times the replay's time for what the heuristic
			// allocates, which the placement does not change. MM-P checks the placement's own
			// storage (the pairs to take back) under after.
			pc.DeferAt = DeferBefore
		}
		m, err := New(name, heuristic.DefaultParams(), pc)
		if err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res, err := replay.Run(t.Context(), c, m)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		return after.Mallocs - before.Mallocs, res.Summary
	}
	for _, info := range heuristic.All() {
		for _, v := range []Variant{None, Both} {
			name := info.Name + v.Suffix()
			t.Run(name, func(t *testing.T) {
				short, _ := allocs(info.Name, v, 1000)
				long, s := allocs(info.Name, v, 3000)
				if s.OnTime == 0 || s.MappingEvents < 3000 {
					t.Fatalf("%d on time in %d events: the workload does not exercise the heuristic", s.OnTime, s.MappingEvents)
				}
				if long > short+100 {
					t.Errorf("%d allocations for 3,000 tasks, %d for 1,000: about %.2f per extra task",
						long, short, float64(long-short)/2000)
				}
				t.Logf("%d allocations for 1,000 tasks, %d for 3,000", short, long)
			})
		}
	}
}
