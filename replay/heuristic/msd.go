package heuristic

import "github.com/hcreplay/hcreplay/replay"

// MSD is MinCompletion-Soonest Deadline (thesis §3.3.1.2; 004 §V.C; 000 §8.3.2). Phase 1 as MM;
// phase 2 gives each machine with a free slot the task with the soonest deadline among those that
// chose it, ties broken by the minimum expected completion time (004 gives that rule for one
// machine; we use it everywhere). Params.GlobalPhase2 makes phase 2 a global pick, which is EDF.
type MSD struct {
	Params
	buf *buffers // nil: fresh ones per event
}

func (MSD) Name() string       { return "MSD" }
func (MSD) Mode() replay.Mode  { return replay.Batch }
func (MSD) WaitsForSlot() bool { return true } // replay.SlotWaiter: rounds start from the free slots

func (h MSD) Map(ev replay.Event) {
	twoPhase(ev, h.Params, h.buf, h.GlobalPhase2, soonestDeadline(ev))
}

// soonestDeadline is the phase-2 order of MSD and EDF: soonest deadline, then smaller expected
// completion.
func soonestDeadline(ev replay.Event) func(a, b pair) bool {
	return func(a, b pair) bool {
		_, da := ev.TypeAndDeadline(a.task)
		_, db := ev.TypeAndDeadline(b.task)
		if da != db {
			return da < db
		}
		return a.completion < b.completion
	}
}
