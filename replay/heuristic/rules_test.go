package heuristic

import (
	"fmt"
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

// TestHandWorkedBatchTiesToArrival: when two tasks are alike in every respect a batch
// heuristic ranks by, the earlier arrival goes first (SPEC §5.1). Two machines, queue size 1,
// drop model none, both arrive at 0, deadline 20.
//
//	task  exec m0  exec m1
//	A        5       50
//	B        5       50
//
// Every heuristic pairs both with m0 (completion 5 against 50; chance 1 against 0) and finds
// them tied: completion, deadline, urgency 1/15, sufferage 45, chance, execution time. A goes
// first on m0 (0–5). Round 2, only m1 free: B's one choice is m1. MM, SJF, MSD, EDF, MMU,
// MaxMin, Sufferage and PAM (no pruner) put it there, 0–50, late. MOC culls it (chance 0 on
// m1 ≤ .30), and at 5 puts it on m0, 5–10, on time; MOC's tie between the orderings A, B and
// B, A (2 on-time completions each) goes to the first, A, B.
//
// Ties broken towards the later arrival put B on m0 at 0 and A after it.
func TestHandWorkedBatchTiesToArrival(t *testing.T) {
	s := scenario{
		pet:   replaytest.Grid{{one(5), one(50)}, {one(5), one(50)}},
		tasks: []replay.Task{task(0, 0, 20), task(1, 0, 20)},
		model: pmf.None,
		queue: 1,
	}
	const on, late = replay.OnTime, replay.Late
	for _, name := range []string{"MM", "SJF", "MSD", "EDF", "MMU", "MaxMin", "Sufferage", "PAM"} {
		s.expect(t, name, lookup(t, name, DefaultParams()), []want{{0, 0, 5, on}, {1, 0, 50, late}})
	}
	s.expect(t, "MOC", lookup(t, "MOC", DefaultParams()), []want{{0, 0, 5, on}, {0, 5, 10, on}})
}

// TestHandWorkedSecondaryTies: the documented second criterion of MSD and EDF (smaller
// expected completion among equal deadlines), MMU (smaller completion among equal urgencies)
// and Sufferage (smaller completion among equal sufferages). In each scenario the first
// criterion ties, and arrival order would pick A where the second picks B. Two machines, queue
// size 1, drop model none, both arrive at 0; every task completes first on m0.
//
//	scenario  task  exec m0  exec m1  deadline  first criterion on m0
//	deadline   A       4       50        10     δ 10
//	           B       2       50        10     δ 10
//	urgency    A       4       50        10     1/(10 − 4) = 1/6
//	           B       2       50         8     1/(8 − 2) = 1/6
//	sufferage  A       4       50       100     50 − 4 = 46
//	           B       2       48       100     48 − 2 = 46
//
// m0 takes B (2 < 4), 0–2. Round 2, only m1 free: A's only choice, 0–50 (late under the first
// two scenarios, whose deadline is 10). Dropping or reversing the second criterion puts A on
// m0 at 0 and B on m1.
func TestHandWorkedSecondaryTies(t *testing.T) {
	const on, late = replay.OnTime, replay.Late
	cases := []struct {
		heuristics []string
		pet        replaytest.Grid
		tasks      []replay.Task
		a          want
	}{
		{[]string{"MSD", "EDF"}, replaytest.Grid{{one(4), one(50)}, {one(2), one(50)}},
			[]replay.Task{task(0, 0, 10), task(1, 0, 10)}, want{1, 0, 50, late}},
		{[]string{"MMU"}, replaytest.Grid{{one(4), one(50)}, {one(2), one(50)}},
			[]replay.Task{task(0, 0, 10), task(1, 0, 8)}, want{1, 0, 50, late}},
		{[]string{"Sufferage"}, replaytest.Grid{{one(4), one(50)}, {one(2), one(48)}},
			[]replay.Task{task(0, 0, 100), task(1, 0, 100)}, want{1, 0, 50, on}},
	}
	for _, c := range cases {
		s := scenario{pet: c.pet, tasks: c.tasks, model: pmf.None, queue: 1}
		for _, name := range c.heuristics {
			s.expect(t, name, lookup(t, name, DefaultParams()), []want{c.a, {0, 0, 2, on}})
		}
	}
}

// TestHandWorkedImmediateTies: the immediate heuristics' tie to the lower machine index, FCFS's
// fallback to the machine free first, and KPB's and MR's K percent of two machines (⌈50·2/100⌉
// = 1: the fastest alone). Two machines, unbounded queues, drop model none, all arrive at 0 in
// this order, deadline 100 (everything is on time).
//
//	task  exec m0  exec m1
//	T        5        5
//	U        5        2
//	W        1        1
//	X        3        3
//	Y        1        1
//
// T: every machine ties (execution 5 and 5, completion 5 and 5, free at 0 and 0) → m0, 0–5.
// U: MET, KPB and MR take the fastest, m1 (2); MCT m0 5 + 5 = 10 against m1 2 → m1; OLB and
// FCFS the idle m1; RR the second machine, m1. U runs 0–2 on m1 under all.
//
// MET, KPB and MR: W, X and Y tie on execution time (and for KPB and MR the one fastest
// machine is the tied lower index; with both machines KPB would be MCT) → m0, behind T: W 5–6,
// X 6–9, Y 9–10.
//
// MCT: W m0 5 + 1 = 6, m1 2 + 1 = 3 → m1, 2–3. X m0 8, m1 6 → m1, 3–6. Y m0 6, m1 7 → m0, 5–6.
// OLB: the machine free first: W m0 5, m1 2 → m1; X m0 5, m1 3 → m1; Y m0 5, m1 6 → m0: the
// same schedule. FCFS: no machine is idle after U, so each of W, X and Y goes to the machine
// free first: the same again.
//
// RR: machines 0, 1, 0, 1, 0: W m0 5–6, X m1 2–5, Y m0 6–7.
//
// With K = 100%, KPB is MCT, and MR (every chance 1) falls to its ties, the smaller completion
// and then, for T, the lower index: MCT's schedule too.
func TestHandWorkedImmediateTies(t *testing.T) {
	s := scenario{
		pet:   replaytest.Grid{{one(5), one(5)}, {one(5), one(2)}, {one(1), one(1)}, {one(3), one(3)}, {one(1), one(1)}},
		tasks: []replay.Task{task(0, 0, 100), task(1, 0, 100), task(2, 0, 100), task(3, 0, 100), task(4, 0, 100)},
		model: pmf.None,
	}
	const on = replay.OnTime
	fastest := []want{{0, 0, 5, on}, {1, 0, 2, on}, {0, 5, 6, on}, {0, 6, 9, on}, {0, 9, 10, on}}
	soonest := []want{{0, 0, 5, on}, {1, 0, 2, on}, {1, 2, 3, on}, {1, 3, 6, on}, {0, 5, 6, on}}
	for _, c := range []struct {
		name  string
		wants []want
	}{{"MET", fastest}, {"KPB", fastest}, {"MR", fastest}, {"MCT", soonest}, {"OLB", soonest}, {"FCFS", soonest},
		{"RR", []want{{0, 0, 5, on}, {1, 0, 2, on}, {0, 5, 6, on}, {1, 2, 5, on}, {0, 6, 7, on}}}} {
		s.expect(t, c.name, lookup(t, c.name, DefaultParams()), c.wants)
	}
	all := DefaultParams()
	all.KPBPercent = 100 // every machine: KPB is MCT
	s.expect(t, "KPB 100%", lookup(t, "KPB", all), soonest)
	// MR over every machine: every chance is 1, so MR's ties go to the smaller completion and
	// then, for T (5 and 5), to the lower index: MCT's schedule.
	s.expect(t, "MR 100%", lookup(t, "MR", all), soonest)
}

// TestPercentOf: ⌈K·M/100⌉ machines, at least one, at most M, worked by hand; K·M/100 that is
// a whole number up to rounding (33.3…% of 3) is that number, not one more.
func TestPercentOf(t *testing.T) {
	for _, c := range []struct {
		k       float64
		n, want int
	}{
		{50, 3, 2}, {50, 2, 1}, {50, 4, 2}, {0, 3, 1}, {1, 3, 1}, {100, 3, 3}, {34, 3, 2}, {100.0 / 3, 3, 1}, {200.0 / 3, 3, 2}, {75, 8, 6},
	} {
		if got := percentOf(c.k, c.n); got != c.want {
			t.Errorf("%v%% of %d machines: %d, want %d", c.k, c.n, got, c.want)
		}
	}
}

// TestHandWorkedMOCRules: MOC's cull (a chance strictly above Params.MOCCull), its candidates
// (the Params.MOCCandidates highest chances), and its orderings. Two machines (m1 takes 50
// for every task: chance 0), queue size 3, drop model none, all arrive at 0.
//
// Cull at its boundary, cull .25: D takes 1 (p .25) or 9 (p .75) on m0, deadline 2; its best
// chance is P(≤ 2) = .25 on m0, not above .25: culled, never mapped, and it expires at its
// deadline 2. With the cull at .20 it is a candidate, alone, and runs 0–1 (this world's
// duration), on time.
//
// Orderings, B (1 on m0, δ 10) arriving before A (4 on m0, δ 4): both have chance 1 on m0, and
// candidates in arrival order are B, A. Ordering B, A: B at 1 (p 1), A at 5 > 4 (p 0, doomed):
// 1·(2 − 1) = 1. A, B: A at 4, B at 5, both on time: 2. So A goes first (0–4) and B follows
// (4–5). With one candidate, B alone is scored and goes first (0–1); A after it would end at 5
// > 4, chance 0, culled at every event; it expires at 4.
//
// Candidates by chance, one candidate: E (1 p .75 or 9 p .25 on m0, δ 2, takes 1) arrives
// before F (1 on m0, δ 100). E's chance .75, F's 1: F is the top candidate and goes first
// (0–1); round 2: E behind F completes at 2 (p .75) or 10 → .75 > .30 → E, 1–2, on time.
func TestHandWorkedMOCRules(t *testing.T) {
	const on = replay.OnTime
	gamble := at(1, 0.25, 9, 0.75)
	cull := scenario{pet: replaytest.Grid{{gamble, one(50)}}, tasks: []replay.Task{task(0, 0, 2)}, model: pmf.None, queue: 3}
	cull.tasks[0].Observed = []float64{1, 50}
	p := DefaultParams()
	p.MOCCull = 0.25
	cull.expect(t, "MOC cull .25", MOC{Params: p}, []want{unmapped(2, replay.ExpiredUnmapped)})
	p.MOCCull = 0.20
	cull.expect(t, "MOC cull .20", MOC{Params: p}, []want{{0, 0, 1, on}})

	order := scenario{pet: replaytest.Grid{{one(1), one(50)}, {one(4), one(50)}},
		tasks: []replay.Task{task(0, 0, 10), task(1, 0, 4)}, model: pmf.None, queue: 3}
	order.expect(t, "MOC", MOC{Params: DefaultParams()}, []want{{0, 4, 5, on}, {0, 0, 4, on}})
	p = DefaultParams()
	p.MOCCandidates = 1
	order.expect(t, "MOC one candidate", MOC{Params: p}, []want{{0, 0, 1, on}, unmapped(4, replay.ExpiredUnmapped)})

	byChance := scenario{pet: replaytest.Grid{{at(1, 0.75, 9, 0.25), one(50)}, {one(1), one(50)}},
		tasks: []replay.Task{task(0, 0, 2), task(1, 0, 100)}, model: pmf.None, queue: 3}
	byChance.tasks[0].Observed = []float64{1, 50}
	byChance.expect(t, "MOC one candidate", MOC{Params: p}, []want{{0, 1, 2, on}, {0, 0, 1, on}})
}

// TestHandWorkedTieAtLargeTimes: MM's tie between two tasks expected to complete at the same
// time goes to the earlier arrival also where times are large (10⁶), where soonest compares
// completions with a slack that grows with their magnitude (completionSlack: 10⁻⁶ + 10⁻¹¹·|c|,
// 2·10⁻⁵ here). One machine, queue size 1, drop model none; A (δ 3·10⁶) arrives before B
// (δ 2·10⁶), both take 10⁶. Both complete at 10⁶: a tie, which goes to A (0–10⁶); B follows,
// 10⁶–2·10⁶, on time (at its deadline). A slack that shrank with magnitude (10⁻⁶ − 10⁻¹¹·|c|
// is negative here) would pass A's type over as clearly later than B's and run B first.
func TestHandWorkedTieAtLargeTimes(t *testing.T) {
	s := scenario{
		pet:   replaytest.Grid{{one(1e6)}, {one(1e6)}},
		tasks: []replay.Task{task(0, 0, 3e6), task(1, 0, 2e6)},
		model: pmf.None,
		queue: 1,
	}
	const on = replay.OnTime
	for _, name := range []string{"MM", "SJF"} {
		s.expect(t, name, lookup(t, name, DefaultParams()), []want{{0, 0, 1e6, on}, {0, 1e6, 2e6, on}})
	}
}

// TestCondition: D[·] of 004 §IV.B by hand. C = {2: .5, 4: .5}, deadline 4: on time unless
// strict, so D = C (p = 1); strict, only 2 is on time: D = {2: 1} (p = .5). Deadline 3: D =
// {2: 1} either way. Nothing on time (p = 0): not ok. A running head under evict, its killed mass
// split around the deadline: it ends at 1 (¼) or 2 (¼) and is killed at 2.5 (½), which frees the
// machine at 2 (¼) or 3 (¼), so Ready = {1: ¼, 2: ½, 3: ¼} with p = ½; D is its completions,
// {1: ½, 2: ½}, not {1: ⅓, 2: ⅔} with the kill's share at 2 counted as on time. A running head
// certain to be on time, C = {1: .1, 2: .6, 3: .3} wholly before the deadline 3.5 (p = 1): there
// is nothing to condition away, so D is C, to the bit (its weights are C's own, and they sum to
// exactly 1 in float64); giving the last point "p minus the mass before it" instead, as for a head
// whose next point is past the deadline, would make it 1 − (.1 + .6) = 0.30000000000000004.
func TestCondition(t *testing.T) {
	plain, headReady, sure := at(2, 0.5, 4, 0.5), at(1, 0.25, 2, 0.5, 3, 0.25), at(1, 0.1, 2, 0.6, 3, 0.3)
	for _, x := range []struct {
		name         string
		p, due       float64
		strict, head bool
		want         []float64 // D's probabilities from C's origin
		ok           bool
	}{
		{"deadline on the last impulse", 1, 4, false, false, []float64{0.5, 0, 0.5}, true},
		{"strict: the impulse at the deadline is late", 0.5, 4, true, false, []float64{1}, true},
		{"deadline between impulses", 0.5, 3, false, false, []float64{1}, true},
		{"deadline between impulses, strict", 0.5, 3, true, false, []float64{1}, true},
		{"nothing on time", 0, 1, false, false, nil, false},
		{"head, killed mass split around the deadline", 0.5, 2.5, false, true, []float64{0.5, 0.5}, true},
		{"head certain to be on time", 1, 3.5, false, true, []float64{0.1, 0.6, 0.3}, true},
	} {
		var buf pmf.Buffer
		var w []float64
		c := plain
		switch {
		case x.head && x.p == 1:
			c = sure
		case x.head:
			c = headReady
		}
		d, ok := condition(&buf, &w, c, x.p, x.due, x.strict, x.head)
		if ok != x.ok {
			t.Errorf("%s: ok %v, want %v", x.name, ok, x.ok)
			continue
		}
		if !ok {
			continue
		}
		var got []float64
		for k := range d.Len() {
			got = append(got, d.Prob(k))
		}
		if d.Origin() != c.Origin() || fmt.Sprint(got) != fmt.Sprint(x.want) {
			t.Errorf("%s: D from %v = %v, want from %v %v", x.name, d.Origin(), got, c.Origin(), x.want)
		}
	}
}

// TestGridCompare: a time within a billionth of a step of a grid point is on it. Step 10:
// 5·10⁻⁹ off is 5·10⁻¹⁰ steps (equal); 5·10⁻⁸ off is 5·10⁻⁹ steps (before or after).
func TestGridCompare(t *testing.T) {
	for _, c := range []struct {
		t, x, step float64
		want       int
	}{
		{20, 20 + 5e-9, 10, 0}, {20, 20 - 5e-9, 10, 0}, {20, 20 + 5e-8, 10, -1}, {20, 20 - 5e-8, 10, 1}, {3, 3, 1, 0}, {3, 4, 1, -1},
	} {
		if got := gridCompare(c.t, c.x, c.step); got != c.want {
			t.Errorf("gridCompare(%v, %v, %v) = %d, want %d", c.t, c.x, c.step, got, c.want)
		}
	}
}

// TestHandWorkedSoonestPassedOver: MM's phase 1 and 2 when a machine passes over a task that
// prefers another machine (soonestEach), and a type's earliest deadline still bounds its
// completions from below. Drop model evict (a task killed at its deadline completes there, so
// an earlier deadline completes no later), two machines, queue size 1, all arrive at 0.
//
//	task  type  exec m0  exec m1  deadline  completion on m0, m1 at 0
//	P      2       2        1       100      2, 1
//	t0     0      10       10         3      3, 3 (killed at 3)
//	t1     0      10       10       100      10, 10
//	u      1       5        5       100      5, 5
//
// Event 0: on m0 P completes first (2), but P chooses m1 (1 < 2), so m0 passes it over; next on
// m0 is t0 (3), which completes at 3 on m1 as well: the tie goes to m0, so m0 takes t0 (0–3,
// killed at its deadline). m1 takes P (0–1). Event 1: m1 free: u 1 + 5 = 6, t1 1 + 10 = 11 →
// u, 1–6. Event 3: m0 free: t1, 3–13.
//
// Had m0 taken the lead of type 0 without P to be the last of its tasks (t1, 10) rather than
// the one with the earliest deadline (t0, 3), type 0 would look clearly later than u (5): m0
// would take u, and t0 would go to m1 at 1.
func TestHandWorkedSoonestPassedOver(t *testing.T) {
	s := scenario{
		pet: replaytest.Grid{{one(10), one(10)}, {one(5), one(5)}, {one(2), one(1)}},
		tasks: []replay.Task{
			{ID: 0, Type: 2, Deadline: 100}, {ID: 1, Type: 0, Deadline: 3}, {ID: 2, Type: 0, Deadline: 100}, {ID: 3, Type: 1, Deadline: 100},
		},
		model: pmf.Evict,
		queue: 1,
	}
	const on = replay.OnTime
	s.expect(t, "MM", lookup(t, "MM", DefaultParams()), []want{{1, 0, 1, on}, {0, 0, 3, replay.DroppedDeadline}, {0, 3, 13, on}, {1, 1, 6, on}})
}
