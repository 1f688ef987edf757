package heuristic

import "github.com/hcreplay/hcreplay/replay"

// MM is MinCompletion-MinCompletion (thesis §3.3.1.1; 004 §V.A; 000 §8.3.1), the baseline of
// the batch heuristics. Phase 1 pairs each task with the machine where it is expected to complete
// first; phase 2 gives each machine with a free slot, among the tasks that chose it, the one
// expected to complete first. Phase 2 is per machine as 000/003 word it (thesis §3.1 [IMPL]);
// Params.GlobalPhase2 makes it the single global pick of 004 Alg. 2, which is SJF.
type MM struct{ Params }

func (MM) Name() string      { return "MM" }
func (MM) Mode() replay.Mode { return replay.Batch }

func (h MM) Map(ev replay.Event) {
	twoPhase(ev, h.Params, h.GlobalPhase2, func(a, b pair) bool { return a.completion < b.completion })
}
