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
//
// E[C] in the urgency is when the task's own run is expected to end if it runs to its end
// (Event.RunCompletion), not when the machine is expected to be free again (Event.Completion,
// phase 1's measure), under every drop model. The two differ most under evict, where the machine
// is free at the latest at the task's deadline, when the task is killed: with the kill placed
// at the deadline, the machine's expected free time never exceeds the deadline, so a nearly
// hopeless task would have a slack near 0+, the greatest urgency, and be mapped first, the
// reverse of "tasks expected to be late rank last" that Gentry 2018 (thesis §3.3.1.3) means. Under
// none they are the same number; under pending they differ only where the task would be dropped
// at its start, which puts that part of the free time after the deadline already: on the HCW19
// trials at 19k (30 trials, pending) either reading gives MMU, MMU-Drop and MMU-P within 0.6
// points of the other, well inside the trials' 95% intervals, so we take the one meaning. With
// Params.ETC the completion counts the task's run in full already and is kept.
type MMU struct {
	Params
	storage
}

func (MMU) Name() string       { return "MMU" }
func (MMU) Mode() replay.Mode  { return replay.Batch }
func (MMU) WaitsForSlot() bool { return true } // replay.SlotWaiter: rounds start from the free slots

func (h MMU) Map(ev replay.Event) {
	twoPhaseWith(ev, h.Params, h.buf, true, moreUrgent, urgencies)
}

// urgencies is MM's phase 1 with each pair's urgency.
func urgencies(ev replay.Event, p Params, b *buffers, tasks, machines []int) []pair {
	return withUrgency(ev, p, eventCompletions(ev, p, b, tasks, machines))
}

// withUrgency sets each pair's urgency, in pairs's storage.
func withUrgency(ev replay.Event, p Params, pairs []pair) []pair {
	for i := range pairs {
		pr := &pairs[i]
		end := pr.completion
		if !p.ETC {
			end = ev.RunCompletion(pr.task, pr.machine)
		}
		_, deadline := ev.TypeAndDeadline(pr.task)
		pr.urgency = urgency(deadline, end)
	}
	return pairs
}

// moreUrgent is MMU's phase-2 order: the greater urgency, then the smaller expected completion.
func moreUrgent(a, b pair) bool {
	if a.urgency != b.urgency {
		return a.urgency > b.urgency
	}
	return a.completion < b.completion
}

// urgency is Eq 3.6, with zero slack as +Inf.
func urgency(deadline, completion float64) float64 {
	slack := deadline - completion
	if slack == 0 {
		return math.Inf(1)
	}
	return 1 / slack
}
