package heuristic

import "github.com/hcreplay/hcreplay/replay"

// MET is Minimum Execution Time (thesis §3.3.2.2; Braun et al. 2001): each task, on arrival, goes
// to the machine with the smallest mean execution time, "the average of the PET[i,j] PMF",
// ignoring the queues entirely (ties: lower index). Queues are unbounded.
type MET struct{ storage }

func (MET) Name() string      { return "MET" }
func (MET) Mode() replay.Mode { return replay.Immediate }

// ReadsSkewness is false, as for the heuristics that embed Params.
func (MET) ReadsSkewness() bool { return false }

func (h MET) Map(ev replay.Event) {
	b := orFresh(h.buf)
	for _, t := range ev.Batch() {
		ev.Assign(t, fastest(ev, t, 1, b)[0])
	}
}
