package replay

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// TestAssignTentative: assignments made with AssignTentative and taken back (Retract) leave a
// replay exactly as Assign and Retract leave it: every outcome the same, its predicted chance
// included, and the tasks assigned behind them the same chances. Only the chances of the
// assignments taken back are not computed, so the replay asks fewer. Each event assigns its
// first tasks one to each machine with a slot and takes them back once greedy has mapped the
// rest behind them; every drop model.
func TestAssignTentative(t *testing.T) {
	for i := range 6 {
		r := rand.New(rand.NewPCG(47, uint64(i)))
		model := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}[i%3]
		cfg := Config{PET: randomPET(r, 4, 2, 60, 120, 1), Machines: machinesOf(0, 1, 1),
			Tasks: randomTasks(r, 150, 4, 0.06+0.04*r.Float64(), 50, 400), Options: DefaultOptions()}
		cfg.Options.DropModel = model
		mapper := func(tentative bool) Mapper {
			var taken []int
			return mapperFunc{"assign and take back", Batch, func(ev Event) {
				v := ev.(*mapping)
				taken = taken[:0]
				for m := range ev.NumMachines() {
					batch := ev.Batch()
					if len(batch) < 2 || ev.Free(m) == 0 {
						continue
					}
					if tentative {
						v.AssignTentative(batch[0], m)
					} else {
						v.Assign(batch[0], m)
					}
					taken = append(taken, batch[0])
				}
				greedy(ev, nil)
				for _, h := range taken {
					v.Retract(h)
				}
			}}
		}
		want, got := run(t, cfg, mapper(false)), run(t, cfg, mapper(true))
		if len(got.Outcomes) != len(want.Outcomes) {
			t.Fatalf("workload %d (%v): %d outcomes, with Assign %d", i, model, len(got.Outcomes), len(want.Outcomes))
		}
		for k, w := range want.Outcomes {
			if g := got.Outcomes[k]; !sameOutcome(g, w) {
				t.Fatalf("workload %d (%v): outcome %d\n%+v\nwith Assign\n%+v", i, model, k, g, w)
			}
		}
		if g, w := got.Summary.SuccessEvals, want.Summary.SuccessEvals; g >= w {
			t.Errorf("workload %d (%v): %d success evaluations, with Assign %d: want fewer", i, model, g, w)
		}
	}
}

// sameOutcome compares two outcomes field by field, NaN equal to NaN.
func sameOutcome(a, b Outcome) bool {
	same := func(x, y float64) bool { return x == y || x != x && y != y }
	return a.Task.ID == b.Task.ID && a.Status == b.Status && a.Machine == b.Machine && a.Deferred == b.Deferred &&
		same(a.MapTime, b.MapTime) && same(a.Start, b.Start) && same(a.End, b.End) && same(a.Predicted, b.Predicted)
}

// TestAssignTentativeNotTakenBack: a tentative assignment still in a queue when the event ends
// is a bug in the mapper, and the engine says so.
func TestAssignTentativeNotTakenBack(t *testing.T) {
	cfg := Config{PET: gridPET{{impulse(1)}}, Machines: machinesOf(0), Tasks: []Task{{ID: 7, Arrival: 0, Deadline: 5}}, Options: DefaultOptions()}
	var got any
	func() {
		defer func() { got = recover() }()
		Run(t.Context(), cfg, mapperFunc{"forgetful", Batch, func(ev Event) { ev.(*mapping).AssignTentative(ev.Batch()[0], 0) }})
	}()
	if msg, _ := got.(string); !strings.Contains(msg, "forgetful left 1 tentative assignments") {
		t.Fatalf("panic %v, want the engine's complaint about a tentative assignment left in a queue", got)
	}
}
