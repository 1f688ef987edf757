package prune

import (
	"slices"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
)

// Hand-worked replays that pin each deferring rule and each preset: the derivation in each
// comment, not a run of the code, is the oracle, and each says what a broken rule would give.

// gamble is an execution time of 1 with chance p, else 9 (on the unit grid).
func gamble(t *testing.T, p float64) pmf.PMF {
	t.Helper()
	d, _, err := pmf.FromWeights(1, 1, []float64{p, 0, 0, 0, 0, 0, 0, 0, 1 - p})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// outcomeOf replays cfg through m and returns task id's outcome.
func outcomeOf(t *testing.T, cfg replay.Config, m replay.Mapper, id int64) replay.Outcome {
	t.Helper()
	res, err := replay.Run(t.Context(), cfg, m)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Outcomes {
		if o.Task.ID == id {
			return o
		}
	}
	t.Fatalf("no outcome for task %d", id)
	return replay.Outcome{}
}

// oneGamble is two machines, queue size 1, drop model none, and one task X arriving at 0, due
// 2, that takes 1 with chance p (else 9) on m0 and 50 on m1; in this world it takes 1. Its
// chance is p on m0 and 0 on m1; no event follows the first, so a deferred X expires at 2.
func oneGamble(t *testing.T, p float64) replay.Config {
	opt := replay.DefaultOptions()
	opt.QueueSize, opt.Trim, opt.DropModel = 1, 0, pmf.None
	return replay.Config{
		PET:      replaytest.Grid{{gamble(t, p), pmf.Impulse(50, 1)}},
		Machines: []replay.Machine{{Type: 0}, {Type: 1}},
		Tasks:    []replay.Task{{ID: 0, Type: 0, Arrival: 0, Deadline: 2, Observed: []float64{1, 50}}},
		Options:  opt,
	}
}

// TestHandWorkedDeferRules: MM-D on oneGamble with X's chance .625 (5/8, exact in binary),
// under each deferring rule (000 §5.3; 003 §V-B; 000 Eqs 8–10 as the package doc reads them).
// X is deferred when .625 is at or below the threshold (then it expires at 2), and mapped to
// m0 otherwise (0–1, on time).
//
//	rule                 drop   threshold                               X
//	static .6            .5     .6                                      mapped
//	static .625          .5     .625: at the threshold                  deferred
//	static .625 − 5e-10  .5     just below the chance                   mapped
//	gap .1               .5     .5 + .1 = .6                            mapped
//	gap .1               .55    .55 + .1 = .65 (the gap alone: .1)      deferred
//	gap .15              .5     .65                                     deferred
//	dynamic .2           .5     starts at .5 + .25 = .75; one task, two free slots: ψ = .5 ≤ 1,
//	                            so it moves down by c: .55                mapped
//	dynamic .1           .5     .75 − .1 = .65                          deferred
//	dynamic .3           .63    .88 − .3 = .58, below the dropping threshold: .63   deferred
func TestHandWorkedDeferRules(t *testing.T) {
	cfg := oneGamble(t, 0.625)
	for _, c := range []struct {
		rule     DeferRule
		drop     float64
		deferred bool
	}{
		{DeferRule{Kind: "static", Value: 0.6}, 0.5, false},
		{DeferRule{Kind: "static", Value: 0.625}, 0.5, true},
		{DeferRule{Kind: "static", Value: 0.625 - 5e-10}, 0.5, false}, // a hair below the chance: not at or below it
		{DeferRule{Kind: "gap", Value: 0.1}, 0.5, false},
		{DeferRule{Kind: "gap", Value: 0.1}, 0.55, true},
		{DeferRule{Kind: "gap", Value: 0.15}, 0.5, true},
		{DeferRule{Kind: "dynamic", Value: 0.2}, 0.5, false},
		{DeferRule{Kind: "dynamic", Value: 0.1}, 0.5, true},
		{DeferRule{Kind: "dynamic", Value: 0.3}, 0.63, true},
	} {
		pc := DefaultConfig()
		pc.Variant, pc.Defer, pc.DropThreshold = Defer, c.rule, c.drop
		m, err := Wrap(heuristic.MM{Params: heuristic.DefaultParams()}, pc)
		if err != nil {
			t.Fatal(err)
		}
		o := outcomeOf(t, cfg, m, 0)
		switch {
		case c.deferred && (o.Status != replay.ExpiredUnmapped || o.Deferred != 1 || o.End != 2):
			t.Errorf("%v, drop %v: X %v at %v, deferred %d; want deferred once, expired at 2", c.rule, c.drop, o.Status, o.End, o.Deferred)
		case !c.deferred && (o.Status != replay.OnTime || o.Machine != 0 || o.End != 1 || o.Deferred != 0):
			t.Errorf("%v, drop %v: X %v on machine %d at %v, deferred %d; want on time on machine 0 at 1, never deferred", c.rule, c.drop, o.Status, o.Machine, o.End, o.Deferred)
		}
	}
}

// TestPresetsResolve: each preset is its base heuristic tuned as its paper says, whatever the
// caller's pruning was (here: none, gap .25, drop .5, no fairness).
//
//	PAMF   PAM, fairness ϑ = 10% (journal 000 §6.3.2), pruning both
//	MOCA   MOC, cull 75% (thesis §4.4.3.1), pruning as given
//	PUM    PAM, deferring static 30%, dropping 75%, pruning both (thesis §4.4.3.1)
//	PAMND  PAM, deferring only (thesis §4.4.5)
func TestPresetsResolve(t *testing.T) {
	given := Config{Lambda: 1, Toggle: Toggle{Kind: "threshold", On: 1}, DropThreshold: 0.5, Defer: DeferRule{Kind: "gap", Value: 0.25}}
	for _, c := range []struct {
		name, base string
		cull       float64
		variant    Variant
		defer_     DeferRule
		drop, fair float64
	}{
		{"PAMF", "PAM", 0.30, Both, DeferRule{Kind: "gap", Value: 0.25}, 0.5, 0.10},
		{"MOCA", "MOC", 0.75, None, DeferRule{Kind: "gap", Value: 0.25}, 0.5, 0},
		{"PUM", "PAM", 0.30, Both, DeferRule{Kind: "static", Value: 0.30}, 0.75, 0},
		{"PAMND", "PAM", 0.30, Defer, DeferRule{Kind: "gap", Value: 0.25}, 0.5, 0},
	} {
		base, p, cfg := Resolve(c.name, heuristic.DefaultParams(), given)
		if base != c.base || p.MOCCull != c.cull || cfg.Variant != c.variant || cfg.Defer != c.defer_ || cfg.DropThreshold != c.drop || cfg.Fairness != c.fair {
			t.Errorf("%s: %s cull %v, %v, defer %v, drop %v, fairness %v; want %s cull %v, %v, defer %v, drop %v, fairness %v",
				c.name, base, p.MOCCull, cfg.Variant, cfg.Defer, cfg.DropThreshold, cfg.Fairness,
				c.base, c.cull, c.variant, c.defer_, c.drop, c.fair)
		}
	}
	// A fairness factor or a variant the caller gives stays.
	g := given
	g.Fairness, g.Variant = 0.2, Defer
	if _, _, cfg := Resolve("PAMF", heuristic.DefaultParams(), g); cfg.Fairness != 0.2 || cfg.Variant != Defer {
		t.Errorf("PAMF with fairness .2, defer only: fairness %v, %v", cfg.Fairness, cfg.Variant)
	}
}

// TestHandWorkedPresets: where each preset's tuning alone decides. No pruning given (the
// presets bring their own), toggle threshold 1, gap .25, drop .5.
//
// MOCA against MOC on oneGamble with chance .625: MOC's cull .30 keeps X, which runs 0–1; MOCA's
// .75 culls it, and it expires at 2.
//
// PUM against PAM-P on oneGamble with chance .5: PAM-P defers at .5 + .25 = .75, and X expires;
// PUM defers at .30 only, and X runs 0–1.
//
// PAMF against PAM-P, sufferage: tasks A and B of one type, which takes 1 (p 11/16 = .6875) or
// 9 on m0, 50 on m1. A arrives at 0, due 1: chance .6875 ≤ .75, deferred; at the next event, B's
// arrival at 1, A expires: a miss of type 0. B is due 3: on m0 from 1 it completes at 2 (p
// .6875) or 10, chance .6875. PAM-P defers it again (≤ .75) and it expires at 3. PAMF (ϑ .10)
// with unmapped expiries counted (SufferExpired) has raised type 0's sufferage by .10 for A's
// miss, so B's threshold is .75 − .10 = .65 < .6875: B runs 1–2 (it takes 1), on time. Without
// SufferExpired (the default: the papers count dropped tasks only) A's expiry raises nothing,
// and B is deferred and expires as under PAM-P.
func TestHandWorkedPresets(t *testing.T) {
	given := Config{Lambda: 1, Toggle: Toggle{Kind: "threshold", On: 1}, DropThreshold: 0.5, Defer: DeferRule{Kind: "gap", Value: 0.25}}
	build := func(name string, cfg Config) replay.Mapper {
		m, err := New(name, heuristic.DefaultParams(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	pruned := given
	pruned.Variant = Both
	ran := func(o replay.Outcome) bool { return o.Status == replay.OnTime && o.Machine == 0 && o.End == 1 }
	expired := func(o replay.Outcome) bool { return o.Status == replay.ExpiredUnmapped && o.End == 2 }
	for _, c := range []struct {
		name string
		p    float64
		cfg  Config
		ok   func(replay.Outcome) bool
	}{
		{"MOC", 0.625, given, ran},
		{"MOCA", 0.625, given, expired},
		{"PAM", 0.5, pruned, expired},
		{"PUM", 0.5, given, ran},
	} {
		if o := outcomeOf(t, oneGamble(t, c.p), build(c.name, c.cfg), 0); !c.ok(o) {
			t.Errorf("%s, chance %v: X %v on machine %d at %v", c.name, c.p, o.Status, o.Machine, o.End)
		}
	}

	cfg := oneGamble(t, 11.0/16)
	cfg.Tasks = []replay.Task{{ID: 0, Type: 0, Arrival: 0, Deadline: 1}, {ID: 1, Type: 0, Arrival: 1, Deadline: 3, Observed: []float64{1, 50}}}
	if o := outcomeOf(t, cfg, build("PAM", pruned), 1); o.Status != replay.ExpiredUnmapped || o.End != 3 {
		t.Errorf("PAM-P: B %v at %v, want expired at 3", o.Status, o.End)
	}
	counted := given
	counted.SufferExpired = true
	if o := outcomeOf(t, cfg, build("PAMF", counted), 1); o.Status != replay.OnTime || o.Start != 1 || o.End != 2 {
		t.Errorf("PAMF, expiries counted: B %v %v–%v, want on time 1–2", o.Status, o.Start, o.End)
	}
	if o := outcomeOf(t, cfg, build("PAMF", given), 1); o.Status != replay.ExpiredUnmapped || o.End != 3 {
		t.Errorf("PAMF, expiries not counted: B %v at %v, want expired at 3", o.Status, o.End)
	}
}

// TestHandWorkedDeferChosenMachine: deferring judges the pair the heuristic chose, not the
// task's best machine (000 §5.3: "pairs whose chance on the chosen machine is at or below the
// threshold"). Two machines, queue size 1, drop model none; X arrives at 0, due 2.
//
//	       exec                     mean   chance P(≤ 2)
//	m0     1 (p .625) or 9          4      .625
//	m1     2 (p .75) or 20          6.5    .75
//
// MM-D, static threshold .625: X's best chance (.75 on m1) is above it, so X reaches MM, whose
// phase 1 takes m0 (4 < 6.5). The pair's chance, .625, is at the threshold: deferred; X
// expires at 2. At threshold .6 the pair stands: X runs on m0, 0–1 (this world's duration).
func TestHandWorkedDeferChosenMachine(t *testing.T) {
	m1, _, err := pmf.FromWeights(2, 1, append(append([]float64{0.75}, make([]float64, 17)...), 0.25))
	if err != nil {
		t.Fatal(err)
	}
	cfg := oneGamble(t, 0.625)
	cfg.PET = replaytest.Grid{{gamble(t, 0.625), m1}}
	cfg.Tasks[0].Observed = []float64{1, 2}
	for _, c := range []struct {
		th       float64
		deferred bool
	}{{0.625, true}, {0.6, false}} {
		pc := DefaultConfig()
		pc.Variant, pc.Defer = Defer, DeferRule{Kind: "static", Value: c.th}
		m, err := Wrap(heuristic.MM{Params: heuristic.DefaultParams()}, pc)
		if err != nil {
			t.Fatal(err)
		}
		o := outcomeOf(t, cfg, m, 0)
		switch {
		case c.deferred && (o.Status != replay.ExpiredUnmapped || o.Deferred != 1):
			t.Errorf("threshold %v: X %v on machine %d, deferred %d; want deferred once, expired", c.th, o.Status, o.Machine, o.Deferred)
		case !c.deferred && (o.Status != replay.OnTime || o.Machine != 0 || o.End != 1):
			t.Errorf("threshold %v: X %v on machine %d at %v; want on time on machine 0 at 1", c.th, o.Status, o.Machine, o.End)
		}
	}
	// An observer hears the pair's exact chance: at threshold .7, X (.75 on m1) reaches MM, and
	// the pair on m0 is deferred with its chance .625 against .7.
	pc := DefaultConfig()
	pc.Variant, pc.Defer = Defer, DeferRule{Kind: "static", Value: 0.7}
	m, err := Wrap(heuristic.MM{Params: heuristic.DefaultParams()}, pc)
	if err != nil {
		t.Fatal(err)
	}
	var heard []Decision
	m.(*Pruner).Observe(func(d Decision) { heard = append(heard, d) })
	outcomeOf(t, cfg, m, 0)
	if want := (Decision{Kind: "defer", Task: 0, Chance: 0.625, Against: 0.7}); len(heard) != 1 || heard[0] != want {
		t.Errorf("threshold .7: heard %+v, want %+v", heard, want)
	}
}

// TestHandWorkedDeferBeforeAnyAbove: a task reaches the heuristic when any machine with a free
// slot gives it a chance above the deferring threshold, one at it included (000 §5.3), and an
// observer of a task deferred before the heuristic sees it hears its best exact chance. Two
// machines, queue size 1, drop model none; X arrives at 0, due 2.
//
//	       exec                     mean   chance P(≤ 2)
//	m0     1 (p .625) or 9          4      .625
//	m1     2 (p .75) or 4           2.5    .75
//
// MM-D deferring before the heuristic's choice (DeferBefore), static threshold .625: m0's .625 is at the threshold, m1's .75 above it, so X reaches
// MM, whose phase 1 takes m1 (2.5 < 4), and the pair (.75) stands: X runs on m1, 0–2, on time.
// A screen that stopped at the first chance at the threshold would defer X, which then expires
// at 2. At threshold .8 both chances are at or below it: X is deferred before MM sees it, and
// the observer hears the best of them, .75 (m1's) against .8, not a bound's 0.
func TestHandWorkedDeferBeforeAnyAbove(t *testing.T) {
	m1, _, err := pmf.FromWeights(2, 1, []float64{0.75, 0, 0.25})
	if err != nil {
		t.Fatal(err)
	}
	cfg := oneGamble(t, 0.625)
	cfg.PET = replaytest.Grid{{gamble(t, 0.625), m1}}
	cfg.Tasks[0].Observed = []float64{1, 2}
	wrap := func(th float64) *Pruner {
		pc := DefaultConfig()
		pc.Variant, pc.Defer, pc.DeferAt = Defer, DeferRule{Kind: "static", Value: th}, DeferBefore
		m, err := Wrap(heuristic.MM{Params: heuristic.DefaultParams()}, pc)
		if err != nil {
			t.Fatal(err)
		}
		return m.(*Pruner)
	}
	if o := outcomeOf(t, cfg, wrap(0.625), 0); o.Status != replay.OnTime || o.Machine != 1 || o.End != 2 {
		t.Errorf("threshold .625: X %v on machine %d at %v; want on time on machine 1 at 2", o.Status, o.Machine, o.End)
	}
	p := wrap(0.8)
	var heard []Decision
	p.Observe(func(d Decision) { heard = append(heard, d) })
	outcomeOf(t, cfg, p, 0)
	if want := (Decision{Kind: "defer", Task: 0, Chance: 0.75, Against: 0.8}); len(heard) != 1 || heard[0] != want {
		t.Errorf("threshold .8: heard %+v, want %+v", heard, want)
	}
}

// TestToggleDecisions: the observer hears each change of the toggle once, as "engage" or
// "release", with task -1 and the level d_τ as its chance. Threshold 1, λ = 1 (d = misses):
// events with 0, 2, 1, 0, 0 misses give levels 0, 2, 1, 0, 0: engage at the second event
// (d = 2), hold at the third (1 ≥ 1), release at the fourth (0), nothing at the fifth.
func TestToggleDecisions(t *testing.T) {
	p := newPruner(t, DefaultConfig())
	var got []Decision
	p.Observe(func(d Decision) { got = append(got, d) })
	types := map[int]int{1: 0, 2: 0}
	miss := replay.Exit{Task: 1, Status: replay.Late}
	for _, exits := range [][]replay.Exit{nil, {miss, miss}, {miss}, nil, nil} {
		p.account(fakeEvent{exits: exits, types: types})
	}
	want := []Decision{{Kind: "engage", Task: -1, Chance: 2}, {Kind: "release", Task: -1, Chance: 0}}
	if len(got) != len(want) {
		t.Fatalf("decisions %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("decision %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestSchmittAtItsEdges: schmitt:ON:OFF engages at d ≥ ON and releases at d ≤ OFF (000 §5.4),
// both edges included. schmitt:2:1, λ = 1 (d = misses): 2 engages (= ON), 1 releases (= OFF),
// 2 engages again, 1 releases again: engaged 1, 0, 1, 0.
func TestSchmittAtItsEdges(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Toggle = Toggle{Kind: "schmitt", On: 2, Off: 1}
	p := newPruner(t, cfg)
	got := ""
	for _, m := range []int{2, 1, 2, 1} {
		p.observe(m)
		got += map[bool]string{true: "1", false: "0"}[p.engaged]
	}
	if got != "1010" {
		t.Errorf("schmitt:2:1 on misses 2, 1, 2, 1: engaged %s, want 1010", got)
	}
}

// dropEvent is one machine's queue as the dropping phase reads it; Drop removes a task (the
// chances of the others are left as they were, which is all these cases need).
type dropEvent struct {
	replay.Event
	queue   []int
	chances []replay.QueueChance
	running bool
	model   pmf.Model
	floors  []float64 // QueueFloors: nil, or lower bounds on the chances
	dropped []int
}

func (d *dropEvent) NumMachines() int                      { return 1 }
func (d *dropEvent) Now() float64                          { return 0 }
func (d *dropEvent) Queue(int) []int                       { return d.queue }
func (d *dropEvent) QueueChances(int) []replay.QueueChance { return d.chances }
func (d *dropEvent) Running(int) bool                      { return d.running }
func (d *dropEvent) DropModel() pmf.Model                  { return d.model }
func (d *dropEvent) Task(h int) replay.Task                { return replay.Task{ID: int64(h), Type: h} }
func (d *dropEvent) TypeAndDeadline(h int) (int, float64)  { return h, 0 }
func (d *dropEvent) QueueFloors(int) []float64             { return d.floors }

// QueueChanceAtOrBelow scans the chances, as the engine's answer must (its own tests check that).
func (d *dropEvent) QueueChanceAtOrBelow(_, from int, ths []float64) int {
	for k := from; k < len(d.chances); k++ {
		if ths[k] > 0 && d.chances[k].Success <= ths[k] {
			return k
		}
	}
	return -1
}
func (d *dropEvent) Drop(h int) {
	i := slices.Index(d.queue, h)
	d.queue = slices.Delete(slices.Clone(d.queue), i, i+1)
	d.chances = slices.Delete(slices.Clone(d.chances), i, i+1)
	d.dropped = append(d.dropped, h)
}

// TestDropPhaseRules: the dropping phase's rules on one queue (000 §5.2; package doc), θ = .5,
// no skewness adjustment. Task h has type h.
//
//	queue (chance)               running  model    dropped  why
//	0 (.5), 1 (.6)                 no     evict    0        at the threshold is dropped; .6 is above
//	0 (.1), 1 (.2)                 yes    pending  1        a running head stays but under evict
//	0 (.1), 1 (.2)                 yes    evict    0, 1     under evict the running head goes too
//	0 (0)  with type 0's sufferage .5   no   evict  —       θ − .5 = 0: a threshold of 0 drops nothing
func TestDropPhaseRules(t *testing.T) {
	for _, c := range []struct {
		name      string
		chances   []float64
		running   bool
		model     pmf.Model
		sufferage float64
		want      []int
	}{
		{"at the threshold", []float64{0.5, 0.6}, false, pmf.Evict, 0, []int{0}},
		{"running head under pending", []float64{0.1, 0.2}, true, pmf.Pending, 0, []int{1}},
		{"running head under evict", []float64{0.1, 0.2}, true, pmf.Evict, 0, []int{0, 1}},
		{"threshold 0 after sufferage", []float64{0}, false, pmf.Evict, 0.5, nil},
	} {
		p := newPruner(t, DefaultConfig())
		p.Observe(func(Decision) {}) // the exact chances, not the floors
		p.sufferage[0] = c.sufferage
		ev := &dropEvent{running: c.running, model: c.model}
		for h, s := range c.chances {
			ev.queue = append(ev.queue, h)
			ev.chances = append(ev.chances, replay.QueueChance{Success: s})
		}
		p.dropPhase(ev)
		if !slices.Equal(ev.dropped, c.want) {
			t.Errorf("%s: dropped %v, want %v", c.name, ev.dropped, c.want)
		}
	}
	// Without an observer the floors may decide for a whole queue, but only when each is clearly
	// above its task's threshold: floors .5 and .6 (the chances themselves) leave task 0, at the
	// threshold, to its exact chance, and it is dropped.
	p := newPruner(t, DefaultConfig())
	ev := &dropEvent{queue: []int{0, 1}, chances: []replay.QueueChance{{Success: 0.5}, {Success: 0.6}}, model: pmf.Evict, floors: []float64{0.5, 0.6}}
	p.dropPhase(ev)
	if !slices.Equal(ev.dropped, []int{0}) {
		t.Errorf("floors at the threshold: dropped %v, want [0]", ev.dropped)
	}
}

// TestHandWorkedDeferAnyGoodMachine: a task stays in the batch when any machine with a free
// slot gives it a chance above the deferring threshold, whichever comes first. Two machines,
// queue size 1, drop model none; X arrives at 0, due 2, takes 1 in this world.
//
//	       exec                     mean   chance P(≤ 2)
//	m0     1 (p .625) or 9          4      .625 (at the threshold)
//	m1     1 (p .75) or 9           3      .75
//
// MM-D, static threshold .625: m0's chance is at the threshold, m1's above: X reaches MM, which
// takes m1 (3 < 4), a pair above the threshold: X runs on m1, 0–1. Stopping at m0's chance
// would defer X (it would expire at 2).
//
// With an observer the deferrals it hears carry the exact chance: at threshold .8 X is
// deferred, with its best chance, .75, against .8.
func TestHandWorkedDeferAnyGoodMachine(t *testing.T) {
	cfg := oneGamble(t, 0.625)
	cfg.PET = replaytest.Grid{{gamble(t, 0.625), gamble(t, 0.75)}}
	cfg.Tasks[0].Observed = []float64{1, 1}
	pc := DefaultConfig()
	pc.Variant, pc.Defer = Defer, DeferRule{Kind: "static", Value: 0.625}
	m, err := Wrap(heuristic.MM{Params: heuristic.DefaultParams()}, pc)
	if err != nil {
		t.Fatal(err)
	}
	if o := outcomeOf(t, cfg, m, 0); o.Status != replay.OnTime || o.Machine != 1 || o.End != 1 {
		t.Errorf("X %v on machine %d at %v, deferred %d; want on time on machine 1 at 1", o.Status, o.Machine, o.End, o.Deferred)
	}
	pc.Defer = DeferRule{Kind: "static", Value: 0.8}
	w, err := Wrap(heuristic.MM{Params: heuristic.DefaultParams()}, pc)
	if err != nil {
		t.Fatal(err)
	}
	var heard []Decision
	w.(*Pruner).Observe(func(d Decision) { heard = append(heard, d) })
	outcomeOf(t, cfg, w, 0)
	want := Decision{Kind: "defer", Task: 0, Chance: 0.75, Against: 0.8}
	if len(heard) != 1 || heard[0] != want {
		t.Errorf("heard %+v, want %+v", heard, want)
	}
}

// TestHandWorkedDeferEarlyDeadline: the bounds that defer a task without its exact chance
// (the cut-off deadlines of deferring.Batch) leave a task that can make its deadline alone,
// however soon after it can start that deadline is. Two machines, queue size 1, drop model
// none; X arrives at 0, due .75; on m0 it takes 0 (p .625: nothing to do) or 8, and 0 in this
// world; on m1 50. Its chance on the idle m0 is P(≤ .75) = .625, above the static threshold
// .6: X runs on m0 and ends at 0, on time.
func TestHandWorkedDeferEarlyDeadline(t *testing.T) {
	x, _, err := pmf.FromWeights(0, 1, []float64{0.625, 0, 0, 0, 0, 0, 0, 0, 0.375})
	if err != nil {
		t.Fatal(err)
	}
	cfg := oneGamble(t, 0.625)
	cfg.PET = replaytest.Grid{{x, pmf.Impulse(50, 1)}}
	cfg.Tasks[0].Deadline, cfg.Tasks[0].Observed = 0.75, []float64{0, 50}
	// Each deferring path: after MM's choice (the engine's bound, no cut-off), before it (Batch's
	// cut-offs) and PAM's screen (Promising). m0's cut-off for X is FreeFrom + at with the
	// quantile at = o + (J − 1.5)·step = 0 + (0 − 1.5)·1 = −1.5 (J = 0: T(0) = .625 ≥ .6), so X
	// is hopeless on m0 only for a deadline before −1.5. A cut-off of FreeFrom − at, or a quantile
	// of o + (J + 1.5)·step, is 1.5 and would defer X (.75 < 1.5).
	onTimeOnM0(t, cfg, 0, DeferAfter, DeferBefore)
}

// onTimeOnM0 checks that task 0 of cfg runs on machine 0, on time, ending at end, under MM-D at
// a static .6 deferring at each of places, and under PAM-D deferring after MM's choice (so that
// Batch leaves the batch to PAM's screen, Promising).
func onTimeOnM0(t *testing.T, cfg replay.Config, end float64, places ...DeferPlace) {
	t.Helper()
	type run struct {
		name string
		h    replay.Mapper
		at   DeferPlace
	}
	runs := []run{{"PAM", heuristic.PAM{Params: heuristic.DefaultParams()}, DeferAfter}}
	for _, at := range places {
		runs = append(runs, run{"MM " + at.String(), heuristic.MM{Params: heuristic.DefaultParams()}, at})
	}
	for _, c := range runs {
		pc := DefaultConfig()
		pc.Variant, pc.DeferAt, pc.Defer = Defer, c.at, DeferRule{Kind: "static", Value: 0.6}
		m, err := Wrap(c.h, pc)
		if err != nil {
			t.Fatal(err)
		}
		if o := outcomeOf(t, cfg, m, 0); o.Status != replay.OnTime || o.Machine != 0 || o.End != end {
			t.Errorf("%s: X %v on machine %d at %v, deferred %d; want on time on machine 0 at %v", c.name, o.Status, o.Machine, o.End, o.Deferred, end)
		}
	}
}

// TestHandWorkedDeferHalfStep: a cut-off on a grid whose step is not 1 scales J − 1.5 by the
// step. MM-D deferring before its choice, and PAM-D, static threshold .6, two machines, queue
// size 1, drop model none, on a grid of step .5 from 0; X arrives at 0, due 2, and takes 0 (p
// .1), 1.5 (p .525) or 5 on m0, 1.5 in this world, and 50 on m1. Its chance on the idle m0 is
// .625 > .6, so X runs on m0, 0–1.5, on time. The table first reaches .6 at 1.5, index J = 3, so
// m0's cut-off is 0 + o + (J − 1.5)·step = 0 + 0 + 1.5·.5 = .75, before 2: the chance is asked.
// Dividing by the step instead (1.5 / .5 = 3) would put the cut-off after the deadline and
// defer X.
func TestHandWorkedDeferHalfStep(t *testing.T) {
	w := make([]float64, 11)
	w[0], w[3], w[10] = 0.1, 0.525, 0.375
	x, _, err := pmf.FromWeights(0, 0.5, w)
	if err != nil {
		t.Fatal(err)
	}
	cfg := oneGamble(t, 0.625)
	cfg.PET = replaytest.Grid{{x, pmf.Impulse(50, 0.5)}}
	cfg.Tasks[0].Observed = []float64{1.5, 50}
	onTimeOnM0(t, cfg, 1.5, DeferBefore)
}

// TestHandWorkedDeferBeforeReusedBound: under --defer-at before, the pre-filter skips a free
// machine whose bound (Event.SuccessBound: a chance computed earlier against the same queue) is
// below the threshold by more than boundMargin, and asks for the exact chance otherwise. MM-D,
// static threshold .625 − 5e-10, two machines, queue size 1, drop model none; X and Y arrive at
// 0, due 2:
//
//	      m0                              m1
//	X     1 (p .625) or 9: E 4, chance .625     2: E 2, chance 1
//	Y     50: chance 0                           1: E 1, chance 1
//
// Round 1 of the event: the pre-filter asks X's exact chance on m0 (no bound yet): .625, above
// the threshold, so X stays. MM's phase 1 pairs X with m1 (2 < 4) and Y with m1 (1 < 50); phase
// 2 gives m1 to Y (completion 1 < 2). Round 2: only m0 is free, its queue as in round 1, so X's
// bound there is the .625 just computed, 5e-10 above the threshold: within the margin, so the
// exact chance (.625 again) decides and keeps X, and MM maps it to m0: it runs 0–1, on time,
// never deferred. Skipping a machine whose bound is within the margin above the threshold
// (comparing with th + boundMargin) would defer X here instead.
func TestHandWorkedDeferBeforeReusedBound(t *testing.T) {
	opt := replay.DefaultOptions()
	opt.QueueSize, opt.Trim, opt.DropModel = 1, 0, pmf.None
	cfg := replay.Config{
		PET: replaytest.Grid{
			{gamble(t, 0.625), pmf.Impulse(2, 1)},
			{pmf.Impulse(50, 1), pmf.Impulse(1, 1)},
		},
		Machines: []replay.Machine{{Type: 0}, {Type: 1}},
		Tasks: []replay.Task{
			{ID: 0, Type: 0, Arrival: 0, Deadline: 2, Observed: []float64{1, 2}},
			{ID: 1, Type: 1, Arrival: 0, Deadline: 2, Observed: []float64{50, 1}},
		},
		Options: opt,
	}
	pc := DefaultConfig()
	pc.Variant, pc.DeferAt, pc.Defer = Defer, DeferBefore, DeferRule{Kind: "static", Value: 0.625 - 5e-10}
	m, err := Wrap(heuristic.MM{Params: heuristic.DefaultParams()}, pc)
	if err != nil {
		t.Fatal(err)
	}
	if o := outcomeOf(t, cfg, m, 0); o.Status != replay.OnTime || o.Machine != 0 || o.End != 1 || o.Deferred != 0 {
		t.Errorf("X %v on machine %d at %v, deferred %d; want on time on machine 0 at 1, never deferred", o.Status, o.Machine, o.End, o.Deferred)
	}
	if o := outcomeOf(t, cfg, m, 1); o.Status != replay.OnTime || o.Machine != 1 || o.End != 1 {
		t.Errorf("Y %v on machine %d at %v; want on time on machine 1 at 1", o.Status, o.Machine, o.End)
	}
}

// TestHandWorkedDeferBeforeReportsBest: a task the pre-filter of --defer-at before defers is
// deferred with the best chance any free machine gives it, at or below the threshold, which
// the trace reports. MM-D, static threshold .625, two machines, queue size 1; X arrives at 0,
// due 2, and takes 1 (p .625) or 9 on m0 (chance .625, E 4), 1 (p .5) or 3 on m1 (chance .5,
// E 2). Best = max(.625, .5) = .625, at the threshold: X is deferred before MM sees it, heard
// as one decision with chance .625. Keeping a task whose best equals the threshold would let MM
// map X to m1 (E 2 < 4) and defer it there, with chance .5.
func TestHandWorkedDeferBeforeReportsBest(t *testing.T) {
	m1, _, err := pmf.FromWeights(1, 1, []float64{0.5, 0, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	cfg := oneGamble(t, 0.625)
	cfg.PET = replaytest.Grid{{gamble(t, 0.625), m1}}
	cfg.Tasks[0].Observed = []float64{1, 1}
	pc := DefaultConfig()
	pc.Variant, pc.DeferAt, pc.Defer = Defer, DeferBefore, DeferRule{Kind: "static", Value: 0.625}
	w, err := Wrap(heuristic.MM{Params: heuristic.DefaultParams()}, pc)
	if err != nil {
		t.Fatal(err)
	}
	var heard []Decision
	w.(*Pruner).Observe(func(d Decision) { heard = append(heard, d) })
	if o := outcomeOf(t, cfg, w, 0); o.Status != replay.ExpiredUnmapped || o.Deferred != 1 {
		t.Errorf("X %v at %v, deferred %d; want deferred once, expired unmapped", o.Status, o.End, o.Deferred)
	}
	want := Decision{Kind: "defer", Task: 0, Chance: 0.625, Against: 0.625}
	if len(heard) != 1 || heard[0] != want {
		t.Errorf("heard %+v, want %+v", heard, want)
	}
}

// TestHandWorkedPAMND: PAMND is PAM with deferring only (thesis §4.4.5): where PAM-P's dropping
// alone decides, PAMND keeps the task. Dropping always on, drop .5, gap .25 (deferring at .75),
// two machines, queue size 2, drop model none.
//
//	task  type  arrives  exec m0                     exec m1  deadline
//	A      0      0      1 (p .9) or 9: takes 9        50       100
//	B      1      .5     1                             50         3
//	C      2      1.5    50                             1       100
//
// At 0, A's chance on m0 is 1: A runs on m0 from 0. At .5, B behind A on m0 completes at 2 (p .9)
// or 10 (A elapsed .5 keeps both outcomes): chance .9 > .75, not deferred; on m1 it has none, so
// PAM maps it to m0. At 1.5 (C's arrival; C goes to m1 and runs 1.5–2.5), A has run past 1, so it
// ends at 9: B's chance is P(10 ≤ 3) = 0 ≤ .5. PAM-P drops B at 1.5 (dropped_pruned); PAMND,
// which never drops, keeps it, and B runs 9–10, late.
func TestHandWorkedPAMND(t *testing.T) {
	a, _, err := pmf.FromWeights(1, 1, []float64{0.9, 0, 0, 0, 0, 0, 0, 0, 0.1})
	if err != nil {
		t.Fatal(err)
	}
	opt := replay.DefaultOptions()
	opt.QueueSize, opt.Trim, opt.DropModel = 2, 0, pmf.None
	cfg := replay.Config{
		PET: replaytest.Grid{
			{a, pmf.Impulse(50, 1)},
			{pmf.Impulse(1, 1), pmf.Impulse(50, 1)},
			{pmf.Impulse(50, 1), pmf.Impulse(1, 1)},
		},
		Machines: []replay.Machine{{Type: 0}, {Type: 1}},
		Tasks: []replay.Task{
			{ID: 0, Type: 0, Arrival: 0, Deadline: 100, Observed: []float64{9, 50}},
			{ID: 1, Type: 1, Arrival: 0.5, Deadline: 3, Observed: []float64{1, 50}},
			{ID: 2, Type: 2, Arrival: 1.5, Deadline: 100, Observed: []float64{50, 1}},
		},
		Options: opt,
	}
	given := Config{Lambda: 1, Toggle: Toggle{Kind: "always"}, DropThreshold: 0.5, Defer: DeferRule{Kind: "gap", Value: 0.25}}
	pruned := given
	pruned.Variant = Both
	for _, c := range []struct {
		name   string
		cfg    Config
		status replay.Status
		end    float64
	}{
		{"PAM", pruned, replay.DroppedPruned, 1.5},
		{"PAMND", given, replay.Late, 10},
	} {
		m, err := New(c.name, heuristic.DefaultParams(), c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if o := outcomeOf(t, cfg, m, 1); o.Status != c.status || o.Machine != 0 || o.End != c.end {
			t.Errorf("%s: B %v on machine %d at %v; want %v on machine 0 at %v", c.name, o.Status, o.Machine, o.End, c.status, c.end)
		}
	}
}
