package prune

import (
	"math/rand/v2"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
)

// screeningEvent is the pruner's Event as PAM sees it.
type screeningEvent interface {
	replay.Event
	DeferThreshold(h int) float64
	Promising(h int, ms, dst []int) ([]int, bool)
}

// overScreening is the pruner's Event with Promising broken: it leaves out the first machine it
// would keep whenever it keeps two or more, as a screen that took a cut-off for a machine's
// neighbour's would.
type overScreening struct{ screeningEvent }

func (e overScreening) Promising(h int, ms, dst []int) ([]int, bool) {
	start := len(dst)
	dst, ok := e.screeningEvent.Promising(h, ms, dst)
	if ok && len(dst)-start >= 2 {
		dst = append(dst[:start], dst[start+1:]...)
	}
	return dst, ok
}

// brokenPAM is PAM seeing the pruner's Event through overScreening.
type brokenPAM struct{ heuristic.PAM }

func (b brokenPAM) Map(ev replay.Event) { b.PAM.Map(overScreening{ev.(screeningEvent)}) }

// TestScreenCanFail: TestFastEqualsReference's comparison catches a screen that leaves out a
// machine it should ask (PAM's Promising path): on the same kind of random workloads, PAM-P
// through a broken screen makes a decision the reference engine does not, while PAM-P through
// the pruner's own screen makes none.
func TestScreenCanFail(t *testing.T) {
	r := rand.New(rand.NewPCG(50, 2))
	caught := 0
	for i := range 8 {
		cfg := replay.Config{PET: replaytest.RandomPET(r, 4, 3, 8, 20),
			Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}, {Type: 2}},
			Tasks:    replaytest.RandomTasks(r, 80, 4, 0.3+r.Float64(), 4, 35), Options: replay.DefaultOptions()}
		cfg.Options.QueueSize = 2 + r.IntN(4)
		pc := DefaultConfig()
		pc.Variant, pc.Toggle = Both, Toggle{Kind: "always"}
		run := func(engine string, inner replay.Mapper, observe bool) []replay.Outcome {
			m, err := Wrap(inner, pc)
			if err != nil {
				t.Fatal(err)
			}
			if observe {
				m.(*Pruner).Observe(func(Decision) {}) // the oracle asks every chance
			}
			c := cfg
			c.Options.Engine = engine
			res, err := replay.Run(t.Context(), c, m)
			if err != nil {
				t.Fatal(err)
			}
			return res.Outcomes
		}
		pam := heuristic.PAM{Params: heuristic.DefaultParams()}
		ref := run("reference", pam, true)
		differs := func(got []replay.Outcome) bool {
			if len(got) != len(ref) {
				return true
			}
			for k := range ref {
				a, b := ref[k], got[k]
				if a.Task.ID != b.Task.ID || a.Status != b.Status || a.Machine != b.Machine || a.Deferred != b.Deferred || a.End != b.End {
					return true
				}
			}
			return false
		}
		if differs(run("fast", pam, false)) {
			t.Fatalf("workload %d: PAM-P's own screen changed a decision", i)
		}
		if differs(run("fast", brokenPAM{pam}, false)) {
			caught++
		}
	}
	if caught == 0 {
		t.Error("a screen that leaves out machines it should ask changed no decision in 8 workloads: the comparison cannot fail")
	}
	t.Logf("the broken screen changed decisions in %d of 8 workloads", caught)
}
