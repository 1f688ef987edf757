package replay

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// TestApproxAnswersMatchItsTail: whatever the approximate engine has memoised, its expected
// completion of a task on a machine is the mean of the task appended to the tail it reports for
// that machine at that moment (pmf.Append, not the engine's tables), for every bucket and with
// cropping, which moves with the batch's latest deadline from one event to the next; and that
// it offers no lower bound (Event.CompletionBound is -Inf, asked first): its tables are of
// compacted cells, which the fast engine's bound would misread.
func TestApproxAnswersMatchItsTail(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	checked := 0
	for i := range 12 {
		cfg := Config{PET: randomPET(r, 3, 2, 8, 12, 1), Machines: machinesOf(0, 1, 1),
			Tasks: randomTasks(r, 150, 3, 0.6+r.Float64(), 4, 30), Options: DefaultOptions()}
		cfg.Options.Engine, cfg.Options.ApproxBucket, cfg.Options.ApproxCrop = "approx", 1+i%3, true
		cfg.Options.DropModel = []pmf.Model{pmf.Evict, pmf.None}[i%2]
		m := mapperFunc{"check", Batch, func(ev Event) {
			for _, h := range ev.Batch() {
				for m := range ev.NumMachines() {
					bound := ev.CompletionBound(h, m)
					got := ev.Completion(h, m)
					if !math.IsInf(bound, -1) {
						t.Fatalf("workload %d at %g: task %d on machine %d: bound %v (completion %v), want none", i, ev.Now(), ev.Task(h).ID, m, bound, got)
					}
					task := ev.Task(h)
					exec := cfg.PET.Cell(task.Type, ev.Machine(m).Type).Merge(cfg.Options.ApproxBucket)
					next, _, err := pmf.Append(cfg.Options.DropModel, ev.Tail(m), exec, task.Deadline, cfg.Options.Strict)
					if err != nil {
						t.Fatal(err)
					}
					if math.Abs(got-next.Mean()) > 1e-6 {
						t.Fatalf("workload %d at %g: task %d on machine %d: completion %v, its tail gives %v", i, ev.Now(), task.ID, m, got, next.Mean())
					}
					checked++
				}
			}
			greedyBest.f(ev)
		}}
		run(t, cfg, m)
	}
	if checked < 5000 {
		t.Fatalf("only %d answers checked", checked)
	}
}

// TestApproxCropsAtLatestDeadline: with cropping, the approximate engine keeps no completion
// mass past the batch's latest deadline (000 §7.2.1, Fig 6: the tail above it is folded into
// the last grid point at or before it). The invariant is checked at each mapping event before
// any assignment, on tails whose first point lies before that deadline; the same workloads
// without cropping must break it often, or the check could not fail.
func TestApproxCropsAtLatestDeadline(t *testing.T) {
	past := func(crop bool) (checked, beyond int) {
		r := rand.New(rand.NewPCG(52, 7))
		for i := range 6 {
			cfg := Config{PET: randomPET(r, 3, 2, 8, 12, 1), Machines: machinesOf(0, 1, 1),
				Tasks: randomTasks(r, 120, 3, 0.8+r.Float64(), 2, 20), Options: DefaultOptions()}
			cfg.Options.Engine, cfg.Options.ApproxBucket, cfg.Options.ApproxCrop = "approx", 1+i%2, crop
			cfg.Options.DropModel = []pmf.Model{pmf.Evict, pmf.None}[i%2]
			run(t, cfg, mapperFunc{"check", Batch, func(ev Event) {
				hi := math.Inf(-1)
				for _, h := range ev.Batch() {
					hi = math.Max(hi, ev.Task(h).Deadline)
				}
				for m := range ev.NumMachines() {
					if tail := ev.Tail(m); hi > tail.Min() {
						checked++
						if tail.Max() > hi+1e-9 {
							beyond++
							if crop {
								t.Errorf("workload %d at %g: machine %d's tail reaches %g, past the latest deadline %g", i, ev.Now(), m, tail.Max(), hi)
							}
						}
					}
				}
				greedyBest.f(ev)
			}})
		}
		return checked, beyond
	}
	if checked, _ := past(true); checked < 500 {
		t.Fatalf("only %d tails checked", checked)
	}
	if _, beyond := past(false); beyond < 50 {
		t.Fatalf("without cropping only %d tails reach past the latest deadline: the workloads do not test the crop", beyond)
	}
}

// TestApproxCropKeepsTailAtDeadline: a tail whose first point is the batch's latest deadline is
// not cropped. Worked by hand: A (exec 1 or 2, 1/2 each) starts at 0 on the only machine; B
// (exec 1) arrives at 0.5 with deadline 1, and no task is dropped. At 0.5 the tail is A's
// completion, 1 or 2 with 1/2 each, and the latest deadline, 1, is its first point: B's chance
// is 0 either way, and a crop there would fold the mass at 2 into 1, taking B's expected
// completion from 1.5 + 1 = 2.5 to 2.
func TestApproxCropKeepsTailAtDeadline(t *testing.T) {
	a, _, err := pmf.FromWeights(1, 1, []float64{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{PET: gridPET{{a}, {impulse(1)}}, Machines: machinesOf(0),
		Tasks:   []Task{{ID: 1, Type: 0, Arrival: 0, Deadline: 10}, {ID: 2, Type: 1, Arrival: 0.5, Deadline: 1}},
		Options: DefaultOptions()}
	cfg.Options.Engine, cfg.Options.ApproxBucket, cfg.Options.ApproxCrop = "approx", 1, true
	cfg.Options.DropModel = pmf.None // B runs after A whatever its deadline
	seen := false
	run(t, cfg, mapperFunc{"check", Batch, func(ev Event) {
		for _, h := range ev.Batch() {
			if ev.Task(h).ID != 2 {
				continue
			}
			seen = true
			tail := ev.Tail(0)
			if tail.Len() != 2 || tail.Min() != 1 || tail.Prob(0) != 0.5 || tail.Prob(1) != 0.5 {
				t.Errorf("at %g: tail %v, want 1 or 2 with 1/2 each", ev.Now(), tail)
			}
			if got := ev.Completion(h, 0); math.Abs(got-2.5) > 1e-12 {
				t.Errorf("at %g: B's expected completion %v, want 2.5", ev.Now(), got)
			}
		}
		greedyBest.f(ev)
	}})
	if !seen {
		t.Fatal("B never in a batch")
	}
}
