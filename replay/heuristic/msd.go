package heuristic

import (
	"cmp"
	"math"
	"slices"

	"github.com/hcreplay/hcreplay/replay"
)

// MSD is MinCompletion-Soonest Deadline (thesis §3.3.1.2; 004 §V.C; 000 §8.3.2). Phase 1 as MM;
// phase 2 gives each machine with a free slot the task with the soonest deadline among those that
// chose it, ties broken by the minimum expected completion time (004 gives that rule for one
// machine; we use it everywhere). Params.GlobalPhase2 makes phase 2 a global pick, which is EDF.
type MSD struct {
	Params
	storage
}

func (MSD) Name() string       { return "MSD" }
func (MSD) Mode() replay.Mode  { return replay.Batch }
func (MSD) WaitsForSlot() bool { return true } // replay.SlotWaiter: rounds start from the free slots

func (h MSD) Map(ev replay.Event) {
	deadlineFirst(ev, h.Params, h.buf, h.GlobalPhase2)
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

// deadlineFirst is twoPhase with soonestDeadline's phase 2, which ranks the pairs by their
// task's deadline before anything phase 1 computes: a round gives each machine with a free slot
// (global: one machine) the soonest-deadline task among those that chose it. So once a task of
// sooner deadline has claimed a machine, no later task can win it in this round. The round
// takes its tasks in deadline order, batch order among equal deadlines (deadlineClaims), and
// runs phase 1 only until each free machine is claimed by a task whose deadline no later task
// shares; a task alone with its deadline and with a single machine to choose from needs no
// completion at all. The assignments are twoPhase's, ties included (TestDeadlineFirstIsTwoPhase).
// On BenchmarkReplay's workload MSD asked 1,478 success evaluations and 5,118 convolutions
// instead of 43,569 and 7,373, and EDF-P 309,359 and 57,293 instead of 3,396,395 and 148,355.
// A crowded batch whose free machines include one that no task prefers runs phase 1 for nearly
// every task (MSD-P: 41 of 45 a round), as twoPhase does; bounds on the completions of the
// machines already claimed, to skip the rest of a task's phase 1, cost more than the
// completions they spared (MSD-P 0.92×).
//
// With Params.Phase1All phase 1 may choose a machine with no free slot, which takes the task out
// of the event's later rounds (open): that needs every task's phase 1, and stays twoPhase's.
func deadlineFirst(ev replay.Event, p Params, b *buffers, global bool) {
	if p.Phase1All {
		twoPhase(ev, p, b, global, soonestDeadline(ev))
		return
	}
	b = orFresh(b)
	skipped := b.skippedSet() // stays empty: open skips nothing when phase 1 asks only free machines
	b.memo.on = false
	b.byDeadline = b.byDeadline[:0]
	for {
		tasks, free, ok := b.round(ev, skipped)
		if !ok {
			return
		}
		if !p.ETC && !b.memo.on {
			b.memo.start(ev.NumMachines())
		}
		b.startETC(ev, p)
		if len(b.byDeadline) != len(tasks) { // the event's first round: afterwards only its assignments leave the batch
			b.sortByDeadline(ev, tasks)
		}
		for _, c := range b.deadlineClaims(ev, p, free, global) {
			ev.Assign(c.task, c.machine)
			b.memo.moved(c.machine)
			b.byDeadline[c.at].task = -1
		}
		b.byDeadline = slices.DeleteFunc(b.byDeadline, func(d deadlineTask) bool { return d.task < 0 })
	}
}

// deadlineTask is a task of the batch with its deadline and its position in the batch.
type deadlineTask struct {
	deadline float64
	pos      int
	task     int
}

// sortByDeadline lists tasks in b.byDeadline by deadline, then batch order.
func (b *buffers) sortByDeadline(ev replay.Event, tasks []int) {
	b.byDeadline = b.byDeadline[:0]
	for i, t := range tasks {
		_, d := ev.TypeAndDeadline(t)
		b.byDeadline = append(b.byDeadline, deadlineTask{d, i, t})
	}
	slices.SortFunc(b.byDeadline, func(x, y deadlineTask) int {
		if c := cmp.Compare(x.deadline, y.deadline); c != 0 {
			return c
		}
		return cmp.Compare(x.pos, y.pos)
	})
}

// claim is a task that has chosen a machine in phase 1, with its place in b.byDeadline and its
// deadline; completion is NaN when it was not asked (a single machine to choose from).
type claim struct {
	task, at, machine    int
	deadline, completion float64
}

// deadlineClaims is the pairs a round of deadlineFirst assigns, in b.claims's storage: per free
// machine in index order, the task that chose it with the soonest deadline, then the smaller
// expected completion, then the earlier position (bestPair over soonestDeadline); global, the one
// such task over all machines. The tasks are taken from b.byDeadline a deadline at a time, and
// phase 1 stops once every slot is claimed: a later deadline cannot win a claimed slot.
func (b *buffers) deadlineClaims(ev replay.Event, p Params, free []int, global bool) []claim {
	slots := len(free)
	if global {
		slots = 1
	}
	b.claims = slices.Grow(b.claims[:0], slots)[:slots]
	for i := range b.claims {
		b.claims[i].task = -1
	}
	b.slotOf = slices.Grow(b.slotOf[:0], ev.NumMachines())[:ev.NumMachines()]
	for i, m := range free {
		b.slotOf[m] = i
	}
	open := slots
	for i := 0; open > 0 && i < len(b.byDeadline); {
		d := b.byDeadline[i].deadline
		for ; i < len(b.byDeadline) && b.byDeadline[i].deadline == d; i++ {
			c := claim{task: b.byDeadline[i].task, at: i, deadline: d}
			c.machine, c.completion = b.chooseMachine(ev, p, c.task, free)
			slot := 0
			if !global {
				slot = b.slotOf[c.machine]
			}
			held := &b.claims[slot]
			switch {
			case held.task < 0:
				*held = c
				open--
			case held.deadline == d: // the same deadline: the smaller completion, then the earlier position; an earlier deadline keeps it
				if math.IsNaN(held.completion) {
					held.completion = b.askCompletion(ev, p, held.task, held.machine)
				}
				if math.IsNaN(c.completion) {
					c.completion = b.askCompletion(ev, p, c.task, c.machine)
				}
				if c.completion < held.completion {
					*held = c
				}
			}
		}
	}
	claims := b.claims[:0]
	for _, c := range b.claims {
		if c.task >= 0 {
			claims = append(claims, c)
		}
	}
	return claims
}

// chooseMachine is phase 1 for task t: the machine of free where it is expected to complete
// first (ties: the lower index) and that completion, from the event's memo (completionMemo.best)
// or, with Params.ETC, asked. With a single machine it is that machine and NaN, not asked.
func (b *buffers) chooseMachine(ev replay.Event, p Params, t int, free []int) (int, float64) {
	if len(free) == 1 {
		return free[0], math.NaN()
	}
	if b.memo.on {
		return b.memo.best(ev, p, b, t, free)
	}
	bm, bc := -1, math.Inf(1) // Params.ETC: every completion costs a lookup
	for _, m := range free {
		bm, bc, _ = ranked(bm, bc, math.Inf(1), m, b.completionIn(ev, p, t, m))
	}
	return bm, bc
}

// askCompletion is task t's completion on machine m, from the event's memo when it is on.
func (b *buffers) askCompletion(ev replay.Event, p Params, t, m int) float64 {
	if !b.memo.on {
		return b.completionIn(ev, p, t, m)
	}
	var row memoRow
	row.value, row.at, row.exact = b.memo.row(t)
	return b.memo.known(ev, p, b, row, t, m)
}
