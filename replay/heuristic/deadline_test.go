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

// TestDeadlineFirstIsTwoPhase: MSD and EDF, whose rounds take the tasks in deadline order and
// stop phase 1 once every free slot is claimed (deadlineFirst), make exactly the decisions of the
// template that asks every task's completion on every free machine afresh in every round
// (plainTwoPhase with soonestDeadline's phase 2). The workloads are crowded, with up to six free
// machines and queues of up to five, and their deadlines are rounded up to a coarse grid, so
// that tasks of one deadline compete for a machine and the ties go to the completion and then
// the batch order; every drop model, strict or not, Params.ETC and Phase1All now and then. And
// the order pays: fewer completions are asked.
func TestDeadlineFirstIsTwoPhase(t *testing.T) {
	models := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}
	r := rand.New(rand.NewPCG(47, 1))
	asked, oracleAsked := 0, 0
	for trial := range 72 {
		tasks := replaytest.RandomTasks(r, 150, 3, 2+2*r.Float64(), 2, 30)
		grid := []float64{0.5, 2, 5}[trial%3]
		for i := range tasks {
			tasks[i].Deadline = math.Ceil(tasks[i].Deadline/grid) * grid
		}
		cfg := replay.Config{PET: replaytest.RandomPET(r, 3, 3, 6, 16),
			Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}, {Type: 2}, {Type: 1}, {Type: 0}},
			Tasks:    tasks, Options: replay.DefaultOptions()}
		cfg.Options.DropModel = models[trial%len(models)]
		cfg.Options.Strict = r.IntN(2) == 0
		cfg.Options.QueueSize = 1 + r.IntN(5)
		p := DefaultParams()
		p.Phase1All, p.ETC = r.IntN(6) == 0, r.IntN(4) == 0
		global := trial%2 == 1
		var h replay.Mapper = MSD{Params: p, storage: storage{new(buffers)}}
		oracle := plainTwoPhase{p, "MSD", false, soonestDeadline, false}
		if global {
			h, oracle = EDF{Params: p, storage: storage{new(buffers)}}, plainTwoPhase{p, "EDF", true, soonestDeadline, false}
		}
		got, want := &countCompletions{Mapper: h}, &countCompletions{Mapper: oracle}
		sameDecisions(t, fmt.Sprintf("trial %d %s %v grid %g queue %d %+v", trial, oracle.name, cfg.Options.DropModel, grid, cfg.Options.QueueSize, p), cfg, want, got)
		if !p.Phase1All && !p.ETC {
			asked, oracleAsked = asked+got.asked, oracleAsked+want.asked
		}
	}
	t.Logf("completions asked: %d, the template %d", asked, oracleAsked)
	if asked >= oracleAsked {
		t.Errorf("deadlineFirst asked %d completions, the template %d: the deadline order saves nothing", asked, oracleAsked)
	}
}

// countCompletions is a batch mapper that counts the completions it asks for.
type countCompletions struct {
	replay.Mapper
	asked int
}

func (c *countCompletions) WaitsForSlot() bool { return true }
func (c *countCompletions) Map(ev replay.Event) {
	c.Mapper.Map(completionCounter{ev, &c.asked})
}

// completionCounter is an Event that counts Completion's calls.
type completionCounter struct {
	replay.Event
	n *int
}

func (e completionCounter) Completion(h, m int) float64 {
	*e.n++
	return e.Event.Completion(h, m)
}

// deadlineEvent is memoEvent with three machines and a deadline per task.
type deadlineEvent struct {
	*memoEvent
	deadlines []float64
}

func (e deadlineEvent) NumMachines() int                     { return 3 }
func (e deadlineEvent) TypeAndDeadline(h int) (int, float64) { return 0, e.deadlines[h] }

// TestDeadlineClaimsHandWorked: the claims of one round of deadlineFirst and the completions it
// asks for, worked by hand. Tasks 0–5 are due at 10, 10, 20, 30, 40, 50; their completions on
// machines 0, 1, 2 are 0: 4 6 9, 1: 5 7 9, 2: 3 8 9, 3: 9 2 9, 4: 9 9 1, 5: 1 1 1.
//
// All three machines free (MSD): tasks 0 and 1, due first, both choose m0, and 0 keeps it by its
// smaller completion (4 < 5); task 2 chooses m0 too, which a sooner deadline holds; task 3
// claims m1 and task 4 m2, and with every machine claimed task 5 is never asked, though it would
// complete first everywhere. Global (EDF): only the first deadline is asked, task 0 on m0. Only
// m1 free: tasks 0 and 1 tie on the deadline and are asked there only (6 < 7), task 0; tasks 2
// and 3 alone on m1: task 2, due first, alone with its deadline, takes it without a question.
func TestDeadlineClaimsHandWorked(t *testing.T) {
	done := [][]float64{{4, 6, 9}, {5, 7, 9}, {3, 8, 9}, {9, 2, 9}, {9, 9, 1}, {1, 1, 1}}
	for _, c := range []struct {
		name         string
		tasks, free  []int
		global       bool
		claims, asks []int // claims: task, machine pairs in slot order; asks: task·10 + machine
	}{
		{"MSD, three free", []int{0, 1, 2, 3, 4, 5}, []int{0, 1, 2}, false, []int{0, 0, 3, 1, 4, 2},
			[]int{0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32, 40, 41, 42}},
		{"EDF, three free", []int{0, 1, 2, 3, 4, 5}, []int{0, 1, 2}, true, []int{0, 0}, []int{0, 1, 2, 10, 11, 12}},
		{"MSD, m1 free", []int{0, 1, 2, 3, 4, 5}, []int{1}, false, []int{0, 1}, []int{1, 11}},
		{"MSD, m1 free, tasks 2 and 3", []int{2, 3}, []int{1}, false, []int{2, 1}, nil},
	} {
		ev := deadlineEvent{&memoEvent{done: done}, []float64{10, 10, 20, 30, 40, 50}}
		b := new(buffers)
		b.memo.start(3)
		b.sortByDeadline(ev, c.tasks)
		var got []int
		for _, cl := range b.deadlineClaims(ev, Params{}, c.free, c.global) {
			got = append(got, cl.task, cl.machine)
		}
		if !slices.Equal(got, c.claims) {
			t.Errorf("%s: claims (task, machine) %v, want %v", c.name, got, c.claims)
		}
		slices.Sort(ev.asked)
		if !slices.Equal(ev.asked, c.asks) {
			t.Errorf("%s: asked %v (task·10 + machine), want %v", c.name, ev.asked, c.asks)
		}
	}
}
