package heuristic

import (
	"math"

	"github.com/hcreplay/hcreplay/replay"
)

// MMU is MinCompletion-MaxUrgency (thesis §3.3.1.3, Eq 3.6; 004 §V.B, Eq 3; 000 §8.3.3). Phase 1
// as MM; phase 2 takes the single pair, over all machines, with the greatest urgency
// U = 1/(δ − E[C]), assigns it, and starts over. Phase 2 is global as written, whatever
// Params.GlobalPhase2 says.
//
// Eq 3.6 is undefined at zero slack and ranks negative slack below every positive slack. We keep
// the formula as printed and define zero slack as +Inf urgency (thesis notes Eq 3.6 "raw formula"
// reading): tasks expected to be late rank last, which is what makes MMU collapse at high
// oversubscription in the papers. Ties: the smaller expected completion, then arrival order.
type MMU struct {
	Params
	buf *buffers // nil: fresh ones per event
}

func (MMU) Name() string       { return "MMU" }
func (MMU) Mode() replay.Mode  { return replay.Batch }
func (MMU) WaitsForSlot() bool { return true } // replay.SlotWaiter: rounds start from the free slots

func (h MMU) Map(ev replay.Event) {
	twoPhase(ev, h.Params, h.buf, true, func(a, b pair) bool {
		_, da := ev.TypeAndDeadline(a.task)
		_, db := ev.TypeAndDeadline(b.task)
		ua, ub := urgency(da, a.completion), urgency(db, b.completion)
		if ua != ub {
			return ua > ub
		}
		return a.completion < b.completion
	})
}

// urgency is Eq 3.6, with zero slack as +Inf.
func urgency(deadline, completion float64) float64 {
	slack := deadline - completion
	if slack == 0 {
		return math.Inf(1)
	}
	return 1 / slack
}
