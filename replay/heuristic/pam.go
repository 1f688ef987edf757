package heuristic

import "github.com/hcreplay/hcreplay/replay"

// PAM is the Pruning-Aware Mapper (000 §6.3.1; thesis §4.3, Algorithm 2; 003 §V). Phase 1 pairs
// each task with the machine offering it the highest chance of success; tasks whose best chance
// is at or below the pruner's deferring threshold are deferred; then every machine with a free
// slot takes, among the tasks paired with it, the one expected to complete first. Rounds repeat,
// with chances recomputed against the grown queues (thesis notes [IMPL]), until the batch is
// empty or the queues are full.
//
// PAM defers by itself only when it runs inside the pruner (replay/prune), which supplies the
// threshold; alone it is MOC's phase 1 followed by minimum completion. Phase 1 looks at the
// machines with a free slot, or at every machine with Params.Phase1All, and then a task whose
// best machine is full waits for a later event (as MOC's does). Ties: in phase 1 the
// smaller expected completion, then the lower machine index; in phase 2 the shorter expected
// execution time (003 §V), then arrival order.
type PAM struct {
	Params
	storage
}

func (PAM) Name() string       { return "PAM" }
func (PAM) Mode() replay.Mode  { return replay.Batch }
func (PAM) WaitsForSlot() bool { return true } // replay.SlotWaiter: rounds start from the free slots

// deferThresholder is what PAM needs from a pruning Event.
type deferThresholder interface {
	DeferThreshold(h int) float64
}

// machineScreener is what PAM can ask a pruning Event to spare it the chances of pairs that
// cannot decide: the machines of ms on which task h's chance may be above its deferring
// threshold, appended to dst (false when the Event cannot tell). A machine left out gives a
// chance below the threshold, so it is never the choice of a task that is kept, and a task
// whose best is at or below the threshold is deferred whichever machine that is.
type machineScreener interface {
	Promising(h int, ms, dst []int) ([]int, bool)
}

// eachScreener is machineScreener for a list of tasks at once, which lets the Event do the work
// that depends only on a task's type once per type: the i-th task's machines are
// dst[ends[i-1]:ends[i]] (ends[-1] read as the length dst came with), none meaning deferred;
// false when the Event cannot tell for any task.
type eachScreener interface {
	PromisingEach(tasks, ms, dst, ends []int) ([]int, []int, bool)
}

func (h PAM) Map(ev replay.Event) {
	th, prunes := ev.(deferThresholder)
	scr, screens := ev.(machineScreener)
	screens = screens && prunes && !h.Phase1All // phase 1 looks at the free machines only
	b := orFresh(h.buf)
	skipped := b.skippedSet()
	for {
		tasks, free, ok := b.round(ev, skipped)
		if !ok {
			return
		}
		b.phase1 = phase1Machines(ev, h.Params, free, b.phase1)
		if screens {
			if tasks = screenTasks(ev, scr, b, tasks); len(tasks) == 0 {
				return
			}
			b.pairs = maxSuccessEach(ev, h.Params, b, tasks, b.screenedOf)
		} else {
			b.pairs = maxSuccess(ev, h.Params, b, tasks, b.phase1)
		}
		pairs := b.pairs
		kept := pairs[:0]
		for _, p := range pairs {
			if prunes {
				if d := th.DeferThreshold(p.task); d > 0 && p.success <= d {
					ev.Defer(p.task)
					continue
				}
			}
			if ev.Free(p.machine) <= 0 {
				skipped[p.task] = true // Params.Phase1All: its best machine is full (004 Alg. 2)
				continue
			}
			p.completion = b.completionIn(ev, h.Params, p.task, p.machine) // no queue has moved since maxSuccess
			kept = append(kept, p)
		}
		if len(kept) == 0 {
			return
		}
		for _, m := range free {
			best := bestPair(kept, m, func(a, b pair) bool {
				if a.completion != b.completion {
					return a.completion < b.completion
				}
				return ev.ExecTable(a.task, m).Mean() < ev.ExecTable(b.task, m).Mean()
			})
			if best >= 0 {
				ev.Assign(kept[best].task, m)
			}
		}
	}
}

// screenTasks defers the round's tasks that no machine of b.phase1 can give a chance above their
// threshold (before any other decision of the round; deferring moves no queue, so no other pair changes) and notes, for
// each task kept, the machines that may (b.screened, b.screenedOf): phase 1 asks only those.
func screenTasks(ev replay.Event, scr machineScreener, b *buffers, tasks []int) []int {
	b.screened, b.screenedAt = b.screened[:0], b.screenedAt[:0]
	if each, ok := scr.(eachScreener); ok {
		if screened, ends, ok := each.PromisingEach(tasks, b.phase1, b.screened, b.ends[:0]); ok {
			b.screened, b.ends = screened, ends
			return keepScreened(ev, b, tasks)
		}
	}
	kept := tasks[:0]
	for _, t := range tasks {
		start := len(b.screened)
		ms, ok := scr.Promising(t, b.phase1, b.screened)
		if !ok {
			ms = append(ms, b.phase1...) // unknown: ask every machine
		}
		b.screened = ms
		if len(ms) == start {
			ev.Defer(t)
			continue
		}
		kept = append(kept, t)
		b.screenedAt = append(b.screenedAt, start)
	}
	b.screenedAt = append(b.screenedAt, len(b.screened))
	return kept
}

// keepScreened is screenTasks from PromisingEach's answer (b.screened, b.ends): it defers the
// tasks with no machine and notes where each kept task's machines start. A deferred task's
// range is empty, so the kept tasks' ranges lie end to end in b.screened.
func keepScreened(ev replay.Event, b *buffers, tasks []int) []int {
	kept, start := tasks[:0], 0
	for i, t := range tasks {
		end := b.ends[i]
		if end == start {
			ev.Defer(t)
			continue
		}
		kept = append(kept, t)
		b.screenedAt = append(b.screenedAt, start)
		start = end
	}
	b.screenedAt = append(b.screenedAt, len(b.screened))
	return kept
}

// screenedOf is the machines screenTasks kept for the i-th task it kept.
func (b *buffers) screenedOf(i int) []int {
	return b.screened[b.screenedAt[i]:b.screenedAt[i+1]]
}
