package replay

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// TestFastConvolvesWhatItUses counts the fast engine's convolutions on a workload small enough to
// count by hand. Pairs of tasks arrive together, ten time units apart, at one machine where each
// runs 1, 2 or 3 units: the pair is mapped in one event and both have finished before the next.
// Asking about the second task of a pair needs the first one's link, one convolution of the idle
// machine's impulse with a 3-impulse execution time; the second one's link is never used, since
// its queue has emptied by the next event, and must not be made. The reference engine rebuilds
// the chain for each question, and each task is asked about twice, by the mapper and by Assign
// (its predicted chance): for the first task one link each time, for the second two.
func TestFastConvolvesWhatItUses(t *testing.T) {
	exec, err := pmf.New(1, 1, []float64{1.0 / 3, 1.0 / 3, 1.0 / 3})
	if err != nil {
		t.Fatal(err)
	}
	const pairs = 3
	var tasks []Task
	for i := range pairs {
		at := 10 * float64(i)
		tasks = append(tasks, Task{ID: int64(2 * i), Arrival: at, Deadline: at + 9}, Task{ID: int64(2*i + 1), Arrival: at, Deadline: at + 9})
	}
	wants := map[string]struct{ convolutions, multiplications int64 }{
		"fast":      {pairs, pairs * 1 * 3},
		"reference": {2 * 3 * pairs, 2 * pairs * (1*3 + 1*3 + 3*3)},
	}
	for engine, want := range wants {
		opt := DefaultOptions()
		opt.Engine, opt.Trim = engine, 0
		res := run(t, Config{PET: gridPET{{exec}}, Machines: machinesOf(0), Tasks: tasks, Options: opt}, greedyBest)
		s := res.Summary
		if s.OnTime != 2*pairs {
			t.Fatalf("%s: %d of %d tasks on time: the workload is not what the count assumes", engine, s.OnTime, 2*pairs)
		}
		if s.Convolutions != want.convolutions || s.Multiplications != want.multiplications {
			t.Errorf("%s: %d convolutions, %d multiplications; want %d and %d",
				engine, s.Convolutions, s.Multiplications, want.convolutions, want.multiplications)
		}
	}
}

// TestFreeFromBoundsTail: Event.FreeFrom is never after the first outcome of the free-time PMF
// that the reference engine's full chain gives the machine (Tail), before and after every
// assignment, under every drop model, with and without conditioning on elapsed time. tight
// counts machines whose bound is that first outcome exactly, so that the test knows the bound
// is not merely now.
func TestFreeFromBoundsTail(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	checked, tight := 0, 0
	for i := range 24 {
		model := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}[i%3]
		cfg := Config{PET: randomPET(r, 3, 2, 5, 12, 1), Machines: machinesOf(0, 1, 1),
			Tasks: randomTasks(r, 60, 3, 0.5+r.Float64(), 3, 30), Options: DefaultOptions()}
		cfg.Options.Engine, cfg.Options.DropModel = "reference", model
		cfg.Options.ConditionElapsed, cfg.Options.Strict = i%2 == 0, i%5 == 0
		cfg.Options.QueueSize = 2 + r.IntN(4)
		check := func(ev Event, when string) {
			for m := range ev.NumMachines() {
				from, first := ev.FreeFrom(m), ev.Tail(m).Origin()
				if from > first+1e-9 {
					t.Fatalf("workload %d (%v, conditioning %v) at %g %s: machine %d queue %v: FreeFrom %v after the tail's first outcome %v",
						i, model, cfg.Options.ConditionElapsed, ev.Now(), when, m, ev.Queue(m), from, first)
				}
				checked++
				if from == first && len(ev.Queue(m)) > 1 {
					tight++
				}
			}
		}
		mapper := mapperFunc{"checked greedy", Batch, func(ev Event) {
			check(ev, "before mapping")
			greedy(ev, func(ev Event) { check(ev, "after an assignment") })
		}}
		run(t, cfg, mapper)
	}
	if checked < 5000 || tight < 100 {
		t.Fatalf("checked %d bounds, %d of them tight on a queue of two or more: too few to tell", checked, tight)
	}
	t.Logf("checked %d bounds, %d tight", checked, tight)
}

// skewnessFree is greedyBest saying it reads no skewness.
type skewnessFree struct{ mapperFunc }

func (skewnessFree) ReadsSkewness() bool { return false }

// TestSkewnessOnlyForReaders: a mapper that does not say whether it reads QueueChance.Skewness
// gets each queued task's bounded skewness: the running task's is that of its completion PMF
// (Ready), each waiting task's that of the chain from Ready through it, built here with
// pmf.Append. One that says it does not gets NaN, under every engine.
func TestSkewnessOnlyForReaders(t *testing.T) {
	for _, engine := range []string{"reference", "fast", "approx"} {
		cfg := Config{PET: randomPET(rand.New(rand.NewPCG(3, 3)), 2, 1, 6, 10, 1), Machines: machinesOf(0, 0),
			Tasks: randomTasks(rand.New(rand.NewPCG(4, 4)), 40, 2, 1, 5, 30), Options: DefaultOptions()}
		cfg.Options.Engine, cfg.Options.ApproxBucket = engine, 1
		var real, nan, waiting int
		look := func(ev Event) {
			for m := range ev.NumMachines() {
				chances := ev.QueueChances(m)
				for _, c := range chances {
					if math.IsNaN(c.Skewness) {
						nan++
						continue
					}
					real++
				}
				if len(chances) == 0 || math.IsNaN(chances[0].Skewness) {
					continue
				}
				free, q := ev.Ready(m), ev.Queue(m)
				if ev.Running(m) {
					if want := roundSkewness(free.BoundedSkewness()); chances[0].Skewness != want { // rounded as handed out
						t.Fatalf("%s at %g: the running task's skewness %v, its completion PMF's %v", engine, ev.Now(), chances[0].Skewness, want)
					}
					chances, q = chances[1:], q[1:]
				}
				for i, h := range q {
					var err error
					if free, _, err = pmf.Append(ev.DropModel(), free, ev.Exec(h, m), ev.Task(h).Deadline, ev.Strict()); err != nil {
						t.Fatal(err)
					}
					if want := free.BoundedSkewness(); math.Abs(chances[i].Skewness-want) > 1e-9 {
						t.Fatalf("%s at %g: waiting task %d's skewness %v, its chain's %v", engine, ev.Now(), i, chances[i].Skewness, want)
					}
					waiting++
				}
			}
		}
		reader := mapperFunc{"reader", Batch, func(ev Event) { look(ev); greedyBest.f(ev) }}
		run(t, cfg, reader)
		if real == 0 || nan > 0 || waiting < 50 {
			t.Fatalf("%s: a mapper that does not say saw %d skewnesses (%d of waiting tasks checked) and %d NaNs", engine, real, waiting, nan)
		}
		real, nan = 0, 0
		run(t, cfg, skewnessFree{mapperFunc{"free", Batch, func(ev Event) { look(ev); greedyBest.f(ev) }}})
		if real > 0 || nan == 0 {
			t.Fatalf("%s: a mapper that reads none saw %d skewnesses and %d NaNs", engine, real, nan)
		}
	}
}

// TestFastRebuildsWithAssignments: a fast chain rebuilt from scratch while the event's
// assignments wait in the queue (the engine extends its chain at each assignment instead, so
// here the rebuild is forced) gives every queued task's chance and the machine's free time as
// the reference engine's chain does, under every drop model, for a mapper that reads no
// skewness (the fast engine then builds the waiting tasks' links in one call).
func TestFastRebuildsWithAssignments(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	checked := 0
	for i := range 12 {
		model := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}[i%3]
		cfg := Config{PET: randomPET(r, 3, 2, 5, 12, 1), Machines: machinesOf(0, 1, 1),
			Tasks: randomTasks(r, 60, 3, 0.5+r.Float64(), 3, 30), Options: DefaultOptions()}
		cfg.Options.DropModel, cfg.Options.ConditionElapsed = model, i%2 == 0
		cfg.Options.QueueSize = 3 + r.IntN(3)
		mapper := skewnessFree{mapperFunc{"rebuilding greedy", Batch, func(ev Event) {
			greedy(ev, func(ev Event) {
				e := ev.(*mapping).e
				f := e.chances.(*fast)
				for m := range ev.NumMachines() {
					if len(e.virtual[m]) == 0 {
						continue
					}
					f.changed(m)
					f.versions[m] = 0 // as if never built: a full rebuild, assignments included
					got := append([]QueueChance(nil), ev.QueueChances(m)...)
					tail := ev.Tail(m)
					wantTail, want := reference{e: e}.chain(m)
					if len(got) != len(want) {
						t.Fatalf("workload %d at %g: machine %d: %d chances, want %d", i, ev.Now(), m, len(got), len(want))
					}
					for k := range want {
						if math.Abs(got[k].Success-want[k].Success) > 1e-12 {
							t.Fatalf("workload %d (%v) at %g: machine %d queue %v: task %d's chance %v, reference %v", i, model, ev.Now(), m, ev.Queue(m), k, got[k].Success, want[k].Success)
						}
					}
					if tail.Len() != wantTail.Len() || math.Abs(tail.Mean()-wantTail.Mean()) > 1e-9 {
						t.Fatalf("workload %d (%v) at %g: machine %d: free time %v, reference %v", i, model, ev.Now(), m, tail, wantTail)
					}
					checked++
				}
			})
		}}}
		run(t, cfg, mapper)
	}
	if checked < 200 {
		t.Fatalf("checked %d rebuilds with assignments waiting: too few to tell", checked)
	}
}

// lateWorkload is n random tasks of four types on three machines of two types under drop model
// model, at times past 3000, where the last bits of a time are worth more: the workloads on which
// the fast engine's values are checked against the reference engine's near rounding boundaries.
func lateWorkload(r *rand.Rand, n int, model pmf.Model) Config {
	tasks := randomTasks(r, n, 4, 0.06+0.04*r.Float64(), 50, 400)
	for k := range tasks {
		tasks[k].Arrival += 3000
		tasks[k].Deadline += 3000
	}
	cfg := Config{PET: randomPET(r, 4, 2, 60, 120, 1), Machines: machinesOf(0, 1, 1), Tasks: tasks, Options: DefaultOptions()}
	cfg.Options.DropModel = model
	return cfg
}

// TestFastRoundsAsReference: every success chance and expected completion the fast engine
// reports equals, to the bit, the reference engine's for the same state. Rounding alone does not
// give that: the engines' unrounded values differ in their last bits, and a value that close to
// a rounding boundary rounds apart (issue 51: MM on HCW19 trial arr34k_8 mapped different tasks).
// The workloads run at times in the thousands, with cells of up to 60 impulses, where the
// engines' completions differ by about 1e-12, so about one in a thousand lies that close to a
// boundary of 1e-9: without the fast engine's fallback near a boundary (fast.completion), this
// test found 4 completions that differ (5338.837702802 against 5338.837702801 …).
func TestFastRoundsAsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 2))
	checked := 0
	for i := range 6 {
		model := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}[i%3]
		cfg := lateWorkload(r, 400, model)
		mapper := checkingGreedy(func(ev Event, e *engine) {
			if _, ok := e.chances.(*fast); !ok {
				t.Fatalf("engine %T, want the fast one", e.chances)
			}
			ref := reference{e: e}
			for _, h := range ev.Batch() {
				for m := range ev.NumMachines() {
					if got, want := ev.Completion(h, m), ref.completion(h, m); got != want {
						t.Errorf("workload %d (%v) at %v: task %d on machine %d: completion %.17g, reference %.17g", i, model, ev.Now(), h, m, got, want)
					}
					if got, want := ev.Success(h, m), ref.success(h, m); got != want {
						t.Errorf("workload %d (%v) at %v: task %d on machine %d: chance %.17g, reference %.17g", i, model, ev.Now(), h, m, got, want)
					}
					checked++
				}
			}
		})
		run(t, cfg, mapper)
	}
	if checked < 20000 {
		t.Fatalf("checked %d values: too few to meet a rounding boundary", checked)
	}
	t.Logf("checked %d (task, machine) pairs", checked)
}

// TestSuccessAboveIsSuccessCompare: SuccessAbove(h, m, x) is the reference engine's rounded
// chance compared with x, for thresholds x at the chance, a few rounding steps from it on either
// side (where the fast engine's chance, up to half a step from the rounded one, may fall on the
// other side of x), at SuccessAbove's margin from it, and far from it; under every drop model,
// on the workloads TestFastRoundsAsReference checks chances on.
func TestSuccessAboveIsSuccessCompare(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 2))
	offsets := []float64{0, 1e-13, 2e-13, 4e-13, 6e-13, 1e-12, 9e-12, 1.1e-11, 1e-10, 0.01}
	checked, shortcut := 0, 0
	for i := range 6 {
		model := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}[i%3]
		cfg := lateWorkload(r, 400, model)
		mapper := checkingGreedy(func(ev Event, e *engine) {
			ref := reference{e: e}
			for _, h := range ev.Batch() {
				for m := range ev.NumMachines() {
					want := ref.success(h, m)
					for _, d := range offsets {
						for _, x := range []float64{want - d, want + d} {
							evals := e.stats.successEvals
							if got := ev.SuccessAbove(h, m, x); got != (want > x) {
								t.Errorf("workload %d (%v) at %v: task %d on machine %d: SuccessAbove(%.17g) %v, reference chance %.17g", i, model, ev.Now(), h, m, x, got, want)
							}
							if e.stats.successEvals == evals {
								shortcut++
							}
							checked++
						}
					}
				}
			}
		})
		run(t, cfg, mapper)
	}
	if checked < 100000 || shortcut == 0 || shortcut == checked {
		t.Fatalf("checked %d comparisons, %d without a new evaluation: the test does not exercise both paths", checked, shortcut)
	}
	t.Logf("checked %d comparisons, %d without a new evaluation", checked, shortcut)
}

// TestQueueChanceAtOrBelowIsScan: QueueChanceAtOrBelow is the scan of the reference engine's
// rounded queue chances for the first one at or below its threshold, with thresholds at each
// chance, a few rounding steps from it on either side, at the fast engine's margin, far from it,
// and 0; from the head and from a later position; under every drop model, the machines' queues
// as greedy fills them, on the workloads TestFastQueueChancesAsReference checks chances on.
func TestQueueChanceAtOrBelowIsScan(t *testing.T) {
	offsets := []float64{0, 1e-13, -1e-13, 4e-13, -4e-13, 1e-12, -1e-12, 1.1e-11, -1.1e-11, 0.01, -0.01}
	checked, found := 0, 0
	for _, i := range []uint64{858, 879, 0, 1, 2, 3} {
		r := rand.New(rand.NewPCG(51, i))
		model := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}[i%3]
		cfg := lateWorkload(r, 200, model)
		var ths []float64
		mapper := checkingGreedy(func(ev Event, e *engine) {
			for m := range ev.NumMachines() {
				want := reference{e: e}.queueChances(m)
				for range 4 {
					ths = ths[:0]
					for _, c := range want {
						th := c.Success + offsets[r.IntN(len(offsets))]
						if r.IntN(6) == 0 {
							th = 0
						}
						ths = append(ths, th)
					}
					from := 0
					if len(want) > 1 && r.IntN(2) == 0 {
						from = 1 + r.IntN(len(want)-1)
					}
					if got, scan := ev.QueueChanceAtOrBelow(m, from, ths), atOrBelow(want, from, ths); got != scan {
						t.Fatalf("workload %d (%v) at %v: machine %d from %d: position %d, the scan of the reference's chances %d (chances %v, thresholds %v)", i, model, ev.Now(), m, from, got, scan, want, ths)
					} else if got >= 0 {
						found++
					}
					checked++
				}
			}
		})
		run(t, cfg, mapper)
	}
	if checked < 5000 || found == 0 || found == checked {
		t.Fatalf("%d searches, %d found a chance at or below its threshold: the test does not exercise both answers", checked, found)
	}
	t.Logf("%d searches, %d found a position", checked, found)
}

// TestAtOrBelowByHand: atOrBelow returns the first position from `from` on whose chance is at
// or below its threshold, a chance equal to its threshold included (a pruner drops a task whose
// chance is at its dropping threshold), thresholds of 0 or less never matching.
func TestAtOrBelowByHand(t *testing.T) {
	chances := []QueueChance{{Success: 0.7}, {Success: 0.5}, {Success: 0}, {Success: 0.25}}
	for _, c := range []struct {
		from int
		ths  []float64
		want int
	}{
		{0, []float64{0.6, 0.5, 0, 0}, 1},      // 0.5 at its threshold 0.5
		{0, []float64{0.6, 0.4, 0, 0.25}, 3},   // 0.25 at 0.25; the 0 chance's threshold is 0
		{0, []float64{0.7, 0.4, 0, 0}, 0},      // 0.7 at 0.7
		{1, []float64{0.9, 0.4, -1, 0.2}, -1},  // none; position 0 is before from
		{2, []float64{0.9, 0.9, 0.1, 0.2}, 2},  // 0 below 0.1
		{4, []float64{0.9, 0.9, 0.9, 0.9}, -1}, // from past the end
	} {
		if got := atOrBelow(chances, c.from, c.ths); got != c.want {
			t.Errorf("from %d, thresholds %v: %d, want %d", c.from, c.ths, got, c.want)
		}
	}
}

// TestFastQueueChancesAsReference: the chances and skewnesses of queued tasks that the fast
// engine reports (Event.QueueChances, which a pruner compares with its dropping thresholds)
// equal, to the bit, the reference engine's for the same state. The fast engine builds its
// chains with tables and fused links, the reference with plain convolutions: their chances
// differ by up to 2e-15 and their skewnesses by up to 6e-13 before rounding, so rounding alone
// lets a value near a boundary round apart; the fast engine takes the reference's chain then
// (fast.queueChances). The mapper reads skewnesses (it does not say it does not).
func TestFastQueueChancesAsReference(t *testing.T) {
	checked := 0
	// Workloads 858 and 879 hold a chance that rounds apart without the fallback (0.68636928657349994
	// against 0.68636928657350005 at t = 3496.41, found by a search through the first 880 workloads).
	for _, i := range []uint64{858, 879, 0, 1, 2, 3, 4, 5} {
		r := rand.New(rand.NewPCG(51, i))
		model := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}[i%3]
		cfg := lateWorkload(r, 200, model)
		mapper := checkingGreedy(func(ev Event, e *engine) {
			for m := range ev.NumMachines() {
				want := reference{e: e}.queueChances(m)
				got := ev.QueueChances(m)
				if len(got) != len(want) {
					t.Fatalf("workload %d (%v) at %v: machine %d: %d chances, reference %d", i, model, ev.Now(), m, len(got), len(want))
				}
				for k := range want {
					if got[k].Success != want[k].Success || !sameSkewness(got[k].Skewness, want[k].Skewness) {
						t.Errorf("workload %d (%v) at %v: machine %d position %d: chance %.17g skewness %.17g, reference %.17g and %.17g",
							i, model, ev.Now(), m, k, got[k].Success, got[k].Skewness, want[k].Success, want[k].Skewness)
					}
					checked++
				}
			}
		})
		run(t, cfg, mapper)
	}
	if checked < 20000 {
		t.Fatalf("checked %d chances: too few to tell", checked)
	}
	t.Logf("checked %d queued chances", checked)
}

// TestHeadChanceOfItsChain: the running task's chance that fast.ensure leaves out of a chain,
// and cached fills in when a pruner reads the queue's chances, is the one the chain would
// have held had it been computed with it: the reference's, at the time the chain was built for,
// not at the time it is read. Half the events read QueueFloors first, on chains the previous
// events built and read nothing of, whose running task's conditioning has moved since (the drift
// floors read the chance as it was then); the others read nothing before greedy's chances ensure
// the machines. Every chance filled in, of a machine whose queue is the one its chain was built
// from, must equal reference.headSuccess at that chain's time.
func TestHeadChanceOfItsChain(t *testing.T) {
	checked, moved := 0, 0
	for i := range uint64(6) {
		r := rand.New(rand.NewPCG(53, i))
		model := []pmf.Model{pmf.Evict, pmf.None}[i%2] // not pending, which has no drift floors
		cfg := lateWorkload(r, 150, model)
		mapper := checkingGreedy(func(ev Event, e *engine) {
			if r.IntN(2) == 0 {
				return
			}
			f := e.chances.(*fast)
			for m := range ev.NumMachines() {
				ev.QueueFloors(m)
				if !e.machines[m].running || len(f.chances[m]) == 0 || !(f.valid[m] || f.sameQueue(m)) {
					continue
				}
				got := f.chances[m][0].Success
				if math.IsNaN(got) {
					continue // not read: a chain ahead answered
				}
				want := reference{e: e}.headSuccess(nil, m, f.built[m].at)
				if got != want {
					t.Errorf("workload %d (%v) at %v: machine %d's running task: chance %.17g, reference at %v %.17g", i, model, ev.Now(), m, got, f.built[m].at, want)
				}
				checked++
				if f.built[m].at != ev.Now() {
					moved++
				}
			}
		})
		run(t, cfg, mapper)
	}
	if checked < 500 || moved < 100 {
		t.Fatalf("checked %d chances, %d of chains built at an earlier event: too few to tell", checked, moved)
	}
	t.Logf("checked %d running tasks' chances, %d of chains built at an earlier event", checked, moved)
}

// sameSkewness reports whether two reported skewnesses are the same: equal, or both NaN (not
// computed).
func sameSkewness(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

// TestRoundedBelowIsRoundedCompare: roundedBelow(s, x), which compares s unrounded when it lies
// far from x, gives roundedAbove(s) < x, the rounded bound's comparison, for chances on and off
// rounding boundaries (half a step, with and without chanceWindow's nudge), against thresholds
// from 1e-15 to 1e-9 away on either side, the callers' slack of 1e-9 included, and at random.
func TestRoundedBelowIsRoundedCompare(t *testing.T) {
	r := rand.New(rand.NewPCG(50, 4))
	var ss []float64
	for range 2000 {
		k := math.Floor(r.Float64() * 1e12)
		// a random chance, a rounding boundary (k + 0.5 steps) and points just off it
		ss = append(ss, r.Float64(), (k+0.5)/1e12, (k+0.5)/1e12+3e-15, (k+0.5)/1e12-3e-15, (k+0.5)/1e12+6e-15, k/1e12)
	}
	ss = append(ss, 0, 1, 0.75, 0.75-1e-9)
	deltas := []float64{0, 1e-15, 4e-15, 1e-14, 1e-13, 4.9e-13, 5e-13, 5.1e-13, 1e-12, 3e-12, 9.9e-12, 1e-11, 1.1e-11, 1e-10, 1e-9}
	n := 0
	for _, s := range ss {
		for _, d := range deltas {
			for _, x := range []float64{s + d, s - d, roundedAbove(s) + d, roundedAbove(s) - d, RoundChance(s+d) - 1e-9} {
				if got, want := roundedBelow(s, x), roundedAbove(s) < x; got != want {
					t.Fatalf("roundedBelow(%v, %v) = %v, roundedAbove(s) = %v < x is %v", s, x, got, roundedAbove(s), want)
				}
				n++
			}
		}
	}
	t.Logf("%d comparisons", n)
}

// TestSuccessBoundBelowIsBoundCompare: Event.SuccessBoundBelow(h, m, x) is SuccessBound(h, m) < x
// (its doc: the same answer), on each engine and drop model, for x at the bound itself, the
// next float above it, and 1, where a pruner's threshold or a best chance of 1 can sit: a bound
// of 1 (none known, as always under pending) is not below 1.
func TestSuccessBoundBelowIsBoundCompare(t *testing.T) {
	r := rand.New(rand.NewPCG(52, 3))
	checked, ones := 0, 0
	for i := range 6 {
		cfg := Config{PET: randomPET(r, 3, 2, 8, 12, 1), Machines: machinesOf(0, 1, 1),
			Tasks: randomTasks(r, 100, 3, 0.5+r.Float64(), 3, 30), Options: DefaultOptions()}
		cfg.Options.Engine = []string{"fast", "reference"}[i%2]
		cfg.Options.DropModel = []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}[i%3]
		check := func(ev Event) {
			for _, h := range ev.Batch() {
				for m := range ev.NumMachines() {
					b := ev.SuccessBound(h, m)
					for _, x := range []float64{b, math.Nextafter(b, 2), 1} {
						if got := ev.SuccessBoundBelow(h, m, x); got != (b < x) {
							t.Fatalf("workload %d (%s, %v) at %g: task %d on machine %d: bound %v below %v is %v", i, cfg.Options.Engine, cfg.Options.DropModel, ev.Now(), h, m, b, x, got)
						}
					}
					if b == 1 {
						ones++
					}
					checked++
				}
			}
		}
		// before the assignments, and after them, when the machines that took tasks hold
		// tables of their queues before
		run(t, cfg, mapperFunc{"check", Batch, func(ev Event) { check(ev); greedy(ev, nil); check(ev) }})
	}
	if checked < 2000 || ones < 100 {
		t.Fatalf("%d bounds checked, %d of them 1", checked, ones)
	}
}

// TestSamePMF: samePMF is identity to the bit: a PMF and its copy are the same; a last-bit
// change of one probability, another origin, another step, or one impulse fewer or more is not.
func TestSamePMF(t *testing.T) {
	mk := func(origin, step float64, p ...float64) pmf.PMF {
		d, err := pmf.New(origin, step, p)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	a := mk(1, 0.5, 0.25, 0.5, 0.25)
	for _, tt := range []struct {
		name string
		b    pmf.PMF
		want bool
	}{
		{"itself", a, true},
		{"a copy", mk(1, 0.5, 0.25, 0.5, 0.25), true},
		{"a last bit", mk(1, 0.5, 0.25, math.Nextafter(0.5, 1), math.Nextafter(0.25, 0)), false},
		{"origin", mk(1.5, 0.5, 0.25, 0.5, 0.25), false},
		{"step", mk(1, 1, 0.25, 0.5, 0.25), false},
		{"shorter", mk(1, 0.5, 0.25, 0.75), false},
		{"longer", mk(1, 0.5, 0.25, 0.5, 0.125, 0.125), false},
	} {
		if got := samePMF(a, tt.b); got != tt.want {
			t.Errorf("%s: %v", tt.name, got)
		}
		if got := samePMF(tt.b, a); got != tt.want {
			t.Errorf("%s, swapped: %v", tt.name, got)
		}
	}
}

// TestRoundedAboveByHand: roundedAbove never rounds below what the reference's value, up to
// chanceWindow (5e-15) away, may round to. Worked by hand around the boundary 0.1234567890125
// between 0.123456789012 and 0.123456789013: 1e-15 below it the chance rounds down, but a
// reference 5e-15 above would round up, so the bound is the upper one; as on it and just above;
// 1e-13 below, farther than any reference, it rounds down.
func TestRoundedAboveByHand(t *testing.T) {
	const boundary = 0.1234567890125
	for _, c := range []struct{ s, want float64 }{
		{boundary - 1e-15, 0.123456789013},
		{boundary, 0.123456789013},
		{boundary + 1e-15, 0.123456789013},
		{boundary - 1e-13, 0.123456789012},
		{0.1234567890122, 0.123456789012},
	} {
		if got := roundedAbove(c.s); got != c.want {
			t.Errorf("roundedAbove(%.17g) = %.17g, want %v", c.s, got, c.want)
		}
	}
}

// TestQueueFloorsAhead: QueueFloors from the chain ahead (fast.queueFloors), where the drift
// floors know nothing because the running task has overrun its execution time's support, worked
// by hand. One machine, step 1, drop model none. A (1 or 2, 1/2 each; it runs 30) and B (1 or 2,
// deadline d) arrive at 0 and are queued; past its support A is expected to end at the next grid
// point after now. Floors are read first at each event, from the chain 8 steps ahead. The first
// event after 0 builds the chain with A running, and its floors are its chances.
//
// d = 7: at 4, A ends at 5, B at 6 or 7: chances and floors 1, 1. At 5: A ends at 6, B at 7 or
// 8: chances 1 and 1/2; ahead, at 13, A ends at 14, B at 15 or 16: floors 1 and 0.
//
// d = 16, and C (takes 1, deadline 100) assigned behind B at 5. At 4 as above. At 5: chances 1,
// 1 (B ends 7 or 8); ahead at 13, B ends 15 or 16: floors 1, 1. At 6, a new queue: A ends at 7,
// B 8 or 9, C 9 or 10: chances 1, 1, 1; ahead at 14: A 15, B 16 or 17, C 17 or 18: floors 1,
// 1/2, 1. At 15, past the floors' time: A ends 16, B 17 or 18: chances 1, 0, 1; ahead at 23:
// floors 1, 0, 1.
//
// Step 2 (every time doubled, A runs 60), d = 18: at 8, A ends at 10, B 12 or 14: 1, 1. At 10: A
// ends at 12, B 14 or 16: chances 1, 1; 8 steps ahead, at 26, A ends 28, B 30 or 32: floors 1, 0.
func TestQueueFloorsAhead(t *testing.T) {
	type want struct{ floors, chances []float64 }
	for _, c := range []struct {
		step     float64
		deadline float64
		triggers []float64 // arrivals after 0 (each an event), the one at 5 assigned behind B when withC
		withC    bool
		want     map[float64]want // by event time
	}{
		{1, 7, []float64{4, 5}, false, map[float64]want{
			4: {[]float64{1, 1}, []float64{1, 1}},
			5: {[]float64{1, 0}, []float64{1, 0.5}},
		}},
		{1, 16, []float64{4, 5, 6, 15}, true, map[float64]want{
			4:  {[]float64{1, 1}, []float64{1, 1}},
			5:  {[]float64{1, 1}, []float64{1, 1}},
			6:  {[]float64{1, 0.5, 1}, []float64{1, 1, 1}},
			15: {[]float64{1, 0, 1}, []float64{1, 0, 1}},
		}},
		{2, 18, []float64{8, 10}, false, map[float64]want{
			8:  {[]float64{1, 1}, []float64{1, 1}},
			10: {[]float64{1, 0}, []float64{1, 1}},
		}},
	} {
		half, err := pmf.New(c.step, c.step, []float64{0.5, 0.5})
		if err != nil {
			t.Fatal(err)
		}
		tasks := []Task{{ID: 0, Type: 0, Deadline: 100, Observed: []float64{30 * c.step}}, {ID: 1, Type: 1, Deadline: c.deadline}}
		for i, at := range c.triggers {
			tasks = append(tasks, Task{ID: int64(2 + i), Type: 2, Arrival: at, Deadline: 100})
		}
		cfg := Config{PET: gridPET{{half}, {half}, {impulse(c.step)}}, Machines: machinesOf(0), Tasks: tasks, Options: DefaultOptions()}
		cfg.Options.DropModel = pmf.None
		seen := 0
		run(t, cfg, mapperFunc{"floors first", Batch, func(ev Event) {
			if ev.Now() == 0 {
				for _, h := range append([]int(nil), ev.Batch()...) {
					ev.Assign(h, 0)
				}
				return
			}
			w, ok := c.want[ev.Now()]
			if !ok {
				return
			}
			seen++
			floors := append([]float64(nil), ev.QueueFloors(0)...)
			var chances []float64
			for _, q := range ev.QueueChances(0) {
				chances = append(chances, q.Success)
			}
			if !slices.Equal(floors, w.floors) || !slices.Equal(chances, w.chances) {
				t.Errorf("step %g, deadline %g at %g: floors %v, chances %v; want %v and %v", c.step, c.deadline, ev.Now(), floors, chances, w.floors, w.chances)
			}
			if c.withC && ev.Now() == 5 {
				for _, h := range ev.Batch() {
					if ev.Task(h).Arrival == 5 {
						ev.Assign(h, 0)
						break
					}
				}
			}
		}})
		if seen != len(c.want) {
			t.Errorf("deadline %g: %d events checked, want %d", c.deadline, seen, len(c.want))
		}
	}
}

// TestNearHalfByHand: nearHalf(x, w) is |x − (⌊x⌋ + 1/2)| ≤ w, the distance w itself included.
func TestNearHalfByHand(t *testing.T) {
	for _, c := range []struct {
		x, w float64
		want bool
	}{
		{2.5, 0, true},
		{1.75, 0.25, true}, // 0.25 from 1.5
		{1.25, 0.25, true},
		{1.7, 0.1, false},
		{3, 0.25, false},
		{-0.5, 0, true},
	} {
		if got := nearHalf(c.x, c.w); got != c.want {
			t.Errorf("nearHalf(%v, %v) = %v", c.x, c.w, got)
		}
	}
}

// TestCompletionBoundNearBoundary: a completion bound from a memoised mean that lies within the
// engines' window of a rounding boundary is no higher than the lower of the two values the
// reference's completion may round to. Worked by hand: one idle machine at 0, drop model none, B
// taking 1 (chance q = 0.9999999995 − 1e-14) or 2: expected completion 1 + (1 − q) =
// 1.0000000005 + 1e-14, 1e-14 above the boundary between 1 and 1.000000001, within the window
// (1e-14 + 4e-15·1.0000000005 ≈ 1.4e-14), so the reference's may round to 1: the bound is at most 1.
// B's success chance is asked first, which memoises the mean with it: under none and pending a
// completion alone is computed from the means (pmf.AppendMeanTable) and not kept, and a bound
// without a memoised mean is pmf.AppendMeanBound's, which may exceed the rounded completion by
// half its last digit (currentBound's doc).
func TestCompletionBoundNearBoundary(t *testing.T) {
	const q = 0.9999999995 - 1e-14
	b, err := pmf.New(1, 1, []float64{q, 1 - q})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{PET: gridPET{{b}}, Machines: machinesOf(0), Tasks: []Task{{ID: 0, Deadline: 100}}, Options: DefaultOptions()}
	cfg.Options.DropModel = pmf.None
	asked := false
	run(t, cfg, mapperFunc{"complete, bound", Batch, func(ev Event) {
		for _, h := range ev.Batch() {
			ev.Success(h, 0)
			c := ev.Completion(h, 0)
			if bound := ev.CompletionBound(h, 0); bound > 1 || c < 1 || c > 1.000000001 {
				t.Errorf("completion %v, bound %v: want a bound at most 1", c, bound)
			}
			asked = true
			ev.Assign(h, 0)
		}
	}})
	if !asked {
		t.Fatal("B never asked about")
	}
}

// TestIdleBoundWithinEvent: Event.CompletionBound is the completion against an earlier table of
// the same queue, appends since included, and an idle machine's table of this very event is
// one. Worked by hand: one idle machine at 0, drop model none; A takes 1, B 1 or 2 (mean 1.5).
// B's completion is asked (1.5, against the empty queue's table), then A assigned: B's bound is
// that 1.5, below its completion behind A, 1 + 1.5 = 2.5.
func TestIdleBoundWithinEvent(t *testing.T) {
	half, err := pmf.New(1, 1, []float64{0.5, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{PET: gridPET{{impulse(1)}, {half}}, Machines: machinesOf(0), Options: DefaultOptions(),
		Tasks: []Task{{ID: 0, Type: 0, Deadline: 100}, {ID: 1, Type: 1, Deadline: 100}}}
	cfg.Options.DropModel = pmf.None
	asked := false
	run(t, cfg, mapperFunc{"B, A, bound B", Batch, func(ev Event) {
		hs := append([]int(nil), ev.Batch()...)
		if len(hs) != 2 {
			return
		}
		a, b := hs[0], hs[1]
		if got := ev.Completion(b, 0); got != 1.5 {
			t.Errorf("B's completion alone %v, want 1.5", got)
		}
		ev.Assign(a, 0)
		bound := ev.CompletionBound(b, 0)
		if c := ev.Completion(b, 0); bound != 1.5 || c != 2.5 {
			t.Errorf("B behind A: bound %v, completion %v; want 1.5 and 2.5", bound, c)
		}
		asked = true
		ev.Assign(b, 0)
	}})
	if !asked {
		t.Fatal("never asked")
	}
}

// TestOracleIsReference: the reference engine's chain that the fast engine keeps for a machine
// for the values it must compute as the reference does (fast.oracle: refAppend, refTail,
// refChain) is, whenever it is asked for, the chain the reference engine builds for that state
// in new storage, to the bit: its tail and its queued tasks' chances. A kept chain is reused on
// the same queue until the running task's conditioning changes; the workloads (evict, pending,
// none; conditioning on and off; a check before and after each assignment) reach that reuse
// across events many times, and a kept chain is extended by the tasks assigned behind it within
// an event (fast.extend), both of which the test counts. The last three have more machines than
// the engine keeps chains for (oracleSlots), so slots are taken over from other machines.
func TestOracleIsReference(t *testing.T) {
	reused, extended, checked := 0, 0, 0
	for i := range 9 {
		r := rand.New(rand.NewPCG(50, uint64(i)))
		model := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}[i%3]
		tasks := randomTasks(r, 150, 4, 0.06+0.04*r.Float64(), 50, 400)
		machines := machinesOf(0, 1, 1)
		if i >= 6 {
			machines = machinesOf(0, 1, 1, 0, 1, 0, 1)
		}
		cfg := Config{PET: randomPET(r, 4, 2, 60, 120, 1), Machines: machines, Tasks: tasks, Options: DefaultOptions()}
		cfg.Options.DropModel, cfg.Options.ConditionElapsed = model, i%6 < 3
		check := func(ev Event) {
			e := ev.(*mapping).e
			f := e.chances.(*fast)
			for m := range ev.NumMachines() {
				f.ensure(m)
				if o := f.slot(m); o.m == m && o.epoch == f.epochs[m] && o.at != e.now && e.now < o.until {
					reused++
				}
				convs := e.stats.convolutions
				tail, chances := f.refTail(m), f.refChain(m)
				if made, rebuild := e.stats.convolutions-convs, len(e.machines[m].queue)+len(e.virtual[m]); made > 0 && made < int64(rebuild) {
					extended++ // fewer links than the queue holds: the kept chain extended (fast.extend)
				}
				want, wantChances, _ := reference{e: e}.chainAt(nil, m, e.now)
				if !samePMF(tail, want) {
					t.Fatalf("workload %d (%v) at %v: machine %d: kept tail %v, reference %v", i, model, e.now, m, tail, want)
				}
				if len(chances) != len(wantChances) {
					t.Fatalf("workload %d (%v) at %v: machine %d: %d chances, reference %d", i, model, e.now, m, len(chances), len(wantChances))
				}
				for k := range chances {
					if chances[k].Success != wantChances[k].Success || !sameSkewness(chances[k].Skewness, wantChances[k].Skewness) {
						t.Fatalf("workload %d (%v) at %v: machine %d position %d: kept %v, reference %v", i, model, e.now, m, k, chances[k], wantChances[k])
					}
				}
				checked++
			}
		}
		run(t, cfg, mapperFunc{"checking greedy", Batch, func(ev Event) {
			check(ev)
			greedy(ev, check)
		}})
	}
	if reused < 100 || extended < 100 {
		t.Fatalf("a kept chain reused across events %d times and extended %d times in %d checks: too few to tell", reused, extended, checked)
	}
	t.Logf("checked %d chains, %d reused across events, %d extended", checked, reused, extended)
}

// TestOracleAtItsUntil: a kept reference chain serves up to, not at, the time its running task's
// conditioning changes (until). One machine; A (1 or 3, observed 3) starts at 0; B arrives at
// 0.5, and neither B nor C is assigned, so the queue (A running) stays as it is. At 0.5 the chain
// conditions A on running past 0.5, which keeps both 1 and 3, and holds until the time at which
// finishing at 1 is ruled out (1 less the clock's tolerance), found by a first run. C then
// arrives at exactly that time: the reference conditions A on running past it, which leaves 3
// alone, so the chain kept from 0.5 must not serve.
func TestOracleAtItsUntil(t *testing.T) {
	a, err := pmf.New(1, 1, []float64{0.5, 0, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	replayAt := func(c float64) (until float64, tails map[float64][2]float64) {
		cfg := Config{PET: gridPET{{a}}, Machines: machinesOf(0), Options: DefaultOptions(),
			Tasks: []Task{{ID: 0, Deadline: 100, Observed: []float64{3}}, {ID: 1, Arrival: 0.5, Deadline: 100}, {ID: 2, Arrival: c, Deadline: 100}}}
		cfg.Options.ConditionElapsed = true
		tails = map[float64][2]float64{}
		run(t, cfg, mapperFunc{"A only", Batch, func(ev Event) {
			e := ev.(*mapping).e
			for _, h := range ev.Batch() {
				if e.tasks[h].Task.ID == 0 {
					ev.Assign(h, 0)
				}
			}
			f := e.chances.(*fast)
			f.ensure(0)
			tail := f.refTail(0)
			if e.now == 0.5 {
				until = f.slot(0).until
			}
			want, _, _ := reference{e: e}.chainAt(nil, 0, e.now)
			if !samePMF(tail, want) {
				t.Errorf("C at %v: at %v: kept tail %v, reference %v", c, e.now, tail, want)
			}
			tails[e.now] = [2]float64{float64(tail.Len()), tail.Mean()}
		}})
		return until, tails
	}
	until, _ := replayAt(2)
	if !(until > 0.5 && until <= 1) {
		t.Fatalf("premise: the chain built at 0.5 holds until %v, want in (0.5, 1]", until)
	}
	_, tails := replayAt(until)
	if tail, ok := tails[until]; !ok || tail != [2]float64{1, 3} {
		t.Errorf("at %v: tail of %v impulses, mean %v, want A's 3 alone", until, tail[0], tail[1])
	}
}

// TestHoldsIsPrefix: fast.holds, which decides whether a kept chain (the fast engine's or the
// reference's) is for machine m's queue with tasks appended behind it, is a prefix comparison of
// task serials against the queue as Event.Queue lists it, the running flag as Event.Running says:
// for every prefix of every machine's queue, with one serial changed at each position, one
// appended past the queue, and the running flag flipped, on greedy's queues.
func TestHoldsIsPrefix(t *testing.T) {
	r := rand.New(rand.NewPCG(48, 1))
	checked, held := 0, 0
	cfg := lateWorkload(r, 200, pmf.Evict)
	run(t, cfg, checkingGreedy(func(ev Event, e *engine) {
		f, ok := e.chances.(*fast)
		if !ok {
			t.Fatalf("engine %T, want the fast one", e.chances)
		}
		for m := range ev.NumMachines() {
			var queue []int64
			for _, h := range ev.Queue(m) {
				queue = append(queue, e.tasks[h].serial)
			}
			running := ev.Running(m)
			for n := 0; n <= len(queue); n++ {
				variants := [][]int64{queue[:n:n], append(slices.Clone(queue[:n]), -7)}
				for k := range n {
					changed := slices.Clone(queue[:n])
					changed[k] = -7
					variants = append(variants, changed)
				}
				for _, serials := range variants {
					for _, asked := range []bool{running, !running} {
						want := asked == running && len(serials) <= len(queue) && slices.Equal(serials, queue[:len(serials)])
						if got := f.holds(m, asked, serials); got != want {
							t.Fatalf("at %v machine %d (queue %v, running %v): holds(%v, %v) = %v, want %v", ev.Now(), m, queue, running, asked, serials, got, want)
						} else if got {
							held++
						}
						checked++
					}
				}
			}
		}
	}))
	if held == 0 || held == checked {
		t.Fatalf("%d comparisons, %d held: the test does not exercise both answers", checked, held)
	}
	t.Logf("%d comparisons, %d held", checked, held)
}
