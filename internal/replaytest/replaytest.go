// Package replaytest holds what the tests of the heuristics and the pruner share: random
// workloads and the replay invariants of SPEC §9, checked on a run's outcomes, the fast engine's
// bounds checked at every event (CheckBounds), and a long trace file (LongTrace) for the tests of
// streamed replays. The engine's internal tests (package replay) cannot import it and keep their
// own checker; its external ones (package replay_test) run CheckBounds.
package replaytest

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
)

// Grid is a PET given cell by cell: Grid[task type][machine type].
type Grid [][]pmf.PMF

// Cell implements replay.PET.
func (g Grid) Cell(t, m int) pmf.PMF { return g[t][m] }

// CheckInvariants asserts that every task has exactly one outcome consistent with its times and
// the drop model, that no task starts before it arrives or is mapped, that a machine never runs
// two tasks at once nor holds more than queueSize tasks when one is mapped to it, and that the
// summary's counts add up.
func CheckInvariants(t testing.TB, label string, cfg replay.Config, res *replay.Result, queueSize int, pruned bool) {
	t.Helper()
	if len(res.Outcomes) != len(cfg.Tasks) {
		t.Fatalf("%s: %d outcomes for %d tasks", label, len(res.Outcomes), len(cfg.Tasks))
	}
	tol := 0.0
	if len(cfg.Tasks) > 0 && len(cfg.Machines) > 0 {
		tol = pmf.Tolerance(cfg.PET.Cell(cfg.Tasks[0].Type, cfg.Machines[0].Type).Step())
	}
	seen := map[int64]bool{}
	perMachine := map[int][]replay.Outcome{}
	counts := map[replay.Status]int{}
	for _, o := range res.Outcomes {
		if seen[o.Task.ID] {
			t.Fatalf("%s: task %d has two outcomes", label, o.Task.ID)
		}
		seen[o.Task.ID] = true
		if o.Scored {
			counts[o.Status]++
		}
		if err := outcomeError(o, cfg.Options, pruned, tol); err != "" {
			t.Fatalf("%s: task %d (arrival %v, deadline %v, machine %d, mapped %v, %v–%v, %v): %s", label,
				o.Task.ID, o.Task.Arrival, o.Task.Deadline, o.Machine, o.MapTime, o.Start, o.End, o.Status, err)
		}
		if o.Machine >= 0 {
			perMachine[o.Machine] = append(perMachine[o.Machine], o)
		}
	}
	s := res.Summary
	got := map[replay.Status]int{replay.OnTime: s.OnTime, replay.Late: s.Late, replay.DroppedDeadline: s.DroppedDeadline,
		replay.DroppedPruned: s.DroppedPruned, replay.ExpiredUnmapped: s.ExpiredUnmapped, replay.Unfinished: s.Unfinished}
	sum := 0
	for st, n := range got {
		sum += n
		if n != counts[st] {
			t.Fatalf("%s: summary has %d %v, outcomes %d", label, n, st, counts[st])
		}
	}
	if sum != s.Scored || s.Scored != max(0, len(cfg.Tasks)-2*cfg.Options.Trim) {
		t.Fatalf("%s: counts add to %d, scored %d, %d tasks, trim %d", label, sum, s.Scored, len(cfg.Tasks), cfg.Options.Trim)
	}
	for m, os := range perMachine {
		checkMachine(t, fmt.Sprintf("%s: machine %d", label, m), os, queueSize, tol)
	}
}

// outcomeError says what is wrong with one task's outcome, or "". Times within tol of each other
// are the same time, as the engine reads them (its clock: the PET's grid tolerance).
func outcomeError(o replay.Outcome, opt replay.Options, pruned bool, tol float64) string {
	started, mapped, model := !math.IsNaN(o.Start), o.Machine >= 0, opt.DropModel
	before := func(a, b float64) bool { return a < b-tol } // a is before b, not the same time
	meets := !before(o.Task.Deadline, o.End)               // at or before the deadline
	if opt.Strict {
		meets = before(o.End, o.Task.Deadline)
	}
	switch {
	case started && !mapped:
		return "started without a machine"
	case mapped && before(o.MapTime, o.Task.Arrival):
		return "mapped before it arrived"
	case mapped && !before(o.MapTime, o.Task.Deadline):
		return "mapped at or after its deadline" // it expires at the start of that event
	case started && (before(o.Start, o.MapTime) || before(o.End, o.Start)):
		return "starts before it is mapped or ends before it starts"
	case o.Status == replay.OnTime && (!started || !meets):
		return "on time without running by its deadline"
	case o.Status == replay.Late && (!started || meets || model == pmf.Evict):
		return "late, but not run past its deadline, or under evict"
	case o.Status == replay.DroppedDeadline && (!mapped || before(o.End, o.Task.Deadline) || model == pmf.None):
		return "dropped at its deadline before it, unmapped, or under none"
	case o.Status == replay.ExpiredUnmapped && (mapped || before(o.End, o.Task.Deadline)):
		return "expired unmapped, but mapped or before its deadline"
	case o.Status == replay.DroppedPruned && (!pruned || !mapped || before(o.End, o.MapTime)):
		return "dropped by a pruner that is not there, or before it was mapped"
	case o.Status == replay.Unfinished:
		return "unfinished"
	}
	return ""
}

// checkMachine: the runs on one machine never overlap, and when a task is mapped at most
// queueSize tasks (itself included) are on the machine.
func checkMachine(t testing.TB, label string, os []replay.Outcome, queueSize int, tol float64) {
	t.Helper()
	var runs []replay.Outcome
	for _, o := range os {
		if !math.IsNaN(o.Start) {
			runs = append(runs, o)
		}
	}
	slices.SortFunc(runs, func(a, b replay.Outcome) int { return cmp.Compare(a.Start, b.Start) })
	for i := 1; i < len(runs); i++ {
		if a, b := runs[i-1], runs[i]; b.Start < a.End-tol {
			t.Fatalf("%s runs task %d (%v–%v) and task %d (%v–%v) at once", label, a.Task.ID, a.Start, a.End, b.Task.ID, b.Start, b.End)
		}
	}
	for _, o := range os {
		n := 0
		for _, q := range os {
			if q.MapTime <= o.MapTime+tol && q.End > o.MapTime+tol {
				n++
			}
		}
		if n > queueSize {
			t.Fatalf("%s holds %d tasks at %v, queue size %d", label, n, o.MapTime, queueSize)
		}
	}
}

// RandomPET makes types × mtypes cells of up to k impulses at whole steps from 1 to span.
func RandomPET(r *rand.Rand, types, mtypes, k, span int) Grid {
	g := make(Grid, types)
	for t := range g {
		g[t] = make([]pmf.PMF, mtypes)
		for m := range g[t] {
			w := make([]float64, 1+r.IntN(k))
			for i := range w {
				w[i] = 0.05 + r.Float64()
			}
			d, _, err := pmf.FromWeights(float64(1+r.IntN(span/2)), 1, w)
			if err != nil {
				panic(err)
			}
			g[t][m] = d
		}
	}
	return g
}

// RandomTasks makes n tasks with Poisson arrivals at the given rate, some simultaneous, and
// deadlines a random slack after arrival.
func RandomTasks(r *rand.Rand, n, types int, rate, slackMin, slackMax float64) []replay.Task {
	tasks := make([]replay.Task, n)
	t := 0.0
	for i := range tasks {
		if i == 0 || r.IntN(10) > 0 {
			t += r.ExpFloat64() / rate
		}
		tasks[i] = replay.Task{ID: int64(i), Type: r.IntN(types), Arrival: t, Deadline: t + slackMin + r.Float64()*(slackMax-slackMin)}
	}
	return tasks
}
