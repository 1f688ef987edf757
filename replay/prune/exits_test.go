package prune

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
)

// exitRecorder writes down, at every mapping event, the exits the event reports, then lets the
// pruner map.
type exitRecorder struct {
	*Pruner
	log []string
}

func (r *exitRecorder) Map(ev replay.Event) {
	for _, x := range ev.Exits() {
		r.log = append(r.log, fmt.Sprintf("t=%g T%d %v", ev.Now(), ev.Task(x.Task).ID, x.Status))
	}
	r.Pruner.Map(ev)
}

// TestPrunerDropReachesNextEvent (issue 45, bug 2): a task the pruner drops during event k is an
// exit of event k+1, and raises its type's sufferage. One machine, queue size 2, evict, impulse
// execution times; MM-Drop with dropping always engaged, θ = 0.5, ϑ = 0.1:
//
//	task  type  arrives  exec  deadline
//	T0     0      0        3     100
//	T1     1      0       10      12
//	T2     0      1        3     100
//
// Event 0: queues empty, nothing to drop. MM, round 1: T0 completes at 3, T1 at 10 → T0 (runs
// 0–3). Round 2: T1 completes at 3 + 10 = 13 > 12, chance 0, but MM maps it anyway.
// Event 1 (T2 arrives): no exits yet. Dropping: T0 runs (chance 1); T1's chance is 0 ≤ 0.5 →
// dropped by the pruner. MM maps T2 behind T0.
// Event 3 (T0 done): the exits since event 1's Map are T1 (dropped by the pruner, during that
// Map) and T0 (on time). Sufferage: type 1 rises by ϑ to 0.1; type 0 falls, clamped at 0. T2
// runs 3–6. Event 6: T2 on time; type 0 stays at 0.
func TestPrunerDropReachesNextEvent(t *testing.T) {
	pet := replaytest.Grid{{pmf.Impulse(3, 1)}, {pmf.Impulse(10, 1)}}
	tasks := []replay.Task{
		{ID: 0, Type: 0, Arrival: 0, Deadline: 100},
		{ID: 1, Type: 1, Arrival: 0, Deadline: 12},
		{ID: 2, Type: 0, Arrival: 1, Deadline: 100},
	}
	cfg := DefaultConfig()
	cfg.Variant, cfg.Toggle, cfg.Fairness = Drop, Toggle{Kind: "always"}, 0.1
	m, err := Wrap(heuristic.MM{}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	rec := &exitRecorder{Pruner: m.(*Pruner)}
	opt := replay.DefaultOptions()
	opt.Trim, opt.QueueSize = 0, 2
	if _, err := replay.Run(t.Context(), replay.Config{PET: pet, Machines: []replay.Machine{{Type: 0}}, Tasks: tasks, Options: opt}, rec); err != nil {
		t.Fatal(err)
	}
	want := []string{"t=3 T1 dropped_pruned", "t=3 T0 on_time", "t=6 T2 on_time"}
	if !slices.Equal(rec.log, want) {
		t.Errorf("exits seen: %q, want %q", rec.log, want)
	}
	if got := rec.sufferage[1]; math.Abs(got-0.1) > 1e-12 {
		t.Errorf("sufferage of type 1 = %v, want 0.1: the pruner's drop did not count", got)
	}
	if got := rec.sufferage[0]; got != 0 {
		t.Errorf("sufferage of type 0 = %v, want 0", got)
	}
}
