package heuristic

import (
	"math"
	"slices"

	"github.com/hcreplay/hcreplay/replay"
)

// pair is a task and the machine phase 1 chose for it, with the values phase 2 ranks by.
type pair struct {
	task, machine int
	completion    float64 // expected completion on the machine
	second        float64 // expected completion on the next-best machine; +Inf when there is none
	success       float64 // success chance on the machine (when the heuristic asks for it)
	urgency       float64 // MMU's urgency of the pair
}

// buffers is the storage a heuristic reuses from one mapping event to the next, so that the
// event loop allocates nothing once it has grown (issue 6). The registry gives each heuristic
// it makes a set of its own; one written as a literal has none and takes a fresh set for each
// event (orFresh).
type buffers struct {
	free, phase1, tasks []int
	pairs               []pair
	skipped             map[int]bool
	mean                []float64 // fastest's
	etc                 []float64 // etcFree by machine, for completionIn
	cand                []pair    // MOC's candidates
	order               []int     // and their tasks
	perm, ordering      []int     // MOC's permutations of them
	chains              chainBuffers
	leads               []lead              // soonest's, with each type's lead
	groups              []replay.BatchGroup // groupBatch's, by task type
	leadTasks           []int               // leadFloor's leads' tasks
	leadBounds          []float64           // and their bounds
	leadOrder           []int               // the leads leadFloor may ask, in order of their bounds
	passed              []int               // soonestEach's tasks passed over on a machine
	eachGaveUp          bool                // soonestEach gave a round up to minCompletion in this event
	whole               bool                // the round's tasks are the whole batch, as Event.BatchKeys has it
	bounds              []bounded           // completions', by machine
	memo                completionMemo      // MM's completions asked in this event
	screened            []int               // PAM's machines worth asking, task after task
	screenedAt          []int               // where each task's start in screened, and the end
	ends                []int               // PAM's PromisingEach answer: where each task's machines end in screened
	claims              []claim             // deadlineClaims', by slot
	slotOf              []int               // each free machine's slot
	byDeadline          []deadlineTask      // deadlineFirst's batch, by deadline
}

// orFresh is b, or a new set of buffers when b is nil.
func orFresh(b *buffers) *buffers {
	if b == nil {
		return new(buffers)
	}
	return b
}

// round is what a round of a batch heuristic starts from: the batch without the tasks skipped
// earlier in the event (skipped may be nil) and the machines with a free slot, in b's storage;
// ok is false when either is empty and the event's mapping is over. The free slots are looked
// at first: in a crowded replay most events (arrivals) find none, and the batch is long.
func (b *buffers) round(ev replay.Event, skipped map[int]bool) (tasks, free []int, ok bool) {
	b.free = ev.FreeMachines(b.free)
	if len(b.free) == 0 {
		return nil, b.free, false
	}
	tasks = ev.Batch()
	b.whole = len(skipped) == 0
	if !b.whole {
		b.tasks = unskipped(tasks, skipped, b.tasks)
		tasks = b.tasks
	}
	return tasks, b.free, len(tasks) > 0
}

// skippedSet is b's empty set of skipped tasks.
func (b *buffers) skippedSet() map[int]bool {
	if b.skipped == nil {
		b.skipped = map[int]bool{}
	}
	clear(b.skipped)
	return b.skipped
}

// allMachines lists every machine, in index order, in ms's storage.
func allMachines(ev replay.Event, ms []int) []int {
	ms = ms[:0]
	for m := range ev.NumMachines() {
		ms = append(ms, m)
	}
	return ms
}

// phase1Machines is where phase 1 looks for a task's machine: the machines with a free slot
// (thesis §3.1 [IMPL]), which the round found (free), or every machine with Params.Phase1All
// (004 Alg. 2); in ms's storage.
func phase1Machines(ev replay.Event, p Params, free, ms []int) []int {
	if p.Phase1All {
		return allMachines(ev, ms)
	}
	return append(ms[:0], free...)
}

// waiting is machine m's queue without its running head: the tasks that start after Ready(m).
func waiting(ev replay.Event, m int) []int {
	q := ev.Queue(m)
	if ev.Running(m) {
		return q[1:]
	}
	return q
}

// startETC readies completionIn for a phase 1 on the queues as they are now. Call it again once
// any queue has moved (an Assign).
func (b *buffers) startETC(ev replay.Event, p Params) {
	if !p.ETC {
		return
	}
	n := ev.NumMachines()
	b.etc = slices.Grow(b.etc[:0], n)[:n]
	for m := range b.etc {
		b.etc[m] = math.NaN() // not asked yet
	}
}

// completionIn is the expected time task t completes if appended to machine m (thesis §3.0). By
// default it is the mean of the engine's drop-aware completion PMF, reading (a); with
// Params.ETC it is the ETC-style sum of reading (b), Ready(m)'s mean plus the mean execution
// times of the waiting tasks and of t, which counts every queued task in full even when the drop
// model would skip or kill it. Under drop model none the two agree. The ETC sum up to t is
// computed once per machine since b.startETC: a phase 1 asks about many tasks on queues that do
// not move meanwhile, and each sum builds Ready(m).
func (b *buffers) completionIn(ev replay.Event, p Params, t, m int) float64 {
	if !p.ETC {
		return ev.Completion(t, m)
	}
	if math.IsNaN(b.etc[m]) {
		b.etc[m] = etcFree(ev, m)
	}
	return replay.RoundTime(b.etc[m] + ev.ExecTable(t, m).Mean())
}

// etcFree is when machine m finishes its queue in the ETC style: Ready(m)'s mean plus the mean
// execution time of every waiting task. Ready(m)'s mean differs in its last bits between engines,
// so callers round what they compare (completionIn, freeAt).
func etcFree(ev replay.Event, m int) float64 {
	free := ev.Ready(m).Mean()
	for _, h := range waiting(ev, m) {
		free += ev.ExecTable(h, m).Mean()
	}
	return free
}

// freeAt is when machine m is expected to have finished everything queued on it, whatever task
// comes next: the mean of the drop-aware free-time PMF after the last queued task, or etcFree
// with Params.ETC.
func freeAt(ev replay.Event, p Params, m int) float64 {
	if p.ETC {
		return replay.RoundTime(etcFree(ev, m))
	}
	return replay.RoundTime(ev.Tail(m).Mean()) // rounded as completions are: a tie is a tie on every engine
}

// minCompletion is the common phase 1 of the completion-based heuristics: for each task, the
// machine among machines where it is expected to complete first (ties: lower machine index), in
// b.pairs's storage. Pair.second is left +Inf: minTwoCompletions fills it.
func minCompletion(ev replay.Event, p Params, b *buffers, tasks, machines []int) []pair {
	return completions(ev, p, b, tasks, machines, false, false)
}

// minTwoCompletions is minCompletion with each pair's second-best completion, which Sufferage
// needs.
func minTwoCompletions(ev replay.Event, p Params, b *buffers, tasks, machines []int) []pair {
	return completions(ev, p, b, tasks, machines, true, false)
}

// completions is minCompletion, with the second-best completions when second is set. For a
// single task (MCT, KPB, a batch round with one task left) it asks for the exact completion only
// on the machines where the task might beat the best (or second best) found so far: it takes
// each machine's lower bound first (Event.CompletionBound, which costs no chain), asks in the
// order of the bounds, and stops at the first bound clearly above the best. The machines it does
// not ask about complete later than the answer, so the answer, ties included, is what asking
// about every machine would give; a machine whose queue did not move since the last event then
// costs no chain. Several tasks are asked about on every machine: one of them usually needs each
// machine's chain anyway, and the bounds then cost more than they save (MSD's A/B: 0.9×). With
// later set, the tasks after the first take the bounds all the same: the first brings every
// machine's chain up to date, after which a bound costs a few lookups (Event.CompletionBound).
// That pays a little for MM (A/B 1.01–1.04×) but not for MSD or MMU (0.91×, 0.92×). With
// Params.ETC every completion is cheap and all are asked.
//
// Within a batch event whose phase 1 keeps the event's completions (b.memo on: eventCompletions),
// a completion asked in an earlier round, on a machine that took no task since, is taken from
// the memo: the same machines are asked, and each answers what the engine would.
func completions(ev replay.Event, p Params, b *buffers, tasks, machines []int, second, later bool) []pair {
	pairs := b.pairs[:0]
	b.startETC(ev, p)
	memo := b.memo.on && !p.ETC
	for i, t := range tasks {
		best := pair{task: t, machine: -1, completion: math.Inf(1), second: math.Inf(1)}
		var row memoRow
		if memo {
			row.value, row.at, row.exact = b.memo.row(t)
		}
		rest, bounds := b.byBound(ev, p, t, machines, len(tasks) == 1 || later && i > 0)
		for len(rest) > 0 {
			var c bounded
			if bounds {
				c = takeLowest(&rest)
			} else {
				c, rest = rest[0], rest[1:]
			}
			limit := best.completion
			if second {
				limit = best.second
			}
			if c.bound > limit+completionSlack(limit) {
				break // this machine and the rest complete later than the answer
			}
			var x float64
			if memo {
				x = b.memo.known(ev, p, b, row, t, c.machine)
			} else {
				x = b.completionIn(ev, p, t, c.machine)
			}
			best.machine, best.completion, best.second = ranked(best.machine, best.completion, best.second, c.machine, x)
		}
		if !second {
			best.second = math.Inf(1)
		}
		pairs = append(pairs, best)
	}
	return pairs
}

// ranked takes machine m's completion x into the best machine so far, its completion and the
// second best completion (none yet: machine −1): m becomes the best, or x the second best, or
// neither (ties of the best: the lower machine index). Scalars, not a pair: the loops that call
// it per machine keep them in registers.
func ranked(machine int, completion, second float64, m int, x float64) (int, float64, float64) {
	switch {
	case machine < 0 || x < completion || x == completion && m < machine:
		return m, x, completion
	case x < second:
		return machine, completion, x
	}
	return machine, completion, second
}

// eventCompletions is minCompletion for a round of a batch event, with the event's completions
// kept (completionMemo): the rounds of an event ask every task again on the machines with a free
// slot, of which only the one that took a task has moved. Several tasks are asked about on every
// machine, as completions asks them, in a loop of its own (everyCompletion); a single task goes
// through completions' bounds. Params.ETC's sums cost a lookup and are not kept.
func eventCompletions(ev replay.Event, p Params, b *buffers, tasks, machines []int) []pair {
	if p.ETC {
		return completions(ev, p, b, tasks, machines, false, false)
	}
	if !b.memo.on {
		b.memo.start(ev.NumMachines())
	}
	if len(tasks) == 1 {
		return completions(ev, p, b, tasks, machines, false, false)
	}
	return everyCompletion(ev, p, b, tasks, machines)
}

// bounded is a machine and a lower bound on a task's completion there.
type bounded struct {
	machine int
	bound   float64
}

// byBound lists machines with task t's lower bound on each, in b.bounds's storage, for
// completions to take lowest first (takeLowest; ties: lower index): it usually stops after one
// or two, and taking each as needed costs less than sorting them all (MCT: a stable sort of
// eight machines per arrival was 1.4% of its instructions); asked reports whether it asked the
// bounds. When bound is not set, with Params.ETC, or with a single machine, every bound is -Inf
// and the machines are to be taken in index order: no bound is asked, as it would save nothing.
func (b *buffers) byBound(ev replay.Event, p Params, t int, machines []int, bound bool) (bs []bounded, asked bool) {
	b.bounds = b.bounds[:0]
	if !bound || p.ETC || len(machines) == 1 {
		for _, m := range machines {
			b.bounds = append(b.bounds, bounded{m, math.Inf(-1)})
		}
		return b.bounds, false
	}
	for _, m := range machines {
		b.bounds = append(b.bounds, bounded{m, ev.CompletionBound(t, m)})
	}
	return b.bounds, true
}

// twoPhase runs the batch template of thesis §3.1 with minCompletion as phase 1 (eventCompletions,
// which keeps the event's completions from round to round; twoPhaseWith:
// with another, MM's soonestFirst). Each round, phase 1 pairs every batch task with a machine;
// phase 2 assigns either, per machine (global false), to every machine with a free slot the pair
// that better prefers among those that chose it (thesis §3.1: "for each machine with a free slot
// …"), or, globally, the single pair that better prefers over all machines (MMU as written; 004
// Alg. 2). Rounds repeat, phase 1 recomputed against the grown queues, until the batch is empty
// or no machine has a free slot.
func twoPhase(ev replay.Event, p Params, b *buffers, global bool, better func(a, b pair) bool) {
	twoPhaseWith(ev, p, b, global, better, eventCompletions)
}

// phase1 pairs each of tasks with a machine among machines, in b.pairs's storage.
type phase1 func(ev replay.Event, p Params, b *buffers, tasks, machines []int) []pair

func twoPhaseWith(ev replay.Event, p Params, b *buffers, global bool, better func(a, b pair) bool, phase1 phase1) {
	b = orFresh(b)
	skipped := b.skippedSet()
	b.memo.on = false // phase 1 starts it when it keeps completions (mmCompletions, eventCompletions)
	b.eachGaveUp = false
	for {
		tasks, free, ok := b.round(ev, skipped)
		if !ok {
			return
		}
		b.phase1 = phase1Machines(ev, p, free, b.phase1)
		b.pairs = phase1(ev, p, b, tasks, b.phase1)
		pairs := open(ev, b.pairs, skipped)
		if global {
			if i := bestPair(pairs, -1, better); i >= 0 {
				ev.Assign(pairs[i].task, pairs[i].machine)
				b.memo.moved(pairs[i].machine)
			}
			continue
		}
		for _, m := range free {
			if i := bestPair(pairs, m, better); i >= 0 {
				ev.Assign(pairs[i].task, m)
				b.memo.moved(m)
			}
		}
	}
}

// bestPair is the index of the pair that better prefers among those on machine m (any machine
// when m < 0), or -1 when there is none. The first found wins ties, so batch order breaks them.
func bestPair(pairs []pair, m int, better func(a, b pair) bool) int {
	best := -1
	for i, p := range pairs {
		if (m < 0 || p.machine == m) && (best < 0 || better(p, pairs[best])) {
			best = i
		}
	}
	return best
}

// open keeps the pairs whose machine has a free slot. With phase 1 over all machines, a task
// whose machine is full leaves the round for the rest of the event and stays in the batch (004
// Alg. 2, lines 9–12): its chosen machine cannot get better within the event, so it would never
// be assigned.
func open(ev replay.Event, pairs []pair, skipped map[int]bool) []pair {
	kept := pairs[:0]
	for _, p := range pairs {
		if ev.Free(p.machine) > 0 {
			kept = append(kept, p)
		} else {
			skipped[p.task] = true
		}
	}
	return kept
}

// unskipped is the batch without the tasks skipped earlier in this event, in kept's storage.
func unskipped(batch []int, skipped map[int]bool, kept []int) []int {
	kept = kept[:0]
	for _, t := range batch {
		if !skipped[t] {
			kept = append(kept, t)
		}
	}
	return kept
}
