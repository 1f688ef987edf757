package main

import (
	"reflect"
	"slices"
	"testing"

	pf "github.com/hcreplay/hcreplay/presets"
	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep"
)

// TestPresetFilesMatchGo compares each embedded preset file with the Go preset it replaces
// (issue 48), before the Go presets are deleted: the same texts, semantics, levels and
// figures; every sweep expanded from the file gives the same runs (keys, in order) as the Go
// sweep passed through `hcreplay sweep`'s flags; each figure's run filter keeps the same runs;
// and every claim names runs the experiment makes, one grid point each.
func TestPresetFilesMatchGo(t *testing.T) {
	for _, p := range presets() {
		f, err := pf.Load(p.name)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		same := func(what string, got, want any) {
			t.Helper()
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: %s: file %#v, Go %#v", p.name, what, got, want)
			}
		}
		same("title", f.Title, p.title)
		same("reference", f.Reference, p.reference)
		same("setup", f.Setup, p.setup)
		same("trials, tasks", [2]int{f.Trials, f.Tasks}, [2]int{p.trials, p.tasks})
		same("omitted", f.Omitted, p.omitted)
		sem := p.semantics
		if f.Semantics == nil {
			t.Errorf("%s: the file has no semantics", p.name)
			continue
		}
		same("semantics", *f.Semantics, pf.Semantics{DropModel: sem.dropModel, DeferAt: sem.deferAt, DropRunning: sem.dropRunning,
			SufferageExpired: sem.sufferExpired, Why: sem.why})
		if len(f.Experiments) != len(p.experiments) {
			t.Errorf("%s: %d experiments in the file, %d in Go", p.name, len(f.Experiments), len(p.experiments))
			continue
		}
		// Every level, and --quick's first and last: each claim has its runs in both.
		for _, quick := range []bool{false, true} {
			src := trialSource{trials: 3, tasks: 300, quick: quick}
			for i, e := range p.experiments {
				fe := f.Experiments[i]
				same(e.name+": name, summary, sensitivity", []any{fe.Name, fe.Summary, fe.Sensitivity}, []any{e.name, e.summary, e.sensitivity})
				same(e.name+": levels", fe.Levels, e.levels)
				same(e.name+": generated levels", fe.Generated, e.fixed)
				levels, err := e.resolveLevels(src)
				if err != nil {
					t.Fatal(err)
				}
				var rows []report.RunRow
				if len(fe.Sweeps) != len(e.sweeps) {
					t.Errorf("%s/%s: %d sweeps in the file, %d in Go", p.name, e.name, len(fe.Sweeps), len(e.sweeps))
					continue
				}
				for j, s := range e.sweeps {
					want := goSweepRuns(t, levels, s, slices.Concat(sem.keys(), p.common, s.set))
					g, err := f.Grid(i, j, levels)
					if err != nil {
						t.Fatalf("%s/%s sweep %d: %v", p.name, e.name, j+1, err)
					}
					got := expandRuns(t, g, levels)
					if !slices.Equal(runKeys(got), runKeys(want)) {
						t.Errorf("%s/%s sweep %d: the file expands to %d runs %v…, Go to %d %v…", p.name, e.name, j+1,
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
				if len(fe.Figures) != len(e.figures) {
					t.Errorf("%s/%s: %d figures in the file, %d in Go", p.name, e.name, len(fe.Figures), len(e.figures))
					continue
				}
				for k, fig := range e.figures {
					ff := fe.Figures[k]
					same(fig.file, []any{ff.File, ff.Title, ff.Kind, ff.Bars, ff.Metric, ff.Paper}, []any{fig.file, fig.title, fig.kind, fig.bars, fig.metric, fig.paper})
					same(fig.file+": metrics", ff.Metrics, fig.metrics)
					keepSame(t, p.name+"/"+fig.file, rows, fig.keep, ff.Keep())
					for _, c := range ff.Claims {
						res, err := report.EvaluateClaim(agg, c.Report())
						if err != nil || res.Verdict == report.NotEvaluated {
							t.Errorf("%s/%s (quick %v): claim %q at %s: %v %s", p.name, fig.file, quick, c.Wording, c.Level, err, res.Why)
						}
					}
				}
			}
		}
	}
}

// goSweepRuns expands a Go preset's sweep as runExperiment hands it to SweepCmd.
func goSweepRuns(t *testing.T, levels []sweep.Level, s sweepSpec, set []string) []sweep.SweepRun {
	t.Helper()
	g := sweep.NewGrid()
	sw := SweepCmd{Heuristic: s.heuristics, Prune: s.prune, Set: set}
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

// keepSame checks that two run filters (nil: every run) keep the same rows.
func keepSame(t *testing.T, what string, rows []report.RunRow, a, b func(report.RunRow) bool) {
	t.Helper()
	kept, differ := 0, 0
	for _, r := range rows {
		ka, kb := a == nil || a(r), b == nil || b(r)
		if ka != kb && differ == 0 {
			t.Errorf("%s: run %s: the Go filter keeps it %v, the file's %v", what, r.Key, ka, kb)
		}
		if ka != kb {
			differ++
		}
		if ka {
			kept++
		}
	}
	if differ > 1 {
		t.Errorf("%s: and %d runs more", what, differ-1)
	}
	if kept == 0 {
		t.Errorf("%s: the filter keeps no run", what)
	}
}

// TestSpeculativeFileMatchesGo compares the speculative preset's file with specSetupFor.
func TestSpeculativeFileMatchesGo(t *testing.T) {
	f, err := pf.Load(speculativePreset)
	if err != nil {
		t.Fatal(err)
	}
	for _, quick := range []bool{false, true} {
		want := specSetupFor(quick)
		sc := f.Speculative.Full
		if quick {
			sc = f.Speculative.Quick
		}
		got := specSetup{machines: sc.Machines, light: sc.Light, heavy: sc.Heavy, horizon: sc.Horizon, seeds: sc.Seeds, sigmas: sc.Sigmas,
			f5Tasks: sc.F5Tasks, f5M: sc.F5Machines, f5Reps: sc.F5Reps, f5Sigmas: sc.F5Sigmas}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("quick %v: file %+v, Go %+v", quick, got, want)
		}
	}
}
