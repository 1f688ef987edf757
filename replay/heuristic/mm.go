package heuristic

import "github.com/hcreplay/hcreplay/replay"

// MM is MinCompletion-MinCompletion (thesis §3.3.1.1; 004 §V.A; 000 §8.3.1), the baseline of
// the batch heuristics. Phase 1 pairs each task with the machine where it is expected to complete
// first; phase 2 gives each machine with a free slot, among the tasks that chose it, the one
// expected to complete first.
type MM struct{}

func (MM) Name() string      { return "MM" }
func (MM) Mode() replay.Mode { return replay.Batch }

func (MM) Map(ev replay.Event) {
	perMachineRounds(ev, func(a, b pair) bool { return a.completion < b.completion })
}
