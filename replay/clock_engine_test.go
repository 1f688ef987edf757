package replay

import (
	"math"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// TestSameTimeHandWorked checks the engine's one notion of "the same time" (package doc, Time)
// on a machine whose running task has a grid point a hair after now, on both engines.
//
// Task A (type 0: 1 or 3, half each) starts at 0 on the only machine and runs 3 (observed). B
// (type 1: always 1) arrives at 0.5; C (type 1) arrives at 1 − 1e-12, the same time as A's grid
// point 1 (within a billionth of a step). At C's event A has not finished by 1, so its completion
// is 3: B runs 3–4, and C would complete at 5, after its deadline 3.5: predicted chance 0 under
// none. A chain kept from B's event (A conditioned at 0.5: 1 or 3) would give C a completion of
// 3 or 5 and a chance of ½: that is what the fast engine's cache held when it compared now with
// A's next grid point exactly (issue 51: now < 1, so it kept the chain).
//
// Then the loop: D (type 1, deadline 6.5) arrives at 5 − 1e-12, the same time as C's finish at
// 5 (A ends at 3, B at 4, C at 5). That is one event, finishes first: the machine is free, D
// starts at 5 and ends at 6, on time, and its predicted chance is 1. Were D's arrival an event
// before C's finish, its chain would condition C (always 1, started at 4) on not having ended by
// now, the same time as 5: no mass left, so C's end moves to the next grid point, 6, and D's
// completion to 7: predicted 0 for a task that then runs 5–6 on time (issue 51's third case).
func TestSameTimeHandWorked(t *testing.T) {
	execA, _, err := pmf.FromWeights(1, 1, []float64{0.5, 0, 0.5}) // 1 or 3
	if err != nil {
		t.Fatal(err)
	}
	one := pmf.Impulse(1, 1)
	pet := gridPET{{execA}, {one}}
	tasks := []Task{
		{ID: 0, Type: 0, Arrival: 0, Deadline: 100, Observed: []float64{3}},
		{ID: 1, Type: 1, Arrival: 0.5, Deadline: 100},
		{ID: 2, Type: 1, Arrival: 1 - 1e-12, Deadline: 3.5},
		{ID: 3, Type: 1, Arrival: 5 - 1e-12, Deadline: 6.5},
	}
	for _, engine := range []string{"reference", "fast"} {
		opt := DefaultOptions()
		opt.DropModel, opt.Trim, opt.Engine = pmf.None, 0, engine
		res := run(t, Config{PET: pet, Machines: machinesOf(0), Tasks: tasks, Options: opt}, toMachine0)
		byID := map[int64]Outcome{}
		for _, o := range res.Outcomes {
			byID[o.Task.ID] = o
		}
		if c := byID[2]; c.Predicted != 0 || c.Status != Late {
			t.Errorf("%s: task C predicted %v, %v; want 0 (A still running at its grid point 1), late", engine, c.Predicted, c.Status)
		}
		if d := byID[3]; d.Predicted != 1 || d.Status != OnTime || math.Abs(d.Start-5) > 1e-9 {
			t.Errorf("%s: task D predicted %v, %v, started at %v; want 1 (C's finish at 5 is the same time as D's arrival), on time, 5", engine, d.Predicted, d.Status, d.Start)
		}
	}
}
