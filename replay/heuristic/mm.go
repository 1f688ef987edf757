package heuristic

import (
	"fmt"
	"math"
	"slices"

	"github.com/hcreplay/hcreplay/replay"
)

// MM is MinCompletion-MinCompletion (thesis §3.3.1.1; 004 §V.A; 000 §8.3.1), the baseline of
// the batch heuristics. Phase 1 pairs each task with the machine where it is expected to complete
// first; phase 2 gives each machine with a free slot, among the tasks that chose it, the one
// expected to complete first. Phase 2 is per machine as 000/003 word it (thesis §3.1 [IMPL]);
// Params.GlobalPhase2 makes it the single global pick of 004 Alg. 2, which is SJF.
type MM struct {
	Params
	storage
}

func (MM) Name() string       { return "MM" }
func (MM) Mode() replay.Mode  { return replay.Batch }
func (MM) WaitsForSlot() bool { return true } // replay.SlotWaiter: rounds start from the free slots

func (h MM) Map(ev replay.Event) {
	twoPhaseWith(ev, h.Params, h.buf, h.GlobalPhase2, func(a, b pair) bool { return a.completion < b.completion }, soonestFirst)
}

// soonestFirst is MM's phase 1. When phase 1 looks at a single machine, as it does whenever one
// slot has just freed in a crowded system, both phases reduce to the task expected to complete
// first there, ties to the first in batch order; soonestFirst then returns that pair alone, and
// finds it without asking about every task (soonest), from the batch grouped by type
// (Event.BatchGroups, or Event.BatchKeys once a task has been assigned or deferred in the event)
// when the round's tasks are the whole batch (no task was skipped earlier in the event), as they
// always are when phase 1 looks only at machines with a free slot. Several machines with a free
// slot and several tasks are soonestEach's, which asks soonest once or a few times per machine.
// Otherwise it is minCompletion, with the bounds of every task after the first (completions'
// later); and so is every later round of an event in which soonestEach gave a round up
// (buffers.eachGaveUp). A round that gave up leaves the tasks that crowd onto one machine, and
// the next round, one assignment later, mostly gives up again: under MM-P's deferring after the
// choice, which fills every free slot, soonestEach answered 83 of 16,521 rounds on
// BenchmarkReplay's workload, and its walks were a third of the replay's time, thrown away. The
// decisions are the same either way (both give the pairs phase 2 would); MM-P then asks for 2%
// fewer exact completions and ran 1.33 times as fast. A later event tries soonestEach again.
func soonestFirst(ev replay.Event, p Params, b *buffers, tasks, machines []int) []pair {
	each := len(tasks) > 1 && !p.Phase1All && !p.GlobalPhase2 && !b.eachGaveUp
	if len(tasks) == 0 || !b.whole || len(machines) != 1 && !each {
		return mmCompletions(ev, p, b, tasks, machines)
	}
	groups, ok := ev.BatchGroups()
	if !ok {
		groups = b.groupBatch(tasks, ev.BatchKeys())
	}
	if len(machines) == 1 {
		return append(b.pairs[:0], soonest(ev, p, groups, machines[0], b, nil))
	}
	if pairs, ok := soonestEach(ev, p, b, groups, machines); ok {
		return pairs
	}
	b.eachGaveUp = true
	return mmCompletions(ev, p, b, tasks, machines)
}

// mmCompletions is MM's phase 1 over every task and machine: completions with later set, from
// the memo of the event's earlier rounds (memoCompletions) unless completions are sums of
// lookups anyway (Params.ETC).
func mmCompletions(ev replay.Event, p Params, b *buffers, tasks, machines []int) []pair {
	if p.ETC {
		return completions(ev, p, b, tasks, machines, false, true)
	}
	if !b.memo.on {
		b.memo.start(ev.NumMachines())
	}
	return memoCompletions(ev, p, b, tasks, machines)
}

// maxPassed is how many tasks soonestEach lets a machine pass over, as preferring another
// machine, before it gives the round to minCompletion: each costs a soonest.
const maxPassed = 4

// soonestEach is MM's phase 1 and phase 2 when several machines have a free slot (two tasks
// that end at the same grid time, or a task dropped at its start): for each machine m, the
// pair phase 2 gives it, found without asking about every task on every machine. Phase 2 gives
// m the task expected to complete first there (ties: batch order) among those that chose m in
// phase 1, that is, whose completion there is below its completion on every other free machine
// (ties: the lower machine). So soonestEach walks the tasks in order of their completion on m,
// soonest first (soonest, passing over those already seen), and stops at the first that
// chooses m (chooses); a task that chooses another machine is passed over. It returns the pairs
// phase 2 picks, at most one per machine, in machines' order, for twoPhaseWith to assign; ok
// is false when a machine passed over more than maxPassed tasks, and the round is left to
// minCompletion. Phase 1 over every machine (Params.Phase1All) and the global phase 2 are
// minCompletion's.
func soonestEach(ev replay.Event, p Params, b *buffers, groups []replay.BatchGroup, machines []int) ([]pair, bool) {
	pairs := b.pairs[:0]
	for _, m := range machines {
		passed := b.passed[:0]
		for {
			best := soonest(ev, p, groups, m, b, passed)
			if best.task < 0 {
				break
			}
			if chooses(ev, p, b, best, machines) {
				pairs = append(pairs, best)
				break
			}
			if slices.Contains(passed, best.task) {
				panic(fmt.Sprintf("heuristic: soonest gave task %d, which it was told to pass over", best.task)) // a bug
			}
			if len(passed) == maxPassed {
				b.passed = passed
				return pairs, false
			}
			passed = append(passed, best.task)
		}
		b.passed = passed
	}
	return pairs, true
}

// chooses reports whether phase 1 pairs pr's task with pr's machine among machines: whether
// no other machine completes it sooner, or as soon with a lower index. A machine whose bound is
// clearly above pr's completion is not asked.
func chooses(ev replay.Event, p Params, b *buffers, pr pair, machines []int) bool {
	c := pr.completion
	for _, m := range machines {
		if m == pr.machine || !p.ETC && ev.CompletionBound(pr.task, m) > c+completionSlack(c) {
			continue
		}
		if x := b.completionIn(ev, p, pr.task, m); x < c || x == c && m < pr.machine {
			return false
		}
	}
	return true
}

// soonest is the task expected to complete first on machine m among the batch's, given grouped
// by type, the first in batch order among ties: what minCompletion and bestPair would choose,
// with fewer questions. The tasks in passed are left out, as if they were not in the batch
// (soonestEach); the answer's task is -1 when no task is left.
//
// A task's expected completion on a machine cannot fall as its deadline grows, other things
// equal: a later deadline only lets it start in more of the machine's outcomes (under evict and
// pending) and run longer before it is killed (under evict); under none and with Params.ETC the
// deadline plays no part. So among tasks of one type, the one with the earliest deadline (the
// lead) bounds the others from below, and a type whose lead completes clearly later than the
// soonest lead cannot hold the answer. Only the tasks of the other types are asked about, type
// by type (usually one type is left), and of those only the ones whose lower bound
// (Event.CompletionBound) is not clearly above the best so far; leadFloor spares most leads the
// same way. "Clearly" is completionSlack, which keeps the rounding of two evaluations from
// passing for an order between them. Ties go to the earlier in batch order whichever type is
// walked first, and a task passed over completes clearly later than the answer, so the order
// of the walk changes the questions asked, never the answer.
//
// The same monotony spares most of those bounds: once a task's bound passes it over, every task
// of its type with a deadline no earlier completes no sooner, so clearly later than the answer
// too (the best so far only falls), and is passed over without a bound. Deadlines drawn as
// arrival plus a per-type allowance, as HCW19's are, put a type's tasks in deadline order, so a
// type then costs one bound past its lead instead of one per task (cachegrind, 10 replays of
// 1,000 HCW19-like tasks: 2.7% fewer instructions; decisions and counters unchanged).
func soonest(ev replay.Event, p Params, groups []replay.BatchGroup, m int, b *buffers, passed []int) pair {
	leads := b.leads[:0]
	for i := range groups {
		g := &groups[i]
		if len(g.Tasks) == 0 {
			continue
		}
		l := g.Lead
		if len(passed) > 0 {
			l = leadWithout(g, passed)
		}
		if l >= 0 {
			leads = append(leads, lead{group: i, task: g.Tasks[l].Handle, deadline: g.Tasks[l].Deadline})
		}
	}
	b.leads = leads
	if len(leads) == 0 { // every task was passed over
		return pair{task: -1, machine: m, completion: math.Inf(1), second: math.Inf(1)}
	}
	b.startETC(ev, p)
	floor := leadFloor(ev, p, leads, m, b) // the soonest lead's completion: the answer completes no later
	best := pair{task: -1, machine: m, completion: math.Inf(1), second: math.Inf(1)}
	var at int64 // best's place in batch order: ties go to the first
	for i := range leads {
		l := &leads[i]
		if l.completion > floor+completionSlack(floor) {
			continue // every task of this type completes later than the soonest lead
		}
		later := math.Inf(1) // the earliest deadline of a task of this type passed over by its bound
		for _, x := range groups[l.group].Tasks {
			t, c := x.Handle, l.completion
			if len(passed) > 0 && slices.Contains(passed, t) {
				continue
			}
			if t != l.task {
				if x.Deadline >= later {
					continue // it completes no sooner than that task, so clearly later than the answer
				}
				limit := min(floor, best.completion) // the answer completes no later
				if !p.ETC && ev.CompletionBound(t, m) > limit+completionSlack(limit) {
					later = x.Deadline
					continue
				}
				c = b.completionIn(ev, p, t, m)
			}
			if best.task < 0 || c < best.completion || c == best.completion && x.Order < at {
				best.task, best.completion, at = t, c, x.Order
			}
		}
	}
	return best
}

// leadFloor sets each lead's completion on machine m and returns the soonest. A lead whose lower
// bound (Event.CompletionBound) is clearly above the soonest exact one so far is not asked: its
// completion is left at that bound, which is enough for soonest to pass its type over. The lead
// with the earliest deadline is asked first (under evict the soonest completion is often that
// of a task skipped or killed soon: on 1,000 HCW19-like tasks, taking the first lead in type
// order instead asks for 26% more exact completions, 2728 against 2165, and 2.3% more
// instructions, cachegrind), which brings m's chain up to date, after which the fast engine's
// bounds cost a few lookups each, taken for all the other leads in one call
// (Event.CompletionBounds); then the others are asked in order of their bounds, until the next
// bound is clearly above the soonest completion. Which lead is asked first does not change the
// answer: every lead left unasked has a bound, so a completion, clearly above the soonest.
func leadFloor(ev replay.Event, p Params, leads []lead, m int, b *buffers) float64 {
	floor := math.Inf(1)
	ask := func(l *lead) {
		l.completion = b.completionIn(ev, p, l.task, m)
		floor = math.Min(floor, l.completion)
	}
	if p.ETC { // every answer costs a lookup: no bound would save anything
		for i := range leads {
			ask(&leads[i])
		}
		return floor
	}
	first := 0
	for i := range leads {
		if leads[i].deadline < leads[first].deadline {
			first = i
		}
	}
	ask(&leads[first])
	b.leadTasks = b.leadTasks[:0]
	for _, l := range leads {
		b.leadTasks = append(b.leadTasks, l.task)
	}
	b.leadBounds = ev.CompletionBounds(b.leadTasks, m, b.leadBounds) // the first's is its memoised completion
	// The floor only falls from here, so the leads that may still be asked are those whose bound
	// is not clearly above it now: a few, asked in order of their bounds (ties: type order).
	cand := b.leadOrder[:0]
	for i := range leads {
		if i == first {
			continue
		}
		leads[i].completion = b.leadBounds[i]
		if leads[i].completion <= floor+completionSlack(floor) {
			cand = append(cand, i)
		}
	}
	// An insertion sort by hand, stable as slices.SortStableFunc is: cand holds one or two leads,
	// and the comparator calls cost 0.5% of MM's instructions (cachegrind, 10 replays).
	for j := 1; j < len(cand); j++ {
		for k := j; k > 0 && leads[cand[k]].completion < leads[cand[k-1]].completion; k-- {
			cand[k], cand[k-1] = cand[k-1], cand[k]
		}
	}
	b.leadOrder = cand
	for _, i := range cand {
		if leads[i].completion > floor+completionSlack(floor) {
			break
		}
		ask(&leads[i])
	}
	return floor
}

// groupBatch is Event.BatchGroups's answer made from the round's tasks and their keys
// (Event.BatchKeys), for a round after a task was assigned or deferred in the event: the tasks
// of each type, each ordered by its batch position.
func (b *buffers) groupBatch(tasks []int, keys []replay.BatchKey) []replay.BatchGroup {
	if len(keys) != len(tasks) {
		panic(fmt.Sprintf("heuristic: %d batch keys for a batch of %d tasks", len(keys), len(tasks))) // a bug
	}
	groups := b.groups
	for ty := range groups {
		groups[ty].Tasks = groups[ty].Tasks[:0]
	}
	for k, key := range keys {
		for len(groups) <= key.Type {
			groups = append(groups, replay.BatchGroup{Type: len(groups), Tasks: make([]replay.BatchTask, 0, 16)})
		}
		g := &groups[key.Type]
		if len(g.Tasks) == 0 || key.Deadline < g.Deadline {
			g.Lead, g.Deadline = len(g.Tasks), key.Deadline
		}
		g.Tasks = append(g.Tasks, replay.BatchTask{Handle: tasks[k], Order: int64(k), Deadline: key.Deadline})
	}
	b.groups = groups
	return groups
}

// leadWithout is the place in g of its lead when the tasks in passed are left out: the first of
// the others with the earliest deadline, or -1 when none is left.
func leadWithout(g *replay.BatchGroup, passed []int) int {
	l := -1
	for i, x := range g.Tasks {
		if !slices.Contains(passed, x.Handle) && (l < 0 || x.Deadline < g.Tasks[l].Deadline) {
			l = i
		}
	}
	return l
}

// lead is the task of a type that soonest asks about first: the earliest deadline of its type.
type lead struct {
	group      int // its type's group
	task       int
	deadline   float64
	completion float64 // exact, or a lower bound clearly above the soonest (leadFloor)
}

// completionSlack is how far apart two expected completions near c must be for soonest to take
// their order as certain: a thousand times the rounding of reported completions (1e-9) plus the
// relative error of summing a PMF's moments at c's magnitude.
func completionSlack(c float64) float64 { return 1e-6 + 1e-11*math.Abs(c) }
