package heuristic

import "github.com/hcreplay/hcreplay/replay"

// MCT is Minimum Completion Time (thesis §3.3.2.3), the immediate-mode MECT of 004 §VII: each
// task, on arrival, goes to the machine where it is expected to complete first (ties: lower
// machine index). Queues are unbounded.
type MCT struct{}

func (MCT) Name() string      { return "MCT" }
func (MCT) Mode() replay.Mode { return replay.Immediate }

func (MCT) Map(ev replay.Event) {
	all := make([]int, ev.NumMachines())
	for m := range all {
		all[m] = m
	}
	for _, t := range ev.Batch() {
		p := minCompletion(ev, []int{t}, all)[0]
		ev.Assign(t, p.machine)
	}
}
