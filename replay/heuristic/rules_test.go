package heuristic

import (
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
)

// Hand-worked replays that pin each documented rule of a heuristic: each scenario is built so
// that reversing or dropping one rule (a phase's criterion, a tie-break) changes the asserted
// schedule, and each comment says what the broken rule would give instead. The conventions are
// handworked_test.go's.

// TestHandWorkedPAMPhases: PAM without a pruner (000 §6.3.1; thesis §4.3, Alg. 2) is phase 1 by
// the highest success chance, then per machine the task expected to complete first. Two
// machines, queue size 1, drop model none, all arrive at 0.
//
//	task  exec m0               exec m1  deadline
//	A     1 (p .6) or 9 (p .4)     5         6     (takes 9 on m0 in this world)
//	B     2                        50       20
//	C     3                        50       20
//
// Event 0, round 1, both machines free. Phase 1 by chance: A: m0 P(≤ 6) = .6, m1 P(5 ≤ 6) = 1 →
// m1 (the minimum expected completion would take m0: 4.2 < 5). B: m0 1, m1 0 → m0. C: m0 1,
// m1 0 → m0. Phase 2: m0 among B (completes at 2) and C (3) takes B, the first to complete;
// m1 takes A. Event 2: B done, m0 free; C on m0: 2 + 3 = 5, chance 1 → m0, 2–5. A runs 0–5.
//
// Phase 2 reversed (the task expected to complete last): m0 takes C (0–3), then B at 3 (3–5).
// Phase 1 by expected completion (MM's): A → m0 (4.2), and m0 takes B (2); m1 has no pair in
// round 1 and gets A or C in round 2, which changes A's or C's machine.
func TestHandWorkedPAMPhases(t *testing.T) {
	s := scenario{
		pet:   replaytest.Grid{{at(1, 0.6, 9, 0.4), one(5)}, {one(2), one(50)}, {one(3), one(50)}},
		tasks: []replay.Task{task(0, 0, 6), task(1, 0, 20), task(2, 0, 20)},
		model: pmf.None,
		queue: 1,
	}
	s.tasks[0].Observed = []float64{9, 5}
	const on = replay.OnTime
	s.expect(t, "PAM", lookup(t, "PAM", DefaultParams()), []want{{1, 0, 5, on}, {0, 0, 2, on}, {0, 2, 5, on}})
}

// TestHandWorkedPAMTies: PAM's two tie-breaks. Phase 1: equal chances go to the smaller expected
// completion (not the lower index); phase 2: equal expected completions go to the shorter
// expected execution time (003 §V), not to arrival order. Two machines, queue size 1, drop
// model evict, all arrive at 0.
//
//	task  exec m0                 exec m1  deadline
//	D     2 (p .5) or 10 (p .5)      50        6     (takes 10 on m0 in this world)
//	E     4                          50       20
//	F     3                           2       20
//
// Event 0, round 1. Phase 1: D: m0 P(≤ 6) = .5, m1 0 → m0. E: m0 1, m1 0 → m0. F: 1 on both;
// the tie goes to the smaller expected completion, m1 (2 < 3). Phase 2 on m0: D completes at 2
// (p .5) or is killed at its deadline 6 (p .5), expected 4; E at 4: a tie, which goes to the
// shorter expected execution time, E (4 < D's 6). m1 takes F. E runs 0–4, F 0–2. Event 2: F
// done; D on the only free machine, m1 (chance 0, no pruner) → 2–6, killed at its deadline.
//
// Phase 2 tie to arrival order, or to the longer execution time: m0 takes D (0–6, killed),
// and E goes to m1 at 2 and is killed at 20. Phase 1 tie to the lower index: F → m0, where it
// completes first (3 < 4) and runs 0–3; D goes to m1 at 0 (0–6, killed), E to m0 at 3 (3–7).
func TestHandWorkedPAMTies(t *testing.T) {
	s := scenario{
		pet:   replaytest.Grid{{at(2, 0.5, 10, 0.5), one(50)}, {one(4), one(50)}, {one(3), one(2)}},
		tasks: []replay.Task{task(0, 0, 6), task(1, 0, 20), task(2, 0, 20)},
		model: pmf.Evict,
		queue: 1,
	}
	s.tasks[0].Observed = []float64{10, 50}
	const on, dropped = replay.OnTime, replay.DroppedDeadline
	s.expect(t, "PAM", lookup(t, "PAM", DefaultParams()), []want{{1, 2, 6, dropped}, {0, 0, 4, on}, {1, 0, 2, on}})
}
