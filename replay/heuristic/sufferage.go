package heuristic

import "github.com/hcreplay/hcreplay/replay"

// Sufferage is the classic Sufferage heuristic (Maheswaran et al. 1999, JPDC 59(2)). Phase
// 1 as MM, and each task's sufferage: its second-best expected completion time minus its best,
// how much it would suffer if it did not get its best machine. Phase 2 gives each machine with a
// free slot, among the tasks that chose it, the one that suffers most; rounds repeat as in MM
// (Maheswaran's pass, in which each machine takes at most one task, then ready times are
// updated). Params.GlobalPhase2 makes phase 2 a single global pick.
//
// A task with only one machine to choose from (one free machine, or one machine in all) has no
// second best: its sufferage is +Inf, since it can go nowhere else in this event. Ties: the
// smaller expected completion, then arrival order.
type Sufferage struct {
	Params
	storage
}

func (Sufferage) Name() string       { return "Sufferage" }
func (Sufferage) Mode() replay.Mode  { return replay.Batch }
func (Sufferage) WaitsForSlot() bool { return true } // replay.SlotWaiter: rounds start from the free slots

func (h Sufferage) Map(ev replay.Event) {
	twoPhaseWith(ev, h.Params, h.buf, h.GlobalPhase2, func(a, b pair) bool {
		sa, sb := a.second-a.completion, b.second-b.completion
		if sa != sb {
			return sa > sb
		}
		return a.completion < b.completion
	}, minTwoCompletions)
}
