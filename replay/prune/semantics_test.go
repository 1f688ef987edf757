package prune

import (
	"maps"
	"math"
	"slices"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
)

// outcome is what the hand-worked tests below expect of a task: its machine (-1: never mapped),
// start (NaN then), end and status.
type outcome struct {
	machine    int
	start, end float64
	status     replay.Status
}

// replayed runs tasks on one machine per PET column (machine j of type j), trim 0, and returns
// the outcomes in task order.
func replayed(t *testing.T, pet replaytest.Grid, tasks []replay.Task, opt replay.Options, m replay.Mapper) []outcome {
	t.Helper()
	ms := make([]replay.Machine, len(pet[0]))
	for j := range ms {
		ms[j].Type = j
	}
	opt.Trim = 0
	res, err := replay.Run(t.Context(), replay.Config{PET: pet, Machines: ms, Tasks: tasks, Options: opt}, m)
	if err != nil {
		t.Fatal(err)
	}
	out := slices.Clone(res.Outcomes)
	slices.SortFunc(out, func(a, b replay.Outcome) int { return int(a.Task.ID - b.Task.ID) })
	var got []outcome
	for _, o := range out {
		got = append(got, outcome{o.Machine, o.Start, o.End, o.Status})
	}
	return got
}

func sameOutcomes(a, b []outcome) bool {
	return slices.EqualFunc(a, b, func(x, y outcome) bool {
		return x.machine == y.machine && x.end == y.end && x.status == y.status &&
			(x.start == y.start || math.IsNaN(x.start) && math.IsNaN(y.start))
	})
}

// TestHandWorkedDeferAt: MM-D, deferring at a static 0.5, before and after MM's choice (thesis
// §4.5). Two machines, queue size 1, drop model none, impulse execution times, all tasks arrive
// at 0:
//
//	task  exec m0  exec m1  deadline
//	T0       2        9        1      (hopeless everywhere: chance 0)
//	T1       4        6        7
//	T2       5        7        8
//
// Before: T0's best chance over the free machines is 0 ≤ 0.5, so it is deferred before MM sees
// the batch. MM on {T1, T2}, round 1: both complete first on m0 (4, 5) → m0 takes T1 (0–4, on
// time). Round 2, m1: T2 completes at 7 ≤ 8 → T2 → m1 (0–7, on time). Event 4: T0 expires
// (4 ≥ 1).
//
// After (the thesis's pairs): MM on {T0, T1, T2}, round 1: all complete first on m0 (2, 4, 5) →
// m0 takes T0. Round 2, m1: T1 at 6, T2 at 7 → T1. MM's pairs are T0 → m0, T1 → m1; then T0's
// chance on m0 is 0 ≤ 0.5, so it is deferred and m0 stays idle; T1 runs on m1 0–6, on time.
// Event 6: T0 expires (6 ≥ 1). T2 completes at 6 + 5 = 11 on m0, 13 on m1, both past 8: MM
// pairs it with m0, chance 0, deferred. No event is left: T2 expires at its deadline, 8.
func TestHandWorkedDeferAt(t *testing.T) {
	pet := replaytest.Grid{
		{pmf.Impulse(2, 1), pmf.Impulse(9, 1)},
		{pmf.Impulse(4, 1), pmf.Impulse(6, 1)},
		{pmf.Impulse(5, 1), pmf.Impulse(7, 1)},
	}
	tasks := []replay.Task{
		{ID: 0, Type: 0, Deadline: 1},
		{ID: 1, Type: 1, Deadline: 7},
		{ID: 2, Type: 2, Deadline: 8},
	}
	opt := replay.DefaultOptions()
	opt.QueueSize, opt.DropModel = 1, pmf.None
	nan := math.NaN()
	want := map[DeferPlace][]outcome{
		DeferBefore: {{-1, nan, 4, replay.ExpiredUnmapped}, {0, 0, 4, replay.OnTime}, {1, 0, 7, replay.OnTime}},
		DeferAfter:  {{-1, nan, 6, replay.ExpiredUnmapped}, {1, 0, 6, replay.OnTime}, {-1, nan, 8, replay.ExpiredUnmapped}},
	}
	for at, n := range deferAtOutcomes(t, pet, tasks, opt, want) {
		if n == 0 {
			t.Errorf("--defer-at %v: no deferral reported to the observer", at)
		}
	}
}

// deferAtOutcomes replays tasks through MM-D, deferring at a static 0.5, at each placement of
// want, with and without an observer (the tracing path computes exact chances), checks the
// outcomes against want's, and returns the deferrals each placement reported to the observer.
func deferAtOutcomes(t *testing.T, pet replaytest.Grid, tasks []replay.Task, opt replay.Options, want map[DeferPlace][]outcome) map[DeferPlace]int {
	t.Helper()
	deferrals := map[DeferPlace]int{}
	for at, w := range want {
		for _, observed := range []bool{false, true} {
			cfg := DefaultConfig()
			cfg.Variant, cfg.Defer, cfg.DeferAt = Defer, DeferRule{Kind: "static", Value: 0.5}, at
			m, err := Wrap(heuristic.MM{}, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if observed {
				m.(*Pruner).Observe(func(d Decision) {
					if d.Kind == "defer" {
						deferrals[at]++
					}
				})
			}
			if got := replayed(t, pet, tasks, opt, m); !sameOutcomes(got, w) {
				t.Errorf("--defer-at %v (observed %v): %v, want %v", at, observed, got, w)
			}
		}
	}
	return deferrals
}

// TestHandWorkedDeferAfterRejudge: MM-D, deferring at a static 0.5, after MM's choice, each pair
// judged as MM chose it (after) or in the queue it joins once the earlier deferrals are taken
// back (after-rejudge). One machine, queue size 3, drop model none, impulse execution times, all
// tasks arrive at 0:
//
//	task  exec  deadline
//	T0     2       1      (hopeless: chance 0)
//	T1     3       4
//	T2     4       6
//
// MM's pairs at 0, in its order: round 1, completions 2, 3, 4 → T0 (ends 2, chance 0); round 2,
// behind T0: T1 at 5, T2 at 6 → T1 (5 > 4: chance 0); round 3, behind T1: T2 at 9 (> 6: chance 0).
//
// After: all three pairs were chosen at chance 0, so all are deferred and the machine stays idle;
// no task arrives or ends again, so each expires at its deadline: 1, 4, 6.
//
// After-rejudge: T0 (chance 0) is deferred; T1 joins an empty queue: ends at 3 ≤ 4, chance 1,
// assigned; T2 joins behind T1 alone: ends at 7 > 6, chance 0, deferred. T1 runs 0–3, on time.
// Event 3: T0 expires (3 ≥ 1); MM pairs T2 with the idle machine, 3 + 4 = 7 > 6: chance 0,
// deferred. No event is left: T2 expires at its deadline, 6.
func TestHandWorkedDeferAfterRejudge(t *testing.T) {
	pet := replaytest.Grid{{pmf.Impulse(2, 1)}, {pmf.Impulse(3, 1)}, {pmf.Impulse(4, 1)}}
	tasks := []replay.Task{
		{ID: 0, Type: 0, Deadline: 1},
		{ID: 1, Type: 1, Deadline: 4},
		{ID: 2, Type: 2, Deadline: 6},
	}
	opt := replay.DefaultOptions()
	opt.QueueSize, opt.DropModel = 3, pmf.None
	nan := math.NaN()
	want := map[DeferPlace][]outcome{
		DeferAfter:        {{-1, nan, 1, replay.ExpiredUnmapped}, {-1, nan, 4, replay.ExpiredUnmapped}, {-1, nan, 6, replay.ExpiredUnmapped}},
		DeferAfterRejudge: {{-1, nan, 3, replay.ExpiredUnmapped}, {0, 0, 3, replay.OnTime}, {-1, nan, 6, replay.ExpiredUnmapped}},
	}
	// After: the three at 0. After-rejudge: T0 and T2 at 0, T2 again at 3.
	wantDeferrals := map[DeferPlace]int{DeferAfter: 3, DeferAfterRejudge: 3}
	if got := deferAtOutcomes(t, pet, tasks, opt, want); !maps.Equal(got, wantDeferrals) {
		t.Errorf("deferrals reported to the observer: %v, want %v", got, wantDeferrals)
	}
}

// TestHandWorkedRejudgeAtThreshold: under after-rejudge, a pair judged again whose new chance
// equals the threshold is deferred, as a chance at the threshold is everywhere (thesis §4.5:
// deferred at or below). MM-D, static 0.5, one machine, queue size 3, drop model none, both
// tasks arrive at 0:
//
//	task  exec                 deadline
//	T0    4                    1        (hopeless: chance 0)
//	T1    2 (p .5) or 10       5        (in this world 2)
//
// MM's pairs at 0: round 1, expected completions 4 and 6 → T0 (chance 0); round 2, behind T0:
// T1 ends at 6 or 14, past 5 → chance 0. Both are low as chosen, so after defers both. After-
// rejudge takes T0 back, and T1, on the machine T0 left, is judged again alone in its queue:
// P(X ≤ 5) = .5, at the threshold, so it is deferred too. No event follows: T0 expires at 1,
// T1 at 5. Keeping a rejudged chance equal to the threshold would run T1 0–2, on time.
func TestHandWorkedRejudgeAtThreshold(t *testing.T) {
	pet := replaytest.Grid{{pmf.Impulse(4, 1)}, {mustPMF(t, 2, 0.5, 10, 0.5)}}
	tasks := []replay.Task{
		{ID: 0, Type: 0, Deadline: 1},
		{ID: 1, Type: 1, Deadline: 5, Observed: []float64{2}},
	}
	opt := replay.DefaultOptions()
	opt.QueueSize, opt.DropModel = 3, pmf.None
	nan := math.NaN()
	expired := []outcome{{-1, nan, 1, replay.ExpiredUnmapped}, {-1, nan, 5, replay.ExpiredUnmapped}}
	want := map[DeferPlace][]outcome{DeferAfter: expired, DeferAfterRejudge: expired}
	wantDeferrals := map[DeferPlace]int{DeferAfter: 2, DeferAfterRejudge: 2}
	if got := deferAtOutcomes(t, pet, tasks, opt, want); !maps.Equal(got, wantDeferrals) {
		t.Errorf("deferrals reported to the observer: %v, want %v", got, wantDeferrals)
	}
}

// TestHandWorkedDropRunning: under drop model pending, the pruner drops a running task only with
// --drop-running always. One machine, queue size 2, MM-Drop with dropping always engaged at
// θ = 0.5. T0 (deadline 10) has the model execution time 4 (0.6) or 20 (0.4) and actually takes
// 20; T1 (arrives at 5, deadline 100) takes 1.
//
// Event 0: T0 → m0, chance 0.6. Event 5: T0 has run 5 > 4, so conditioned on its elapsed time it
// ends at 20: chance 0 ≤ 0.5. With always it is dropped at 5 and T1 runs 5–6. By default
// (evict: only under the evict model) it runs on, late at 20 (pending does not kill a running
// task), and T1 runs 20–21.
func TestHandWorkedDropRunning(t *testing.T) {
	pet := replaytest.Grid{{mustPMF(t, 4, 0.6, 20, 0.4)}, {pmf.Impulse(1, 1)}}
	tasks := []replay.Task{
		{ID: 0, Type: 0, Deadline: 10, Observed: []float64{20}},
		{ID: 1, Type: 1, Arrival: 5, Deadline: 100},
	}
	opt := replay.DefaultOptions()
	opt.QueueSize, opt.DropModel = 2, pmf.Pending
	want := map[RunningDrop][]outcome{
		RunningEvict:  {{0, 0, 20, replay.Late}, {0, 20, 21, replay.OnTime}},
		RunningNever:  {{0, 0, 20, replay.Late}, {0, 20, 21, replay.OnTime}},
		RunningAlways: {{0, 0, 5, replay.DroppedPruned}, {0, 5, 6, replay.OnTime}},
	}
	for _, r := range []RunningDrop{RunningEvict, RunningAlways, RunningNever} {
		cfg := DefaultConfig()
		cfg.Variant, cfg.Toggle, cfg.DropRunning = Drop, Toggle{Kind: "always"}, r
		m, err := Wrap(heuristic.MM{}, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if got := replayed(t, pet, tasks, opt, m); !sameOutcomes(got, want[r]) {
			t.Errorf("--drop-running %v: %v, want %v", r, got, want[r])
		}
	}
}

// mustPMF is a PMF on the unit grid with the given mass at each time.
func mustPMF(t *testing.T, timeProb ...float64) pmf.PMF {
	t.Helper()
	lo := timeProb[0]
	w := make([]float64, int(timeProb[len(timeProb)-2]-lo)+1)
	for i := 0; i < len(timeProb); i += 2 {
		w[int(timeProb[i]-lo)] = timeProb[i+1]
	}
	d, _, err := pmf.FromWeights(lo, 1, w)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestParseSemantics: the flags' values, and the dynamic rule's start.
func TestParseSemantics(t *testing.T) {
	if d, err := ParseDeferPlace("Before"); err != nil || d != DeferBefore {
		t.Errorf("before: %v %v", d, err)
	}
	if d, err := ParseDeferPlace("after-rejudge"); err != nil || d != DeferAfterRejudge || d.String() != "after-rejudge" {
		t.Errorf("after-rejudge: %v %v", d, err)
	}
	if r, err := ParseRunningDrop("always"); err != nil || r != RunningAlways {
		t.Errorf("always: %v %v", r, err)
	}
	for _, bad := range []string{"", "during"} {
		if _, err := ParseDeferPlace(bad); err == nil {
			t.Errorf("ParseDeferPlace(%q): no error", bad)
		}
		if _, err := ParseRunningDrop(bad); err == nil {
			t.Errorf("ParseRunningDrop(%q): no error", bad)
		}
	}
	d, err := ParseDeferRule("dynamic:0.05:0.6")
	if err != nil || d != (DeferRule{Kind: "dynamic", Value: 0.05, Start: 0.6}) || d.String() != "dynamic:0.05:0.6" {
		t.Errorf("dynamic:0.05:0.6: %+v %v", d, err)
	}
	// The edges of the documented ranges are inside them: numbers in [0, 1], START in (0, 1]; and
	// String writes what ParseDeferRule reads back, a dynamic rule without START (0) included.
	for _, good := range []DeferRule{{Kind: "dynamic", Value: 0.05, Start: 1}, {Kind: "static", Value: 0}, {Kind: "gap", Value: 1}, {Kind: "dynamic", Value: 0.05}} {
		if d, err := ParseDeferRule(good.String()); err != nil || d != good {
			t.Errorf("ParseDeferRule(%q) = %+v, %v; want %+v", good.String(), d, err, good)
		}
	}
	p := newPruner(t, Config{Variant: Defer, Toggle: Toggle{Kind: "never"}, Lambda: 1, DropThreshold: 0.5, Defer: d})
	if p.deferAt != 0.6 {
		t.Errorf("dynamic threshold starts at %v, want 0.6", p.deferAt)
	}
	for _, bad := range []string{"dynamic:0.05:0", "dynamic:0.05:1.5", "static:0.5:0.6", "gap:0.1:0.2"} {
		if _, err := ParseDeferRule(bad); err == nil {
			t.Errorf("ParseDeferRule(%q): no error", bad)
		}
	}
}
