package replay

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// randomSource streams n tasks like randomTasks, drawing each as it is asked for, so that a
// replay from it holds nothing per task outside the engine.
type randomSource struct {
	r     *rand.Rand
	n, i  int
	types int
	rate  float64
	now   float64
}

func (s *randomSource) Next() (Task, bool, error) {
	if s.i == s.n {
		return Task{}, false, nil
	}
	s.now += s.r.ExpFloat64() / s.rate
	t := Task{ID: int64(s.i), Type: s.r.IntN(s.types), Arrival: s.now, Deadline: s.now + 6 + 20*s.r.Float64()}
	s.i++
	return t, true, nil
}

// askEverything is a batch mapper that allocates nothing and asks every question heuristics and
// the pruner ask: for each batch task, its bounds, chance and expected completion on every
// machine with a free slot, then an assignment to the machine where it completes first, or a
// deferral when its chance there is poor; then every queue's chances, floors and tail, with a
// drop of a waiting task whose chance is very poor.
func askEverything(ev Event) {
	for _, h := range ev.Batch() {
		best, bestDone, bestChance := -1, 0.0, 0.0
		for m := range ev.NumMachines() {
			if ev.Free(m) <= 0 {
				continue
			}
			_, _ = ev.SuccessBound(h, m), ev.CompletionBound(h, m)
			chance := ev.Success(h, m)
			if done := ev.Completion(h, m); best < 0 || done < bestDone {
				best, bestDone, bestChance = m, done, chance
			}
		}
		switch {
		case best < 0:
		case bestChance < 0.05:
			ev.Defer(h)
		default:
			ev.Assign(h, best)
		}
	}
	for m := range ev.NumMachines() {
		_ = ev.QueueFloors(m)
		_ = ev.Tail(m).Mean()
		q := ev.Queue(m)
		for pos, c := range ev.QueueChances(m) {
			if pos > 0 && c.Success < 0.02 {
				ev.Drop(q[pos])
				break
			}
		}
	}
}

// TestEventLoopAllocatesNothing: once its buffers have grown, the fast engine's event loop
// allocates nothing (issue 6). A replay of 6,000 streamed tasks makes about as many allocations
// as one of 2,000, the difference being the late growth of a buffer or two; one allocation per
// event or per task would show as thousands.
func TestEventLoopAllocatesNothing(t *testing.T) {
	pet := randomPET(rand.New(rand.NewPCG(1, 2)), 5, 3, 12, 10, 1)
	for _, model := range []pmf.Model{pmf.Evict, pmf.Pending, pmf.None} {
		t.Run(model.String(), func(t *testing.T) {
			allocs := func(n int) uint64 {
				opt := DefaultOptions()
				opt.DropModel, opt.QueueSize = model, 4
				opt.OnTask = func(Outcome) {}
				cfg := Config{PET: pet, Machines: machinesOf(0, 1, 2, 2), Options: opt,
					Source: &randomSource{r: rand.New(rand.NewPCG(3, 4)), n: n, types: 5, rate: 0.6}}
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				res, err := Run(t.Context(), cfg, mapperFunc{name: "ask", mode: Batch, f: askEverything})
				runtime.ReadMemStats(&after)
				if err != nil {
					t.Fatal(err)
				}
				if res.Summary.OnTime == 0 || res.Summary.MappingEvents < int64(n) {
					t.Fatalf("%d tasks: %d on time in %d events: the workload does not exercise the engine", n, res.Summary.OnTime, res.Summary.MappingEvents)
				}
				return after.Mallocs - before.Mallocs
			}
			short, long := allocs(2000), allocs(6000)
			if long > short+50 {
				t.Errorf("%d allocations for 6,000 tasks, %d for 2,000: the loop allocates about %.2f per extra task",
					long, short, float64(long-short)/4000)
			}
			t.Logf("%d allocations for 2,000 tasks, %d for 6,000", short, long)
		})
	}
}
