package replay

import (
	"math"
	"slices"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// nearHalfPET is one task type on one machine type whose execution time is 1 with chance
// a = 0.5 + 5·10⁻¹³ and 2 otherwise: a task started at 0 with deadline 1 has chance a, which
// lies on a rounding boundary of the 12 decimals chances are reported to (a·10¹² ends in .5).
// The fast engine then recomputes the chance as the reference engine does (fast.refAppend).
func nearHalfPET(t *testing.T) gridPET {
	x, err := pmf.New(1, 1, []float64{0.5 + 5e-13, 0.5 - 5e-13})
	if err != nil {
		t.Fatal(err)
	}
	return gridPET{{x}}
}

// TestSuccessEvalsCounted: Summary.SuccessEvals counts the chance evaluations an engine made, by
// hand. One machine, idle; one task at 0 with deadline 1; the mapper asks its chance once and
// assigns it, and Assign asks again (the predicted chance): two questions. The reference engine
// evaluates each: 2. The fast engine evaluates the first against its table and remembers it for
// the second: 1 for a chance of 1/2 (execution time 1 or 2, each 1/2); when the chance is on a
// rounding boundary (nearHalfPET) each question also costs one plain evaluation: 1 + 2 = 3.
func TestSuccessEvalsCounted(t *testing.T) {
	half, err := pmf.New(1, 1, []float64{0.5, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	askThenAssign := mapperFunc{"ask", Immediate, func(ev Event) {
		for _, h := range ev.Batch() {
			ev.Success(h, 0)
			ev.Assign(h, 0)
		}
	}}
	for _, c := range []struct {
		name, engine string
		pet          gridPET
		want         int64
	}{
		{"reference", "reference", gridPET{{half}}, 2},
		{"reference, on a boundary", "reference", nearHalfPET(t), 2},
		{"fast", "", gridPET{{half}}, 1},
		{"fast, on a boundary", "", nearHalfPET(t), 3},
	} {
		cfg := Config{PET: c.pet, Machines: machinesOf(0), Tasks: []Task{{ID: 0, Deadline: 1}}, Options: DefaultOptions()}
		cfg.Options.Engine = c.engine
		if got := run(t, cfg, askThenAssign).Summary.SuccessEvals; got != c.want {
			t.Errorf("%s: %d success evaluations, want %d", c.name, got, c.want)
		}
	}
}

// TestFastOracleFollowsQueue: the chain the fast engine keeps for recomputing a chance on a
// rounding boundary is rebuilt when the queue has grown since, within one event. Drop model
// none, one idle machine, tasks A (nearHalfPET's execution time, deadline 1) and B (takes 1,
// deadline 2) in one batch at 0. A's chance, asked first, is a: the chain is built for the idle
// machine. A is assigned; B's chance behind it is P(A + 1 ≤ 2) = P(A ≤ 1) = a, on the boundary
// again, so it is recomputed: behind A, ≈ 0.5. Behind the idle machine's old chain it would be 1.
func TestFastOracleFollowsQueue(t *testing.T) {
	one := pmf.Impulse(1, 1)
	pet := nearHalfPET(t)
	pet = append(pet, []pmf.PMF{one})
	var got float64
	mapper := mapperFunc{"A then B", Batch, func(ev Event) {
		if len(ev.Batch()) != 2 {
			return // the events after the arrivals
		}
		a, b := ev.Batch()[0], ev.Batch()[1]
		ev.Success(a, 0)
		ev.Assign(a, 0)
		got = ev.Success(b, 0)
		ev.Assign(b, 0)
	}}
	cfg := Config{PET: pet, Machines: machinesOf(0), Options: DefaultOptions(),
		Tasks: []Task{{ID: 0, Type: 0, Deadline: 1}, {ID: 1, Type: 1, Deadline: 2}}}
	cfg.Options.DropModel = pmf.None
	run(t, cfg, mapper)
	if math.Abs(got-0.5) > 1e-11 {
		t.Errorf("B's chance behind A %v, want 0.5 + 5e-13 to 12 decimals", got)
	}
}

// TestFallbacksConvolve: where a queued chance, its skewness or a run completion lies within the
// engines' window of a rounding boundary, the fast engine takes the reference's chain instead
// of its own (fast.queueChances, fast.runCompletion), which costs a convolution per queued link;
// elsewhere it does not. Counted by hand as the convolutions (Summary.Convolutions) one question
// adds to a run that assigns the same tasks without it. One idle machine, drop model none; A
// (deadline 1) is assigned at 0, then the question is asked, then B (if any) is assigned behind
// A. QueueChances settles A's link onto the idle machine's chain (1), and takes the
// reference's chain (1 more) when A's chance P(A ≤ 1) = p or its skewness is on a boundary: p =
// 0.5 + 5e-13 + 2e-15 is 0.002 of a unit of the 12th decimal off one (the window is 0.005); p =
// 0.5 + 1.2525e-10 gives a skewness (2p − 1)/√(p(1 − p)) ≈ 5.01e-10, 0.001 of a unit of
// 1e-9 off one (the window is 0.002). RunCompletion(B) settles A's link, which the run without it
// settles when it assigns B: 0; and takes the reference's tail (1) when 1.5 + E[B] lies near a
// boundary: E[B] = 2 − q with q = 0.4999999995 − 1e-14 gives 3.0000000005 + 1e-14, 1e-5 of a
// unit of 1e-9 off it (the window is 2.4e-5); asked again in the same event, it reuses that tail.
func TestFallbacksConvolve(t *testing.T) {
	two := func(p float64) pmf.PMF {
		d, err := pmf.New(1, 1, []float64{p, 1 - p})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	queue := func(ev Event, _ int) { ev.QueueChances(0) }
	runCompletion := func(ev Event, b int) { ev.RunCompletion(b, 0) }
	skewed := two(0.5 + 1.2525e-10)
	if s := skewed.Skewness() * 1e9; math.Abs(s-math.Floor(s)-0.5) > 0.0015 || math.Abs(s-math.Floor(s)-0.5) < 0.0005 {
		t.Fatalf("skewness %v: not 0.001 units off a rounding boundary", s/1e9)
	}
	for _, c := range []struct {
		name string
		a, b pmf.PMF // b zero: no B
		ask  func(ev Event, b int)
		want int64
	}{
		{"queue chance off a boundary", two(0.5), pmf.PMF{}, queue, 1},
		{"queue chance near a boundary", two(0.5 + 5e-13 + 2e-15), pmf.PMF{}, queue, 2},
		{"skewness near a boundary", skewed, pmf.PMF{}, queue, 2},
		{"run completion off a boundary", two(0.5), two(0.5), runCompletion, 0},
		{"run completion near a boundary", two(0.5), two(0.4999999995 - 1e-14), runCompletion, 1},
		{"run completion near a boundary, asked twice", two(0.5), two(0.4999999995 - 1e-14), func(ev Event, b int) {
			ev.RunCompletion(b, 0)
			ev.RunCompletion(b, 0)
		}, 1},
	} {
		convolutions := func(ask bool) int64 {
			pet := gridPET{{c.a}}
			tasks := []Task{{ID: 0, Type: 0, Deadline: 1}}
			if c.b.Len() > 0 {
				pet = append(pet, []pmf.PMF{c.b})
				tasks = append(tasks, Task{ID: 1, Type: 1, Deadline: 100})
			}
			cfg := Config{PET: pet, Machines: machinesOf(0), Tasks: tasks, Options: DefaultOptions()}
			cfg.Options.DropModel = pmf.None
			res := run(t, cfg, mapperFunc{"A, ask, B", Batch, func(ev Event) {
				hs := append([]int(nil), ev.Batch()...)
				if len(hs) == 0 {
					return // the events after the arrivals
				}
				if len(hs) != len(tasks) {
					t.Fatalf("%s: batch of %d at %g", c.name, len(hs), ev.Now())
				}
				ev.Assign(hs[0], 0)
				if ask {
					c.ask(ev, hs[len(hs)-1])
				}
				for _, h := range hs[1:] {
					ev.Assign(h, 0)
				}
			}})
			return res.Summary.Convolutions
		}
		if got := convolutions(true) - convolutions(false); got != c.want {
			t.Errorf("%s: the question costs %d convolutions, want %d", c.name, got, c.want)
		}
	}
}

// TestChanceThenMeanOnePass: where a mapper asks each pair's chance and then its expected
// completion (MM-P's pruner and MM; PAM's ties), the fast engine under evict computes both in
// one pass once more than half of the chances it computed alone had their mean asked after all.
// One machine, idle at each arrival (every 10 time units, execution time 1 or 2, deadline 5
// after arrival), n tasks; the mapper asks Success, then Completion, and assigns (Assign's own
// question is a memo hit). By hand: the first task costs two evaluations (the chance alone, then
// chance and mean for the mean); from then on 1 of 1 chances computed alone had its mean asked,
// so each later task costs one: n + 1. Asking the chance only costs n, the mean only n, and the
// values are the reference engine's.
func TestChanceThenMeanOnePass(t *testing.T) {
	half, err := pmf.New(1, 1, []float64{0.5, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	const n = 40
	var tasks []Task
	for i := range n {
		tasks = append(tasks, Task{ID: int64(i), Arrival: float64(10 * i), Deadline: float64(10*i + 5)})
	}
	type answer struct{ s, c float64 }
	asker := func(chance, mean bool, got *[]answer) Mapper {
		return mapperFunc{"ask", Immediate, func(ev Event) {
			for _, h := range ev.Batch() {
				a := answer{math.NaN(), math.NaN()}
				if chance {
					a.s = ev.Success(h, 0)
				}
				if mean {
					a.c = ev.Completion(h, 0)
				}
				*got = append(*got, a)
				ev.Assign(h, 0)
			}
		}}
	}
	for _, c := range []struct {
		name         string
		chance, mean bool
		want         int64
	}{
		{"chance then mean", true, true, n + 1},
		{"chance only", true, false, n},
		{"mean only", false, true, n},
	} {
		var fast, ref []answer
		cfg := Config{PET: gridPET{{half}}, Machines: machinesOf(0), Tasks: tasks, Options: DefaultOptions()}
		if cfg.Options.DropModel != pmf.Evict {
			t.Fatalf("the default drop model is %v, not evict", cfg.Options.DropModel)
		}
		if got := run(t, cfg, asker(c.chance, c.mean, &fast)).Summary.SuccessEvals; got != c.want {
			t.Errorf("%s: %d success evaluations, want %d", c.name, got, c.want)
		}
		cfg.Options.Engine = "reference"
		run(t, cfg, asker(c.chance, c.mean, &ref))
		for i := range fast {
			f, r := fast[i], ref[i]
			if !(f.s == r.s || math.IsNaN(f.s) && math.IsNaN(r.s)) || !(f.c == r.c || math.IsNaN(f.c) && math.IsNaN(r.c)) {
				t.Errorf("%s: task %d: fast %v, reference %v", c.name, i, f, r)
			}
		}
	}
}

// TestHintPerTask: Event.Hint is -1 for a task no mapper noted, and the machine SetHint noted for
// it at an earlier event of the replay; a task that arrives later, on the handle of one that has
// left, starts with none. One machine (0) and a second (1); A arrives at 0, B at 1 while A waits
// (the mapper defers A at 0 and notes 1 for it, and assigns both at 1), C at 10 once both have
// left, on a handle they freed.
func TestHintPerTask(t *testing.T) {
	one, err := pmf.New(1, 1, []float64{1})
	if err != nil {
		t.Fatal(err)
	}
	type seen struct {
		id   int64
		hint int
	}
	var got []seen
	noter := mapperFunc{"note", Batch, func(ev Event) {
		for _, h := range ev.Batch() {
			got = append(got, seen{ev.Task(h).ID, ev.Hint(h)})
			if ev.Now() == 0 {
				ev.SetHint(h, 1)
				ev.Defer(h)
				continue
			}
			ev.SetHint(h, 0)
			ev.Assign(h, int(ev.Task(h).ID)%2)
		}
	}}
	cfg := Config{PET: gridPET{{one}}, Machines: machinesOf(0, 0), Options: DefaultOptions(),
		Tasks: []Task{{ID: 0, Arrival: 0, Deadline: 50}, {ID: 1, Arrival: 1, Deadline: 50}, {ID: 2, Arrival: 10, Deadline: 50}}}
	run(t, cfg, noter)
	want := []seen{{0, -1}, {0, 1}, {1, -1}, {2, -1}}
	if !slices.Equal(got, want) {
		t.Fatalf("hints seen %v, want %v", got, want)
	}
}

// TestChanceThenMeanSwitches: the switch of TestChanceThenMeanOnePass over longer replays,
// against the rule as documented, counted apart from the engine: a chance is computed with its
// mean while twice the means asked after a chance exceed the chances, both counts halved when the
// chances reach 4,096. Each question costs one evaluation, and a mean asked after a chance
// computed alone one more. Short: one task asks chance then mean, 20 the chance only, one both
// (the engine is back to chances alone by then). Long: one both, 4,500 the chance only (the
// counts are halved on the way), then 3,000 both: the engine switches back to one pass only once
// their means outweigh the chances alone. Each count differs from both a replay that always
// computes the two apart (but the short one's, back to chances alone by its last task) and one
// that always computes them together.
func TestChanceThenMeanSwitches(t *testing.T) {
	half, err := pmf.New(1, 1, []float64{0.5, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	of := func(runs ...int) []bool { // alternately both, then the chance only, then both...
		var p []bool
		for i, n := range runs {
			for range n {
				p = append(p, i%2 == 0)
			}
		}
		return p
	}
	for _, c := range []struct {
		name     string
		pattern  []bool // whether task i's mean is asked after its chance
		switches bool   // to one pass and back within the last run
	}{
		{"short", of(1, 20, 1), false},
		{"long", of(1, 4500, 3000), true},
	} {
		var want, apart, together int64
		chances, means := 0, 0
		for _, mean := range c.pattern {
			both := 2*means > chances
			want++
			apart++
			together++
			if chances++; chances == 4096 {
				chances, means = chances/2, means/2
			}
			if mean {
				means++
				apart++
				if !both {
					want++
				}
			}
		}
		if want == together || c.switches && want == apart {
			t.Fatalf("%s: %d evaluations tell no switch (apart %d, together %d)", c.name, want, apart, together)
		}
		var tasks []Task
		for i := range c.pattern {
			tasks = append(tasks, Task{ID: int64(i), Arrival: float64(10 * i), Deadline: float64(10*i + 5)})
		}
		asker := mapperFunc{"ask", Immediate, func(ev Event) {
			for _, h := range ev.Batch() {
				ev.Success(h, 0)
				if c.pattern[ev.Task(h).ID] {
					ev.Completion(h, 0)
				}
				ev.Assign(h, 0)
			}
		}}
		cfg := Config{PET: gridPET{{half}}, Machines: machinesOf(0), Tasks: tasks, Options: DefaultOptions()}
		if got := run(t, cfg, asker).Summary.SuccessEvals; got != want {
			t.Errorf("%s: %d success evaluations, want %d", c.name, got, want)
		}
	}
}
