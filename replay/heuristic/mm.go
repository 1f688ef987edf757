package heuristic

import (
	"math"

	"github.com/hcreplay/hcreplay/replay"
)

// MM is MinCompletion-MinCompletion (thesis §3.3.1.1; 004 §V.A; 000 §8.3.1), the baseline of
// the batch heuristics. Phase 1 pairs each task with the machine where it is expected to complete
// first; phase 2 gives each machine with a free slot, among the tasks that chose it, the one
// expected to complete first. Phase 2 is per machine as 000/003 word it (thesis §3.1 [IMPL]);
// Params.GlobalPhase2 makes it the single global pick of 004 Alg. 2, which is SJF.
type MM struct {
	Params
	buf *buffers // nil: fresh ones per event
}

func (MM) Name() string      { return "MM" }
func (MM) Mode() replay.Mode { return replay.Batch }

func (h MM) Map(ev replay.Event) {
	twoPhaseWith(ev, h.Params, h.buf, h.GlobalPhase2, func(a, b pair) bool { return a.completion < b.completion }, soonestFirst)
}

// soonestFirst is MM's phase 1. When phase 1 looks at a single machine, as it does whenever one
// slot has just freed in a crowded system, both phases reduce to the task expected to complete
// first there, ties to the first in batch order; soonestFirst then returns that pair alone, and
// finds it without asking about every task (soonest). Otherwise it is minCompletion.
func soonestFirst(ev replay.Event, p Params, b *buffers, tasks, machines []int) []pair {
	if len(machines) != 1 || len(tasks) == 0 {
		return minCompletion(ev, p, b, tasks, machines)
	}
	return append(b.pairs[:0], soonest(ev, p, tasks, machines[0], b))
}

// soonest is the task among tasks expected to complete first on machine m, the first in batch
// order among ties: what minCompletion and bestPair would choose, with fewer questions.
//
// A task's expected completion on a machine cannot fall as its deadline grows, other things
// equal: a later deadline only lets it start in more of the machine's outcomes (under evict and
// pending) and run longer before it is killed (under evict); under none and with Params.ETC the
// deadline plays no part. So among tasks of one type, the one with the earliest deadline (the
// lead) bounds the others from below, and a type whose lead completes clearly later than the
// soonest lead cannot hold the answer. Only the tasks of the other types are asked about, in
// batch order. "Clearly" is completionSlack, which keeps the rounding of two evaluations from
// passing for an order between them.
func soonest(ev replay.Event, p Params, tasks []int, m int, b *buffers) pair {
	// One lead per type present, in order of first appearance: its earliest deadline, first in
	// batch order. b.leadOf finds a type's lead, b.leadIndex each task's.
	leads, index := b.leads[:0], b.leadIndex[:0]
	for _, t := range tasks {
		task := ev.Task(t)
		for len(b.leadOf) <= task.Type {
			b.leadOf = append(b.leadOf, -1)
		}
		i := b.leadOf[task.Type]
		switch {
		case i < 0:
			i = len(leads)
			b.leadOf[task.Type] = i
			leads = append(leads, lead{typ: task.Type, task: t, deadline: task.Deadline})
		case task.Deadline < leads[i].deadline:
			leads[i].task, leads[i].deadline = t, task.Deadline
		}
		index = append(index, i)
	}
	b.leads, b.leadIndex = leads, index
	b.startETC(ev, p)
	floor := math.Inf(1) // the soonest lead's completion: the answer completes no later
	for i := range leads {
		b.leadOf[leads[i].typ] = -1 // ready for the next call
		leads[i].completion = b.completionIn(ev, p, leads[i].task, m)
		floor = math.Min(floor, leads[i].completion)
	}
	best := pair{task: -1, machine: m, completion: math.Inf(1), second: math.Inf(1)}
	for k, t := range tasks {
		if leads[index[k]].completion > floor+completionSlack(floor) {
			continue // every task of this type completes later than the soonest lead
		}
		if c := b.completionIn(ev, p, t, m); best.task < 0 || c < best.completion {
			best.task, best.completion = t, c
		}
	}
	return best
}

// lead is the task of a type that soonest asks about first: the earliest deadline of its type.
type lead struct {
	typ, task  int
	deadline   float64
	completion float64
}

// completionSlack is how far apart two expected completions near c must be for soonest to take
// their order as certain: a thousand times the rounding of reported completions (1e-9) plus the
// relative error of summing a PMF's moments at c's magnitude.
func completionSlack(c float64) float64 { return 1e-6 + 1e-11*math.Abs(c) }
