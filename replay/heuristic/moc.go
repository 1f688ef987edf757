package heuristic

import (
	"cmp"
	"math"
	"slices"

	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
)

// MOC is Maximum On-time Completions (004 §V.D, as reference/batch-mode-2010.md §3.5 puts it;
// thesis §3.3.1.4). Each round:
//
//  1. Phase 1: each batch task picks the machine with its highest success chance (ties: the
//     smaller expected completion, then the lower index).
//  2. Cull: only tasks whose chance is strictly greater than Params.MOCCull (0.30) are
//     candidates. Culled tasks stay in the batch, neither mapped nor dropped (thesis [IMPL]:
//     culling works like deferring); MOCA is MOC with a cull of 0.75.
//  3. Phase 2: each machine with a free slot takes its top Params.MOCCandidates (3) candidates
//     by chance (ties: arrival order), scores every ordering of them appended to its whole
//     queue by 004 Algorithm 1, the expected number of on-time completions (corrected form,
//     reference §2.2), and commits only the first task of the best ordering (ties: the first
//     ordering in lexicographic order of the candidates); the others return to the batch.
//
// Rounds repeat until the batch is empty, no machine has a free slot, or a round assigns
// nothing. With Params.Phase1All phase 1 looks at every machine, as 004 does, and a task whose
// machine is full waits for the next event.
//
// Readings where 004 leaves room:
//   - Phase 1's "success chance" is the engine's (ev.Success): the marginal chance under the
//     replay's drop model, the same "robustness" the cull threshold is defined on in 000/003,
//     rather than Algorithm 1's conditional chance (OQ-2).
//   - Orderings always permute up to MOCCandidates tasks, even when the machine has fewer free
//     slots: only their first task is committed (OQ-8).
//   - Algorithm 1 runs on the engine's view of the queue: it starts from Ready(m) and the
//     running head's own chance, and a doomed task passes on its drop-aware completion (see
//     onTime).
type MOC struct {
	Params
	storage
}

func (MOC) Name() string       { return "MOC" }
func (MOC) Mode() replay.Mode  { return replay.Batch }
func (MOC) WaitsForSlot() bool { return true } // replay.SlotWaiter: rounds start from the free slots

func (h MOC) Map(ev replay.Event) {
	b := orFresh(h.buf)
	skipped := b.skippedSet()
	for {
		tasks, free, ok := b.round(ev, skipped)
		if !ok {
			return
		}
		b.phase1 = phase1Machines(ev, h.Params, free, b.phase1)
		b.pairs = maxSuccess(ev, h.Params, b, tasks, b.phase1)
		pairs := open(ev, b.pairs, skipped)
		assigned := false
		for _, m := range free {
			if cand := h.candidates(pairs, m, b); len(cand) > 0 {
				ev.Assign(bestFirst(ev, m, cand, b), m)
				assigned = true
			}
		}
		if !assigned {
			return
		}
	}
}

// candidates are the tasks that chose machine m with a chance above the cull, at most
// MOCCandidates of them, highest chance first (a stable sort keeps arrival order for ties); in
// b's storage.
func (h MOC) candidates(pairs []pair, m int, b *buffers) []int {
	cand := b.cand[:0]
	for _, p := range pairs {
		if p.machine == m && p.success > h.MOCCull {
			cand = append(cand, p)
		}
	}
	slices.SortStableFunc(cand, func(a, b pair) int { return cmp.Compare(b.success, a.success) })
	b.cand = cand
	tasks := b.order[:0]
	for _, p := range cand[:min(len(cand), max(1, h.MOCCandidates))] {
		tasks = append(tasks, p.task)
	}
	b.order = tasks
	return tasks
}

// bestFirst is the first task of the ordering of cand that, appended to machine m's queue,
// gives the largest expected number of on-time completions. The chains are built in b.
func bestFirst(ev replay.Event, m int, cand []int, b *buffers) int {
	queue := queueOnTime(ev, m, &b.chains)
	best, bestValue := -1, math.Inf(-1)
	b.perm, b.ordering = permutations(cand, b.perm, b.ordering, func(order []int) {
		s := queue
		for _, t := range order {
			s = s.next(&b.chains, ev.Exec(t, m), ev.Task(t).Deadline, ev.DropModel(), ev.Strict())
		}
		// Rounded as the engine rounds chances: Ready(m), which the chains start from, differs
		// in its last bits between engines, and an exact tie (two tasks of one type, chance 1)
		// must break by the ordering rule on both.
		if v := replay.RoundChance(s.value()); v > bestValue {
			best, bestValue = order[0], v
		}
	})
	return best
}

// permutations calls f with every ordering of xs, in lexicographic order of positions in xs,
// and returns the storage it used for positions and orderings, which it takes from perm and
// order. f must not keep the slice.
func permutations(xs, perm, order []int, f func([]int)) ([]int, []int) {
	perm, order = perm[:0], order[:0]
	for i := range xs {
		perm, order = append(perm, i), append(order, xs[i])
	}
	for {
		for i, k := range perm {
			order[i] = xs[k]
		}
		f(order)
		if !nextPermutation(perm) {
			return perm, order
		}
	}
}

// nextPermutation rearranges p into the next permutation in lexicographic order, or reports
// false when p is the last one (descending).
func nextPermutation(p []int) bool {
	i := len(p) - 2
	for i >= 0 && p[i] >= p[i+1] {
		i--
	}
	if i < 0 {
		return false
	}
	j := len(p) - 1
	for p[j] <= p[i] {
		j--
	}
	p[i], p[j] = p[j], p[i]
	slices.Reverse(p[i+1:])
	return true
}

// onTime is 004 Algorithm 1 (corrected, reference/batch-mode-2010.md §2.2) part way along a
// machine's queue. Each task's chance is conditioned on every earlier non-doomed task being on
// time: the chain carries D[·], the completion PMF restricted to on-time outcomes and
// renormalised. A task whose conditional chance is exactly 0 is doomed: it is left out of the
// product, counted in doomed, and passes on its unconditioned completion.
type onTime struct {
	rho    float64 // ρ_j: product of the non-doomed tasks' conditional chances
	n      int     // n_j: tasks so far
	doomed int     // m_j: tasks with conditional chance 0
	carry  pmf.PMF // when the machine is free for the next task, given the conditioning
}

// value is ρ_j·(n_j − m_j), 004's "expected number of on-time completions" (a lower bound on
// the true expectation, reference §2.3).
func (s onTime) value() float64 { return s.rho * float64(s.n-s.doomed) }

// queueOnTime is Algorithm 1 over machine m's queue as it stands in the event, built in b. The
// chain starts at Ready(m), when the machine is free for its first waiting task. A running head
// is r_1j: its chance is the engine's (QueueChances(m)[0], conditioned on its elapsed time) and
// its completion PMF is Ready(m), whose on-time part D[·] keeps (see condition for why the chance
// is not read from Ready(m) itself).
func queueOnTime(ev replay.Event, m int, b *chainBuffers) onTime {
	ready := ev.Ready(m)
	s := onTime{rho: 1, carry: ready}
	q := ev.Queue(m)
	if ev.Running(m) {
		s = s.with(b, ready, ev.QueueChances(m)[0].Success, ev.Task(q[0]).Deadline, ev.Strict(), ready, true)
		q = q[1:]
	}
	for _, h := range q {
		s = s.next(b, ev.Exec(h, m), ev.Task(h).Deadline, ev.DropModel(), ev.Strict())
	}
	return s
}

// chainBuffers hold the PMFs of Algorithm 1's chains, a set per position along the chain, so that
// a chain costs no allocation once they have grown: the chains of a machine's candidate orderings
// share its queue's positions, and each writes its own over the previous ordering's.
type chainBuffers struct {
	at []chainLevel
	w  []float64 // condition's weights
}

// chainLevel holds one position's completion, its on-time part and its doomed carry.
type chainLevel struct{ conv, cond, doomed pmf.Buffer }

// level is the storage of position n.
func (b *chainBuffers) level(n int) *chainLevel {
	for len(b.at) <= n {
		b.at = append(b.at, chainLevel{})
	}
	return &b.at[n]
}

// next appends a waiting task with execution-time PMF exec on the machine. Its completion is the
// plain convolution of the carry with exec: given that the predecessor finished on time, the
// task's own on-time outcomes are the same under every drop model. A doomed task's carry is its
// completion under the replay's drop model (pmf.Append), which is the plain convolution of 004
// under none; under pending and evict the machine frees when the task is skipped or killed.
func (s onTime) next(b *chainBuffers, exec pmf.PMF, deadline float64, model pmf.Model, strict bool) onTime {
	at := b.level(s.n)
	c, err := pmf.ConvolveInto(&at.conv, s.carry, exec)
	if err != nil {
		panic("heuristic: " + err.Error()) // PET cells share one step: a bug, not bad input
	}
	p := replay.RoundChance(c.Success(deadline, strict)) // doomed means 0 as the engine reports it
	doomedCarry := c
	if p == 0 && model != pmf.None {
		if doomedCarry, _, err = pmf.AppendInto(&at.doomed, model, s.carry, exec, deadline, strict); err != nil {
			panic("heuristic: " + err.Error())
		}
	}
	return s.with(b, c, p, deadline, strict, doomedCarry, false)
}

// with counts one more task whose completion PMF is c and on-time chance p: non-doomed, it
// multiplies ρ_j and carries D[c], built in b; doomed, it counts in m_j and carries doomedCarry.
func (s onTime) with(b *chainBuffers, c pmf.PMF, p, deadline float64, strict bool, doomedCarry pmf.PMF, head bool) onTime {
	at := b.level(s.n)
	s.n++
	if d, ok := condition(&at.cond, &b.w, c, p, deadline, strict, head); ok {
		s.rho *= p
		s.carry = d
		return s
	}
	s.doomed++
	s.carry = doomedCarry
	return s
}

// condition is D[·] of 004 §IV.B: c restricted to the outcomes on time and renormalised; p is
// their total mass. Impulses strictly before the deadline are c's own; an impulse exactly at the
// deadline (on time unless strict) gets whatever part of p is not before it. For a convolution
// that is c's impulse there. For a running head (head set) under evict, Ready(m) also holds the
// killed mass, split between the grid points around the deadline (pmf.KillShare), which must not
// count as on time, so the caller passes the head's own chance and the last grid point at or
// before the deadline gets what part of p is not before it, on or off the deadline. ok is false
// when nothing is on time (a doomed task). The result is built in buf, its weights in w's
// storage.
func condition(buf *pmf.Buffer, w *[]float64, c pmf.PMF, p, deadline float64, strict, head bool) (d pmf.PMF, ok bool) {
	if !(p > 0) {
		return pmf.PMF{}, false
	}
	ws := (*w)[:0]
	before := 0.0
	for k := range c.Len() {
		cmp := gridCompare(c.Time(k), deadline, c.Step())
		if cmp > 0 || (cmp == 0 && strict) {
			break
		}
		if cmp == 0 || (head && k+1 < c.Len() && gridCompare(c.Time(k+1), deadline, c.Step()) > 0) {
			ws = append(ws, max(0, p-before))
			break
		}
		ws = append(ws, c.Prob(k))
		before += c.Prob(k)
	}
	*w = ws
	d, _, err := pmf.FromWeightsInto(buf, c.Origin(), c.Step(), ws)
	return d, err == nil
}

// gridCompare compares grid time t with time x as pmf does: within a billionth of a step they
// are equal.
func gridCompare(t, x, step float64) int {
	switch d := (t - x) / step; {
	case d < -1e-9:
		return -1
	case d > 1e-9:
		return 1
	}
	return 0
}
