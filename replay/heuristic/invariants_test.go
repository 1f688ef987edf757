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

// TestInvariants replays random workloads through every registered heuristic under every drop
// model and checks SPEC §9's replay invariants on each run.
func TestInvariants(t *testing.T) {
	models := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}
	for _, h := range All() {
		t.Run(h.Name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(11, uint64(len(h.Name))))
			for trial := range 20 * len(models) {
				cfg := replay.Config{
					PET:      replaytest.RandomPET(r, 4, 3, 6, 16),
					Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}, {Type: 2}},
					Tasks:    replaytest.RandomTasks(r, 100+r.IntN(100), 4, 0.3+1.2*r.Float64(), 4, 30),
					Options:  replay.DefaultOptions(),
				}
				cfg.Options.DropModel = models[trial%len(models)]
				cfg.Options.Strict = r.IntN(2) == 0
				cfg.Options.QueueSize = 1 + r.IntN(4)
				cfg.Options.Trim = r.IntN(5)
				cfg.Options.Seed = uint64(trial)
				p := DefaultParams()
				p.Phase1All, p.GlobalPhase2, p.ETC = r.IntN(4) == 0, r.IntN(4) == 0, r.IntN(4) == 0
				res, err := replay.Run(t.Context(), cfg, h.New(p))
				if err != nil {
					t.Fatal(err)
				}
				size := cfg.Options.QueueSize
				if h.Mode == replay.Immediate {
					size = math.MaxInt
				}
				label := fmt.Sprintf("%s trial %d %v strict=%v queue %d %+v", h.Name, trial, cfg.Options.DropModel, cfg.Options.Strict, size, p)
				replaytest.CheckInvariants(t, label, cfg, res, size, false)
			}
		})
	}
}
