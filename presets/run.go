package presets

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep"
)

// Runner runs what an experiment needs and this package does not: the sweep of a grid file
// (its levels) with the heuristics, pruning and other keys of one of the experiment's sweeps
// into a folder, and the report of run folders with the claims checked on its aggregate. The
// command line runs them as `hcreplay sweep` and `hcreplay report` do.
type Runner interface {
	Sweep(ctx context.Context, grid, out string, s Sweep, set []string) error
	Report(ctx context.Context, runs []string, out string, claims func(*report.Aggregate) ([]report.ClaimSection, error)) (*report.Aggregate, error)
}

// RunExperiments runs every experiment of the preset (RunExperiment) on head's source into out,
// and returns notes.md's text, the claims checked and the number of figures drawn. logf hears
// of each experiment as it starts and ends.
func (p *Preset) RunExperiments(ctx context.Context, r Runner, head Header, out string, logf func(format string, args ...any)) (notes string, checked []Checked, figures int, err error) {
	var b strings.Builder
	p.WriteHeader(&b, head)
	for i, e := range p.Experiments {
		logf("figures: experiment %d of %d, %s: %s", i+1, len(p.Experiments), e.Name, e.Summary)
		began := time.Now()
		ch, err := p.RunExperiment(ctx, r, &b, i, head.Source, out)
		if err != nil {
			return "", nil, 0, fmt.Errorf("experiment %s: %w", e.Name, err)
		}
		checked = append(checked, ch...)
		logf("figures: %s done in %.0f s", e.Name, time.Since(began).Seconds())
		figures += len(e.Figures)
	}
	return b.String(), checked, figures, nil
}

// RunExperiment sweeps, reports and draws experiment i into out/experiments/NAME, writes its
// section of notes.md to b, and returns its claims checked, which its report shows too. The
// folder is cleared first: its runs are only valid for the PET and trials of this invocation.
func (p *Preset) RunExperiment(ctx context.Context, r Runner, b *strings.Builder, i int, src Source, out string) ([]Checked, error) {
	e := p.Experiments[i]
	dir := filepath.Join(out, "experiments", e.Name)
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	levels, err := src.Levels(e)
	if err != nil {
		return nil, sweep.InputError{Err: fmt.Errorf("%s: %w", p.File(), err)}
	}
	// The --generate flag of a sweep cannot set a generator's pattern, CV or tasks: a file can.
	grid := filepath.Join(dir, "levels.yaml")
	if err := sweep.WriteLevels(grid, levels); err != nil {
		return nil, err
	}
	// runSweeps runs each sweep of the experiment as Grid builds it: its heuristics, variants
	// and keys (SweepSet, in Grid's order) over the levels' file, with sem in place of the
	// preset's semantics.
	runSweeps := func(sem Semantics, folder string) ([]string, error) {
		var runs []string
		for j, s := range e.Sweeps {
			if _, err := p.Grid(i, j, levels); err != nil {
				return nil, sweep.InputError{Err: err}
			}
			set := append(sem.Keys(), p.SweepSet(i, j)[len(sem.Keys()):]...)
			runsDir := filepath.Join(dir, folder, strconv.Itoa(j+1))
			if err := r.Sweep(ctx, grid, runsDir, s, set); err != nil {
				return nil, err
			}
			runs = append(runs, runsDir)
		}
		return runs, nil
	}
	runs, err := runSweeps(p.RunSemantics(), "runs")
	if err != nil {
		return nil, err
	}
	var defaults *report.Aggregate // the same sweeps under the default semantics
	if e.Sensitivity && p.RunSemantics() != DefaultSemantics() {
		druns, err := runSweeps(DefaultSemantics(), "runs-defaults")
		if err != nil {
			return nil, err
		}
		if defaults, err = report.AggregateFolders(druns); err != nil {
			return nil, err
		}
	}
	// The claims are checked once, on the report's aggregate, and shown by the report, notes.md
	// and verdicts.json alike.
	var checked []Checked
	reportDir := filepath.Join(dir, "report")
	agg, err := r.Report(ctx, runs, reportDir, func(agg *report.Aggregate) ([]report.ClaimSection, error) {
		var err error
		checked, err = p.EvaluateExperiment(i, agg, defaults)
		return p.ClaimSections(checked), err
	})
	if err != nil {
		return nil, err
	}
	p.WriteExperiment(b, i, levels, dir, func(path string) string {
		if rel, err := filepath.Rel(out, path); err == nil {
			return rel
		}
		return path
	})
	for _, f := range e.Figures {
		if err := f.drawAndNote(b, agg, defaults, checked, reportDir, out); err != nil {
			return nil, err
		}
	}
	return checked, nil
}

// drawAndNote draws figure f of the experiment from agg (its runs only, when it keeps some) and
// writes its notes: the paper's numbers beside ours, and under the default semantics too when
// defaults is not nil.
func (f Figure) drawAndNote(b *strings.Builder, agg, defaults *report.Aggregate, checked []Checked, reportDir, out string) error {
	keep := f.Keep()
	shown := agg
	if keep != nil {
		shown = agg.Subset(keep)
	}
	if err := f.Draw(shown, keep != nil, reportDir, out); err != nil {
		return fmt.Errorf("%s: %w", f.File, err)
	}
	if err := f.WriteNotes(b, shown, checked); err != nil {
		return err
	}
	if defaults == nil {
		return nil
	}
	if keep != nil {
		defaults = defaults.Subset(keep)
	}
	return f.WriteSensitivity(b, defaults, checked)
}
