package pmf

import (
	"fmt"
	"math"
)

// The success chance of a task appended behind a predecessor is Σₖ e(k)·F_C(δ − tₖ): the
// chance that its execution takes tₖ and the machine was free by δ − tₖ. The two functions
// below compute it without building the convolution. For execution times > 0 the value equals
// the success chance Append returns under every drop model, because a predecessor that finishes
// by δ − tₖ < δ always lets the task start.

// SuccessAlg1 is 000 Algorithm 1 (§7.2.2): the success chance of a task with execution-time PMF
// exec queued behind a machine that becomes free at prev, in one merged pass. It walks exec's
// impulses from the latest one that can still meet the deadline back to the first, and prev's
// impulses forward, carrying the partial sum of prev over from one exec impulse to the next:
// each prev impulse and each exec impulse is visited at most once.
func SuccessAlg1(exec, prev PMF, deadline float64, strict bool) (float64, error) {
	prev, exec, err := commonStep(prev, exec)
	if err != nil {
		return 0, err
	}
	// Impulse k of exec pairs with prev impulses j where prev.Time(j)+exec.Time(k) ≤ δ, that is
	// j ≤ limit(k); limit grows by one for each step back in k.
	start := prev.origin + exec.origin
	limit := lastIndexAtOrBefore(start, prev.step, deadline) // for k = 0
	if strict {
		limit = lastIndexBefore(start, prev.step, deadline)
	}
	k := min(limit, len(exec.p)-1) // the latest exec impulse with any partner
	j, carried, success := 0, 0.0, 0.0
	for ; k >= 0; k-- {
		for j <= limit-k && j < len(prev.p) {
			carried += prev.p[j]
			j++
		}
		success += exec.p[k] * carried
	}
	return success, nil
}

// CDFTable is a PMF's cumulative distribution, kept so that the success chances of many
// waiting tasks behind the same machine cost one pass over each task's PMF and no convolution.
type CDFTable struct {
	origin, step float64
	cum          []cumPair // cum[j]: the running sums up to origin + j·step
	mean         float64
	mass         float64 // cum's last entry, kept here: read from cum's end, it cost a cache miss per bound
	steps        int     // origin in whole steps, when whole: wholeSteps(origin, step), kept
	whole        bool    // because a link or a bound needs it for every task it is asked about
}

// cumPair is one entry of a CDFTable: its running sums up to one impulse j, side by side, since
// a bound or a success chance reads both at the same index: one cache line instead of two
// (MM's bounds took a sixth of its L1 misses on the two, cachegrind).
type cumPair struct {
	p float64 // P(X ≤ origin + j·step)
	k float64 // Σ_{i≤j} i·p(i): the partial first moment, in steps
}

// originSteps is wholeSteps(c.origin, step): read from the table when step is the table's own,
// which spares a division for every question asked against the table.
func (c *CDFTable) originSteps(step float64) (int, bool) {
	if step == c.step {
		return c.steps, c.whole
	}
	return c.originStepsOf(step)
}

// originStepsOf is originSteps for another step, kept out of line so that originSteps, called
// for every link, bound and completion, is inlined (cachegrind, 10 MM replays: 3M instructions
// of calls).
//
//go:noinline
func (c *CDFTable) originStepsOf(step float64) (int, bool) { return wholeSteps(c.origin, step) }

// CDFTable returns the cumulative table of d.
func (d PMF) CDFTable() CDFTable {
	var t CDFTable
	d.CDFTableInto(&t)
	return t
}

// moment is Σ_{i≤j} p(i)·time(i), the first moment of the mass up to index j.
func (c CDFTable) moment(j int) float64 {
	if j < 0 {
		return 0
	}
	j = min(j, len(c.cum)-1)
	return c.origin*c.cum[j].p + c.step*c.cum[j].k
}

// Mean is the mean of the table's PMF, as PMF.Mean gives it, without the pass over the PMF.
func (c CDFTable) Mean() float64 { return c.mean }

// CDF returns P(X ≤ t) in one lookup.
func (c CDFTable) CDF(t float64) float64 {
	return c.at(lastIndexAtOrBefore(c.origin, c.step, t))
}

// at returns P(X ≤ origin + j·step).
func (c CDFTable) at(j int) float64 {
	switch {
	case j < 0:
		return 0
	case j >= len(c.cum):
		return c.cum[len(c.cum)-1].p
	}
	return c.cum[j].p
}

// SuccessTable is d.Success(deadline, strict) read from table, the cumulative table of d or of
// d shifted in time (the same entries), in one lookup instead of a pass: the table's entries are
// the running sums Success adds, to the bit. A table of another length is not d's, and d's own
// pass answers.
func (d PMF) SuccessTable(table CDFTable, deadline float64, strict bool) float64 {
	if len(table.cum) != len(d.p) {
		return d.Success(deadline, strict)
	}
	k := d.lastAtOrBefore(deadline)
	if strict {
		k = d.lastBefore(deadline)
	}
	switch {
	case k < 0:
		return 0
	case k >= len(d.p)-1:
		return 1 // as sumTo: the whole mass counts as 1
	}
	return table.cum[k].p
}

// SuccessCDF is the CDF form Σₖ e(k)·F_C(δ − tₖ) of the success chance of a task with
// execution-time PMF exec behind a machine whose free-time CDF is prev. exec and prev must
// share a step (PET cells of one matrix always do).
func SuccessCDF(exec PMF, prev CDFTable, deadline float64, strict bool) float64 {
	start := prev.origin + exec.origin
	limit := lastIndexAtOrBefore(start, prev.step, deadline)
	if strict {
		limit = lastIndexBefore(start, prev.step, deadline)
	}
	success := 0.0
	for k := min(limit, len(exec.p)-1); k >= 0; k-- {
		success += exec.p[k] * prev.at(limit-k)
	}
	return success
}

// AppendStats returns what Append would report for a task with execution-time PMF exec appended
// behind a machine whose free-time CDF is prev — the task's chance of success and the mean of
// the returned free-time PMF — without building the convolution. This is what lets a replay
// rank hundreds of candidate tasks per machine at the cost of one table per machine. exec and
// prev must share a step and exec's origin must be a whole number of steps, as for Append.
// AppendStatsTable does the same with exec's table given, which callers that ask about one
// execution-time PMF many times keep.
func AppendStats(model Model, exec PMF, prev CDFTable, deadline float64, strict bool) (success, mean float64, err error) {
	t := exec.CDFTable()
	return AppendStatsTable(model, exec, &t, &prev, deadline, strict)
}

// AppendStatsTable is AppendStats with *execTable = exec.CDFTable(). The tables come by pointer,
// here, in AppendMeanBound and in AppendIntoTable: a table is twelve words, which a call by
// value copies to the stack, and a replay asks hundreds of thousands of these questions (by
// value they cost MM 3% more instructions).
//
// The mean follows from the chain's structure (reference/thesis-2018.md §2): under none it is
// E[prev] + E[exec]; under pending the task runs only when prev finishes before δ, so it is
// E[prev] + P(prev < δ)·E[exec]; under evict the outcomes are the predecessor's own (task never
// started), the task's completions up to δ, and the killed mass, split around δ by KillShare so
// that its mean is δ.
//
// The success chance is Σₖ e(k)·F(l(k)) with l(k) = min(last − k, cap), where cap is the last
// index of prev that still counts (its end, or under pending and evict the last outcome that
// lets the task start). For the short execution times, k ≤ last − cap, l is cap whatever k is, so
// that part of the sum is F(cap) times a prefix sum of exec, read from execTable; the loop runs
// only over the rest, at most cap + 1 impulses. Behind an idle machine (prev one impulse) a
// chance costs a few lookups.
func AppendStatsTable(model Model, exec PMF, execTable, prev *CDFTable, deadline float64, strict bool) (success, mean float64, err error) {
	return appendStats(model, exec, execTable, prev, deadline, strict, true)
}

// AppendSuccessTable is AppendStatsTable's success chance alone, to the bit: under evict the
// pass over exec then sums the chance's terms only, not the first moment of the completions as
// well, which was half its arithmetic. A heuristic that picks a task's machine by its chance
// (PAM, MOC, MR) and the pruner's thresholds ask for far more chances than expected completions.
func AppendSuccessTable(model Model, exec PMF, execTable, prev *CDFTable, deadline float64, strict bool) (float64, error) {
	success, _, err := appendStats(model, exec, execTable, prev, deadline, strict, false)
	return success, err
}

// appendStats is AppendStatsTable, and with wantMean false AppendSuccessTable (mean NaN): the
// chance's terms and their order are the same either way.
func appendStats(model Model, exec PMF, execTable, prev *CDFTable, deadline float64, strict, wantMean bool) (success, mean float64, err error) {
	if !sameStep(exec.step, prev.step) {
		return 0, 0, fmt.Errorf("%w: steps %g and %g differ", ErrInvalid, exec.step, prev.step)
	}
	shift, ok := execTable.originSteps(prev.step)
	if !ok {
		return 0, 0, errOffGridOrigin(exec.origin, prev.step)
	}
	convOrigin := prev.origin + float64(shift)*prev.step
	last := lastIndexAtOrBefore(convOrigin, prev.step, deadline) // convolution index of the last success
	if strict {
		last = lastIndexBefore(convOrigin, prev.step, deadline)
	}
	n := len(prev.cum)
	top := min(last, len(exec.p)-1) // the latest exec impulse with any partner
	if model != None && model != Pending && model != Evict {
		return 0, 0, errUnknownModel(model)
	}
	capIdx := n - 1
	pos := gridPos(prev.origin, prev.step, deadline) // for before and KillShare's split below
	before := indexBefore(pos)                       // predecessor outcomes that let the task start
	if model != None {
		capIdx = min(before, n-1)
		if capIdx < 0 {
			return 0, prev.mean, nil
		}
	}
	fCap := prev.cum[capIdx].p
	split := min(top, last-capIdx) // exec impulses 0..split pair with all of prev up to capIdx
	lo := 0
	done := 0.0 // evict: first moment of the successful completions
	if split >= 0 {
		lo = split + 1
		mass := execTable.at(split)
		success = fCap * mass
		if model == Evict && wantMean {
			done = prev.moment(capIdx)*mass + fCap*execTable.moment(split)
		}
	}
	// Here 0 ≤ l = last − k < capIdx, inside prev's table: read it directly, k from top down to
	// lo, l up from last − top. The loops read slices cut to the range and keep every value they
	// reuse in a local, so that each term costs its arithmetic and no reloads or index checks
	// (37 instructions a term before, cachegrind); the terms and their order are the same. They
	// count j down over ps, which lets the compiler prove both indexes in range: counted up over
	// cs, ps's index kept a bounds check per term (25 instructions a term, cachegrind).
	if lo <= top {
		ps := exec.p[lo : top+1]
		cs := prev.cum[last-top : last-lo+1]
		np := len(ps)
		cs = cs[:np]
		if model == Evict && wantMean {
			base, he, hp := prev.origin+exec.origin, exec.step, prev.step
			kf := float64(top) // k, exactly
			for j := np - 1; j >= 0; j-- {
				x, c := ps[j], cs[np-1-j]
				success += x * c.p
				// prev.moment(l) + exec.Time(k)·F(l)
				done += x * ((base+kf*he)*c.p + hp*c.k)
				kf--
			}
		} else {
			success = sumTerms(success, ps, cs)
		}
	}
	switch {
	case !wantMean:
		return success, math.NaN(), nil
	case model == None:
		return success, prev.mean + execTable.mean, nil
	case model == Pending:
		return success, pendingMean(prev, fCap, execTable), nil
	}
	passed := prev.moment(n-1) - prev.moment(capIdx) // the task never started
	killed := fCap - success
	if killed <= 0 {
		return success, passed + done, nil // rounding: no mass was killed
	}
	floor, ceil, wCeil := killShareAt(pos, before)
	killedAt := prev.origin + (float64(floor)+wCeil*float64(ceil-floor))*prev.step // the deadline, within rounding
	return success, passed + done + killedAt*killed, nil
}

// sumTerms adds to sum the terms ps[j]·cs[len(ps)−1−j].p, j from len(ps)−1 down to 0, one at a
// time in that order (so the bits are those of the plain loop), four to a pass: the chance is
// most of what a replay of PAM computes, and the loop's own counting was a third of a term's
// instructions. len(cs) ≥ len(ps).
func sumTerms(sum float64, ps []float64, cs []cumPair) float64 {
	np := len(ps)
	cs = cs[:np]
	j := np - 1
	for ; j >= 3; j -= 4 {
		c, p := cs[np-1-j:np+3-j], ps[j-3:j+1]
		sum += p[3] * c[0].p
		sum += p[2] * c[1].p
		sum += p[1] * c[2].p
		sum += p[0] * c[3].p
	}
	for ; j >= 0; j-- {
		sum += ps[j] * cs[np-1-j].p
	}
	return sum
}

// AppendMeanTable is the mean AppendStatsTable reports, to the bit, without the success chance,
// under None and Pending, where the mean needs no pass over exec (AppendStatsTable's formulas):
// a few lookups instead of a pass over exec's impulses, for a heuristic that ranks by expected
// completion only. ok is false under Evict, whose mean sums the task's own completions up to
// the deadline: ask AppendStatsTable.
func AppendMeanTable(model Model, execTable, prev *CDFTable, deadline float64) (mean float64, ok bool, err error) {
	if !sameStep(execTable.step, prev.step) {
		return 0, false, fmt.Errorf("%w: steps %g and %g differ", ErrInvalid, execTable.step, prev.step)
	}
	if _, whole := execTable.originSteps(prev.step); !whole {
		return 0, false, errOffGridOrigin(execTable.origin, prev.step)
	}
	switch model {
	case None:
		return prev.mean + execTable.mean, true, nil
	case Pending:
		capIdx := min(lastIndexBefore(prev.origin, prev.step, deadline), len(prev.cum)-1)
		if capIdx < 0 {
			return prev.mean, true, nil
		}
		return pendingMean(prev, prev.cum[capIdx].p, execTable), true, nil
	case Evict:
		return 0, false, nil
	}
	return 0, false, errUnknownModel(model)
}

// pendingMean is the mean free time behind a task under Pending, when the share fCap of prev's
// outcomes lets it start: one expression for AppendStatsTable and AppendMeanTable, so that they
// round alike.
func pendingMean(prev *CDFTable, fCap float64, execTable *CDFTable) float64 {
	return prev.mean + fCap*execTable.mean
}

// AppendMeanBound is a lower bound on the mean that AppendStatsTable reports for a task with
// execution-time table exec behind a machine whose free-time table is prev, at the cost of a
// few lookups whatever the PMFs' lengths: what lets a heuristic rule out most candidates without
// the pass over each one's execution time. Under none and pending it is that mean itself, which
// needs no pass. Under evict the task, started at s < δ, frees the machine at s + X when that is
// at most δ and otherwise, killed, at the grid point K_f just before δ or K_c just after it, with
// KillShare's weights 1 − w and w. Runs end on the grid, so a run that passes K_f ends at K_c or
// later: for each start the free time is, on average, (1 − w)·min(s + X, K_f) + w·min(s + X, K_c),
// and the mean is the mix (1 − w)·M(K_f) + w·M(K_c) of M(K) = E[prev] + Σ_{s<δ} p(s)·g(K − s) with
// g(u) = E[min(X, u)] (X's mass taken as 1); the bound mixes the bounds of M(K_f) and M(K_c)
// alike (one of them when δ is a grid point). g is concave, equal to u up to X's shortest time
// x₀ and to E[X] from its longest x₁ on; between them it lies above any chord of its own. So the
// bound is the sum with g replaced by u, a chord and E[X] on the three ranges of K − s: three
// partial sums of prev. The chord joins g at the shortest and the longest K − s of the middle
// range, read from exec's table (two lookups each), rather than at x₀ and x₁: on a long
// execution time the latter lies far below g, and on HCW19-like work it left MM asking for 35%
// more exact completions (cachegrind, 10 replays: 3.4% more instructions). The bound is the mean
// itself when no start s < δ has K − s strictly between x₀ and x₁ (each start leaves room for
// every run or for none), in particular when the deadline is past every outcome, and when at
// most two starts do (a chord through g at both). It does not depend on strictness: a run that
// ends exactly at δ frees the machine at δ whether it counts as met or killed.
func AppendMeanBound(model Model, exec, prev *CDFTable, deadline float64) float64 {
	switch model {
	case None:
		return prev.mean + exec.mean
	case Pending, Evict:
	default:
		return math.Inf(-1)
	}
	pos := gridPos(prev.origin, prev.step, deadline) // one division for the three indices
	before := indexBefore(pos)
	capIdx := min(before, len(prev.cum)-1)
	if capIdx < 0 {
		return prev.mean
	}
	if model == Pending {
		return prev.mean + prev.cum[capIdx].p*exec.mean
	}
	x0, ok := exec.originSteps(prev.step)
	if !ok || !sameStep(exec.step, prev.step) || len(exec.cum) == 0 {
		return math.Inf(-1)
	}
	floor, ceil, wCeil := killShareAt(pos, before)
	all := prev.cum[capIdx]
	sum := killBound(exec, prev, capIdx, all, x0, ceil)
	if ceil != floor {
		sum = wCeil*sum + (1-wCeil)*killBound(exec, prev, capIdx, all, x0, floor)
	}
	return prev.mean + sum
}

// killBound is AppendMeanBound's bound on Σ_{s<δ} p(s)·g(K − s) for the starts up to prev's index
// capIdx, with K the grid point of index k and x0 exec's origin in steps; all is prev's cum at
// capIdx, which both of AppendMeanBound's grid points read.
func killBound(exec, prev *CDFTable, capIdx int, all cumPair, x0, k int) float64 {
	x1 := x0 + len(exec.cum) - 1
	// Prev's index i starts the task j = k−i steps before K. By index: i ≤ iC has j ≥ x₁
	// (g = E[X]); i ≥ iA has j ≤ x₀ (g = j·step, times X's mass q); the chord covers those
	// between.
	iC := min(k-x1, capIdx)
	iA := max(k-x0, iC+1)
	cum := func(i int) (float64, float64) { // Σ_{l≤i} p(l), Σ_{l≤i} l·p(l)
		if i < 0 {
			return 0, 0
		}
		c := prev.cum[min(i, capIdx)]
		return c.p, c.k
	}
	pC, kC := cum(iC)
	pCB, kCB := cum(iA - 1)
	pA, kA := all.p-pCB, all.k-kCB
	pB, kB := pCB-pC, kCB-kC
	h, q := prev.step, exec.mass
	sum := exec.mean*pC + h*q*(float64(k)*pA-kA)
	if pB != 0 {
		// The chord between the shortest and the longest K − s of the starts in this range
		// (indices iC+1 to iA−1 within prev's), which lie strictly between x₀ and x₁.
		uLo, uHi := k-min(iA-1, capIdx), k-max(iC+1, 0)
		gLo, gHi := exec.minMean(uLo-x0, float64(uLo)*h), exec.minMean(uHi-x0, float64(uHi)*h)
		slope := 0.0
		if uHi > uLo {
			slope = (gHi - gLo) / float64(uHi-uLo)
		}
		sum += (gLo+slope*float64(k-uLo))*pB - slope*kB
	}
	return sum
}

// minMean is g(u) = E[min(X, u)] of the table's X (its mass taken as it is) at u, j grid
// steps past X's shortest time, for 0 < j < len(cum): each run shorter than u, and u for the
// others. Two lookups.
func (c *CDFTable) minMean(j int, u float64) float64 {
	b := c.cum[j-1]
	below, belowK := b.p, b.k
	return c.origin*below + c.step*belowK + u*(c.mass-below)
}
