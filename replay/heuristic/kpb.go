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
type KPB struct{ Params }

func (KPB) Name() string      { return "KPB" }
func (KPB) Mode() replay.Mode { return replay.Immediate }

func (h KPB) Map(ev replay.Event) {
	for _, t := range ev.Batch() {
		best := fastest(ev, t, percentOf(h.KPBPercent, ev.NumMachines()))
		slices.Sort(best)
		ev.Assign(t, minCompletion(ev, h.Params, []int{t}, best)[0].machine)
	}
}

// percentOf is ⌈k·n/100⌉ clamped to [1, n]: any positive K selects at least one machine.
func percentOf(k float64, n int) int {
	return max(1, min(n, int(math.Ceil(k*float64(n)/100-1e-9))))
}

// fastest lists the k machines with the smallest mean execution time of task t, fastest first,
// ties to the lower index.
func fastest(ev replay.Event, t, k int) []int {
	ms := allMachines(ev)
	mean := make([]float64, len(ms))
	for m := range ms {
		mean[m] = ev.Exec(t, m).Mean()
	}
	slices.SortStableFunc(ms, func(a, b int) int { return cmp.Compare(mean[a], mean[b]) })
	return ms[:k]
}
