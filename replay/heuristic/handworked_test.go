package heuristic

import (
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
)

// Hand-worked replays. Each test's comment derives every decision and the resulting schedule by
// hand; that derivation, not a run of the code, is the oracle. Unless a test says otherwise,
// execution times are single impulses (so the actual duration is the impulse), the drop model is
// none (so the expected completion is plain arithmetic and late tasks run to the end), and
// machine j has its own column of the PET.
//
// Engine facts the derivations use: a mapping event happens at every arrival and every
// completion; completions at a time are processed before that time's mapping event; a machine
// with a free slot and nothing running starts its first queued task at commit; a task still in
// the batch expires (expired_unmapped) at the first event at or after its deadline, or at its
// deadline when no event is left.

// TestHandWorkedBatchDisagree: the batch heuristics on one input, two machines, queue size 1
// (a machine holds only the running task, so each mapping event fills each idle machine once).
//
//	task  exec m0  exec m1  deadline      all arrive at 0
//	T0       2        4        20         (short, loose)
//	T1       3        6         4         (soonest deadline)
//	T2       6       12         8         (long, little slack)
//
// Event 0, round 1, both machines free and idle: every task completes first on m0 (2 < 4,
// 3 < 6, 6 < 12), so phase 1 pairs all three with m0 and nobody with m1. Second-best completions
// (for Sufferage) are 4, 6, 12, so sufferages are 2, 3, 6.
//
// MM (per machine, min completion): m0 takes T0 (2). Round 2, only m1 free: T1 completes at 6,
// T2 at 12 → m1 takes T1. No free slot left. T0 runs 0–2 (on time); T1 runs 0–6 (late, δ 4).
// Event 2: m0 idle, T2 → m0, 2–8, on time (8 ≤ 8).
//
// SJF (global min completion): round 1 picks the global minimum, T0 → m0; round 2 as MM. Same
// schedule as MM: with every task on m0 in round 1, per machine and global picks coincide.
//
// MSD (per machine, soonest deadline): m0 takes T1 (δ 4). Round 2, m1: T0 (δ 20) or T2 (δ 8) →
// T2, 0–12, late. Event 3: T1 done on time; T0 → m0, 3–5, on time.
//
// EDF (global soonest deadline): T1 → m0, then T2 → m1, then T0 → m0 at 3: same as MSD.
//
// MMU (global max urgency 1/(δ − E[C])): round 1 urgencies on m0: T0 1/18, T1 1/1, T2 1/2 →
// T1 → m0 (0–3). Round 2, m1: T0 1/(20−4) = 1/16, T2 1/(8−12) = −1/4 (late, ranks last) →
// T0 → m1 (0–4). Event 3: T2 → m0, 3–9, late (δ 8). MMU serves T0 before T2 because T2 is
// already expected late on m1, where MSD sends T2 there by its deadline alone.
//
// MaxMin (global max of the min completions): round 1: T2 (6) → m0 (0–6). Round 2, m1: T0 4,
// T1 6 → the larger, T1 → m1 (0–6, late). Event 6: both machines finish (T2 on time, 6 ≤ 8);
// T0 completes at 8 on m0 or 10 on m1 → m0, 6–8, on time.
//
// Sufferage (per machine, max sufferage): round 1: m0 takes T2 (sufferage 6) → 0–6. Round 2,
// only m1 free: each task has one machine, so both sufferages are +Inf; the tie goes to the
// smaller completion, T0 (4) over T1 (6) → T0 → m1 (0–4). Event 4: T1 is still unmapped and
// now 4 ≥ δ 4, so it expires. Event 6: T2 done on time.
func TestHandWorkedBatchDisagree(t *testing.T) {
	s := scenario{
		pet:   replaytest.Grid{{one(2), one(4)}, {one(3), one(6)}, {one(6), one(12)}},
		tasks: []replay.Task{task(0, 0, 20), task(1, 0, 4), task(2, 0, 8)},
		model: pmf.None,
		queue: 1,
	}
	const on, late = replay.OnTime, replay.Late
	cases := []struct {
		name  string
		wants []want
	}{
		{"MM", []want{{0, 0, 2, on}, {1, 0, 6, late}, {0, 2, 8, on}}},
		{"SJF", []want{{0, 0, 2, on}, {1, 0, 6, late}, {0, 2, 8, on}}},
		{"MSD", []want{{0, 3, 5, on}, {0, 0, 3, on}, {1, 0, 12, late}}},
		{"EDF", []want{{0, 3, 5, on}, {0, 0, 3, on}, {1, 0, 12, late}}},
		{"MMU", []want{{1, 0, 4, on}, {0, 0, 3, on}, {0, 3, 9, late}}},
		{"MaxMin", []want{{0, 6, 8, on}, {1, 0, 6, late}, {0, 0, 6, on}}},
		{"Sufferage", []want{{1, 0, 4, on}, unmapped(4, replay.ExpiredUnmapped), {0, 0, 6, on}}},
	}
	for _, c := range cases {
		s.expect(t, c.name, lookup(t, c.name, DefaultParams()), c.wants)
	}
}

// TestHandWorkedPhase2PerMachineVsGlobal: where a per-machine phase 2 and a global one part.
// Two machines, queue size 1, all arrive at 0, deadlines loose (15, 16, 17: all on time).
//
//	task  exec m0  exec m1
//	X        1        9
//	Z        2        3
//	Y        9        4
//
// Phase 1 in round 1: X → m0 (1), Z → m0 (2 < 3), Y → m1 (4 < 9).
//
// Per machine (MM; MSD, whose soonest deadline X 15 < Z 16 picks the same): both machines pick
// from these pairs at once: m0 takes X (1 < 2, or δ 15 < 16), m1 takes Y. Event 1: X done; Z →
// m0, 1–3. Schedule: X m0 0–1, Z m0 1–3, Y m1 0–4.
//
// Global (SJF, EDF, and MM/MSD with GlobalPhase2): X → m0 first (completion 1, deadline 15).
// Phase 1 again with only m1 free: Z completes at 3, Y at 4 → Z → m1 (0–3), since it beats Y on
// m1 both by completion and by deadline (16 < 17). Event 1: X done; Y → m0, 1–10 (≤ 17).
// Schedule: X m0 0–1, Z m1 0–3, Y m0 1–10.
func TestHandWorkedPhase2PerMachineVsGlobal(t *testing.T) {
	s := scenario{
		pet:   replaytest.Grid{{one(1), one(9)}, {one(2), one(3)}, {one(9), one(4)}},
		tasks: []replay.Task{task(0, 0, 15), task(1, 0, 16), task(2, 0, 17)},
		model: pmf.None,
		queue: 1,
	}
	const on = replay.OnTime
	perMachine := []want{{0, 0, 1, on}, {0, 1, 3, on}, {1, 0, 4, on}}
	global := []want{{0, 0, 1, on}, {1, 0, 3, on}, {0, 1, 10, on}}
	g := DefaultParams()
	g.GlobalPhase2 = true
	s.expect(t, "MM", MM{Params: DefaultParams()}, perMachine)
	s.expect(t, "MSD", MSD{Params: DefaultParams()}, perMachine)
	s.expect(t, "SJF", SJF{Params: DefaultParams()}, global)
	s.expect(t, "EDF", EDF{Params: DefaultParams()}, global)
	s.expect(t, "MM GlobalPhase2", MM{Params: g}, global)
	s.expect(t, "MSD GlobalPhase2", MSD{Params: g}, global)
}

// TestHandWorkedPhase1All: two machines, queue size 1, MM.
//
//	task  arrives  exec m0  exec m1  deadline
//	T0       0        4        8        100
//	T1       1        1        6        100
//
// Event 0 (either reading): T0 completes at 4 on m0, 8 on m1 → m0, 0–4.
//
// Default, phase 1 over free machines: at event 1 m0 runs T0 and is full, so T1 sees only m1 →
// 1–7.
//
// Phase1All: at event 1 T1 sees both: m0 is free at 4 (T0's completion), 4 + 1 = 5; m1 gives
// 1 + 6 = 7 → m0, which is full, so T1 is skipped for this event and stays in the batch. Event 4:
// T0 done; m0 gives 4 + 1 = 5, m1 4 + 6 = 10 → m0, 4–5. Waiting pays here: T1 ends at 5, not 7.
func TestHandWorkedPhase1All(t *testing.T) {
	s := scenario{
		pet:   replaytest.Grid{{one(4), one(8)}, {one(1), one(6)}},
		tasks: []replay.Task{task(0, 0, 100), task(1, 1, 100)},
		model: pmf.None,
		queue: 1,
	}
	const on = replay.OnTime
	all := DefaultParams()
	all.Phase1All = true
	s.expect(t, "MM", MM{Params: DefaultParams()}, []want{{0, 0, 4, on}, {1, 1, 7, on}})
	s.expect(t, "MM Phase1All", MM{Params: all}, []want{{0, 0, 4, on}, {0, 4, 5, on}})
}

// TestHandWorkedETC: drop model evict, two machines, queue size 3, MM.
//
//	task  arrives  exec m0  exec m1  deadline
//	A        0        4       50        100
//	W        0       10       50          5   (cannot finish in time anywhere)
//	N        1        2        8        100
//
// Default (mean of the drop-aware completion PMF). Event 0, round 1: A completes at 4 on m0, 50
// on m1 → m0. W starts at 0 on either machine and is killed at its deadline 5 (evict), so its
// completion PMF is an impulse at 5 on both: tie → m0. m0 takes A (4 < 5). Round 2: W on m0
// starts at 4, is killed at 5 → 5; on m1 → 5; tie → m0. A runs 0–4.
// Event 1: N on m0: the machine is free at 4 (A), W runs 4 until it is killed at 5, N runs 5–7
// → 7; on m1: 1 + 8 = 9 → m0. Event 4: A done; W starts, killed at 5 (dropped_deadline); N runs
// 5–7.
//
// ETC (Ready's mean plus the mean execution times of the queue). Event 0: A: m0 4, m1 50 → m0;
// W: m0 10, m1 50 → m0; m0 takes A. Round 2: W on m0: 0 + 4 + 10 = 14 vs 50 → m0. Event 1: N on
// m0: 4 (A) + 10 (W, counted in full though it will be killed at 5) + 2 = 16; on m1: 9 → m1,
// 1–9. The ETC sum overestimates m0's queue by the 9 time units W will never run.
func TestHandWorkedETC(t *testing.T) {
	s := scenario{
		pet:   replaytest.Grid{{one(4), one(50)}, {one(10), one(50)}, {one(2), one(8)}},
		tasks: []replay.Task{task(0, 0, 100), task(1, 0, 5), task(2, 1, 100)},
		model: pmf.Evict,
		queue: 3,
	}
	const on, dropped = replay.OnTime, replay.DroppedDeadline
	etc := DefaultParams()
	etc.ETC = true
	s.expect(t, "MM", MM{Params: DefaultParams()}, []want{{0, 0, 4, on}, {0, 4, 5, dropped}, {0, 5, 7, on}})
	s.expect(t, "MM ETC", MM{Params: etc}, []want{{0, 0, 4, on}, {0, 4, 5, dropped}, {1, 1, 9, on}})
}

// TestHandWorkedMOC: MOC against MM where the order of two tasks decides whether both make it.
// Two machines, queue size 3, all arrive at 0.
//
//	task  exec m0                 exec m1  deadline
//	A     4                          50         4
//	B     1                          50        10
//	D     2 (p .25) or 10 (p .75)    50         6   (takes 10 on m0 in this world)
//
// MOC, event 0, round 1. Phase 1 (success chances): A: m0 P(4 ≤ 4) = 1, m1 0 → m0. B: m0
// P(1 ≤ 10) = 1 → m0. D: m0 P(D ≤ 6) = .25, m1 0 → m0. Cull: .25 ≤ .30, so D is no candidate.
// m0's candidates: A and B (chance 1 each, arrival order). Orderings, Algorithm 1 on the idle m0:
//   - A, B: A completes at 4, p = 1; B at 5, p = 1 → ρ = 1, nobody doomed, value 1·2 = 2.
//   - B, A: B at 1, p = 1; A at 5 > 4, p = 0, doomed → ρ = 1, value 1·(2 − 1) = 1.
//
// A goes first (MM would run the shorter B first). Round 2: B on m0 after A: 5 ≤ 10, p = 1 → m0,
// the only candidate → assigned. D on m0 after A: 4 + {2, 10} = {6, 14}, P = .25 → culled.
// Round 3: D on m0 behind B: {7, 15}, P = 0; m1 0; tie → smaller E[C] (5 + 8 = 13 < 50) → m0, 0
// → culled; nothing assigned, the event ends. A runs 0–4 (on time), B 4–5 (on time). Events 4
// and 5: D's chance on m0 is P(≤ 6) of {7, 15} behind B at 5, then behind nothing at 5: 0 →
// culled. No event is left; D expires at its deadline 6.
//
// MM, event 0. Round 1: expected completions on m0: A 4, B 1, D .25·2 + .75·10 = 8 (m1: 50 for
// all) → all on m0; m0 takes B (1). Round 2: A 1 + 4 = 5, D 1 + 8 = 9 → A. Round 3: D 5 + 8 = 13
// → m0 (its third slot). B runs 0–1 (on time), A 1–5 (late, δ 4), D 5–15 (late, δ 6).
// MOC: 2 on time; MM: 1.
func TestHandWorkedMOC(t *testing.T) {
	s := scenario{
		pet:   replaytest.Grid{{one(4), one(50)}, {one(1), one(50)}, {at(2, 0.25, 10, 0.75), one(50)}},
		tasks: []replay.Task{task(0, 0, 4), task(1, 0, 10), task(2, 0, 6)},
		model: pmf.None,
		queue: 3,
	}
	s.tasks[2].Observed = []float64{10, 50}
	const on, late = replay.OnTime, replay.Late
	s.expect(t, "MOC", lookup(t, "MOC", DefaultParams()), []want{{0, 0, 4, on}, {0, 4, 5, on}, unmapped(6, replay.ExpiredUnmapped)})
	s.expect(t, "MM", lookup(t, "MM", DefaultParams()), []want{{0, 1, 5, late}, {0, 0, 1, on}, {0, 5, 15, late}})
}

// TestHandWorkedImmediate: the immediate heuristics on one input, three machines, unbounded
// queues, deadlines 30 (everything ends on time).
//
//	task  arrives  exec m0  exec m1  exec m2
//	T0       0        6        5        7
//	T1       0        3        2        9
//	T2       1        4        3        5
//	T3       2        2        4        1
//
// FCFS (first idle machine, in index order): T0 → m0 (0–6). T1: m0 now holds T0 → m1 (0–2).
// Event 1: T2: m0 and m1 busy, m2 idle → m2 (1–6). Event 2: T1 done, m1 idle → T3 → m1 (2–6).
//
// OLB (machine free first): T0: all free at 0 → m0. T1: m0 free at 6, m1 and m2 at 0 → m1.
// Event 1: m0 6, m1 2, m2 1 (idle) → m2. Event 2: m0 6, m1 2 (idle), m2 6 → m1. The same as
// FCFS: an idle machine is free now, before any busy one.
//
// RR (machine i mod 3): T0 → m0 (0–6), T1 → m1 (0–2), T2 → m2 (1–6), T3 → m0 behind T0 (6–8).
//
// MET (smallest mean execution time, queues ignored): T0 → m1 (5), T1 → m1 (2), T2 → m1 (3), T3
// → m2 (1). On m1: T0 0–5, T1 5–7, T2 7–10; T3 on m2 2–3.
//
// MCT (min expected completion): T0: 6, 5, 7 → m1 (0–5). T1: m0 3, m1 5 + 2 = 7, m2 9 → m0
// (0–3). Event 1: T2: m0 3 + 4 = 7, m1 5 + 3 = 8, m2 1 + 5 = 6 → m2 (1–6). Event 2: T3: m0 3 +
// 2 = 5, m1 5 + 4 = 9, m2 6 + 1 = 7 → m0 (3–5).
//
// KPB (K = 50%: the ⌈1.5⌉ = 2 machines with the smallest mean execution time, then MCT among
// them): T0: m1 (5), m0 (6) → completions 5, 6 → m1 (0–5). T1: m1 (2), m0 (3) → m1 7, m0 3 → m0
// (0–3). T2: m1 (3), m0 (4) → m0 3 + 4 = 7, m1 5 + 3 = 8 → m0 (3–7): MCT's choice m2 (6) is not
// among its 2 best machines. T3: m2 (1), m0 (2) → m2 2 + 1 = 3, m0 7 + 2 = 9 → m2 (2–3).
//
// MR (max success chance among the same 2 machines): every chance is 1 (deadlines 30), so every
// choice falls to MR's tie rule, the smaller expected completion, and MR repeats KPB.
func TestHandWorkedImmediate(t *testing.T) {
	s := scenario{
		pet: replaytest.Grid{
			{one(6), one(5), one(7)},
			{one(3), one(2), one(9)},
			{one(4), one(3), one(5)},
			{one(2), one(4), one(1)},
		},
		tasks: []replay.Task{task(0, 0, 30), task(1, 0, 30), task(2, 1, 30), task(3, 2, 30)},
		model: pmf.None,
	}
	const on = replay.OnTime
	firstFree := []want{{0, 0, 6, on}, {1, 0, 2, on}, {2, 1, 6, on}, {1, 2, 6, on}}
	kpb := []want{{1, 0, 5, on}, {0, 0, 3, on}, {0, 3, 7, on}, {2, 2, 3, on}}
	cases := []struct {
		name  string
		wants []want
	}{
		{"FCFS", firstFree},
		{"OLB", firstFree},
		{"RR", []want{{0, 0, 6, on}, {1, 0, 2, on}, {2, 1, 6, on}, {0, 6, 8, on}}},
		{"MET", []want{{1, 0, 5, on}, {1, 5, 7, on}, {1, 7, 10, on}, {2, 2, 3, on}}},
		{"MCT", []want{{1, 0, 5, on}, {0, 0, 3, on}, {2, 1, 6, on}, {0, 3, 5, on}}},
		{"KPB", kpb},
		{"MR", kpb},
	}
	for _, c := range cases {
		s.expect(t, c.name, lookup(t, c.name, DefaultParams()), c.wants)
	}
}

// TestHandWorkedMaxRobust: MR against KPB and MCT when the fastest machine on average is a gamble.
// Three machines, unbounded queues, both tasks arrive at 0.
//
//	task  exec m0               exec m1  exec m2  deadline
//	X     1 (p .6) or 9 (p .4)     5       20         6     (takes 9 on m0 in this world)
//	Y     3                        2        1       100
//
// X's means are 4.2, 5, 20, so its 2 best machines are m0 and m1. KPB and MCT take the smaller
// expected completion, m0 (4.2 < 5): X runs 0–9 and is late. MR takes the larger success
// chance: m0 P(≤ 6) = .6, m1 P(5 ≤ 6) = 1 → m1, 0–5, on time.
// Y's 2 best machines are m2 (1) and m1 (2). KPB: m2 completes at 1, m1 at 2 → m2 (0–1). MR: the
// chance is 1 on both; the tie goes to the smaller expected completion, m2 at 1 against m1 at
// 5 + 2 = 7 → m2 (0–1).
func TestHandWorkedMaxRobust(t *testing.T) {
	s := scenario{
		pet:   replaytest.Grid{{at(1, 0.6, 9, 0.4), one(5), one(20)}, {one(3), one(2), one(1)}},
		tasks: []replay.Task{task(0, 0, 6), task(1, 0, 100)},
		model: pmf.None,
	}
	s.tasks[0].Observed = []float64{9, 5, 20}
	const on, late = replay.OnTime, replay.Late
	gamble := []want{{0, 0, 9, late}, {2, 0, 1, on}}
	s.expect(t, "KPB", lookup(t, "KPB", DefaultParams()), gamble)
	s.expect(t, "MCT", lookup(t, "MCT", DefaultParams()), gamble)
	s.expect(t, "MR", lookup(t, "MR", DefaultParams()), []want{{1, 0, 5, on}, {2, 0, 1, on}})
}

// TestHandWorkedMaxRobustHopeless: a task no machine can finish in time still goes, by MR's
// tie rule, to the machine with the smaller expected completion. MR over every machine, drop
// model none; X takes 2 on m0 and 5 on m1 and is due at 1: its chance is 0 on both, a tie, which
// goes to m0 (completion 2 against 5): X runs 0–2, late. A rule that started the tie-break from a
// machine of its own, not from the first machine asked, would keep that machine.
func TestHandWorkedMaxRobustHopeless(t *testing.T) {
	s := scenario{
		pet:   replaytest.Grid{{one(2), one(5)}},
		tasks: []replay.Task{task(0, 0, 1)},
		model: pmf.None,
	}
	all := DefaultParams()
	all.KPBPercent = 100
	s.expect(t, "MR 100%", lookup(t, "MR", all), []want{{0, 0, 2, replay.Late}})
}

// TestHandWorkedSufferage: the machine goes to the task that would suffer most without it. Two
// machines, queue size 1, all arrive at 0, deadlines 20 (all on time).
//
//	task  exec m0  exec m1   best   second   sufferage
//	P        5        3       m1 3    5         2
//	Q        9        4       m1 4    9         5
//	R        1        6       m0 1    6         5
//
// Sufferage (per machine): m1 goes to Q (5 > 2), m0 to R. Event 1: R done; P (m1 is full) → m0,
// 1–6. Everything is done by 6.
//
// MM: m1 goes to the smaller completion, P (3 < 4); m0 to R. Event 1: Q → m0, 1–10: Q, which
// loses 5 away from m1, waits for the slow machine.
//
// Sufferage with GlobalPhase2: Q and R tie at 5; the smaller completion, R (1), goes first → m0.
// Phase 1 again with only m1 free: P and Q have one machine each, sufferage +Inf, tie → the
// smaller completion, P (3) → m1. Event 1: Q → m0, 1–10: the same schedule as MM.
func TestHandWorkedSufferage(t *testing.T) {
	s := scenario{
		pet:   replaytest.Grid{{one(5), one(3)}, {one(9), one(4)}, {one(1), one(6)}},
		tasks: []replay.Task{task(0, 0, 20), task(1, 0, 20), task(2, 0, 20)},
		model: pmf.None,
		queue: 1,
	}
	const on = replay.OnTime
	mm := []want{{1, 0, 3, on}, {0, 1, 10, on}, {0, 0, 1, on}}
	g := DefaultParams()
	g.GlobalPhase2 = true
	s.expect(t, "Sufferage", Sufferage{Params: DefaultParams()}, []want{{0, 1, 6, on}, {1, 0, 4, on}, {0, 0, 1, on}})
	s.expect(t, "MM", MM{Params: DefaultParams()}, mm)
	s.expect(t, "Sufferage GlobalPhase2", Sufferage{Params: g}, mm)
}

// TestHandWorkedMMUHopelessLast: under drop model evict, MMU ranks a nearly hopeless task last
// (Gentry 2018 thesis §3.3.1.3: tasks expected to be late rank last). Two machines, queue size
// 1, all arrive at 0; T0's actual duration is 10 on m0 (observed), so it is killed at its
// deadline wherever it runs.
//
//	task  exec m0                 exec m1  deadline
//	T0    2 (p 0.1), 10 (p 0.9)     20         3      (nearly hopeless)
//	T1    2                          4        10
//	T2    3                          5        12
//
// Event 0, round 1. Phase 1 (MM's minimum expected completion, kills included): T0 on m0 frees
// the machine at 2 with p 0.1 and at its kill at 3 with p 0.9, E[C] = 0.2 + 2.7 = 2.9; on m1 at
// its kill, 3 → m0. T1 → m0 (2 < 4), T2 → m0 (3 < 5). Urgency from the completion of each task's
// own run, E[start] + E[exec]: T0 0 + (0.2 + 9) = 9.2, slack 3 − 9.2 < 0, ranks last; T1 2,
// 1/8; T2 3, 1/9 → T1 → m0 (0–2). (Urgency from the machine's free time E[C] would give T0
// 1/(3 − 2.9) = 10 and map it first, to be killed at 3.) Round 2, only m1 free: T0 runs to 20,
// slack −17; T2 5, 1/7 → T2 → m1 (0–5). Event 2: T1 done; T0 → m0, the only free machine,
// 2–3, killed at its deadline.
func TestHandWorkedMMUHopelessLast(t *testing.T) {
	hopeless := task(0, 0, 3)
	hopeless.Observed = []float64{10, 20}
	s := scenario{
		pet:   replaytest.Grid{{at(2, 0.1, 10, 0.9), one(20)}, {one(2), one(4)}, {one(3), one(5)}},
		tasks: []replay.Task{hopeless, task(1, 0, 10), task(2, 0, 12)},
		model: pmf.Evict,
		queue: 1,
	}
	s.expect(t, "MMU", lookup(t, "MMU", DefaultParams()),
		[]want{{0, 2, 3, replay.DroppedDeadline}, {0, 0, 2, replay.OnTime}, {1, 0, 5, replay.OnTime}})
}
