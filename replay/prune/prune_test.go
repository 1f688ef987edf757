package prune

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
)

func newPruner(t *testing.T, cfg Config) *Pruner {
	t.Helper()
	m, err := Wrap(heuristic.MM{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m.(*Pruner)
}

// TestToggleSequences feeds hand-written miss counts through the toggles. Expected states are
// worked out by hand from d_τ = m_τ·λ + d_{τ−1}·(1−λ) with d_0 = 0.
func TestToggleSequences(t *testing.T) {
	cases := []struct {
		toggle string
		lambda float64
		misses []int
		want   string // one character per event: 1 engaged, 0 not
	}{
		// λ = 1: d = misses. threshold:1 engages on any miss and releases on none.
		{"threshold:1", 1, []int{0, 1, 0, 3, 2, 0}, "010110"},
		// threshold:0 is always engaged, even with no misses.
		{"threshold:0", 1, []int{0, 0, 0}, "111"},
		{"never", 1, []int{5, 5}, "00"},
		{"always", 0.5, []int{0, 0}, "11"},
		// λ = 0.5: d = 0, 2·.5=1, 1·.5+0=0.5, .25+1.5=1.75, .875, .4375 → ≥ 1 at events 2 and 4.
		{"threshold:1", 0.5, []int{0, 2, 0, 3, 0, 0}, "010100"},
		// Schmitt 2/1.6 with λ = 1: engage at 2, hold through 1.7 (> 1.6) … here counts are
		// whole: 2 engages, 1 releases (≤ 1.6), 3 engages, 2 holds.
		{"schmitt:2:1.6", 1, []int{1, 2, 1, 3, 2, 0}, "010110"},
		// Schmitt 2/1 with λ = 0.5: d = .5, 1.25, 1.625, 2.3125 (on), 1.65625 (hold: > 1),
		// 0.828 (off), 1.914 (stays off: < 2).
		{"schmitt:2:1", 0.5, []int{1, 2, 2, 3, 1, 0, 3}, "0001100"},
	}
	for _, c := range cases {
		tg, err := ParseToggle(c.toggle)
		if err != nil {
			t.Fatal(err)
		}
		cfg := DefaultConfig()
		cfg.Toggle, cfg.Lambda = tg, c.lambda
		p := newPruner(t, cfg)
		got := ""
		for _, m := range c.misses {
			p.observe(m)
			got += map[bool]string{true: "1", false: "0"}[p.engaged]
		}
		if got != c.want {
			t.Errorf("%s λ=%v misses %v: engaged %s, want %s", c.toggle, c.lambda, c.misses, got, c.want)
		}
	}
	// Hysteresis: a level between OFF and ON keeps whatever state the toggle is in.
	tg, _ := ParseToggle("schmitt:2")
	if tg.Off != 1.6 {
		t.Errorf("schmitt:2 releases at %v, want 1.6", tg.Off)
	}
	if !tg.next(true, 1.8) || tg.next(false, 1.8) {
		t.Error("schmitt:2 at 1.8 does not keep its state")
	}
	for _, bad := range []string{"sometimes", "threshold", "threshold:-1", "schmitt:1:2", "schmitt:x"} {
		if _, err := ParseToggle(bad); err == nil {
			t.Errorf("ParseToggle(%q): no error", bad)
		}
	}
}

// TestDropThresholdEq7 checks θ_i = θ + (−s·ρ)/(κ+1) − sufferage, clamped, on hand values.
func TestDropThresholdEq7(t *testing.T) {
	cfg := DefaultConfig()
	cfg.DropThreshold, cfg.Rho = 0.5, 0.2
	p := newPruner(t, cfg)
	cases := []struct {
		pos  int
		s    float64
		want float64
	}{
		{0, 1, 0.3},      // head, right-skewed: 0.5 − 0.2
		{0, -1, 0.7},     // head, left-skewed: 0.5 + 0.2
		{1, 1, 0.4},      // second: 0.5 − 0.2/2
		{3, -0.5, 0.525}, // fourth: 0.5 + 0.1/4
		{2, 0, 0.5},
	}
	for _, c := range cases {
		if got := p.DropThreshold(0, c.pos, c.s); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("pos %d skew %v: %v, want %v", c.pos, c.s, got, c.want)
		}
	}
	p.cfg.Rho = 0 // no adjustment, whatever the skewness: the engine leaves it NaN then
	if got := p.DropThreshold(0, 0, math.NaN()); got != 0.5 {
		t.Errorf("rho 0, skewness NaN: %v, want 0.5", got)
	}
	p.cfg.Rho = 5 // clamps
	if got := p.DropThreshold(0, 0, -1); got != 1 {
		t.Errorf("clamp above: %v", got)
	}
	if got := p.DropThreshold(0, 0, 1); got != 0 {
		t.Errorf("clamp below: %v", got)
	}
}

// TestReadsSkewness: the pruner (under a preset's name too) asks the engine for skewness exactly
// when its dropping threshold adjusts by it.
func TestReadsSkewness(t *testing.T) {
	for _, c := range []struct {
		variant Variant
		rho     float64
		want    bool
	}{{Both, 0.2, true}, {Drop, 0.2, true}, {Defer, 0.2, false}, {Both, 0, false}, {None, 0.2, false}} {
		cfg := DefaultConfig()
		cfg.Variant, cfg.Rho = c.variant, c.rho
		for _, name := range []string{"MM", "MOCA"} { // a preset answers under its own name
			m, err := New(name, heuristic.DefaultParams(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got := replay.ReadsSkewness(m); got != c.want {
				t.Errorf("%s%s with rho %v: reads skewness %v, want %v", name, c.variant.Suffix(), c.rho, got, c.want)
			}
		}
	}
}

// TestWaitsForSlot: a heuristic with no pruning, under a preset's name too, lets the engine skip
// the events where every queue is full; a pruner, which reads every event's exits, never does.
func TestWaitsForSlot(t *testing.T) {
	for _, v := range []Variant{None, Defer, Drop, Both} {
		cfg := DefaultConfig()
		cfg.Variant = v
		for _, name := range []string{"MM", "MOCA"} {
			m, err := New(name, heuristic.DefaultParams(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := replay.WaitsForSlot(m), v == None; got != want {
				t.Errorf("%s%s: waits for a slot %v, want %v", name, v.Suffix(), got, want)
			}
		}
	}
}

// silent hides whether its mapper reads skewness, so the engine computes it.
type silent struct{ replay.Mapper }

// TestSkippedSkewnessChangesNothing: with and without the skewness adjustment, a pruned
// heuristic decides exactly as it does when the engine computes every skewness (its mapper
// silent about reading it), and on the crowded HCW19-like workload it does drop tasks. Only the
// work differs: a skewness near a rounding boundary costs the fast engine the reference's chain
// (fast.queueChances). 400 tasks: since kills at off-grid deadlines free machines at the
// deadline on average (pmf.KillShare), chances under evict are higher and MM-P at rho 0 dropped
// none of the first 300 (5 of 400).
func TestSkippedSkewnessChangesNothing(t *testing.T) {
	cfg := hcw19Like(t, 400)
	for _, rho := range []float64{0, 0.2} {
		for _, name := range []string{"MM", "PAM"} {
			pc := DefaultConfig()
			pc.Rho = rho
			run := func(wrap func(replay.Mapper) replay.Mapper) replay.Summary {
				m, err := New(name, heuristic.DefaultParams(), pc)
				if err != nil {
					t.Fatal(err)
				}
				res, err := replay.Run(t.Context(), cfg, wrap(m))
				if err != nil {
					t.Fatal(err)
				}
				return res.Summary
			}
			skipped := run(func(m replay.Mapper) replay.Mapper { return m })
			computed := run(func(m replay.Mapper) replay.Mapper { return silent{m} })
			if skipped.DroppedPruned == 0 {
				t.Errorf("%s-P rho %v: nothing dropped by pruning on a crowded workload", name, rho)
			}
			computed.Heuristic, computed.Prune, computed.Readings = skipped.Heuristic, skipped.Prune, skipped.Readings // silent hides them
			computed.Convolutions, computed.Multiplications = skipped.Convolutions, skipped.Multiplications
			if fmt.Sprintf("%+v", skipped) != fmt.Sprintf("%+v", computed) {
				t.Errorf("%s-P rho %v: skipping skewness changed the run:\n%+v\n%+v", name, rho, skipped, computed)
			}
		}
	}
}

// TestDynamicDeferEq10 walks every branch of the deferring rule on hand values.
func TestDynamicDeferEq10(t *testing.T) {
	cases := []struct {
		name                              string
		current, drop, c, psi, omega, rho float64
		want                              float64
	}{
		{"more slots than tasks: lower by c", 0.8, 0.5, 0.05, 0.5, 0.9, 0.9, 0.75},
		{"exactly as many: lower by c", 0.8, 0.5, 0.05, 1, 0.9, 0.9, 0.75},
		{"nobody competent: lower by c", 0.8, 0.5, 0.05, 3, 0, 0.9, 0.75},
		{"oversubscribed: near instantaneous robustness", 0.6, 0.5, 0.05, 3, 0.4, 0.9, 0.85},
		{"never below the dropping threshold", 0.52, 0.5, 0.05, 0.5, 0.4, 0.2, 0.5},
		{"oversubscribed, low robustness, floor", 0.9, 0.5, 0.05, 3, 0.4, 0.3, 0.5},
	}
	for _, c := range cases {
		if got := nextDefer(c.current, c.drop, c.c, c.psi, c.omega, c.rho); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if selective(4, 0) != math.Inf(1) || selective(6, 3) != 2 {
		t.Error("selective factor")
	}
	// Free slots: summed as they are while below the number of tasks; an unbounded queue
	// (math.MaxInt slots) counts as room for every task, and eight of them do not wrap around;
	// with no task, a machine with a free slot still counts one, so that ψ = 0/n stays finite.
	for _, c := range []struct {
		free        []int
		tasks, want int
	}{
		{[]int{2, 0, 1}, 5, 3},
		{[]int{2, 0, 1}, 1, 2},
		{[]int{0, 0}, 4, 0},
		{slices.Repeat([]int{math.MaxInt}, 8), 7, 56},
		{slices.Repeat([]int{math.MaxInt - 3}, 8), 0, 8},
		{[]int{0, 2}, 0, 1},
	} {
		if got := freeSlots(slotsEvent{free: c.free}, c.tasks); got != c.want {
			t.Errorf("free slots %v with %d tasks: %d, want %d", c.free, c.tasks, got, c.want)
		}
	}
}

// slotsEvent answers only how many machines there are and each one's free slots.
type slotsEvent struct {
	replay.Event
	free []int
}

func (s slotsEvent) NumMachines() int { return len(s.free) }
func (s slotsEvent) Free(m int) int   { return s.free[m] }

// fakeEvent answers only what account needs: exits and task types.
type fakeEvent struct {
	replay.Event
	exits []replay.Exit
	types map[int]int
}

func (f fakeEvent) Exits() []replay.Exit   { return f.exits }
func (f fakeEvent) Task(h int) replay.Task { return replay.Task{Type: f.types[h]} }
func (f fakeEvent) Now() float64           { return 0 }

func TestSufferage(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Fairness, cfg.SufferExpired = 0.3, true // unmapped expiries count, as the steps below say
	p := newPruner(t, cfg)
	types := map[int]int{1: 0, 2: 0, 3: 1, 4: 1}
	step := func(exits ...replay.Exit) { p.account(fakeEvent{exits: exits, types: types}) }
	step(replay.Exit{Task: 1, Status: replay.DroppedPruned}, replay.Exit{Task: 3, Status: replay.OnTime})
	// Type 0 failed once: 0.3. Type 1 succeeded from 0: clamped at 0.
	if p.sufferage[0] != 0.3 || p.sufferage[1] != 0 {
		t.Fatalf("after one event: %v", p.sufferage)
	}
	step(replay.Exit{Task: 2, Status: replay.Late}, replay.Exit{Task: 1, Status: replay.ExpiredUnmapped},
		replay.Exit{Task: 2, Status: replay.DroppedDeadline}, replay.Exit{Task: 4, Status: replay.DroppedDeadline})
	// Type 0: 0.3 + 3·0.3 = 1.2 → clamped to 1. Type 1: 0.3.
	if p.sufferage[0] != 1 || math.Abs(p.sufferage[1]-0.3) > 1e-12 {
		t.Fatalf("after two events: %v", p.sufferage)
	}
	step(replay.Exit{Task: 1, Status: replay.OnTime})
	if math.Abs(p.sufferage[0]-0.7) > 1e-12 {
		t.Fatalf("an on-time completion lowers the sufferage by ϑ: %v", p.sufferage[0])
	}
	// Both thresholds of a suffering type come down by its sufferage.
	if got := p.DeferThreshold(0); math.Abs(got-0.05) > 1e-12 { // 0.75 − 0.7
		t.Errorf("deferring threshold of type 0: %v, want 0.05", got)
	}
	if got := p.DropThreshold(1, 0, 0); math.Abs(got-0.2) > 1e-12 { // 0.5 − 0.3
		t.Errorf("dropping threshold of type 1: %v, want 0.2", got)
	}
	// The misses of the events above count into the level: event 2 had 4 deadline misses
	// (late, expired, two dropped at the deadline); the pruned drop of event 1 did not count.
	p2 := newPruner(t, DefaultConfig())
	p2.account(fakeEvent{exits: []replay.Exit{{Task: 1, Status: replay.DroppedPruned}}, types: types})
	if p2.level != 0 || p2.engaged {
		t.Errorf("a probabilistic drop counted as a miss: level %v", p2.level)
	}
}

// toMachine0 is a batch mapper that assigns every task to machine 0 while it has room.
type toMachine0 struct{}

func (toMachine0) Name() string      { return "zero" }
func (toMachine0) Mode() replay.Mode { return replay.Batch }
func (toMachine0) Map(ev replay.Event) {
	for _, h := range ev.Batch() {
		if ev.Free(0) == 0 {
			return
		}
		ev.Assign(h, 0)
	}
}

// TestDroppingHeadSavesTwo: one machine, queue of 3. Task A (type 0) arrives at 0, due 30; it
// takes 20 with chance 0.4 or 60 with chance 0.6, and this time takes 60. B and C (type 1, 10
// each) arrive at 1, due 25 and 35.
//
// Without pruning: A runs from 0 and is killed at its deadline 30; B's deadline 25 has passed
// by then (dropped); C starts at 30 and is killed at 35. Nothing succeeds.
//
// With dropping (always engaged, θ = 0.5): at the event at 1, A (running since 0, chance 0.4
// given it has not finished by 1) is at or below 0.5 and is dropped; B then runs 1–11 and C
// 11–21, both on time.
func TestDroppingHeadSavesTwo(t *testing.T) {
	a, _ := pmf.New(20, 10, []float64{0.4, 0, 0, 0, 0.6})
	pet := replaytest.Grid{{a}, {pmf.Impulse(10, 10)}}
	// A's observed duration on machine type 0 is 60: the world is fixed, not sampled.
	tasks := []replay.Task{
		{ID: 0, Type: 0, Arrival: 0, Deadline: 30, Observed: []float64{60}},
		{ID: 1, Type: 1, Arrival: 1, Deadline: 25},
		{ID: 2, Type: 1, Arrival: 1, Deadline: 35},
	}
	opt := replay.DefaultOptions()
	opt.QueueSize, opt.Trim = 3, 0
	cfg := replay.Config{PET: pet, Machines: []replay.Machine{{Type: 0}}, Tasks: tasks, Options: opt}

	statuses := func(m replay.Mapper) map[int64]replay.Status {
		res, err := replay.Run(t.Context(), cfg, m)
		if err != nil {
			t.Fatal(err)
		}
		out := map[int64]replay.Status{}
		for _, o := range res.Outcomes {
			out[o.Task.ID] = o.Status
		}
		return out
	}
	base := statuses(toMachine0{})
	if base[0] != replay.DroppedDeadline || base[1] != replay.DroppedDeadline || base[2] != replay.DroppedDeadline {
		t.Fatalf("without pruning: %v, want all three dropped at their deadlines", base)
	}
	pc := DefaultConfig()
	pc.Variant, pc.Toggle = Drop, Toggle{Kind: "always"}
	m, _ := Wrap(toMachine0{}, pc)
	got := statuses(m)
	if got[0] != replay.DroppedPruned || got[1] != replay.OnTime || got[2] != replay.OnTime {
		t.Fatalf("with dropping: %v, want A pruned, B and C on time", got)
	}
}

// TestDeferringReachesBetterMachine: two machines, queue size 1. P (type 0) arrives at 0 and
// runs on machine 0 (2 vs 50 on machine 1) until 10. X (type 1) arrives at 1, due 20: machine 0
// would take 5, machine 1 takes 50.
//
// MM at 1 can only use machine 1 (machine 0 is full): X would finish at 51, chance 0, and
// fails. MM-D defers it (0 ≤ 0.75); at 10 P completes, the event maps X to machine 0, which
// finishes it at 15, on time.
func TestDeferringReachesBetterMachine(t *testing.T) {
	pet := replaytest.Grid{{pmf.Impulse(10, 1), pmf.Impulse(50, 1)}, {pmf.Impulse(5, 1), pmf.Impulse(50, 1)}}
	tasks := []replay.Task{{ID: 0, Type: 0, Arrival: 0, Deadline: 100}, {ID: 1, Type: 1, Arrival: 1, Deadline: 20}}
	opt := replay.DefaultOptions()
	opt.QueueSize, opt.Trim = 1, 0
	cfg := replay.Config{PET: pet, Machines: []replay.Machine{{Type: 0}, {Type: 1}}, Tasks: tasks, Options: opt}
	x := func(m replay.Mapper) replay.Outcome {
		res, err := replay.Run(t.Context(), cfg, m)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range res.Outcomes {
			if o.Task.ID == 1 {
				return o
			}
		}
		t.Fatal("no outcome for X")
		return replay.Outcome{}
	}
	if o := x(heuristic.MM{}); o.Machine != 1 || o.Status == replay.OnTime {
		t.Fatalf("MM: X on machine %d, %v; want machine 1 and a miss", o.Machine, o.Status)
	}
	pc := DefaultConfig()
	pc.Variant = Defer
	m, _ := Wrap(heuristic.MM{}, pc)
	if o := x(m); o.Machine != 0 || o.Status != replay.OnTime || o.End != 15 || o.Deferred != 1 {
		t.Fatalf("MM-D: X on machine %d, %v, ends %v, deferred %d; want machine 0, on time at 15, deferred once", o.Machine, o.Status, o.End, o.Deferred)
	}
}

// TestNeverAndZeroIsUnpruned: with the toggle never engaged and both thresholds 0, every
// heuristic with every variant gives the same summary as without pruning, byte for byte (but
// for its name and variant).
func TestNeverAndZeroIsUnpruned(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cfg := replay.Config{PET: replaytest.RandomPET(r, 3, 3, 5, 16), Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}},
		Tasks: replaytest.RandomTasks(r, 150, 3, 0.6, 4, 30), Options: replay.DefaultOptions()}
	cfg.Options.Trim = 5
	for _, h := range heuristic.All() {
		base, err := replay.Run(t.Context(), cfg, h.New(heuristic.DefaultParams()))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []Variant{Defer, Drop, Both} {
			pc := Config{Variant: v, Toggle: Toggle{Kind: "never"}, Lambda: 1, Defer: DeferRule{Kind: "static"}}
			m, err := Wrap(h.New(heuristic.DefaultParams()), pc)
			if err != nil {
				t.Fatal(err)
			}
			res, err := replay.Run(t.Context(), cfg, m)
			if err != nil {
				t.Fatal(err)
			}
			a, b := base.Summary, res.Summary
			b.Heuristic, b.Prune, b.Readings = a.Heuristic, a.Prune, a.Readings // a pruner's name and readings, not its decisions
			ja, _ := json.Marshal(a)
			jb, _ := json.Marshal(b)
			if string(ja) != string(jb) {
				t.Errorf("%s%s with never/0 differs from %s:\n%s\n%s", h.Name, v.Suffix(), h.Name, ja, jb)
			}
		}
	}
}

// TestInvariantsWithPruning: every heuristic × variant × drop model keeps the replay invariants,
// with the most aggressive pruning (always engaged, skew adjustment, fairness); then, with both
// kinds of pruning, every drop model × running-task rule × deferral placement (issue 45).
func TestInvariantsWithPruning(t *testing.T) {
	models := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}
	for _, h := range heuristic.All() {
		t.Run(h.Name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(7, uint64(len(h.Name))))
			for trial := range 36 {
				cfg := replay.Config{PET: replaytest.RandomPET(r, 4, 3, 6, 16),
					Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}, {Type: 2}},
					Tasks:    replaytest.RandomTasks(r, 120, 4, 0.4+r.Float64(), 4, 30), Options: replay.DefaultOptions()}
				cfg.Options.DropModel = models[trial%3]
				cfg.Options.QueueSize = 1 + r.IntN(4)
				cfg.Options.Trim = 3
				pc := DefaultConfig()
				pc.Variant = []Variant{Defer, Drop, Both, Both}[min(trial/3, 3)]
				pc.Toggle, pc.Rho, pc.Fairness = Toggle{Kind: "always"}, 0.3, 0.1
				if trial%2 == 1 {
					pc.Defer = DeferRule{Kind: "dynamic", Value: 0.05, Start: 0.4 * float64(trial%3)}
				}
				if k := trial - 9; k >= 0 {
					pc.DropRunning, pc.DeferAt = RunningDrop((k/3)%3), []DeferPlace{DeferAfter, DeferBefore, DeferAfterRejudge}[k/9]
					pc.SufferExpired = k%2 == 0
				}
				m, err := Wrap(h.New(heuristic.DefaultParams()), pc)
				if err != nil {
					t.Fatal(err)
				}
				res, err := replay.Run(t.Context(), cfg, m)
				if err != nil {
					t.Fatal(err)
				}
				size := cfg.Options.QueueSize
				if h.Mode == replay.Immediate {
					size = math.MaxInt
				}
				replaytest.CheckInvariants(t, fmt.Sprintf("%s%s trial %d %v defer-at %v drop-running %v", h.Name, pc.Variant.Suffix(), trial, cfg.Options.DropModel, pc.DeferAt, pc.DropRunning), cfg, res, size, true)
			}
		})
	}
}

func TestPresets(t *testing.T) {
	for _, c := range []struct{ name, want, variant string }{
		{"PAMF", "PAMF-P", "both"}, {"pamnd", "PAMND-D", "defer"}, {"PUM", "PUM-P", "both"}, {"MOCA", "MOCA", "none"},
	} {
		m, err := New(c.name, heuristic.DefaultParams(), Config{Lambda: 1, Toggle: Toggle{Kind: "threshold", On: 1}, DropThreshold: 0.5, Defer: DeferRule{Kind: "gap", Value: 0.25}})
		if err != nil {
			t.Fatal(err)
		}
		v := "none"
		if p, ok := m.(interface{ Variant() string }); ok {
			v = p.Variant()
		}
		if m.Name() != c.want || v != c.variant {
			t.Errorf("%s: name %s variant %s, want %s %s", c.name, m.Name(), v, c.want, c.variant)
		}
	}
	if _, err := New("NOPE", heuristic.DefaultParams(), DefaultConfig()); err == nil {
		t.Error("unknown name: no error")
	}
	// Out of range: a parameter of a heuristic (even one the named heuristic does not read) and
	// the pruning's ρ, which must be finite (a weight of +Inf made every threshold +Inf).
	p := heuristic.DefaultParams()
	p.MOCCandidates = 20
	if _, err := New("MOC", p, DefaultConfig()); err == nil || !strings.Contains(err.Error(), "MOC candidates 20") {
		t.Errorf("20 MOC candidates: error %v", err)
	}
	if _, err := New("MM", p, DefaultConfig()); err == nil {
		t.Error("20 MOC candidates for MM: no error")
	}
	cfg := DefaultConfig()
	cfg.Rho = math.Inf(1)
	if _, err := New("PAM", heuristic.DefaultParams(), cfg); err == nil || !strings.Contains(err.Error(), "ρ +Inf must be finite") {
		t.Errorf("ρ = +Inf: error %v", err)
	}
}

// chanceEvent answers what Eqs 8 and 9 need: free slots, success chances, queue chances.
type chanceEvent struct {
	replay.Event
	free    []int
	success map[[2]int]float64
	queues  [][]replay.QueueChance
}

func (c chanceEvent) NumMachines() int                        { return len(c.free) }
func (c chanceEvent) Free(m int) int                          { return c.free[m] }
func (c chanceEvent) Success(h, m int) float64                { return c.success[[2]int{h, m}] }
func (c chanceEvent) SuccessAbove(h, m int, x float64) bool   { return c.Success(h, m) > x }
func (c chanceEvent) QueueChances(m int) []replay.QueueChance { return c.queues[m] }

// TestCompetencyAndInstantRobustness checks 000 Eq 8 (share of batch tasks whose best chance on
// a machine with a free slot beats the threshold) and Eq 9 (mean chance of the queued tasks) by
// hand.
func TestCompetencyAndInstantRobustness(t *testing.T) {
	ev := chanceEvent{
		free: []int{1, 0, 2},
		success: map[[2]int]float64{
			{0, 0}: 0.9, {0, 1}: 0.1, {0, 2}: 0.2, // best free 0.9 > 0.6: competent
			{1, 0}: 0.3, {1, 1}: 0.99, {1, 2}: 0.5, // 0.99 is on a full machine: best free 0.5, not
			{2, 0}: 0.6, {2, 1}: 0.0, {2, 2}: 0.61, // 0.61 > 0.6: competent
			{3, 0}: 0.6, {3, 1}: 0.0, {3, 2}: 0.6, // exactly the threshold: not (strictly higher)
		},
		queues: [][]replay.QueueChance{{{Success: 1}, {Success: 0.5}}, {}, {{Success: 0.3}}},
	}
	if got := competency(ev, []int{0, 1, 2, 3}, 0.6); got != 0.5 {
		t.Errorf("competency %v, want 2/4", got)
	}
	if got := competency(ev, nil, 0.6); got != 0 {
		t.Errorf("competency of an empty batch %v, want 0", got)
	}
	if got := instantRobustness(ev); math.Abs(got-0.6) > 1e-12 { // (1 + 0.5 + 0.3) / 3
		t.Errorf("instantaneous robustness %v, want 0.6", got)
	}
	empty := chanceEvent{free: []int{1}, queues: [][]replay.QueueChance{{}}}
	if got := instantRobustness(empty); got != 1 {
		t.Errorf("instantaneous robustness with empty queues %v, want 1", got)
	}
}

// TestSufferageExpired: with Config.SufferExpired off (the default) a task that expires unmapped
// leaves its type's sufferage where it was; every other unsuccessful exit still raises it by ϑ.
func TestSufferageExpired(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Fairness = 0.25
	p := newPruner(t, cfg)
	types := map[int]int{1: 0, 2: 1}
	p.account(fakeEvent{exits: []replay.Exit{{Task: 1, Status: replay.ExpiredUnmapped}, {Task: 2, Status: replay.DroppedPruned}}, types: types})
	if p.sufferage[0] != 0 || p.sufferage[1] != 0.25 {
		t.Errorf("expiry of type 0, pruner's drop of type 1: sufferage %v, want 0 and 0.25", p.sufferage)
	}
}
