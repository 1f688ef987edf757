package heuristic

import "github.com/hcreplay/hcreplay/replay"

// FCFS is first come, first served (thesis §3.3.2.1, §3.3.3.1): each task, in arrival order, goes
// to the first available machine, checking machine 0, then 1, and so on. "Available" is idle
// (empty queue, this event's assignments included); when no machine is idle the task goes to
// the machine expected to become free first, ties to the lower index (thesis notes [IMPL]).
type FCFS struct{}

func (FCFS) Name() string      { return "FCFS" }
func (FCFS) Mode() replay.Mode { return replay.Immediate }

func (FCFS) Map(ev replay.Event) {
	for _, t := range ev.Batch() {
		ev.Assign(t, firstAvailable(ev, t))
	}
}

func firstAvailable(ev replay.Event, t int) int {
	best, bestFree := -1, 0.0
	for m := range ev.NumMachines() {
		if len(ev.Queue(m)) == 0 {
			return m
		}
		// When the machine is free for t: its expected completion minus t's own expected time.
		free := ev.Completion(t, m) - ev.Exec(t, m).Mean()
		if best < 0 || free < bestFree {
			best, bestFree = m, free
		}
	}
	return best
}
