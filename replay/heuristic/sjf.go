package heuristic

import "github.com/hcreplay/hcreplay/replay"

// SJF is Shortest Job First for homogeneous systems (thesis §3.3.3.3), "functionally similar to
// MM … the job is considered to be the completion time of the task when mapped to a queue".
// Phase 1 as MM; phase 2 is a global pick of the pair with the minimum expected completion time,
// ties by arrival order. It is MM with Params.GlobalPhase2.
type SJF struct {
	Params
	storage
}

func (SJF) Name() string       { return "SJF" }
func (SJF) Mode() replay.Mode  { return replay.Batch }
func (SJF) WaitsForSlot() bool { return true } // replay.SlotWaiter: rounds start from the free slots

// Map is MM's, phase 2 global, so that SJF too finds a single free machine's task without asking
// about every task (soonest).
func (h SJF) Map(ev replay.Event) {
	p := h.Params
	p.GlobalPhase2 = true
	MM{Params: p, storage: storage{h.buf}}.Map(ev)
}
