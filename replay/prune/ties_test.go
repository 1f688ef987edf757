package prune

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
)

// TestFastEqualsReferenceOnTies is TestFastEqualsReference on workloads built to hit ties (issue
// 51): arrivals on whole steps of the PET's grid, several at once, and so finishes on whole steps
// too, most arrivals moved by up to 1e-12 or by 2e-10 (within the grid tolerance) either way, so
// that arrivals and finishes fall at equal and nearly equal times; deadlines on grid points, half a step off, within the grid tolerance of
// a grid point (1e-12, 1e-10) and just outside it (1e-8); machines in identical pairs and few
// task types, so that many chances are equal (and 0 or 1). Every heuristic and preset, under every
// pruning variant and drop model, must decide alike on both engines (engineDiff).
func TestFastEqualsReferenceOnTies(t *testing.T) {
	models := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}
	variants := []Variant{None, Defer, Drop, Both}
	names := []string{}
	for _, h := range heuristic.All() {
		names = append(names, h.Name)
	}
	for _, p := range Presets() {
		names = append(names, p.Name)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(51, uint64(len(name))))
			for i := range 12 { // every (model, variant) pair
				model, v := models[i%3], variants[i/3]
				cfg := replay.Config{PET: replaytest.RandomPET(r, 3, 2, 3, 10),
					Machines: []replay.Machine{{Type: 0}, {Type: 0}, {Type: 1}, {Type: 1}},
					Tasks:    tieTasks(r, 120, 3), Options: replay.DefaultOptions()}
				cfg.Options.Trim, cfg.Options.Seed, cfg.Options.QueueSize = 2, uint64(i), 2+r.IntN(3)
				cfg.Options.Strict = r.IntN(3) == 0
				cfg.Options.ConditionElapsed = r.IntN(4) > 0
				cfg.Options.DropModel = model
				ref := runEngine(t, cfg, name, v, model, "reference")
				fast := runEngine(t, cfg, name, v, model, "fast")
				if d := engineDiff(ref, fast); d != "" {
					t.Fatalf("%s%s under %v, workload %d: %s", name, v.Suffix(), model, i, d)
				}
				pc := DefaultConfig()
				pc.Variant = v
				m, err := New(name, heuristic.DefaultParams(), pc)
				if err != nil {
					t.Fatal(err)
				}
				size := cfg.Options.QueueSize
				if m.Mode() == replay.Immediate {
					size = math.MaxInt // unbounded queues
				}
				pruned := v != None || m.Name() != name // a preset may prune whatever the variant asked (PUM)
				if r, ok := m.(renamed); ok {
					pruned = r.Variant() != None.String()
				}
				replaytest.CheckInvariants(t, fmt.Sprintf("%s%s %v %d", name, v.Suffix(), model, i), cfg, fast, size, pruned)
			}
		})
	}
}

// tieTasks makes n tasks of the given number of types for TestFastEqualsReferenceOnTies, sorted
// by arrival with IDs in that order.
func tieTasks(r *rand.Rand, n, types int) []replay.Task {
	offsets := []float64{0, 0, 0, 0.5, 1e-12, -1e-12, 1e-10, -1e-10, 1e-8, -1e-8}
	jitter := []float64{0, 0, 1e-12, -1e-12, 3e-13, -3e-13, 2e-10, -2e-10}
	tasks := make([]replay.Task, n)
	at := 0.0
	for i := range tasks {
		at += float64(r.IntN(3)) // a third arrive with the task before
		arrival := at + jitter[r.IntN(len(jitter))]
		deadline := at + float64(4+r.IntN(20)) + offsets[r.IntN(len(offsets))]
		tasks[i] = replay.Task{Type: r.IntN(types), Arrival: arrival, Deadline: deadline}
	}
	slices.SortStableFunc(tasks, func(a, b replay.Task) int {
		switch {
		case a.Arrival < b.Arrival:
			return -1
		case a.Arrival > b.Arrival:
			return 1
		}
		return 0
	})
	for i := range tasks {
		tasks[i].ID = int64(i)
	}
	return tasks
}
