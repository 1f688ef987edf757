package heuristic

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

// TestInvariants replays random workloads through every registered heuristic under every drop
// model and checks SPEC §9's replay invariants on each run.
func TestInvariants(t *testing.T) {
	models := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}
	for _, h := range All() {
		t.Run(h.Name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(11, uint64(len(h.Name))))
			for trial := range 20 * len(models) {
				cfg := replay.Config{
					PET:      randomPET(r, 4, 3, 6, 16),
					Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}, {Type: 2}},
					Tasks:    randomTasks(r, 100+r.IntN(100), 4, 0.3+1.2*r.Float64(), 4, 30),
					Options:  replay.DefaultOptions(),
				}
				cfg.Options.DropModel = models[trial%len(models)]
				cfg.Options.Strict = r.IntN(2) == 0
				cfg.Options.QueueSize = 1 + r.IntN(4)
				cfg.Options.Trim = r.IntN(5)
				cfg.Options.Seed = uint64(trial)
				p := DefaultParams()
				p.Phase1All, p.GlobalPhase2, p.ETC = r.IntN(4) == 0, r.IntN(4) == 0, r.IntN(4) == 0
				res, err := replay.Run(t.Context(), cfg, h.New(p))
				if err != nil {
					t.Fatal(err)
				}
				size := cfg.Options.QueueSize
				if h.Mode == replay.Immediate {
					size = math.MaxInt
				}
				label := fmt.Sprintf("%s trial %d %v strict=%v queue %d %+v", h.Name, trial, cfg.Options.DropModel, cfg.Options.Strict, size, p)
				checkInvariants(t, label, cfg, res, size)
			}
		})
	}
}

// checkInvariants asserts that every task has exactly one outcome consistent with its times and
// the drop model, that no task starts before it arrives or is mapped, that a machine never runs
// two tasks at once nor holds more than queueSize tasks when one is mapped to it, and that the
// summary's counts add up.
func checkInvariants(t *testing.T, label string, cfg replay.Config, res *replay.Result, queueSize int) {
	t.Helper()
	if len(res.Outcomes) != len(cfg.Tasks) {
		t.Fatalf("%s: %d outcomes for %d tasks", label, len(res.Outcomes), len(cfg.Tasks))
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
		if err := outcomeError(o, cfg.Options.DropModel); err != "" {
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
		checkMachine(t, fmt.Sprintf("%s: machine %d", label, m), os, queueSize)
	}
}

// outcomeError says what is wrong with one task's outcome, or "".
func outcomeError(o replay.Outcome, model pmf.Model) string {
	started, mapped := !math.IsNaN(o.Start), o.Machine >= 0
	switch {
	case started && !mapped:
		return "started without a machine"
	case mapped && o.MapTime < o.Task.Arrival:
		return "mapped before it arrived"
	case started && (o.Start < o.MapTime || o.End < o.Start):
		return "starts before it is mapped or ends before it starts"
	case o.Status == replay.OnTime && (!started || o.End > o.Task.Deadline):
		return "on time without running by its deadline"
	case o.Status == replay.Late && (!started || o.End <= o.Task.Deadline || model == pmf.Evict):
		return "late, but not run past its deadline, or under evict"
	case o.Status == replay.DroppedDeadline && (!mapped || o.End < o.Task.Deadline || model == pmf.None):
		return "dropped at its deadline before it, unmapped, or under none"
	case o.Status == replay.ExpiredUnmapped && (mapped || o.End < o.Task.Deadline):
		return "expired unmapped, but mapped or before its deadline"
	case o.Status == replay.DroppedPruned || o.Status == replay.Unfinished:
		return "status impossible without a pruner"
	}
	return ""
}

// checkMachine: the runs on one machine never overlap, and when a task is mapped at most
// queueSize tasks (itself included) are on the machine.
func checkMachine(t *testing.T, label string, os []replay.Outcome, queueSize int) {
	t.Helper()
	var runs []replay.Outcome
	for _, o := range os {
		if !math.IsNaN(o.Start) {
			runs = append(runs, o)
		}
	}
	slices.SortFunc(runs, func(a, b replay.Outcome) int { return cmp.Compare(a.Start, b.Start) })
	for i := 1; i < len(runs); i++ {
		if a, b := runs[i-1], runs[i]; b.Start < a.End {
			t.Fatalf("%s runs task %d (%v–%v) and task %d (%v–%v) at once", label, a.Task.ID, a.Start, a.End, b.Task.ID, b.Start, b.End)
		}
	}
	for _, o := range os {
		n := 0
		for _, q := range os {
			if q.MapTime <= o.MapTime && q.End > o.MapTime {
				n++
			}
		}
		if n > queueSize {
			t.Fatalf("%s holds %d tasks at %v, queue size %d", label, n, o.MapTime, queueSize)
		}
	}
}
