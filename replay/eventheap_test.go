package replay

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestEventHeapAgainstSortedList drives the event heap with random pushes, pops and removals,
// and checks every pop against a plain list kept sorted by (time, machine, seq), the order the
// heap promises. Removals hit every position of the heap's array, the last among them (a
// mutation of cut's `i < last` to `<=` survived every other test: removing the event stored
// last is what a drop of a running task does when its finish is the latest one queued).
func TestEventHeapAgainstSortedList(t *testing.T) {
	less := func(a, b event) int {
		switch {
		case a.time != b.time:
			if a.time < b.time {
				return -1
			}
			return 1
		case a.machine != b.machine:
			return a.machine - b.machine
		default:
			return a.seq - b.seq
		}
	}
	removedLast := 0
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(52, seed))
		var h eventHeap
		var model []event
		seq := 0
		busy := map[int]bool{}
		for step := 0; step < 60; step++ {
			switch op := r.IntN(3); {
			case op == 0 || len(model) == 0: // push an event for an idle machine
				m := r.IntN(8)
				if busy[m] {
					continue
				}
				busy[m] = true
				seq++
				ev := event{time: float64(r.IntN(5)), machine: m, seq: seq}
				h.push(ev)
				model = append(model, ev)
			case op == 1: // pop the earliest
				slices.SortFunc(model, less)
				got, want := h.pop(), model[0]
				if got != want {
					t.Fatalf("seed %d step %d: pop %+v, want %+v", seed, step, got, want)
				}
				model = model[1:]
				delete(busy, got.machine)
			default: // remove a machine's event, wherever the heap stores it
				i := r.IntN(len(h))
				if r.IntN(2) == 0 {
					i = len(h) - 1
				}
				m := h[i].machine
				if i == len(h)-1 {
					removedLast++
				}
				h.remove(m)
				model = slices.DeleteFunc(model, func(ev event) bool { return ev.machine == m })
				delete(busy, m)
			}
			if len(h) != len(model) {
				t.Fatalf("seed %d step %d: heap holds %d events, want %d", seed, step, len(h), len(model))
			}
		}
		slices.SortFunc(model, less)
		for _, want := range model {
			if got := h.pop(); got != want {
				t.Fatalf("seed %d: draining, pop %+v, want %+v", seed, got, want)
			}
		}
	}
	if removedLast < 100 {
		t.Fatalf("only %d removals of the event stored last: too few to pin cut", removedLast)
	}
}
