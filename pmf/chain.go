package pmf

import (
	"fmt"
	"strings"
)

// Model says what happens to a queued task at its deadline, and so which completion chain
// (003 Eqs 2–5) describes when a machine becomes free.
type Model int

const (
	// Evict: a task that has not started by its deadline is dropped, and a running task is
	// killed at its deadline (003 Eq 5). The default (reference/thesis-2018.md §1.4 [IMPL]).
	Evict Model = iota
	// Pending: a task that has not started by its deadline is dropped; a running task runs to
	// completion (003 Eqs 3–4).
	Pending
	// None: every mapped task runs to completion (003 Eq 2; the model of seed 004).
	None
)

var modelNames = [...]string{Evict: "evict", Pending: "pending", None: "none"}

func (m Model) String() string {
	if m < 0 || int(m) >= len(modelNames) {
		return fmt.Sprintf("Model(%d)", int(m))
	}
	return modelNames[m]
}

// ParseModel reads a drop model name: evict, pending or none.
func ParseModel(s string) (Model, error) {
	for m, name := range modelNames {
		if strings.EqualFold(s, name) {
			return Model(m), nil
		}
	}
	return 0, fmt.Errorf("%w: drop model %q: want evict, pending or none", ErrInvalid, s)
}

// Append returns the completion-time PMF of a task appended to a machine queue, and the task's
// chance of success.
//
// prev is when the machine becomes free for the task (the previous link of the chain, or an
// impulse at "now" for an idle machine), exec is the task's execution-time PMF on the machine,
// deadline its deadline. The returned next is when the machine becomes free after this task:
// under None it is the plain convolution prev ∗ exec; under Pending and Evict it also carries the
// mass of outcomes where the task never started (predecessor done at or after the deadline), and
// under Evict the outcomes where it was killed at the deadline. So next is the right input for
// the task behind this one, and its total mass is 1 (reference/thesis-2018.md §2, Eq 3.4 [IMPL]).
//
// success is P(task completes at or before the deadline), or strictly before it when strict is
// set. It is counted from the task's own completions only, never from pass-through or eviction
// mass, which may sit on the same grid points.
//
// Under Evict, Append convolves only up to the deadline and takes the killed mass as the rest of
// the convolution's total; AppendPlain convolves in full and sums it. They agree to rounding.
func Append(model Model, prev, exec PMF, deadline float64, strict bool) (next PMF, success float64, err error) {
	return AppendInto(new(Buffer), model, prev, exec, deadline, strict)
}

// AppendPlain is Append computed the textbook way: the whole convolution, then the drop model.
// It is the reference engine's chain link, so that the oracle shares no shortcut with the fast
// engine.
func AppendPlain(model Model, prev, exec PMF, deadline float64, strict bool) (next PMF, success float64, err error) {
	prev, exec, shift, err := linkInputs(model, prev, exec)
	if err != nil {
		return PMF{}, 0, err
	}
	if model == None {
		next = PMF{origin: prev.origin + exec.origin, step: prev.step, p: convolveSlices(prev.p, exec.p)}
		return next, next.Success(deadline, strict), nil
	}
	return appendDropAware(nil, true, model, prev, exec, shift, deadline, strict)
}

// AppendPlainReusing is AppendPlain written into buf, whose storage it grows when it must: the
// same textbook loop and the same sums, so the same bits (TestIntoMatchesAllocating), without a
// new convolution and a new chain link at every call. The reference engine builds the links and
// chances it does not hand out with it: in new storage, their garbage ran the collector 260
// times a second and took two thirds of a reference replay's CPU (HCW19, PAM-P at 30k).
func AppendPlainReusing(buf *Buffer, model Model, prev, exec PMF, deadline float64, strict bool) (next PMF, success float64, err error) {
	return appendPlainIn(buf, true, model, prev, exec, deadline, strict)
}

// AppendPlainInto is AppendPlain with next's impulses written into buf, always (a copy of prev
// when the task cannot start), and the convolution in buf's scratch: the same sums in the same
// order, so AppendPlain's result to the bit, without allocating once buf has grown. The fast
// engine computes a value as the reference engine does with it when its own value lies too close
// to a rounding boundary to be rounded safely. Its convolution is convolveInto's vectorised
// kernel, which sums each impulse's terms in the textbook loop's order (so the bits are
// AppendPlain's): the fast engine's rebuilds of the reference chain near a rounding boundary were
// a sixth of PAM-P's instructions with the scalar loop (cachegrind, 30 HCW19 trials).
func AppendPlainInto(buf *Buffer, model Model, prev, exec PMF, deadline float64, strict bool) (next PMF, success float64, err error) {
	return appendPlainIn(buf, false, model, prev, exec, deadline, strict)
}

// appendPlainIn is AppendPlainReusing (textbook set: the textbook loop) and AppendPlainInto
// (convolveInto's kernel).
func appendPlainIn(buf *Buffer, textbook bool, model Model, prev, exec PMF, deadline float64, strict bool) (next PMF, success float64, err error) {
	prev, exec, shift, err := linkInputs(model, prev, exec)
	if err != nil {
		return PMF{}, 0, err
	}
	if model == None {
		p := buf.take(len(prev.p) + len(exec.p) - 1)
		if textbook {
			p = convolveSlicesTo(p, prev.p, exec.p)
		} else {
			p = convolveInto(p, prev.p, exec.p, &buf.pad)
		}
		next = PMF{origin: prev.origin + exec.origin, step: prev.step, p: p}
		return next, next.Success(deadline, strict), nil
	}
	return appendDropAware(buf, textbook, model, prev, exec, shift, deadline, strict)
}

// linkInputs checks a chain link's drop model and puts prev and exec on one step; for the
// drop-aware models, shift is exec's origin in whole steps.
func linkInputs(model Model, prev, exec PMF) (PMF, PMF, int, error) {
	prev, exec, err := commonStep(prev, exec)
	if err != nil {
		return PMF{}, PMF{}, 0, err
	}
	if model == None {
		return prev, exec, 0, nil
	}
	shift, err := linkShift(model, exec.origin, prev.step)
	return prev, exec, shift, err
}

// linkShift checks a drop-aware link's model and returns exec's origin in whole steps.
func linkShift(model Model, origin, step float64) (int, error) {
	if model != Pending && model != Evict {
		return 0, errUnknownModel(model)
	}
	shift, ok := wholeSteps(origin, step)
	if !ok {
		return 0, errOffGridOrigin(origin, step)
	}
	return shift, nil
}

func errUnknownModel(m Model) error {
	return fmt.Errorf("%w: unknown drop model %d", ErrInvalid, int(m))
}

func errOffGridOrigin(origin, step float64) error {
	return fmt.Errorf("%w: execution-time origin %g is not a whole number of steps %g", ErrInvalid, origin, step)
}

// appendDropAware builds the Pending or Evict chain link on prev's grid. The convolution of the
// predecessor outcomes that let the task start (finish strictly before the deadline) with exec
// lands shift grid points later; outcomes where the task never starts pass through unchanged.
//
// With buf set, next and the convolution are written into buf's storage (AppendPlainInto,
// AppendPlainReusing); the convolution is the textbook loop when textbook is set (always without
// buf) and convolveInto's kernel otherwise.
func appendDropAware(buf *Buffer, textbook bool, model Model, prev, exec PMF, shift int, deadline float64, strict bool) (PMF, float64, error) {
	starts := min(prev.lastBefore(deadline), len(prev.p)-1) // prev.p[:starts+1] let the task start
	if starts < 0 {
		if buf != nil {
			return prev.CopyInto(buf), 0, nil
		}
		return prev, 0, nil
	}
	convOrigin := prev.origin + float64(shift)*prev.step
	convLen := starts + len(exec.p) // of the full convolution of prev.p[:starts+1] and exec.p

	// Index of the last convolution impulse that counts as a success.
	ok := lastIndexAtOrBefore(convOrigin, prev.step, deadline)
	if strict {
		ok = lastIndexBefore(convOrigin, prev.step, deadline)
	}
	ok = min(ok, convLen-1)
	var conv []float64
	if buf == nil {
		conv = convolveSlices(prev.p[:starts+1], exec.p)
	} else { // in buf's convolution storage, which nothing else uses during the call
		n := starts + len(exec.p)
		if cap(buf.conv) < n {
			buf.conv = make([]float64, n, n+n/4)
		}
		conv = buf.conv[:n]
		clear(conv)
		if textbook {
			conv = convolveSlicesTo(conv, prev.p[:starts+1], exec.p)
		} else {
			conv = convolveInto(conv, prev.p[:starts+1], exec.p, &buf.pad)
		}
	}
	success, killed := 0.0, 0.0
	for i, x := range conv {
		if i <= ok {
			success += x
		} else {
			killed += x
		}
	}

	// Lay out next on prev's grid, from index lo (≤ 0 when shift < 0) to hi (exclusive). Killed
	// mass is split between the grid points around the deadline (KillShare).
	lo := min(0, shift)
	hi := max(len(prev.p), shift+len(conv))
	floor, ceil, wCeil := KillShare(prev.origin, prev.step, deadline)
	if model == Evict {
		hi = max(len(prev.p), shift+ok+1)
		if killed > 0 {
			hi = max(hi, ceil+1)
		}
	}
	var out []float64
	if buf == nil {
		out = make([]float64, hi-lo)
	} else {
		out = buf.take(hi - lo)
	}
	for k := starts + 1; k < len(prev.p); k++ {
		out[k-lo] += prev.p[k]
	}
	for i, x := range conv {
		if model == Evict && i > ok {
			break
		}
		out[shift+i-lo] += x
	}
	if model == Evict && killed > 0 {
		addKilled(out, floor-lo, ceil-lo, wCeil, killed)
	}
	return trimmed(prev.origin+float64(lo)*prev.step, prev.step, out), success, nil
}

// KillShare says where the chains put the mass of a task killed at its deadline on the grid
// origin + k·step, so that the machine frees, on average, exactly at the deadline: a share wCeil
// = (deadline − Time(floor))/step on the grid point ceil just after it and the rest on the point
// floor just before it. A deadline on a grid point (within the grid tolerance) gets all the mass:
// floor = ceil, wCeil = 0. The kill itself happens at the deadline; the split keeps the chains on
// their grid at the price of freeing the machine a little early or late in each outcome, never
// on average, for the task behind. The chain builders, the expected completions of
// AppendStatsTable, AppendMeanBound's bound and a replay's earliest free time (KillFloor) all
// read it here, so that they cannot drift apart.
//
// Every start s that lets the task start lies on the grid strictly before the deadline, so at or
// before floor: a kill never frees the machine before the task started. A PMF conditioned on a
// time past floor (a running task not yet killed, PMF.Condition) keeps only the ceil share, which
// it renormalises: the kill then goes wholly to ceil, up to a step late.
func KillShare(origin, step, deadline float64) (floor, ceil int, wCeil float64) {
	x := gridPos(origin, step, deadline)
	return killShareAt(x, indexBefore(x))
}

// killShareAt is KillShare at the deadline's grid position x (gridPos), for a caller that has
// its indexBefore already (AppendMeanBound, appendStats, appendFused).
func killShareAt(x float64, before int) (floor, ceil int, wCeil float64) {
	floor = indexAtOrBefore(x)
	if before != floor { // on a grid point
		return floor, floor, 0
	}
	wCeil = min(max(x-float64(floor), 0), 1)
	return floor, floor + 1, wCeil
}

// KillFloor is the earliest time at which the chains free a machine whose task on the grid
// origin + k·step is killed at deadline: KillShare's floor point.
func KillFloor(origin, step, deadline float64) float64 {
	floor, _, _ := KillShare(origin, step, deadline)
	return origin + float64(floor)*step
}

// addKilled adds killed mass to out as KillShare splits it, floor and ceil being its indices in
// out: the one place the chain builders place it, so that they cannot drift apart.
func addKilled(out []float64, floor, ceil int, wCeil, killed float64) {
	up := wCeil * killed
	out[floor] += killed - up
	if ceil != floor {
		out[ceil] += up
	}
}
