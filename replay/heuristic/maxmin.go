package heuristic

import "github.com/hcreplay/hcreplay/replay"

// MaxMin is the classic Max-Min (Braun et al. 2001, JPDC 61(6); the counterpart of the Min-Min
// of Ibarra & Kim 1977, JACM 24(2), that MM adapts). Phase 1 as MM: each task's minimum expected
// completion time and its machine. Phase 2 is global: the pair with the largest minimum
// completion is assigned, and phase 1 starts over, so long tasks go first and short ones fill in
// around them. Ties: arrival order. Phase 2 is global by definition, whatever
// Params.GlobalPhase2 says.
type MaxMin struct {
	Params
	storage
}

func (MaxMin) Name() string       { return "MaxMin" }
func (MaxMin) Mode() replay.Mode  { return replay.Batch }
func (MaxMin) WaitsForSlot() bool { return true } // replay.SlotWaiter: rounds start from the free slots

func (h MaxMin) Map(ev replay.Event) {
	twoPhase(ev, h.Params, h.buf, true, func(a, b pair) bool { return a.completion > b.completion })
}
