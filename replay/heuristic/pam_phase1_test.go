package heuristic

import (
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
)

// TestHandWorkedPAMPhase1All: PAM honours Params.Phase1All (issue 45). Two machines, queue size
// 1 (a machine holds only its running task), drop model none, impulse execution times:
//
//	task  arrives  exec m0  exec m1  deadline
//	T0       0       10       50       100
//	T1       1        3       20        14
//
// Event 0: both machines free; T0's chance is 1 on both (10 and 50 ≤ 100), the tie goes to the
// smaller expected completion, m0: T0 runs on m0 0–10, on time.
//
// Event 1, only m1 free. Free machines only (the default): phase 1 sees m1 alone, T1's chance
// there is P(1 + 20 ≤ 14) = 0, and PAM without a pruner does not defer: T1 → m1, 1–21, late.
//
// With Phase1All phase 1 sees m0 too: T1 appended to m0 completes at 10 + 3 = 13 ≤ 14, chance
// 1, so m0 is its machine; m0 is full, so T1 waits. Event 10 (T0 done): m0 gives chance 1, m1
// P(10 + 20 ≤ 14) = 0 → T1 → m0, 10–13, on time.
func TestHandWorkedPAMPhase1All(t *testing.T) {
	s := scenario{
		pet:   replaytest.Grid{{one(10), one(50)}, {one(3), one(20)}},
		tasks: []replay.Task{task(0, 0, 100), task(1, 1, 14)},
		model: pmf.None,
		queue: 1,
	}
	p := DefaultParams()
	s.expect(t, "PAM", lookup(t, "PAM", p), []want{{0, 0, 10, replay.OnTime}, {1, 1, 21, replay.Late}})
	p.Phase1All = true
	s.expect(t, "PAM --phase1-all", lookup(t, "PAM", p), []want{{0, 0, 10, replay.OnTime}, {0, 10, 13, replay.OnTime}})
}
