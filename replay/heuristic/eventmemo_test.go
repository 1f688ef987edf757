package heuristic

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
)

// plainTwoPhase is a batch heuristic of the template whose phase 1 asks every completion
// afresh in every round (minCompletion, with MMU's urgencies set by withUrgency): the oracle of
// eventCompletions, which keeps the event's completions from round to round.
type plainTwoPhase struct {
	Params
	name    string
	global  bool
	better  func(ev replay.Event) func(a, b pair) bool
	urgency bool
}

func (h plainTwoPhase) Name() string     { return h.name }
func (plainTwoPhase) Mode() replay.Mode  { return replay.Batch }
func (plainTwoPhase) WaitsForSlot() bool { return true }
func (h plainTwoPhase) Map(ev replay.Event) {
	phase1 := minCompletion
	if h.urgency {
		phase1 = func(ev replay.Event, p Params, b *buffers, tasks, machines []int) []pair {
			return withUrgency(ev, p, minCompletion(ev, p, b, tasks, machines))
		}
	}
	twoPhaseWith(ev, h.Params, nil, h.global, h.better(ev), phase1)
}

// TestEventCompletionsArePlain: MSD, MMU, EDF and MaxMin, whose phase 1 takes a completion from
// the event's earlier rounds where the machine took no task since (eventCompletions), make
// exactly the decisions of the same heuristics asking every completion afresh in every round, on
// crowded random workloads with several free machines and queues of up to five, so that events
// run many rounds, under every drop model and both phase-2 scopes; and the memo does answer.
func TestEventCompletionsArePlain(t *testing.T) {
	models := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}
	byCompletion := func(replay.Event) func(a, b pair) bool {
		return func(a, b pair) bool { return a.completion > b.completion }
	}
	urgent := func(replay.Event) func(a, b pair) bool { return moreUrgent }
	r := rand.New(rand.NewPCG(50, 51))
	reused := 0
	for trial := range 48 {
		cfg := replay.Config{PET: replaytest.RandomPET(r, 3, 3, 6, 16),
			Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}, {Type: 2}, {Type: 1}, {Type: 0}},
			Tasks:    replaytest.RandomTasks(r, 150, 3, 2+2*r.Float64(), 2, 30), Options: replay.DefaultOptions()}
		cfg.Options.DropModel = models[trial%len(models)]
		cfg.Options.Strict = r.IntN(2) == 0
		cfg.Options.QueueSize = 2 + r.IntN(4)
		p := DefaultParams()
		p.Phase1All, p.GlobalPhase2 = r.IntN(4) == 0, r.IntN(3) == 0
		b := new(buffers)
		var h replay.Mapper
		var oracle plainTwoPhase
		switch trial % 4 {
		case 0:
			h, oracle = MSD{Params: p, buf: b}, plainTwoPhase{p, "MSD", p.GlobalPhase2, soonestDeadline, false}
		case 1:
			h, oracle = MMU{Params: p, buf: b}, plainTwoPhase{p, "MMU", true, urgent, true}
		case 2:
			h, oracle = EDF{Params: p, buf: b}, plainTwoPhase{p, "EDF", true, soonestDeadline, false}
		case 3:
			h, oracle = MaxMin{Params: p, buf: b}, plainTwoPhase{p, "MaxMin", true, byCompletion, false}
		}
		sameDecisions(t, fmt.Sprintf("trial %d %s %v %+v", trial, oracle.name, cfg.Options.DropModel, p), cfg, oracle, h)
		reused += b.memo.reused
	}
	if reused == 0 {
		t.Error("no completion was taken from the memo: the test does not exercise it")
	}
	t.Logf("%d completions taken from the memo", reused)
}
