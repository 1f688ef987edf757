package prune

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
)

// TestScratchReplaysAsFresh: replays that pass one replay.Scratch from each to the next decide and
// report exactly what the same replays do each on fresh storage: every outcome field for field,
// and the summary, counters included. Each replay's mapper takes the storage of the last one's
// (Recycle), whatever their kinds. The sequence mixes heuristics, presets, pruning variants, engines,
// drop models, PET and machine counts (storage shrinking and growing from one replay to the
// next), queue sizes and streamed or kept outcomes, so that anything a replay leaves behind
// shows in a later one. Outcomes a replay returned must also stay as they were while later
// replays reuse the storage.
func TestScratchReplaysAsFresh(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 70))
	all, presets := heuristic.All(), Presets()
	models := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}
	variants := []Variant{None, Defer, Drop, Both}
	engines := []string{"fast", "fast", "reference", "approx"}
	var scratch replay.Scratch
	type kept struct {
		res  *replay.Result
		want string
	}
	var returned []kept
	for i := range 60 {
		h := all[r.IntN(len(all))]
		variant, model, engine := variants[r.IntN(4)], models[r.IntN(3)], engines[r.IntN(4)]
		types, mtypes := 2+r.IntN(4), 1+r.IntN(3)
		machines := make([]replay.Machine, 1+r.IntN(6))
		for m := range machines {
			machines[m].Type = r.IntN(mtypes)
		}
		cfg := replay.Config{PET: replaytest.RandomPET(r, types, mtypes, 4+r.IntN(8), 10+r.IntN(20)), Machines: machines,
			Tasks: replaytest.RandomTasks(r, 20+r.IntN(100), types, 0.2+r.Float64(), 2, 30), Options: replay.DefaultOptions()}
		o := &cfg.Options
		o.DropModel, o.Trim, o.Seed, o.QueueSize = model, r.IntN(4), uint64(i), 2+r.IntN(5)
		o.Strict, o.ConditionElapsed = r.IntN(3) == 0, r.IntN(5) != 0
		o.Engine, o.ApproxBucket, o.ApproxCrop = engine, 1+r.IntN(3), r.IntN(2) == 0
		streamed := r.IntN(3) == 0
		pc := DefaultConfig()
		pc.Variant = variant
		name := h.Name
		build := func() (replay.Mapper, error) { return Wrap(h.New(heuristic.DefaultParams()), pc) }
		if r.IntN(5) == 0 { // a preset: the heuristic renamed, and pruned as the preset says
			name = presets[r.IntN(len(presets))].Name
			build = func() (replay.Mapper, error) { return New(name, heuristic.DefaultParams(), pc) }
		}
		label := fmt.Sprintf("replay %d: %s%s %v engine %s, %d machines, %d types", i, name, variant.Suffix(), model, engine, len(machines), types)
		run := func(s *replay.Scratch) (*replay.Result, string) {
			m, err := build()
			if err != nil {
				t.Fatal(err)
			}
			c := cfg
			c.Scratch = s
			var out []replay.Outcome
			if streamed {
				c.Options.OnTask = func(o replay.Outcome) { out = append(out, o) }
			}
			res, err := replay.Run(t.Context(), c, m)
			if err != nil {
				t.Fatalf("%s: %v", label, err)
			}
			if !streamed {
				out = res.Outcomes
			}
			return res, fmt.Sprintf("%+v\n%+v", res.Summary, out)
		}
		res, got := run(&scratch)
		_, want := run(nil)
		if got != want {
			t.Fatalf("%s: with the scratch\n%s\nfresh\n%s", label, got, want)
		}
		if !streamed {
			returned = append(returned, kept{res, fmt.Sprintf("%+v", res.Outcomes)})
		}
	}
	for i, k := range returned {
		if got := fmt.Sprintf("%+v", k.res.Outcomes); got != k.want {
			t.Fatalf("outcomes returned by kept replay %d changed while later replays reused the scratch", i)
		}
	}
}

// recordingMapper is a mapper that takes storage: it records the mapper it was handed.
type recordingMapper struct {
	replay.Mapper
	got replay.Mapper
}

func (r *recordingMapper) Recycle(old replay.Mapper) { r.got = old }

// TestRecycleReachesTheHeuristic: a pruned or renamed mapper hands its heuristic the heuristic
// inside the old mapper, through any renames and pruning, and a heuristic that takes no storage
// is handed nothing.
func TestRecycleReachesTheHeuristic(t *testing.T) {
	oldInner := &recordingMapper{Mapper: heuristic.MM{}}
	for _, old := range []replay.Mapper{oldInner, &Pruner{inner: oldInner}, renamed{oldInner, "X"}, renamed{&Pruner{inner: oldInner}, "X-P"}} {
		for _, wrap := range []func(replay.Mapper) replay.Mapper{
			func(m replay.Mapper) replay.Mapper { return &Pruner{inner: m} },
			func(m replay.Mapper) replay.Mapper { return renamed{m, "Y"} },
			func(m replay.Mapper) replay.Mapper { return renamed{&Pruner{inner: m}, "Y-P"} },
		} {
			inner := &recordingMapper{Mapper: heuristic.MM{}}
			wrap(inner).(interface{ Recycle(replay.Mapper) }).Recycle(old)
			if inner.got != replay.Mapper(oldInner) {
				t.Errorf("%T %s: the heuristic was handed %v, want the old one's heuristic", old, wrap(inner).Name(), inner.got)
			}
		}
	}
	(&Pruner{inner: heuristic.MM{}}).Recycle(oldInner) // MM{} has no buffers: nothing to take, no panic
}
