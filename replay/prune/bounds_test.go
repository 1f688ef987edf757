package prune

import (
	"math/rand/v2"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
)

// TestBoundsHold: under every drop model, on random workloads and on the HCW19-like one, the fast
// engine's bounds hold at every event of a PAM-P, MM or MCT replay, and take their loose paths
// often (replaytest.CheckBounds).
func TestBoundsHold(t *testing.T) {
	runs := replaytest.RandomBoundsRuns(rand.New(rand.NewPCG(5, 0)))
	runs = append(runs, replaytest.BoundsRun{Label: "hcw19-like", Config: hcw19Like(t, 300)})
	replaytest.CheckBounds(t, runs, func(name string) (replay.Mapper, error) {
		return New(name, heuristic.DefaultParams(), DefaultConfig())
	})
}
