package heuristic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
)

// mmPlain is MM as the template writes it, without soonest: minCompletion asks about every task
// on every free machine (for a single task, every machine its bounds do not rule out, which
// TestCompletionsSkipOnlyLosers checks against brute force). It is the oracle of MM's soonest.
type mmPlain struct{ Params }

func (mmPlain) Name() string      { return "MM" }
func (mmPlain) Mode() replay.Mode { return replay.Batch }
func (h mmPlain) Map(ev replay.Event) {
	twoPhaseWith(ev, h.Params, nil, h.GlobalPhase2, func(a, b pair) bool { return a.completion < b.completion }, minCompletion)
}

// TestSoonestIsMM: MM with soonest makes exactly the decisions of MM asking about every task, on
// random workloads under every drop model and parameter, with many tasks of few types, deadlines
// out of arrival order and ties in deadline; and the engine evaluates fewer chances for it.
func TestSoonestIsMM(t *testing.T) {
	models := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}
	r := rand.New(rand.NewPCG(31, 32))
	var plainEvals, soonEvals int64
	for trial := range 60 {
		// Crowded, so that mostly one slot is free at a time; every third trial with deadlines on
		// a coarse grid, so that many tasks of a type tie in deadline.
		tasks := replaytest.RandomTasks(r, 200, 3, 1+2*r.Float64(), 2, 30)
		if trial%3 == 0 {
			for i := range tasks {
				tasks[i].Deadline = 5*math.Ceil(tasks[i].Arrival/5) + 10 + float64(tasks[i].Type)
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
		label := fmt.Sprintf("trial %d %v %+v", trial, cfg.Options.DropModel, p)
		plain, soon := sameDecisions(t, label, cfg, mmPlain{p}, MM{Params: p, storage: storage{new(buffers)}})
		plainEvals += plain.Summary.SuccessEvals
		soonEvals += soon.Summary.SuccessEvals
	}
	t.Logf("success evaluations: plain %d, soonest %d", plainEvals, soonEvals)
	if soonEvals*10 > plainEvals*9 {
		t.Errorf("%d evaluations with soonest, %d without: it should spare at least a tenth", soonEvals, plainEvals)
	}
}

// mmETCByHand is MM with Params.ETC written out from thesis §3.0 (b) and §3.1 alone, sharing no
// code with the template: every completion is Ready(m)'s mean plus the mean execution times of
// m's waiting tasks and of t, summed afresh from the PMFs; per machine with a free slot, the task
// that chose it with the soonest completion (ties: batch order); rounds until no slot or task is
// left. It counts in unequal the mean execution times that Event.ExecTable gives other than
// the PMF's own to the bit.
type mmETCByHand struct{ unequal *int }

func (mmETCByHand) Name() string      { return "MM" }
func (mmETCByHand) Mode() replay.Mode { return replay.Batch }
func (h mmETCByHand) Map(ev replay.Event) {
	for {
		var free []int
		for m := range ev.NumMachines() {
			if ev.Free(m) > 0 {
				free = append(free, m)
			}
		}
		tasks := append([]int(nil), ev.Batch()...)
		if len(free) == 0 || len(tasks) == 0 {
			return
		}
		type choice struct {
			task, machine int
			at            float64
		}
		var chosen []choice
		for _, t := range tasks {
			best := choice{task: t, machine: -1}
			for _, m := range free {
				at := ev.Ready(m).Mean()
				q := ev.Queue(m)
				if ev.Running(m) {
					q = q[1:]
				}
				for _, w := range q {
					at += ev.Exec(w, m).Mean()
				}
				at += ev.Exec(t, m).Mean()
				if ev.ExecTable(t, m).Mean() != ev.Exec(t, m).Mean() {
					*h.unequal++
				}
				if best.machine < 0 || at < best.at {
					best.machine, best.at = m, at
				}
			}
			chosen = append(chosen, best)
		}
		for _, m := range free {
			best := -1
			for i, c := range chosen {
				if c.machine == m && (best < 0 || c.at < chosen[best].at) {
					best = i
				}
			}
			if best >= 0 {
				ev.Assign(chosen[best].task, m)
			}
		}
	}
}

// TestMMETCMatchesHandSum: MM with Params.ETC, which sums each machine's queue once per phase 1
// and reads mean execution times from the engine's tables (Event.ExecTable), makes exactly the
// decisions of MM summing everything afresh for every task, under every drop model.
func TestMMETCMatchesHandSum(t *testing.T) {
	models := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}
	r := rand.New(rand.NewPCG(33, 34))
	for trial := range 30 {
		cfg := replay.Config{PET: replaytest.RandomPET(r, 3, 3, 6, 16),
			Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}, {Type: 2}},
			Tasks:    replaytest.RandomTasks(r, 200, 3, 1+2*r.Float64(), 2, 30), Options: replay.DefaultOptions()}
		cfg.Options.DropModel = models[trial%len(models)]
		cfg.Options.QueueSize = 1 + r.IntN(4)
		p := DefaultParams()
		p.ETC = true
		unequal := 0
		sameDecisions(t, fmt.Sprintf("trial %d %v", trial, cfg.Options.DropModel), cfg, mmETCByHand{&unequal}, MM{Params: p, storage: storage{new(buffers)}})
		if unequal > 0 {
			t.Fatalf("trial %d: ExecTable's mean differed from the PMF's mean %d times", trial, unequal)
		}
	}
}

// TestMemoIsMM: MM's phase 1 from the memo of the event's earlier rounds (memoCompletions)
// makes exactly the decisions of MM asking about every task on every free machine afresh in
// every round (mmPlain), on crowded random workloads with several free machines and long
// queues, so that events run many rounds, under every drop model; and it does answer from the
// memo.
func TestMemoIsMM(t *testing.T) {
	models := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}
	r := rand.New(rand.NewPCG(51, 52))
	reused := 0
	for trial := range 90 {
		tasks := replaytest.RandomTasks(r, 150, 3, 2+2*r.Float64(), 2, 30)
		cfg := replay.Config{PET: replaytest.RandomPET(r, 3, 3, 6, 16),
			Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}, {Type: 2}, {Type: 1}, {Type: 0}},
			Tasks:    tasks, Options: replay.DefaultOptions()}
		cfg.Options.DropModel = models[trial%len(models)]
		cfg.Options.Strict = r.IntN(2) == 0
		cfg.Options.QueueSize = 2 + r.IntN(4)
		p := DefaultParams()
		p.Phase1All, p.GlobalPhase2 = r.IntN(4) == 0, r.IntN(4) == 0
		mm := MM{Params: p, storage: storage{new(buffers)}}
		sameDecisions(t, fmt.Sprintf("trial %d %v %+v", trial, cfg.Options.DropModel, p), cfg, mmPlain{p}, mm)
		reused += mm.buf.memo.reused
	}
	if reused == 0 {
		t.Error("no completion was taken from the memo: the test does not exercise it")
	}
	t.Logf("%d completions taken from the memo", reused)
}

// giveUpWorkload is a crowded replay on four machines, two of one type, with queues of one to
// three tasks: events with several free slots, where soonestEach both answers and gives up.
func giveUpWorkload(r *rand.Rand) replay.Config {
	cfg := replay.Config{PET: replaytest.RandomPET(r, 3, 3, 6, 16),
		Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}, {Type: 2}},
		Tasks:    replaytest.RandomTasks(r, 200, 3, 2+2*r.Float64(), 2, 30), Options: replay.DefaultOptions()}
	cfg.Options.QueueSize = 1 + r.IntN(3)
	return cfg
}

// replayGiveUpWorkloads replays ten of giveUpWorkload's replays through m.
func replayGiveUpWorkloads(t *testing.T, r *rand.Rand, m replay.Mapper) {
	t.Helper()
	for range 10 {
		if _, err := replay.Run(t.Context(), giveUpWorkload(r), m); err != nil {
			t.Fatal(err)
		}
	}
}

// askCounter is an Event that counts the expected completions asked through it.
type askCounter struct {
	replay.Event
	asked int
}

func (a *askCounter) Completion(h, m int) float64 { a.asked++; return a.Event.Completion(h, m) }

// probeGiveUp maps as MM does and, at each event with several free machines and several tasks,
// first asks soonestFirst for a round on buffers of its own: when soonestEach gave that round up
// to minCompletion, it asks again, counting the questions, with the give-up kept and then with it
// cleared.
type probeGiveUp struct {
	mm               MM
	gaveUp, badKept  int
	silentRetry      int
	differentAnswers int
}

func (g *probeGiveUp) Name() string       { return "MM" }
func (g *probeGiveUp) Mode() replay.Mode  { return replay.Batch }
func (g *probeGiveUp) WaitsForSlot() bool { return true }

func (g *probeGiveUp) Map(ev replay.Event) {
	b := new(buffers)
	if tasks, free, ok := b.round(ev, nil); ok && len(tasks) > 1 && len(free) > 1 {
		first := slices.Clone(soonestFirst(ev, g.mm.Params, b, tasks, free))
		if b.eachGaveUp {
			g.gaveUp++
			kept := &askCounter{Event: ev}
			if again := soonestFirst(kept, g.mm.Params, b, tasks, free); !slices.Equal(first, again) {
				g.differentAnswers++
			}
			if kept.asked != 0 {
				g.badKept++
			}
			b.eachGaveUp = false
			cleared := &askCounter{Event: ev}
			soonestFirst(cleared, g.mm.Params, b, tasks, free)
			if cleared.asked == 0 {
				g.silentRetry++
			}
		}
	}
	g.mm.Map(ev)
}

// TestSoonestEachGivesUpForTheEvent: once soonestEach has given a round up to minCompletion, the
// event's later rounds go to minCompletion directly, which answers from the event's memo what
// it answered before: the same pairs, and not one question, where soonestEach would walk the
// tasks again (the walk asks, which the probe checks so that the test can fail).
func TestSoonestEachGivesUpForTheEvent(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 36))
	g := &probeGiveUp{mm: MM{Params: DefaultParams(), storage: storage{new(buffers)}}}
	replayGiveUpWorkloads(t, r, g)
	if g.gaveUp == 0 {
		t.Fatal("soonestEach gave no round up: the workload does not test the rule")
	}
	if g.badKept > 0 || g.differentAnswers > 0 || g.silentRetry > 0 {
		t.Errorf("of %d rounds given up: %d asked again with the give-up kept, %d answered otherwise, %d retried soonestEach without a question",
			g.gaveUp, g.badKept, g.differentAnswers, g.silentRetry)
	}
}

// alwaysGaveUp is MM on buffers told, before each event, that soonestEach gave up.
type alwaysGaveUp struct{ MM }

func (a alwaysGaveUp) Map(ev replay.Event) {
	a.buf.eachGaveUp = true
	a.MM.Map(ev)
}

// TestSoonestEachGiveUpEndsWithTheEvent: a give-up does not outlive its event. MM whose buffers
// say, before every event, that soonestEach gave up makes the same decisions and the same work
// counts as MM, since each event starts afresh; on giveUpWorkload soonestEach both answers and
// gives up, so that a give-up kept would ask otherwise.
func TestSoonestEachGiveUpEndsWithTheEvent(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 36))
	for trial := range 10 {
		cfg := giveUpWorkload(r)
		p := DefaultParams()
		want, got := sameDecisions(t, fmt.Sprintf("trial %d", trial), cfg, MM{Params: p, storage: storage{new(buffers)}}, alwaysGaveUp{MM{Params: p, storage: storage{new(buffers)}}})
		if w, g := want.Summary.SuccessEvals, got.Summary.SuccessEvals; w != g {
			t.Errorf("trial %d: %d success evaluations with a give-up told before each event, %d without", trial, g, w)
		}
	}
}

// probeGlobal maps as SJF does and, at each event with several free machines and several tasks,
// first runs memoCompletions for the event's first round twice on buffers of their own: with a
// global phase 2, and per task, counting the questions of each.
type probeGlobal struct {
	sjf                       SJF
	rounds, wrong, moreAsked  int
	globalAsked, perTaskAsked int
}

func (g *probeGlobal) Name() string       { return "SJF" }
func (g *probeGlobal) Mode() replay.Mode  { return replay.Batch }
func (g *probeGlobal) WaitsForSlot() bool { return true }

func (g *probeGlobal) Map(ev replay.Event) {
	if tasks, free, ok := new(buffers).round(ev, nil); ok && len(tasks) > 1 && len(free) > 1 {
		tasks, free = slices.Clone(tasks), slices.Clone(free)
		p := DefaultParams()
		perTask := &askCounter{Event: ev}
		b := new(buffers)
		b.memo.start(ev.NumMachines())
		all := slices.Clone(memoCompletions(perTask, p, b, tasks, free))
		p.GlobalPhase2 = true
		global := &askCounter{Event: ev}
		b = new(buffers)
		b.memo.start(ev.NumMachines())
		got := memoCompletions(global, p, b, tasks, free)
		want := all[bestPair(all, -1, func(a, b pair) bool { return a.completion < b.completion })]
		g.rounds++
		if len(got) != 1 || got[0] != want {
			g.wrong++
		}
		if global.asked > perTask.asked {
			g.moreAsked++
		}
		g.globalAsked += global.asked
		g.perTaskAsked += perTask.asked
	}
	g.sjf.Map(ev)
}

// TestGlobalRoundAsksLess: with a global phase 2, memoCompletions returns the one pair phase 2
// picks from the per-task pairs (ties: the first task), asking no more than per task, and in all
// far less: a task that cannot complete before the lead so far is not asked about.
func TestGlobalRoundAsksLess(t *testing.T) {
	r := rand.New(rand.NewPCG(37, 38))
	g := &probeGlobal{sjf: SJF{Params: DefaultParams(), storage: storage{new(buffers)}}}
	replayGiveUpWorkloads(t, r, g)
	t.Logf("%d rounds: %d questions global, %d per task", g.rounds, g.globalAsked, g.perTaskAsked)
	if g.rounds == 0 {
		t.Fatal("no round with several free machines and tasks")
	}
	if g.wrong > 0 || g.moreAsked > 0 {
		t.Errorf("of %d rounds, %d gave another pair than phase 2 picks, %d asked more than per task", g.rounds, g.wrong, g.moreAsked)
	}
	if 2*g.globalAsked > g.perTaskAsked {
		t.Errorf("%d questions global against %d per task: the lead should spare at least half", g.globalAsked, g.perTaskAsked)
	}
}
