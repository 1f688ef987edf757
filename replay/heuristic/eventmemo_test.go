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
			h, oracle = MSD{Params: p, storage: storage{b}}, plainTwoPhase{p, "MSD", p.GlobalPhase2, soonestDeadline, false}
		case 1:
			h, oracle = MMU{Params: p, storage: storage{b}}, plainTwoPhase{p, "MMU", true, urgent, true}
		case 2:
			h, oracle = EDF{Params: p, storage: storage{b}}, plainTwoPhase{p, "EDF", true, soonestDeadline, false}
		case 3:
			h, oracle = MaxMin{Params: p, storage: storage{b}}, plainTwoPhase{p, "MaxMin", true, byCompletion, false}
		}
		sameDecisions(t, fmt.Sprintf("trial %d %s %v %+v", trial, oracle.name, cfg.Options.DropModel, p), cfg, oracle, h)
		reused += b.memo.reused
	}
	if reused == 0 {
		t.Error("no completion was taken from the memo: the test does not exercise it")
	}
	t.Logf("%d completions taken from the memo", reused)
}

// TestEventCompletionsHandWorked: the completions eventCompletions asks and those it takes from
// the memo, over three rounds of one event worked by hand. Machines 0, 1, 2 (engine bounds of
// task 0: 1, 2, 100), drop model evict.
//
// Round 1, tasks 0 and 1, nothing known: several tasks go through everyCompletion, which asks
// every machine (0·0, 0·1, 0·2, 1·0, 1·1, 1·2): task 0 completes at 5, 6, 200, best m0; task 1
// at 3, 4, 300, best m0.
//
// m0 takes a task (task 0 there now 8, task 1 9). Round 2, tasks 0 and 1: m1 and m2 are
// unmoved, so each task's two answers there come from the memo (4 reuses), and m0 is asked for
// both (0·0, 1·0): task 0 best m1 at 6 (8 > 6), task 1 best m1 at 4.
//
// m1 takes a task (task 0 there now 7). Round 3, task 0 alone: a single task goes through
// completions, by the engine's bounds (m0 1, m1 2, m2 100). m0 was asked in round 2 and has not
// moved since: 8 from the memo (a fifth reuse); m1 moved: asked, 7; m2's bound 100 is above
// 7 + slack: not asked. Best m1 at 7. Asked 0·1 only; 5 reuses in all.
func TestEventCompletionsHandWorked(t *testing.T) {
	ev := &memoEvent{
		done:  [][]float64{{5, 6, 200}, {3, 4, 300}},
		bound: [][]float64{{1, 2, 100}, {1, 2, 100}},
	}
	b := new(buffers)
	b.memo.start(3)
	rounds := []struct {
		tasks []int
		move  int       // the machine that took a task before the round; -1: none
		done  []float64 // then the completions of tasks 0 and 1 on it
		asked []int
		pairs []pair
	}{
		{[]int{0, 1}, -1, nil, []int{0, 1, 2, 10, 11, 12}, []pair{pairOf(0, 0, 5), pairOf(1, 0, 3)}},
		{[]int{0, 1}, 0, []float64{8, 9}, []int{0, 10}, []pair{pairOf(0, 1, 6), pairOf(1, 1, 4)}},
		{[]int{0}, 1, []float64{7, 5}, []int{1}, []pair{pairOf(0, 1, 7)}},
	}
	for i, r := range rounds {
		if r.move >= 0 {
			b.memo.moved(r.move)
			ev.done[0][r.move], ev.done[1][r.move] = r.done[0], r.done[1]
		}
		ev.asked = nil
		ev.check(t, i+1, eventCompletions(ev, Params{}, b, r.tasks, []int{0, 1, 2}), r.pairs, r.asked)
	}
	if b.memo.reused != 5 {
		t.Errorf("%d completions taken from the memo, want 5", b.memo.reused)
	}
}
