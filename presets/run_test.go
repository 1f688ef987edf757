package presets

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep"
)

// fakeRunner records the sweeps an experiment asks for and fails the report with errReport.
type fakeRunner struct {
	outs []string
	sets [][]string
}

var errReport = errors.New("no report in this test")

func (f *fakeRunner) Sweep(_ context.Context, grid, out string, s Sweep, set []string) error {
	f.outs = append(f.outs, out)
	f.sets = append(f.sets, set)
	return nil
}

func (f *fakeRunner) Report(context.Context, []string, string, func(*report.Aggregate) ([]report.ClaimSection, error)) (*report.Aggregate, error) {
	return nil, errReport
}

// TestRunExperimentSweeps runs the first experiment of two embedded sweep presets (none under
// other semantics with a sensitivity run, which would aggregate runs the fake has none of) with a fake
// runner: one sweep per sweep of the experiment into runs/1, runs/2, ..., with the keys
// SweepSet gives, over a levels file that parses as a grid with the source's levels; the
// report's error comes back; and a stale file in the folder is gone.
func TestRunExperimentSweeps(t *testing.T) {
	for _, name := range []string{"conference", "journal"} {
		p, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		out := t.TempDir()
		dir := filepath.Join(out, "experiments", p.Experiments[0].Name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "stale"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		src := Source{PET: "pet.json", Trials: 3, Tasks: 100, Quick: true}
		var r fakeRunner
		var b strings.Builder
		if _, err := p.RunExperiment(context.Background(), &r, &b, 0, src, out); !errors.Is(err, errReport) {
			t.Fatalf("%s: %v, want the report's error", name, err)
		}
		if n := len(p.Experiments[0].Sweeps); len(r.outs) != n {
			t.Fatalf("%s: %d sweeps, want %d", name, len(r.outs), n)
		}
		for j, o := range r.outs {
			if want := filepath.Join(dir, "runs", string(rune('1'+j))); o != want {
				t.Errorf("%s: sweep %d into %s, want %s", name, j+1, o, want)
			}
			if want := p.SweepSet(0, j); !slices.Equal(r.sets[j], want) {
				t.Errorf("%s: sweep %d keys %q, want %q", name, j+1, r.sets[j], want)
			}
		}
		data, err := os.ReadFile(filepath.Join(dir, "levels.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		g, err := sweep.ParseGrid(data, "levels.yaml")
		want, _ := src.Levels(p.Experiments[0])
		if err != nil || len(g.Levels) != len(want) || g.Levels[0].Name != want[0].Name {
			t.Errorf("%s: levels.yaml %v, %v; want %d levels from %s", name, g, err, len(want), want[0].Name)
		}
		if _, err := os.Stat(filepath.Join(dir, "stale")); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: the stale file survived", name)
		}
	}
}

// TestRunExperimentsStopsAtError: the first experiment's failure stops the run, named by its
// experiment, after the log of its start.
func TestRunExperimentsStopsAtError(t *testing.T) {
	p, err := Load("conference")
	if err != nil {
		t.Fatal(err)
	}
	var logs []string
	logf := func(format string, args ...any) { logs = append(logs, fmt.Sprintf(format, args...)) }
	head := Header{Source: Source{PET: "pet.json", Trials: 3, Tasks: 100, Quick: true}}
	_, _, _, err = p.RunExperiments(context.Background(), &fakeRunner{}, head, t.TempDir(), logf)
	e := p.Experiments[0]
	if !errors.Is(err, errReport) || !strings.HasPrefix(err.Error(), "experiment "+e.Name+": ") {
		t.Errorf("error %v, want the report's, named by experiment %s", err, e.Name)
	}
	if want := fmt.Sprintf("figures: experiment 1 of %d, %s: %s", len(p.Experiments), e.Name, e.Summary); len(logs) != 1 || logs[0] != want {
		t.Errorf("logs %q, want [%q]", logs, want)
	}
}
