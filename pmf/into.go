package pmf

import "fmt"

// Buffer is storage that the *Into functions reuse for the impulses of their results, so that a
// replay engine keeping a chain per machine allocates nothing once its buffers have grown to the
// longest chain it meets. A result written into a Buffer shares its storage and stays valid only
// until the next result is written into the same Buffer; a Buffer must not hold an input of the
// call that writes into it. The zero Buffer is empty and ready to use.
type Buffer struct {
	p    []float64
	pad  []float64 // convolveInto's scratch
	conv []float64 // AppendPlainInto's convolution, before it is laid out on the chain's grid
}

// take returns n zeroed impulses of the buffer's storage, growing it when it is too small.
func (b *Buffer) take(n int) []float64 {
	s := b.takeDirty(n)
	clear(s)
	return s
}

// takeDirty is take for a caller that writes every impulse: they are not zeroed.
func (b *Buffer) takeDirty(n int) []float64 {
	if cap(b.p) < n {
		b.p = make([]float64, n, n+n/4)
	}
	return b.p[:n]
}

// ImpulseInto is Impulse(t, step) written into buf.
func ImpulseInto(buf *Buffer, t, step float64) PMF {
	checkImpulse(t, step)
	p := buf.take(1)
	p[0] = 1
	return PMF{origin: t, step: step, p: p}
}

// CopyInto returns d with its impulses copied into buf.
func (d PMF) CopyInto(buf *Buffer) PMF {
	p := buf.takeDirty(len(d.p))
	copy(p, d.p)
	return PMF{origin: d.origin, step: d.step, p: p}
}

// ConvolveInto is Convolve(a, b) written into buf, to the bit: the vectorised kernel sums each
// impulse's terms in the textbook loop's order (convolveInto).
func ConvolveInto(buf *Buffer, a, b PMF) (PMF, error) {
	a, b, err := commonStep(a, b)
	if err != nil {
		return PMF{}, err
	}
	p := convolveInto(buf.take(len(a.p)+len(b.p)-1), a.p, b.p, &buf.pad)
	return PMF{origin: a.origin + b.origin, step: a.step, p: p}, nil
}

// FromWeightsInto is FromWeights(origin, step, w) written into buf; w must not be buf's.
func FromWeightsInto(buf *Buffer, origin, step float64, w []float64) (d PMF, deficit float64, err error) {
	sum, err := checkWeights(origin, step, w)
	if err != nil {
		return PMF{}, 0, err
	}
	p := buf.takeDirty(len(w))
	for i, x := range w {
		p[i] = x / sum
	}
	return trimmed(origin, step, p), 1 - sum, nil
}

// ConditionInto is d.Condition(t) written into buf (when it differs from d).
func (d PMF) ConditionInto(buf *Buffer, t float64) PMF {
	k := d.lastAtOrBefore(t) + 1
	switch {
	case k <= 0:
		return d
	case k >= len(d.p):
		return ImpulseInto(buf, d.Time(k), d.step)
	}
	// d.p[k:] normalised as FromWeights would, without its checks of weights that a PMF's own
	// impulses pass: the sum in index order, then each impulse divided by it.
	sum := 0.0
	for _, x := range d.p[k:] {
		sum += x
	}
	if !(sum > 0) {
		return ImpulseInto(buf, d.Time(k), d.step)
	}
	p := buf.takeDirty(len(d.p) - k)
	for i, x := range d.p[k:] {
		p[i] = x / sum
	}
	return trimmed(d.Time(k), d.step, p)
}

// Reset empties t, keeping its storage for CDFTableInto: what a zero table holds.
func (t *CDFTable) Reset() { *t = CDFTable{cum: t.cum[:0]} }

// CDFTableInto is d.CDFTable() written into t, reusing its storage.
func (d PMF) CDFTableInto(t *CDFTable) {
	n := len(d.p)
	if cap(t.cum) < n {
		t.cum = make([]cumPair, n, n+n/4)
	}
	cum := t.cum[:n] // in a local: through t, every store would reload it
	t.cum = cum
	s, k := 0.0, 0.0
	for j, x := range d.p {
		s += x
		k += float64(j) * x
		cum[j] = cumPair{s, k}
	}
	t.origin, t.step, t.mean, t.mass = d.origin, d.step, d.origin+d.step*k, s // d.Mean(), to the bit: the same sum
	t.steps, t.whole = wholeSteps(d.origin, d.step)
}

// AppendInto is Append with next's impulses written into buf, always (even when next equals
// prev), so that a chain can alternate between two buffers. It gives Append's result to the
// bit: the kept part of the convolution is computed in place, each impulse summed in the same
// order, and the pass-through mass added to it afterwards (x + y is y + x in floating point).
func AppendInto(buf *Buffer, model Model, prev, exec PMF, deadline float64, strict bool) (next PMF, success float64, err error) {
	prev, exec, shift, err := linkInputs(model, prev, exec)
	if err != nil {
		return PMF{}, 0, err
	}
	if model == None {
		n := len(prev.p) + len(exec.p) - 1
		next = PMF{origin: prev.origin + exec.origin, step: prev.step, p: convolveInto(buf.take(n), prev.p, exec.p, &buf.pad)}
		return next, next.Success(deadline, strict), nil
	}
	return appendFused(buf, model, prev, exec, nil, shift, deadline, strict)
}

// AppendIntoTable is AppendInto with exec's table given (*execTable = exec.CDFTable()), as
// AppendStatsTable is AppendStats: a replay appends each execution-time PMF of its PET to chains
// many times, and under Evict the table saves a pass over exec per link (its total mass, which
// the table's last entry holds, summed in the same order). It gives AppendInto's result to the
// bit.
func AppendIntoTable(buf *Buffer, model Model, prev, exec PMF, execTable *CDFTable, deadline float64, strict bool) (next PMF, success float64, err error) {
	if len(execTable.cum) != len(exec.p) {
		return PMF{}, 0, fmt.Errorf("%w: a table of %d impulses for a PMF of %d", ErrInvalid, len(execTable.cum), len(exec.p))
	}
	if model == None || !sameStep(prev.step, exec.step) {
		return AppendInto(buf, model, prev, exec, deadline, strict) // no mass to save, or exec is merged
	}
	if model != Pending && model != Evict {
		return PMF{}, 0, errUnknownModel(model)
	}
	shift, ok := execTable.originSteps(prev.step) // the steps are one: no merging
	if !ok {
		return PMF{}, 0, errOffGridOrigin(exec.origin, prev.step)
	}
	return appendFused(buf, model, prev, exec, execTable, shift, deadline, strict)
}

// appendFused is appendDropAware's prefix form, with the convolution written straight into the
// result's storage instead of a slice of its own. execTable is exec's cumulative table (its
// running sums and total mass), or nil to have what is needed of it summed.
//
// Behind a single impulse of mass 1 (a task that starts when it is mapped or when its
// predecessor ends) the convolution is exec itself, each impulse 0 + 1·e(k) = e(k), and the
// success chance the running sum of its impulses up to the deadline, which execTable holds to the
// bit: the link is then a copy and a lookup instead of a convolution and a pass.
func appendFused(buf *Buffer, model Model, prev, exec PMF, execTable *CDFTable, shift int, deadline float64, strict bool) (PMF, float64, error) {
	pos := gridPos(prev.origin, prev.step, deadline) // for before and, under evict, KillShare's split
	before := indexBefore(pos)
	starts := min(before, len(prev.p)-1) // prev.p[:starts+1] let the task start
	if starts < 0 {
		return prev.CopyInto(buf), 0, nil // the task never starts; next is in buf all the same
	}
	convOrigin := prev.origin + float64(shift)*prev.step
	convLen := starts + len(exec.p)
	ok := lastIndexAtOrBefore(convOrigin, prev.step, deadline)
	if strict {
		ok = lastIndexBefore(convOrigin, prev.step, deadline)
	}
	ok = min(ok, convLen-1)
	n := convLen // impulses of the convolution to compute
	if model == Evict {
		n = max(ok+1, 0)
	}

	// next on prev's grid, from index lo (≤ 0 when shift < 0) to hi (exclusive); trimmed drops
	// the zeros at the ends, so hi may be generous.
	lo := min(0, shift)
	hi := len(prev.p)
	if n > 0 { // else every run ends after the deadline: the task is killed or never ends in time
		hi = max(hi, shift+n)
	}
	var floor, ceil int // where killed mass goes, under evict
	var wCeil float64
	if model == Evict && n < convLen {
		floor, ceil, wCeil = killShareAt(pos, before)
		hi = max(hi, ceil+1) // room for the killed mass; there is none when the whole convolution is kept
	}
	out := buf.take(hi - lo)
	success := 0.0
	switch {
	case n == 0: // nothing of the convolution is kept, and out has no room for it
	case execTable != nil && len(prev.p) == 1 && prev.p[0] == 1:
		copy(out[shift-lo:shift-lo+n], exec.p)
		if ok >= 0 {
			success = execTable.cum[ok].p
		}
	default:
		conv := convolveInto(out[shift-lo:shift-lo+n], prev.p[:starts+1], exec.p, &buf.pad)
		// ok < n: the impulses up to the deadline, all of them under evict. Cut to them, the loop
		// checks no index (cachegrind, 10 MM replays: 1.1% fewer instructions in all).
		for _, x := range conv[:max(ok+1, 0)] {
			success += x
		}
	}
	killed := 0.0
	if model == Evict && n < convLen {
		total := 0.0
		for _, x := range prev.p[:starts+1] {
			total += x
		}
		execMass := 0.0
		if execTable != nil {
			execMass = execTable.mass
		} else {
			execMass = exec.Mass()
		}
		total *= execMass
		killed = max(total-success, 0)
	}
	for k := starts + 1; k < len(prev.p); k++ {
		out[k-lo] += prev.p[k]
	}
	first := shift - lo // out is zero below the convolution, the pass-through mass and the killed mass
	if starts+1 < len(prev.p) {
		first = min(first, starts+1-lo)
	}
	if killed > 0 {
		addKilled(out, floor-lo, ceil-lo, wCeil, killed)
		first = min(first, floor-lo)
	}
	return trimmedFrom(prev.origin+float64(lo)*prev.step, prev.step, out, first), success, nil
}

// Link is one task of a machine queue, for AppendLinks: its execution-time PMF on the machine,
// that PMF's cumulative table (*Table = Exec.CDFTable()), and its deadline. The PMF is by
// pointer, as the table is: three words are written straight into a list of links, where a
// PMF by value made a replay engine copy seven through the runtime, with the garbage
// collector's barrier over the whole record while it marks (linksAt: 1.3% of MM's time).
type Link struct {
	Exec     *PMF
	Table    *CDFTable
	Deadline float64
}

// AppendLinks is AppendIntoTable applied to each link in turn, the first behind prev and each
// next behind the one before: the free-time PMF after a queue of tasks, with each task's success
// chance appended to successes. The links alternate between bufs[0] and bufs[1], the first in
// bufs[0], so the result stays valid until the next call that writes into either. mults is
// Σ prev.Len()·exec.Len() over the links: the impulse multiplications a replay counts for a
// link. Each link is AppendIntoTable's to the bit. A replay engine builds a chain of a few
// links at every event; in one call, a link costs it one call less and fewer checks (cachegrind,
// 10 MM replays: 283.46M to 281.15M instructions, branch mispredictions 4.5% fewer).
func AppendLinks(bufs *[2]Buffer, model Model, prev PMF, links []Link, strict bool, successes []float64) (next PMF, _ []float64, mults int64, err error) {
	next = prev
	for i := range links {
		l := &links[i]
		exec := *l.Exec
		mults += int64(len(next.p)) * int64(len(exec.p))
		var s float64
		// AppendIntoTable's own test for its fused path, with steps equal to the bit; anything
		// else, bad input included, goes through AppendIntoTable. Sharing the test as a function
		// (it builds errors, so it is not inlined) cost 1% of MM's instructions (cachegrind).
		if shift, ok := l.Table.originSteps(next.step); ok && (model == Pending || model == Evict) && exec.step == next.step && len(l.Table.cum) == len(exec.p) {
			next, s, err = appendFused(&bufs[i%2], model, next, exec, l.Table, shift, l.Deadline, strict)
		} else {
			next, s, err = AppendIntoTable(&bufs[i%2], model, next, exec, l.Table, l.Deadline, strict)
		}
		if err != nil {
			return PMF{}, successes, mults, err
		}
		successes = append(successes, s)
	}
	return next, successes, mults, nil
}
