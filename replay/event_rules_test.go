package replay

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// TestFreeFromHandWorked: Event.FreeFrom on a queue of a running and a waiting task, by hand.
// One machine, drop model none, no conditioning on elapsed time. At 0, A (3 or 4) and B (2 or 5)
// arrive and are queued in that order: A runs from 0. At 1, C arrives: the machine is free no
// earlier than A's shortest end, 0 + 3, plus B's shortest time, 2: 5.
func TestFreeFromHandWorked(t *testing.T) {
	a, err := pmf.New(3, 1, []float64{0.5, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	b, err := pmf.New(2, 1, []float64{0.5, 0, 0, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{PET: gridPET{{a}, {b}}, Machines: machinesOf(0), Options: DefaultOptions(),
		Tasks: []Task{{ID: 0, Type: 0, Deadline: 100}, {ID: 1, Type: 1, Deadline: 100}, {ID: 2, Type: 0, Arrival: 1, Deadline: 100}}}
	cfg.Options.DropModel, cfg.Options.ConditionElapsed = pmf.None, false
	from := -1.0
	mapper := mapperFunc{"queue on 0", Immediate, func(ev Event) {
		if ev.Now() == 1 {
			from = ev.FreeFrom(0)
		}
		for _, h := range ev.Batch() {
			ev.Assign(h, 0)
		}
	}}
	run(t, cfg, mapper)
	if from != 5 {
		t.Errorf("FreeFrom at 1: %v, want 3 + 2 = 5", from)
	}
}

// TestAssignToFullMachinePanics: a mapper that assigns a task to a machine with no free slot
// has a bug, and Assign says so. Queues of one task; two tasks at 0 on one machine: after the
// first, Free is 1 − 0 queued − 1 assigned = 0.
func TestAssignToFullMachinePanics(t *testing.T) {
	x := pmf.Impulse(1, 1)
	cfg := Config{PET: gridPET{{x}}, Machines: machinesOf(0), Options: DefaultOptions(),
		Tasks: []Task{{ID: 0, Deadline: 100}, {ID: 1, Deadline: 100}}}
	cfg.Options.QueueSize = 1
	var got any
	mapper := mapperFunc{"both on 0", Batch, func(ev Event) {
		batch := ev.Batch()
		if len(batch) != 2 {
			return
		}
		ev.Assign(batch[0], 0)
		defer func() { got = recover() }()
		ev.Assign(batch[1], 0)
	}}
	run(t, cfg, mapper)
	if msg := fmt.Sprint(got); got == nil || !strings.Contains(msg, "which is full") {
		t.Errorf("Assign to a full machine: recovered %v, want a panic saying it is full", got)
	}
}
