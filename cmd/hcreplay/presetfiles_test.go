package main

import (
	"slices"
	"testing"

	pf "github.com/hcreplay/hcreplay/presets"
	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep"
)

// TestPresetFilesRunAsGrids checks each embedded preset as figures runs it, on every level and
// on --quick's first and last: every sweep passed through `hcreplay sweep`'s flags (its
// heuristics, variants and SweepSet, as runExperiment does) expands to the same runs, in order,
// as Preset.Grid, the grid the file describes; every figure's run filter keeps some runs; and
// every claim names runs the experiment makes, one grid point each, so that it gets a verdict.
// (Until the Go presets were deleted, this test also held the files against them: the same
// texts, semantics, levels, figures, filters and runs; TestFiguresMatchGoPresets keeps
// the presets' end-to-end results from then.)
func TestPresetFilesRunAsGrids(t *testing.T) {
	for _, name := range pf.Names() {
		f, err := pf.Load(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, quick := range []bool{false, true} {
			src := pf.Source{Trials: 3, Tasks: 300, Quick: quick}
			for i, e := range f.Experiments {
				levels, err := src.Levels(e)
				if err != nil {
					t.Fatal(err)
				}
				var rows []report.RunRow
				for j, s := range e.Sweeps {
					want := goSweepRuns(t, levels, s.Heuristics, s.Prune, f.SweepSet(i, j))
					g, err := f.Grid(i, j, levels)
					if err != nil {
						t.Fatalf("%s/%s sweep %d: %v", name, e.Name, j+1, err)
					}
					got := expandRuns(t, g, levels)
					if !slices.Equal(runKeys(got), runKeys(want)) {
						t.Errorf("%s/%s sweep %d: the grid expands to %d runs %v…, the flags to %d %v…", name, e.Name, j+1,
							len(got), first(runKeys(got)), len(want), first(runKeys(want)))
					}
					for _, r := range want {
						row, err := r.Row()
						if err != nil {
							t.Fatal(err)
						}
						// Any defined metric, so that no claim is left unevaluated for want of one.
						x := float64(r.Trial)
						row.Robustness, row.OnTime, row.FairnessVariance, row.FairnessStdDev = 50+x, 100+int32(r.Trial), x, x
						row.CostPerOnTime, row.EnergyPerOnTime, row.MapperSeconds = x, x, x
						rows = append(rows, row)
					}
				}
				agg, err := report.AggregateRuns(rows, "")
				if err != nil {
					t.Fatal(err)
				}
				for _, fig := range e.Figures {
					keepSome(t, name+"/"+fig.File, rows, fig.Keep())
					for _, c := range fig.Claims {
						res, err := report.EvaluateClaim(agg, c.Report())
						if err != nil || res.Verdict == report.NotEvaluated {
							t.Errorf("%s/%s (quick %v): claim %q at %s: %v %s", name, fig.File, quick, c.Wording, c.Level, err, res.Why)
						}
					}
				}
			}
		}
	}
}

// goSweepRuns expands a sweep as runExperiment hands it to SweepCmd.
func goSweepRuns(t *testing.T, levels []sweep.Level, heuristics, prune, set []string) []sweep.SweepRun {
	t.Helper()
	g := sweep.NewGrid()
	sw := SweepCmd{Heuristic: heuristics, Prune: prune, Set: set}
	if err := sw.applyFlags(g); err != nil {
		t.Fatal(err)
	}
	g.SetLevels(levels, nil)
	return expandRuns(t, g, levels)
}

func expandRuns(t *testing.T, g *sweep.Grid, levels []sweep.Level) []sweep.SweepRun {
	t.Helper()
	g.PET = "pet.json"
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	trials := map[string]int{}
	for _, lv := range levels {
		trials[lv.Name] = lv.Trials
	}
	runs, err := g.Expand(trials)
	if err != nil {
		t.Fatal(err)
	}
	return runs
}

func runKeys(runs []sweep.SweepRun) []string {
	var keys []string
	for _, r := range runs {
		keys = append(keys, r.Key)
	}
	return keys
}

func first(keys []string) []string { return keys[:min(2, len(keys))] }

// keepSome checks that a run filter (nil: every run) keeps some of the rows.
func keepSome(t *testing.T, what string, rows []report.RunRow, keep func(report.RunRow) bool) {
	t.Helper()
	if keep == nil {
		return
	}
	if !slices.ContainsFunc(rows, keep) {
		t.Errorf("%s: the filter keeps no run", what)
	}
}
