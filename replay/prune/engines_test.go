package prune

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
)

// TestFastEqualsReference: on random workloads across every heuristic, pruning variant and drop
// model, the fast engine, and the approximate engine with its approximations turned off (a bucket
// of one step, no cropping; success chances by Algorithm 1), make exactly the reference engine's
// decisions: every task ends the same
// way, on the same machine, at the same times, and the chances predicted at mapping agree to
// 1e-9. (The reference engine recomputes every chain with full convolutions and its pruner
// computes every chance; the fast one answers from cached tables without convolving and its
// pruner defers hopeless tasks from bounds, as PAM does through the pruner's PromisingEach (which
// also spares it the chances of machines where a task is hopeless; TestScreenCanFail), so the
// two share no arithmetic per query.)
func TestFastEqualsReference(t *testing.T) {
	models := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}
	variants := []Variant{None, Defer, Drop, Both}
	var workloads atomic.Int64
	for _, h := range heuristic.All() {
		t.Run(h.Name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(21, uint64(len(h.Name))))
			for i := range 18 { // every (model, variant) pair, and six more
				model, variant := models[i%3], variants[i%4]
				cfg := replay.Config{PET: replaytest.RandomPET(r, 4, 3, 8, 20),
					Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}, {Type: 2}},
					Tasks:    replaytest.RandomTasks(r, 80, 4, 0.3+r.Float64(), 4, 35), Options: replay.DefaultOptions()}
				cfg.Options.DropModel, cfg.Options.Trim, cfg.Options.Seed = model, 2, uint64(i)
				cfg.Options.QueueSize = 2 + r.IntN(4)
				cfg.Options.Strict = r.IntN(3) == 0
				cfg.Options.ConditionElapsed = i%5 != 4 // a chain may then start before now
				pc := DefaultConfig()
				pc.Variant, pc.Toggle, pc.Rho, pc.Fairness = variant, Toggle{Kind: "always"}, 0.2*float64(r.IntN(2)), 0.05*float64(r.IntN(2))
				// The readings of issue 45: every drop model with every running-task rule, each
				// deferring variant with every placement (a block of six workloads each: both
				// deferring variants, under two or three drop models), expiries in the sufferage
				// or not.
				pc.DeferAt, pc.DropRunning = []DeferPlace{DeferAfter, DeferBefore, DeferAfterRejudge}[i/6], RunningDrop((i/3)%3)
				pc.SufferExpired = (i/2)%2 == 1
				if i%5 == 2 {
					pc.Defer = DeferRule{Kind: "dynamic", Value: 0.05, Start: 0.6}
				}
				run := func(engine string) *replay.Result {
					m, err := Wrap(h.New(heuristic.DefaultParams()), pc)
					if err != nil {
						t.Fatal(err)
					}
					if p, ok := m.(*Pruner); ok && engine == "reference" {
						// An observer turns the deferring bounds off: the oracle computes every
						// chance, so the test checks that the bounds never change a decision.
						p.Observe(func(Decision) {})
					}
					c := cfg
					c.Options.Engine, c.Options.ApproxBucket, c.Options.ApproxCrop = engine, 1, false
					res, err := replay.Run(t.Context(), c, m)
					if err != nil {
						t.Fatal(err)
					}
					return res
				}
				ref := run("reference")
				for _, engine := range []string{"fast", "approx"} { // approx with a bucket of 1 and no crop
					fast := run(engine)
					label := fmt.Sprintf("%s%s %v workload %d engine %s defer-at %v drop-running %v", h.Name, variant.Suffix(), model, i, engine, pc.DeferAt, pc.DropRunning)
					if len(ref.Outcomes) != len(fast.Outcomes) {
						t.Fatalf("%s: %d outcomes, reference %d", label, len(fast.Outcomes), len(ref.Outcomes))
					}
					for k := range ref.Outcomes {
						a, b := ref.Outcomes[k], fast.Outcomes[k]
						if a.Task.ID != b.Task.ID || a.Status != b.Status || a.Machine != b.Machine || !same(a.MapTime, b.MapTime) ||
							!same(a.Start, b.Start) || a.End != b.End || a.Deferred != b.Deferred ||
							!(same(a.Predicted, b.Predicted) || math.Abs(a.Predicted-b.Predicted) <= 1e-9) {
							t.Fatalf("%s: exit %d differs:\nreference %+v\nfast      %+v", label, k, a, b)
						}
					}
					if ref.Summary.Robustness != fast.Summary.Robustness || ref.Summary.MappingEvents != fast.Summary.MappingEvents {
						t.Fatalf("%s: summaries differ: %+v vs %+v", label, ref.Summary, fast.Summary)
					}
				}
				workloads.Add(1)
			}
		})
	}
	t.Cleanup(func() {
		if n := workloads.Load(); n < 200 && !t.Failed() {
			t.Errorf("only %d workloads compared, want at least 200", n)
		}
	})
}

func same(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }
