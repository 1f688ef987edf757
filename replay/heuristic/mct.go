package heuristic

import "github.com/hcreplay/hcreplay/replay"

// MCT is Minimum Completion Time (thesis §3.3.2.3), the immediate-mode MECT of 004 §VII: each
// task, on arrival, goes to the machine where it is expected to complete first (ties: lower
// machine index). Queues are unbounded. Params.ETC switches the expected completion to the ETC
// style, which is the thesis's wording ("using the expected execution time").
type MCT struct {
	Params
	storage
}

func (MCT) Name() string      { return "MCT" }
func (MCT) Mode() replay.Mode { return replay.Immediate }

func (h MCT) Map(ev replay.Event) {
	b := orFresh(h.buf)
	b.phase1 = allMachines(ev, b.phase1)
	all := b.phase1
	for _, t := range ev.Batch() {
		b.pairs = minCompletion(ev, h.Params, b, []int{t}, all)
		p := b.pairs[0]
		ev.Assign(t, p.machine)
	}
}
