package replay

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// groupsOf is the batch grouped by type from Batch and TypeAndDeadline alone, each type's tasks
// in batch order: the oracle of BatchGroups (checkGroups finds the leads in it).
func groupsOf(ev Event) map[int][]int {
	out := map[int][]int{}
	for _, h := range ev.Batch() {
		ty, _ := ev.TypeAndDeadline(h)
		out[ty] = append(out[ty], h)
	}
	return out
}

// checkGroups compares BatchGroups with the oracle, and their orders with the batch's.
func checkGroups(t *testing.T, label string, ev Event) {
	t.Helper()
	groups, ok := ev.BatchGroups()
	if !ok {
		t.Fatalf("%s: no groups before any task was marked", label)
	}
	want := groupsOf(ev)
	order := map[int]int64{} // by handle
	seen := 0
	for ty, g := range groups {
		if g.Type != ty {
			t.Fatalf("%s: group %d says type %d", label, ty, g.Type)
		}
		hs := make([]int, len(g.Tasks))
		for i, x := range g.Tasks {
			hs[i], order[x.Handle] = x.Handle, x.Order
			if _, d := ev.TypeAndDeadline(x.Handle); x.Deadline != d {
				t.Fatalf("%s: type %d: task %d has deadline %v in its group, %v in the batch", label, ty, x.Handle, x.Deadline, d)
			}
		}
		if !slices.Equal(hs, want[ty]) {
			t.Fatalf("%s: type %d: tasks %v, batch has %v", label, ty, hs, want[ty])
		}
		seen += len(hs)
		if len(hs) == 0 {
			continue
		}
		lead := 0
		for i, h := range hs {
			if _, d := ev.TypeAndDeadline(h); d < deadlineOf(ev, hs[lead]) {
				lead = i
			}
		}
		if g.Lead != lead || g.Deadline != deadlineOf(ev, hs[lead]) {
			t.Fatalf("%s: type %d: lead %d (deadline %v), want %d (deadline %v)", label, ty, g.Lead, g.Deadline, lead, deadlineOf(ev, hs[lead]))
		}
	}
	batch := ev.Batch()
	if seen != len(batch) {
		t.Fatalf("%s: groups hold %d tasks, batch %d", label, seen, len(batch))
	}
	for i := 1; i < len(batch); i++ {
		if order[batch[i-1]] >= order[batch[i]] {
			t.Fatalf("%s: batch places %d and %d: orders %d, %d", label, i-1, i, order[batch[i-1]], order[batch[i]])
		}
	}
}

func deadlineOf(ev Event, h int) float64 {
	_, d := ev.TypeAndDeadline(h)
	return d
}

// TestBatchGroups: at every mapping event of random crowded replays (tasks expiring in the
// batch, assigned from anywhere in it, ties of deadlines), the groups the engine keeps match the
// batch grouped afresh, whether the mapper asks from the first event or starts asking midway;
// after an assignment or a deferral in the event, BatchGroups declines.
func TestBatchGroups(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	for trial := range 40 {
		types := 1 + r.IntN(5)
		tasks := randomTasks(r, 200, types, 1+2*r.Float64(), 1, 12)
		for i := range tasks {
			if r.IntN(4) == 0 { // deadlines on a coarse grid tie within a type
				tasks[i].Deadline = float64(int(tasks[i].Deadline))
				if tasks[i].Deadline <= tasks[i].Arrival {
					tasks[i].Deadline++
				}
			}
		}
		from := r.IntN(60) // the event at which the mapper starts asking
		events, asked := 0, 0
		m := mapperFunc{"grouping", Batch, func(ev Event) {
			events++
			label := fmt.Sprintf("trial %d event %d", trial, events)
			if events >= from {
				checkGroups(t, label, ev)
				asked++
			}
			batch := ev.Batch()
			for m := range ev.NumMachines() {
				if len(batch) == 0 || ev.Free(m) == 0 {
					continue
				}
				i := r.IntN(len(batch))
				if r.IntN(5) == 0 {
					ev.Defer(batch[i])
				} else {
					ev.Assign(batch[i], m)
				}
				if _, ok := ev.BatchGroups(); ok {
					t.Fatalf("%s: groups after a task was marked", label)
				}
				batch = ev.Batch()
			}
		}}
		cfg := Config{PET: randomPET(r, types, 2, 4, 8, 1), Machines: machinesOf(0, 1, 1), Tasks: tasks, Options: DefaultOptions()}
		cfg.Options.QueueSize = 1 + r.IntN(3)
		res, err := Run(t.Context(), cfg, m)
		if err != nil {
			t.Fatal(err)
		}
		expired := 0
		for _, o := range res.Outcomes {
			if o.Status == ExpiredUnmapped {
				expired++
			}
		}
		if asked == 0 || expired == 0 {
			t.Fatalf("trial %d: asked at %d events, %d tasks expired in the batch: the workload tests too little", trial, asked, expired)
		}
	}
}

// TestEmptyGroupHasNoLead: a type with no task in the batch has a group with no lead (-1).
// Worked by hand: two tasks of type 2 arrive at 0; the groups of types 0 and 1 are empty, and
// type 2's lead is its first task, of the earlier deadline 5.
func TestEmptyGroupHasNoLead(t *testing.T) {
	one := impulse(1)
	cfg := Config{PET: gridPET{{one}, {one}, {one}}, Machines: machinesOf(0), Options: DefaultOptions(),
		Tasks: []Task{{ID: 0, Type: 2, Deadline: 5}, {ID: 1, Type: 2, Deadline: 9}}}
	asked := false
	run(t, cfg, mapperFunc{"groups", Batch, func(ev Event) {
		if len(ev.Batch()) != 2 {
			return
		}
		asked = true
		groups, ok := ev.BatchGroups()
		if !ok || len(groups) != 3 {
			t.Fatalf("%d groups (%v), want 3", len(groups), ok)
		}
		for ty, g := range groups {
			want := -1
			if ty == 2 {
				want = 0
			}
			if g.Lead != want || ty == 2 && g.Deadline != 5 {
				t.Errorf("type %d: lead %d, deadline %v; want lead %d", ty, g.Lead, g.Deadline, want)
			}
		}
	}})
	if !asked {
		t.Fatal("never asked")
	}
}
