package heuristic

import "github.com/hcreplay/hcreplay/replay"

// RR is round robin: the i-th task mapped (counting from 0, in arrival order) goes to machine
// i mod M, whatever the machines' loads or speeds. It is the baseline that knows nothing. The
// count lives in the mapper, so one RR value serves one replay; the registry makes a fresh one
// per run.
type RR struct{ mapped int }

func (*RR) Name() string      { return "RR" }
func (*RR) Mode() replay.Mode { return replay.Immediate }

// ReadsSkewness is false, as for the heuristics that embed Params.
func (*RR) ReadsSkewness() bool { return false }

func (r *RR) Map(ev replay.Event) {
	for _, t := range ev.Batch() {
		ev.Assign(t, r.mapped%ev.NumMachines())
		r.mapped++
	}
}
