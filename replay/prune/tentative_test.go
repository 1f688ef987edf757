package prune

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
)

// TestDeferAfterAssignsTentatively: under DeferAfter the pruner assigns the pairs it has judged
// hopeless with the engine's AssignTentative, which records no chance for them, since it takes
// them back once the heuristic is done. The replay is the one a pruner gets through an Event that
// offers Retract but not AssignTentative (so it assigns them with Assign), every outcome the same
// and its predicted chance too, with fewer chances asked. MM-P and MCT-P, every drop model.
func TestDeferAfterAssignsTentatively(t *testing.T) {
	models := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}
	for i := range 6 {
		r := rand.New(rand.NewPCG(47, uint64(i)))
		cfg := replay.Config{PET: replaytest.RandomPET(r, 3, 3, 6, 16),
			Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}, {Type: 1}},
			Tasks:    replaytest.RandomTasks(r, 200, 3, 1.5+r.Float64(), 2, 12), Options: replay.DefaultOptions()}
		cfg.Options.DropModel = models[i%3]
		name := []string{"MM", "MCT"}[i%2]
		hide := func(p *Pruner) replay.Mapper { return assignOnly{p} }
		want := replayPruned(t, cfg, name, DefaultConfig(), hide)
		got := replayPruned(t, cfg, name, DefaultConfig(), nil)
		sameExits(t, fmt.Sprintf("%s-P %v", name, cfg.Options.DropModel), got, want, "through Assign")
		if g, w := got.Summary.SuccessEvals, want.Summary.SuccessEvals; g >= w {
			t.Errorf("%s-P %v: %d chances asked, through Assign %d: want fewer", name, cfg.Options.DropModel, g, w)
		}
	}
}

// assignOnly is a Pruner that sees the engine's Event without AssignTentative.
type assignOnly struct{ *Pruner }

func (a assignOnly) Map(ev replay.Event) {
	a.Pruner.Map(retractOnly{ev, ev.(retracter)})
}

// retractOnly is an Event that can take back an assignment but offers no AssignTentative.
type retractOnly struct {
	replay.Event
	r retracter
}

func (e retractOnly) Retract(h int) { e.r.Retract(h) }

// TestDropAtOrBelowIsTheWalk: the dropping phase that lets the engine find the next task at or
// below its threshold (dropAtOrBelow, where no trace records the chances and Rho is 0) drops
// what the walk over the reported chances drops (with an observer, which reads every chance):
// every outcome the same. MET, MCT and RR with dropping only, every drop model, dropping
// thresholds from 0.3 to 0.7, the running task droppable or not.
func TestDropAtOrBelowIsTheWalk(t *testing.T) {
	models := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}
	drops := 0
	for i := range 9 {
		r := rand.New(rand.NewPCG(47, 100+uint64(i)))
		cfg := replay.Config{PET: replaytest.RandomPET(r, 3, 3, 6, 16),
			Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}},
			Tasks:    replaytest.RandomTasks(r, 200, 3, 0.4+0.3*r.Float64(), 5, 30), Options: replay.DefaultOptions()}
		cfg.Options.DropModel, cfg.Options.Trim = models[i%3], 0
		name := []string{"MET", "MCT", "RR"}[i/3]
		pc := DefaultConfig()
		pc.Variant, pc.DropThreshold, pc.Toggle = Drop, 0.3+0.4*r.Float64(), Toggle{Kind: "always"}
		if i%2 == 0 {
			pc.DropRunning = []RunningDrop{RunningAlways, RunningNever}[i%4/2]
		}
		observed := func(p *Pruner) replay.Mapper { p.Observe(func(Decision) {}); return p }
		want := replayPruned(t, cfg, name, pc, observed)
		got := replayPruned(t, cfg, name, pc, nil)
		sameExits(t, fmt.Sprintf("%s-Drop %v threshold %.3f", name, cfg.Options.DropModel, pc.DropThreshold), got, want, "walking the chances")
		drops += got.Summary.DroppedPruned
	}
	if drops < 50 {
		t.Fatalf("%d tasks dropped by the pruner in all: too few to tell", drops)
	}
	t.Logf("%d tasks dropped by the pruner", drops)
}

// replayPruned replays cfg with the named heuristic under pruning pc, its Pruner handed to the
// engine through wrap (nil: as it is).
func replayPruned(t *testing.T, cfg replay.Config, name string, pc Config, wrap func(*Pruner) replay.Mapper) *replay.Result {
	t.Helper()
	m, err := New(name, heuristic.DefaultParams(), pc)
	if err != nil {
		t.Fatal(err)
	}
	if wrap != nil {
		m = wrap(m.(*Pruner))
	}
	res, err := replay.Run(t.Context(), cfg, m)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// sameExits fails t where got's outcomes differ from want's (the replay made the other way, as
// against says): task, status, machine, deferrals, predicted chance and end, to the bit.
func sameExits(t *testing.T, label string, got, want *replay.Result, against string) {
	t.Helper()
	if len(got.Outcomes) != len(want.Outcomes) {
		t.Fatalf("%s: %d outcomes, %s %d", label, len(got.Outcomes), against, len(want.Outcomes))
	}
	for k, w := range want.Outcomes {
		g := got.Outcomes[k]
		if g.Task.ID != w.Task.ID || g.Status != w.Status || g.Machine != w.Machine || g.Deferred != w.Deferred ||
			math.Float64bits(g.Predicted) != math.Float64bits(w.Predicted) || math.Float64bits(g.End) != math.Float64bits(w.End) {
			t.Fatalf("%s: outcome %d\n%+v\n%s\n%+v", label, k, g, against, w)
		}
	}
}
