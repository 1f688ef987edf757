package heuristic

import "github.com/hcreplay/hcreplay/replay"

// EDF is Earliest Deadline First for homogeneous systems (thesis §3.3.3.2), "functionally
// similar to MSD". Phase 1 as MM: the machine where the task completes first (queues differ even
// when machines do not). Phase 2 is a global pick of the pair with the soonest deadline, ties by
// the smaller expected completion ([IMPL]: MSD's rule), then arrival order. It is MSD with
// Params.GlobalPhase2.
type EDF struct {
	Params
	storage
}

func (EDF) Name() string       { return "EDF" }
func (EDF) Mode() replay.Mode  { return replay.Batch }
func (EDF) WaitsForSlot() bool { return true } // replay.SlotWaiter: rounds start from the free slots

func (h EDF) Map(ev replay.Event) {
	deadlineFirst(ev, h.Params, h.buf, true)
}
