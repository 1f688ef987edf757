package replay

import (
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// TestMemoForgetsReleasedHandle: a task handle freed by an exit and taken by a new arrival does
// not inherit the chances remembered for the task that held it. Two machines; every task takes
// exactly 1 on machine 0, and C takes exactly 10 on machine 1. C arrives at 0 and runs on
// machine 1 until 10. A arrives at 0.5 with deadline 100: behind C on machine 1 it would finish
// at 11 ≤ 100, chance 1; it is asked there, then runs on machine 0 and leaves at 1.5, freeing
// its handle. B arrives at 3, takes that handle, and has deadline 5: behind C on machine 1 it
// would finish at 11 > 5, chance 0. Machine 1's chain (C running, nothing queued, C's end
// certain at 10) has not changed since A was asked, so only the handle tells B from A.
func TestMemoForgetsReleasedHandle(t *testing.T) {
	one, ten := impulse(1), impulse(10)
	pet := gridPET{{one, ten}, {one, one}}
	for _, engine := range []string{"reference", "fast"} {
		got := map[int64]float64{}
		mapper := mapperFunc{"ask on 1", Immediate, func(ev Event) {
			for _, h := range ev.Batch() {
				task := ev.Task(h)
				if task.Type == 0 { // C
					ev.Assign(h, 1)
					continue
				}
				got[task.ID] = ev.Success(h, 1)
				ev.Assign(h, 0)
			}
		}}
		cfg := Config{PET: pet, Machines: machinesOf(0, 1), Options: DefaultOptions(), Tasks: []Task{
			{ID: 0, Type: 0, Arrival: 0, Deadline: 1000},  // C
			{ID: 1, Type: 1, Arrival: 0.5, Deadline: 100}, // A
			{ID: 2, Type: 1, Arrival: 3, Deadline: 5},     // B
		}}
		cfg.Options.Engine = engine
		cfg.Options.DropModel = pmf.None
		run(t, cfg, mapper)
		if got[1] != 1 || got[2] != 0 {
			t.Errorf("engine %q: A's chance on machine 1 %v, B's %v; want 1 and 0", engine, got[1], got[2])
		}
	}
}
