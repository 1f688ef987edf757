package heuristic

import "github.com/hcreplay/hcreplay/replay"

// MSD is MinCompletion-Soonest Deadline (thesis §3.3.1.2; 004 §V.C; 000 §8.3.2). Phase 1 as MM;
// phase 2 gives each machine with a free slot the task with the soonest deadline among those that
// chose it, ties broken by the minimum expected completion time.
type MSD struct{}

func (MSD) Name() string      { return "MSD" }
func (MSD) Mode() replay.Mode { return replay.Batch }

func (MSD) Map(ev replay.Event) {
	perMachineRounds(ev, func(a, b pair) bool {
		da, db := ev.Task(a.task).Deadline, ev.Task(b.task).Deadline
		if da != db {
			return da < db
		}
		return a.completion < b.completion
	})
}
