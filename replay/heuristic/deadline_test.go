package heuristic

import (
	"fmt"
	"math"
	"math/rand/v2"
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
		var h replay.Mapper = MSD{Params: p, buf: new(buffers)}
		oracle := plainTwoPhase{p, "MSD", false, soonestDeadline, false}
		if global {
			h, oracle = EDF{Params: p, buf: new(buffers)}, plainTwoPhase{p, "EDF", true, soonestDeadline, false}
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
