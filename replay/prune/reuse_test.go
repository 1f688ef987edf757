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
// and the summary, counters included. The sequence mixes heuristics, pruning variants, engines,
// drop models, PET and machine counts (storage shrinking and growing from one replay to the
// next), queue sizes and streamed or kept outcomes, so that anything a replay leaves behind
// shows in a later one. Outcomes a replay returned must also stay as they were while later
// replays reuse the storage.
func TestScratchReplaysAsFresh(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 70))
	all := heuristic.All()
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
		label := fmt.Sprintf("replay %d: %s%s %v engine %s, %d machines, %d types", i, h.Name, variant.Suffix(), model, engine, len(machines), types)
		run := func(s *replay.Scratch) (*replay.Result, string) {
			m, err := Wrap(h.New(heuristic.DefaultParams()), pc)
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
