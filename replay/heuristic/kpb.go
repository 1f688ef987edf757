package heuristic

import (
	"cmp"
	"math"
	"slices"

	"github.com/hcreplay/hcreplay/replay"
)

// KPB is K-Percent Best (thesis §3.3.2.4; Maheswaran et al. 1999): "an optimization of MCT that
// only considers the MCT of the K percent of machines with the best expected execution times".
// Each task, on arrival, goes to the machine with the minimum expected completion among the
// ⌈K·M/100⌉ machines with the smallest mean execution time (Params.KPBPercent, default 50: K is
// not given in the thesis). Ties, in both steps: lower index. K = 100 is MCT.
type KPB struct {
	Params
	storage
}

func (KPB) Name() string      { return "KPB" }
func (KPB) Mode() replay.Mode { return replay.Immediate }

func (h KPB) Map(ev replay.Event) {
	b := orFresh(h.buf)
	for _, t := range ev.Batch() {
		best := fastest(ev, t, percentOf(h.KPBPercent, ev.NumMachines()), b)
		slices.Sort(best)
		b.pairs = minCompletion(ev, h.Params, b, []int{t}, best)
		ev.Assign(t, b.pairs[0].machine)
	}
}

// percentOf is ⌈k·n/100⌉ clamped to [1, n]: any positive K selects at least one machine.
func percentOf(k float64, n int) int {
	return max(1, min(n, int(math.Ceil(k*float64(n)/100-1e-9))))
}

// fastest lists the k machines with the smallest mean execution time of task t, fastest first,
// ties to the lower index, in buf.phase1's storage.
func fastest(ev replay.Event, t, k int, buf *buffers) []int {
	buf.phase1 = allMachines(ev, buf.phase1)
	ms := buf.phase1
	buf.mean = slices.Grow(buf.mean[:0], len(ms))[:len(ms)]
	mean := buf.mean
	for m := range ms {
		mean[m] = ev.ExecTable(t, m).Mean()
	}
	if k == 1 { // MET: the fastest alone, the first of the smallest; a sort per task cost MET-Drop 2% of its time
		best := 0
		for m, x := range mean {
			if x < mean[best] {
				best = m
			}
		}
		ms[0] = best
		return ms[:1]
	}
	slices.SortStableFunc(ms, func(a, b int) int { return cmp.Compare(mean[a], mean[b]) })
	return ms[:k]
}
