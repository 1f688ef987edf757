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
