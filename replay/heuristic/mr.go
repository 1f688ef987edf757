package heuristic

import (
	"math"
	"slices"

	"github.com/hcreplay/hcreplay/replay"
)

// MR is Max Robust (thesis §3.3.2.5, from Salehi et al. 2016): "the machine-task pairs with the
// best robustness from the k-percent machines with the best expected execution times". Each task,
// on arrival, goes to the machine with the highest success chance among the same ⌈K·M/100⌉
// machines as KPB (Params.KPBPercent; the thesis gives no K for either). Ties ([IMPL]): the
// smaller expected completion, then the lower index.
type MR struct {
	Params
	storage
}

func (MR) Name() string      { return "MR" }
func (MR) Mode() replay.Mode { return replay.Immediate }

func (h MR) Map(ev replay.Event) {
	b := orFresh(h.buf)
	for _, t := range ev.Batch() {
		best := fastest(ev, t, percentOf(h.KPBPercent, ev.NumMachines()), b)
		slices.Sort(best)
		b.pairs = maxSuccess(ev, h.Params, b, []int{t}, best)
		ev.Assign(t, b.pairs[0].machine)
	}
}

// boundSlack keeps the decisions that bounds make clear of floating-point rounding.
const boundSlack = 1e-9

// maxSuccess is the phase 1 of MR and MOC: for each task, the machine among machines with the
// highest success chance; ties go to the smaller expected completion (computed only for ties),
// then to the lower index. A machine whose bound (Event.SuccessBound) is below the best chance
// found so far can be neither the best nor tied with it, so its chance is not computed. The
// pairs are in b.pairs's storage.
func maxSuccess(ev replay.Event, p Params, b *buffers, tasks, machines []int) []pair {
	return maxSuccessEach(ev, p, b, tasks, func(int) []int { return machines })
}

// maxSuccessEach is maxSuccess with the machines of the i-th task given by machines(i). The
// machine that was a task's best the last time it was asked (Event.Hint) is asked first: it is
// usually the best again, and the bounds of the others then fall below its chance sooner, so
// that their chances, and the chains of the machines no task needs, are not computed. The order
// does not change the answer: ties between equal chances and completions go to the earlier
// position in machines(i), as they did when asked in its order. The loop is written out, not
// split into an ask per machine, which cost MOC-P 0.6-1.9% more instructions (cachegrind).
func maxSuccessEach(ev replay.Event, p Params, b *buffers, tasks []int, machines func(i int) []int) []pair {
	pairs := b.pairs[:0]
	b.startETC(ev, p)
	for i, t := range tasks {
		ms := machines(i)
		first := -1
		if m := ev.Hint(t); m >= 0 {
			first = slices.Index(ms, m)
		}
		best, at := pair{task: t, machine: -1}, -1
		for j := -1; j < len(ms); j++ { // j = -1 asks the first, which j = first then passes over
			k := j
			if j < 0 {
				k = first
			}
			if k < 0 || j == first {
				continue
			}
			m := ms[k]
			if best.machine >= 0 && ev.SuccessBoundBelow(t, m, best.success-boundSlack) {
				continue
			}
			s := ev.Success(t, m)
			switch {
			case best.machine < 0 || s > best.success:
				best, at = pair{task: t, machine: m, success: s, completion: math.NaN()}, k
			case s == best.success:
				if math.IsNaN(best.completion) {
					best.completion = b.completionIn(ev, p, t, best.machine)
				}
				if c := b.completionIn(ev, p, t, m); c < best.completion || c == best.completion && k < at {
					best, at = pair{task: t, machine: m, success: s, completion: c}, k
				}
			}
		}
		ev.SetHint(t, best.machine)
		pairs = append(pairs, best)
	}
	return pairs
}
