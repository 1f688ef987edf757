package replay

import (
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// TestFastConvolvesWhatItUses counts the fast engine's convolutions on a workload small enough to
// count by hand. Pairs of tasks arrive together, ten time units apart, at one machine where each
// runs 1, 2 or 3 units: the pair is mapped in one event and both have finished before the next.
// Asking about the second task of a pair needs the first one's link, one convolution of the idle
// machine's impulse with a 3-impulse execution time; the second one's link is never used, since
// its queue has emptied by the next event, and must not be made. The reference engine rebuilds
// the chain for each question, and each task is asked about twice, by the mapper and by Assign
// (its predicted chance): for the first task one link each time, for the second two.
func TestFastConvolvesWhatItUses(t *testing.T) {
	exec, err := pmf.New(1, 1, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3})
	if err != nil {
		t.Fatal(err)
	}
	const pairs = 3
	var tasks []Task
	for i := range pairs {
		at := 10 * float64(i)
		tasks = append(tasks, Task{ID: int64(2 * i), Arrival: at, Deadline: at + 9}, Task{ID: int64(2*i + 1), Arrival: at, Deadline: at + 9})
	}
	wants := map[string]struct{ convolutions, multiplications int64 }{
		"fast":      {pairs, pairs * 1 * 3},
		"reference": {2 * 3 * pairs, 2 * pairs * (1*3 + 1*3 + 3*3)},
	}
	for engine, want := range wants {
		opt := DefaultOptions()
		opt.Engine, opt.Trim = engine, 0
		res := run(t, Config{PET: gridPET{{exec}}, Machines: machinesOf(0), Tasks: tasks, Options: opt}, greedyBest)
		s := res.Summary
		if s.OnTime != 2*pairs {
			t.Fatalf("%s: %d of %d tasks on time: the workload is not what the count assumes", engine, s.OnTime, 2*pairs)
		}
		if s.Convolutions != want.convolutions || s.Multiplications != want.multiplications {
			t.Errorf("%s: %d convolutions, %d multiplications; want %d and %d",
				engine, s.Convolutions, s.Multiplications, want.convolutions, want.multiplications)
		}
	}
}
