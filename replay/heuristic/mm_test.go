package heuristic

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
)

// mmPlain is MM as the template writes it, asking about every task on every machine: the oracle
// of MM's soonest.
type mmPlain struct{ Params }

func (mmPlain) Name() string      { return "MM" }
func (mmPlain) Mode() replay.Mode { return replay.Batch }
func (h mmPlain) Map(ev replay.Event) {
	twoPhase(ev, h.Params, nil, h.GlobalPhase2, func(a, b pair) bool { return a.completion < b.completion })
}

// TestSoonestIsMM: MM with soonest makes exactly the decisions of MM asking about every task, on
// random workloads under every drop model and parameter, with many tasks of few types, deadlines
// out of arrival order and ties in deadline; and the engine evaluates fewer chances for it.
func TestSoonestIsMM(t *testing.T) {
	models := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}
	r := rand.New(rand.NewPCG(31, 32))
	var plainEvals, soonEvals int64
	for trial := range 60 {
		// Crowded, so that mostly one slot is free at a time; every third trial with equal
		// deadlines within a type.
		tasks := replaytest.RandomTasks(r, 200, 3, 1+2*r.Float64(), 2, 30)
		if trial%3 == 0 {
			for i := range tasks {
				tasks[i].Deadline = tasks[i].Arrival + 10 + float64(tasks[i].Type)
			}
		}
		cfg := replay.Config{PET: replaytest.RandomPET(r, 3, 3, 6, 16),
			Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}, {Type: 2}},
			Tasks:    tasks, Options: replay.DefaultOptions()}
		cfg.Options.DropModel = models[trial%len(models)]
		cfg.Options.Strict = r.IntN(2) == 0
		cfg.Options.QueueSize = 1 + r.IntN(4)
		p := DefaultParams()
		p.Phase1All, p.GlobalPhase2, p.ETC = r.IntN(5) == 0, r.IntN(4) == 0, r.IntN(5) == 0
		run := func(m replay.Mapper, evals *int64) *replay.Result {
			res, err := replay.Run(t.Context(), cfg, m)
			if err != nil {
				t.Fatal(err)
			}
			*evals += res.Summary.SuccessEvals
			return res
		}
		want, got := run(mmPlain{p}, &plainEvals), run(MM{Params: p, buf: new(buffers)}, &soonEvals)
		label := fmt.Sprintf("trial %d %v %+v", trial, cfg.Options.DropModel, p)
		if len(want.Outcomes) != len(got.Outcomes) {
			t.Fatalf("%s: %d outcomes, plain %d", label, len(got.Outcomes), len(want.Outcomes))
		}
		for k := range want.Outcomes {
			a, b := want.Outcomes[k], got.Outcomes[k]
			if a.Task.ID != b.Task.ID || a.Status != b.Status || a.Machine != b.Machine || !same(a.MapTime, b.MapTime) || a.End != b.End {
				t.Fatalf("%s: exit %d differs:\nplain   %+v\nsoonest %+v", label, k, a, b)
			}
		}
	}
	t.Logf("success evaluations: plain %d, soonest %d", plainEvals, soonEvals)
	if soonEvals*10 > plainEvals*9 {
		t.Errorf("%d evaluations with soonest, %d without: it should spare at least a tenth", soonEvals, plainEvals)
	}
}
