package heuristic

import "github.com/hcreplay/hcreplay/replay"

// OLB is Opportunistic Load Balancing (Braun et al. 2001, JPDC 61(6); Maheswaran et al. 1999):
// each task, on arrival, goes to the machine expected to be free first, regardless of the task's
// execution time there. "Free" is freeAt: after everything queued, under the replay's drop model
// (Braun's ready time, the sum of expected execution times, with Params.ETC). An idle machine is
// free now, so idle machines win, the lowest index first. Queues are unbounded.
type OLB struct{ Params }

func (OLB) Name() string      { return "OLB" }
func (OLB) Mode() replay.Mode { return replay.Immediate }

func (h OLB) Map(ev replay.Event) {
	for _, t := range ev.Batch() {
		ev.Assign(t, earliestFree(ev, h.Params))
	}
}

// earliestFree is the machine expected to be free first (ties: lower index).
func earliestFree(ev replay.Event, p Params) int {
	best, bestFree := -1, 0.0
	for m := range ev.NumMachines() {
		if free := freeAt(ev, p, m); best < 0 || free < bestFree {
			best, bestFree = m, free
		}
	}
	return best
}
