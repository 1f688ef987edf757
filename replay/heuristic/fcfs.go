package heuristic

import "github.com/hcreplay/hcreplay/replay"

// FCFS is first come, first served (thesis §3.3.2.1, §3.3.3.1): each task, in arrival order, goes
// to the first available machine, checking machine 0, then 1, and so on. "Available" is idle
// (empty queue, this event's assignments included); when no machine is idle the task goes to
// the machine expected to become free first, ties to the lower index (thesis notes [IMPL]).
// "Free" is freeAt: after everything queued, under the replay's drop model. With this fallback
// FCFS makes the same choices as OLB: they differ only on a machine that holds waiting tasks but
// runs none (after the pruner stops its head), which FCFS does not count as available.
type FCFS struct{ Params }

func (FCFS) Name() string      { return "FCFS" }
func (FCFS) Mode() replay.Mode { return replay.Immediate }

func (h FCFS) Map(ev replay.Event) {
	for _, t := range ev.Batch() {
		ev.Assign(t, h.firstAvailable(ev))
	}
}

func (h FCFS) firstAvailable(ev replay.Event) int {
	for m := range ev.NumMachines() {
		if len(ev.Queue(m)) == 0 {
			return m
		}
	}
	return earliestFree(ev, h.Params)
}
