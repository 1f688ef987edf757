package replay_test

import (
	"math/rand/v2"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
	"github.com/hcreplay/hcreplay/replay/prune"
)

// TestBoundsHold: the fast engine's bounds (SuccessBound, CompletionBound, CompletionBounds,
// QueueFloors) hold at every event of PAM-P, MM and MCT replays of random workloads under every
// drop model, and take their loose paths often (replaytest.CheckBounds). prune's TestBoundsHold
// checks the same and the HCW19-like workload too; this one is here so that the engine's own
// tests catch a wrong bound (make mutate runs only the mutated package's tests).
func TestBoundsHold(t *testing.T) {
	replaytest.CheckBounds(t, replaytest.RandomBoundsRuns(rand.New(rand.NewPCG(5, 0))), func(name string) (replay.Mapper, error) {
		return prune.New(name, heuristic.DefaultParams(), prune.DefaultConfig())
	})
}
