package sweep

import (
	"strings"
	"testing"
)

// FuzzParseGrid feeds ParseGrid arbitrary YAML. A grid it accepts and Validate passes must
// expand, with two trials of each level, into runs whose keys are distinct and extend their
// points, numbered in order, no more than the product of its lists says (countRuns, which reads
// the grid's lists, not the expansion), and no two of one trial that replay alike; anything else
// must be an error naming the file.
func FuzzParseGrid(f *testing.F) {
	f.Add(smallGrid)
	f.Add("pet: p\nheuristics: MM\nlevels:\n  - name: a\n    trace: x.csv\n")
	f.Add("pet: p\nheuristics: [MM, MSD]\nlambda: [0.5, 1]\nseed: [1, 2]\nlevels:\n  - name: a\n    trials: 2\n    generate: {rate: 0.3, pattern: spiky, tasks: 10}\n")
	f.Add("pet: &p p\nheuristics: *p\nlevels: []\n")
	f.Fuzz(func(t *testing.T, text string) {
		g, err := ParseGrid([]byte(text), "grid.yaml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "grid.yaml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		if g.Validate() != nil {
			return
		}
		trials := map[string]int{}
		for _, lv := range g.Levels {
			trials[lv.Name] = 2
		}
		want, ok := countRuns(g, 2)
		runs, err := g.Expand(trials)
		if !ok {
			if err == nil {
				t.Fatalf("a grid of more than %d runs expanded into %d", maxSweepRuns, len(runs))
			}
			return
		}
		if err != nil {
			t.Fatalf("a valid grid does not expand: %v", err)
		}
		if len(runs) > want || len(runs) == 0 || len(runs)%2 != 0 {
			t.Fatalf("%d runs, want at most %d, two trials of each point", len(runs), want)
		}
		seen := map[string]bool{}
		replays := map[pointKey]int{} // runs that replay alike: one per trial
		for i, r := range runs {
			if r.Index != i || seen[r.Key] || !strings.HasPrefix(r.Key, r.Point+"|trial=") {
				t.Fatalf("run %d: index %d, key %q (seen before: %v), point %q", i, r.Index, r.Key, seen[r.Key], r.Point)
			}
			seen[r.Key] = true
			if replays[r.pointKey()]++; replays[r.pointKey()] > 2 {
				t.Fatalf("run %d (%s) replays as an earlier one", i, r.Key)
			}
		}
	})
}

// countRuns is how many runs a grid of n trials per level makes: levels × n × the length of
// every list (one for a list left out), or false past maxSweepRuns.
func countRuns(g *Grid, n int) (int, bool) {
	lens := []int{len(g.Heuristics), len(g.Prune), len(g.QueueSize), len(g.DropModel), len(g.Strict),
		len(g.ConditionElapsed), len(g.Trim), len(g.Seed), len(g.Engine), len(g.Toggle), len(g.Lambda),
		len(g.DropThreshold), len(g.Rho), len(g.Defer), len(g.Fairness), len(g.KPBPercent), len(g.MOCCull),
		len(g.DeferAt), len(g.DropRunning), len(g.SufferageExpired)}
	total := len(g.Levels) * n
	for _, l := range lens {
		total *= max(l, 1)
		if total > maxSweepRuns {
			return 0, false
		}
	}
	return total, true
}
