package replaytest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
)

// boundsSpy checks the fast engine's bounds at every mapping event, before the mapper it wraps
// runs: first every bound is read (SuccessBound and CompletionBound of each batch task on each
// machine, QueueFloors of each machine), then the exact chances and completions, which must lie on
// the right side of them: an upper bound on a chance to the bit, as both are rounded to 12 decimals
// and the bound is rounded up near a rounding boundary (a bound a unit of the 12th decimal low,
// rounded down there, once passed unseen). Reading the bounds first matters: an exact chance brings
// the machine's cache up to date, after which its bounds are exact too. The exact chance of a batch
// task is asked at every other event only, so that some bounds come from tables older than the last
// one (successBound's older epoch). loose counts bounds that differ from the exact chance, so that
// the test knows the stale paths ran. The completions' lower bounds are counted as done (checked)
// and early (strictly below, from a stale table; -Inf, no bound, is not counted). Then, with each
// machine's chain brought up to date (Tail), the completion bounds of a quarter of the tasks not
// asked come from its current table: counted as current and below (strictly below, which only evict
// allows: under none and pending they are the completion itself). Both times, CompletionBounds must
// give every bound CompletionBound gave (batched).
type boundsSpy struct {
	replay.Mapper
	t                  testing.TB
	label              string
	upper, floor       int // bounds checked
	looseUp, looseDown int // bounds strictly on their side of the exact chance
	known              int // upper bounds below 1
	done, early        int // lower bounds on completions checked, and strictly below
	current, below     int // the same from a current table (pmf.AppendMeanBound)
	batched            int // bounds checked against CompletionBounds
	events             int
}

func (s *boundsSpy) Map(ev replay.Event) {
	s.events++
	batch := ev.Batch()
	upper := make([][]float64, ev.NumMachines())
	lower := make([][]float64, ev.NumMachines())
	floors := make([][]float64, ev.NumMachines())
	for m := range ev.NumMachines() {
		for _, h := range batch {
			upper[m] = append(upper[m], ev.SuccessBound(h, m))
			lower[m] = append(lower[m], ev.CompletionBound(h, m))
		}
		s.sameBounds(ev, batch, m, lower[m]) // before QueueFloors, which may bring m's chain up to date
		floors[m] = append([]float64(nil), ev.QueueFloors(m)...)
	}
	for m := range ev.NumMachines() {
		for i, h := range batch {
			if (h+s.events)%2 == 0 {
				continue
			}
			exact := ev.Success(h, m)
			if upper[m][i] > 1 { // Event.SuccessBound: an earlier chance, or 1
				s.t.Fatalf("%s at %g: task %d on machine %d: SuccessBound %v above 1", s.label, ev.Now(), ev.Task(h).ID, m, upper[m][i])
			}
			if upper[m][i] < exact {
				s.t.Fatalf("%s at %g: task %d on machine %d: SuccessBound %v below its chance %v", s.label, ev.Now(), ev.Task(h).ID, m, upper[m][i], exact)
			}
			s.upper++
			if upper[m][i] < 1 {
				s.known++
			}
			if upper[m][i] > exact+1e-12 {
				s.looseUp++
			}
			done := ev.Completion(h, m)
			if lower[m][i] > done+1e-9 {
				s.t.Fatalf("%s at %g: task %d on machine %d: CompletionBound %v above its completion %v", s.label, ev.Now(), ev.Task(h).ID, m, lower[m][i], done)
			}
			s.done++
			if !math.IsInf(lower[m][i], -1) && lower[m][i] < done-1e-9 {
				s.early++
			}
		}
		// With m's chain up to date, the bounds of the tasks not asked come from its current table
		// (pmf.AppendMeanBound), exact under none and pending.
		ev.Tail(m)
		current := make([]float64, 0, len(batch))
		for _, h := range batch {
			current = append(current, ev.CompletionBound(h, m))
		}
		s.sameBounds(ev, batch, m, current)
		for _, h := range batch {
			if (h+s.events)%4 != 0 {
				continue
			}
			bound := ev.CompletionBound(h, m)
			done := ev.Completion(h, m)
			if bound > done+1e-9 {
				s.t.Fatalf("%s at %g: task %d on machine %d: current CompletionBound %v above its completion %v", s.label, ev.Now(), ev.Task(h).ID, m, bound, done)
			}
			s.current++
			if bound < done-1e-9 {
				s.below++
				if ev.DropModel() != pmf.Evict {
					s.t.Fatalf("%s at %g: task %d on machine %d: current CompletionBound %v below its completion %v: not the mean itself", s.label, ev.Now(), ev.Task(h).ID, m, bound, done)
				}
			}
		}
		chances := ev.QueueChances(m)
		if floors[m] == nil {
			continue
		}
		if len(floors[m]) != len(chances) {
			s.t.Fatalf("%s at %g: machine %d: %d floors for %d queued tasks", s.label, ev.Now(), m, len(floors[m]), len(chances))
		}
		for i, c := range chances {
			if floors[m][i] > c.Success+1e-12 {
				s.t.Fatalf("%s at %g: machine %d position %d: floor %v above its chance %v", s.label, ev.Now(), m, i, floors[m][i], c.Success)
			}
			s.floor++
			if floors[m][i] < c.Success-1e-12 {
				s.looseDown++
			}
		}
	}
	s.Mapper.Map(ev)
}

// sameBounds checks that CompletionBounds gives, in one call, what CompletionBound gave task by
// task (want), to the bit: soonest takes its leads' bounds that way.
func (s *boundsSpy) sameBounds(ev replay.Event, batch []int, m int, want []float64) {
	got := ev.CompletionBounds(batch, m, []float64{math.NaN()}) // storage to overwrite
	if len(got) != len(want) {
		s.t.Fatalf("%s at %g: machine %d: %d bounds for %d tasks", s.label, ev.Now(), m, len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			s.t.Fatalf("%s at %g: task %d on machine %d: CompletionBounds %v, CompletionBound %v", s.label, ev.Now(), ev.Task(batch[i]).ID, m, got[i], want[i])
		}
	}
	s.batched += len(want)
}

// BoundsRun is one replay CheckBounds runs its heuristics on.
type BoundsRun struct {
	Label  string
	Config replay.Config
}

// RandomBoundsRuns makes 12 random workloads for CheckBounds, four under each drop model, with
// queues of 2 to 5 and some strict.
func RandomBoundsRuns(r *rand.Rand) []BoundsRun {
	var runs []BoundsRun
	for i := range 12 {
		cfg := replay.Config{PET: RandomPET(r, 4, 3, 8, 20),
			Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}, {Type: 2}},
			Tasks:    RandomTasks(r, 120, 4, 0.5+r.Float64(), 4, 35), Options: replay.DefaultOptions()}
		cfg.Options.DropModel = []pmf.Model{pmf.Evict, pmf.None, pmf.Pending}[i%3]
		cfg.Options.QueueSize = 2 + r.IntN(4)
		cfg.Options.Strict = i%4 == 0
		runs = append(runs, BoundsRun{fmt.Sprintf("random %d %v", i, cfg.Options.DropModel), cfg})
	}
	return runs
}

// CheckBounds replays each of runs under PAM, MM and MCT, as newMapper makes them, and checks,
// at every event, that the fast engine's SuccessBound is never below the chance it bounds,
// CompletionBound never above the completion (from a stale table or a current one), and
// QueueFloors never above the chance; and that all take their loose paths often. Under pending the
// engine must offer no upper bound on chances nor lower bound on completions from an older
// table (time can raise a chance there, and a later start free the machine sooner: pmf's
// TestAppendPendingNotMonotone), but its floors from the mixture argument (driftFloors) hold and
// must be used.
func CheckBounds(t testing.TB, runs []BoundsRun, newMapper func(name string) (replay.Mapper, error)) {
	t.Helper()
	var total boundsSpy
	pendingFloors := 0
	for _, x := range runs {
		for _, name := range []string{"PAM", "MM", "MCT"} {
			m, err := newMapper(name)
			if err != nil {
				t.Fatal(err)
			}
			spy := &boundsSpy{Mapper: m, t: t, label: x.Label + " " + name}
			if _, err := replay.Run(t.Context(), x.Config, spy); err != nil {
				t.Fatal(err)
			}
			if x.Config.Options.DropModel == pmf.Pending {
				if spy.known > 0 || spy.early > 0 {
					t.Fatalf("%s: under pending the engine offered %d upper bounds below 1 and %d lower bounds below the completion",
						spy.label, spy.known, spy.early)
				}
				pendingFloors += spy.looseDown
			}
			total.upper, total.floor = total.upper+spy.upper, total.floor+spy.floor
			total.looseUp, total.looseDown = total.looseUp+spy.looseUp, total.looseDown+spy.looseDown
			total.done, total.early = total.done+spy.done, total.early+spy.early
			total.current, total.below = total.current+spy.current, total.below+spy.below
			total.batched += spy.batched
		}
	}
	t.Logf("%d upper bounds (%d loose), %d lower bounds on completions (%d early), %d from current tables (%d below), %d floors (%d loose, %d of them under pending), %d bounds in one call",
		total.upper, total.looseUp, total.done, total.early, total.current, total.below, total.floor, total.looseDown, pendingFloors, total.batched)
	if total.looseUp < 100 || total.early < 100 || total.below < 100 || total.looseDown < 100 || pendingFloors < 20 || total.batched < 1000 {
		t.Fatalf("the stale paths hardly ran: %d loose upper bounds, %d early lower bounds, %d below from current tables, %d loose floors (%d under pending), %d bounds in one call",
			total.looseUp, total.early, total.below, total.looseDown, pendingFloors, total.batched)
	}
}
