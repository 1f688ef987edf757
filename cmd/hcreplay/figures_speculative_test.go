package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hcreplay/hcreplay/replay/speculate"
)

// TestFiguresSpeculativeQuick runs the speculative preset in its quick form and checks that
// every figure is written in both formats and named in notes.md, with the paper's numbers
// beside ours.
func TestFiguresSpeculativeQuick(t *testing.T) {
	out := filepath.Join(t.TempDir(), "spec")
	stdout := mustCLI(t, "figures", "--preset", "speculative", "--quick", "--out", out, "-q")
	if !strings.Contains(stdout, filepath.Join(out, "notes.md")) {
		t.Errorf("figures does not say where the notes are:\n%s", stdout)
	}
	notes, err := os.ReadFile(filepath.Join(out, "notes.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, stem := range []string{"fig2-light", "fig3-sda-sigma", "fig4-ese-analysis", "fig5-single-job", "fig6-heavy"} {
		for _, ext := range figureFormats() {
			name := stem + "." + ext
			if st, err := os.Stat(filepath.Join(out, name)); err != nil || st.Size() < 1000 {
				t.Errorf("%s: missing or empty (%v)", name, err)
			}
			if !strings.Contains(string(notes), name) {
				t.Errorf("notes.md does not mention %s", name)
			}
		}
	}
	for _, want := range []string{"--quick", "**Paper:**", "−60 %", "−18 %", "SCA against Mantri", "ESE against Mantri", "[2 2 2 3]", "ω = 1.26 and 1.68", "inconsistent"} {
		if !strings.Contains(string(notes), want) {
			t.Errorf("notes.md lacks %q", want)
		}
	}
	if code, _, stderr := cli(t, "figures", "--preset", "speculative", "--trials", out, "--out", out); code != exitUsage {
		t.Errorf("--trials with the speculative preset: exit %d:\n%s", code, stderr)
	}
}

// TestRunSpecRunsDone checks that runSpecRuns reports each replay that ends as it ends (the
// speculative preset's progress bar moves by it), from several workers at once, and each
// replay's result is kept.
func TestRunSpecRunsDone(t *testing.T) {
	w := speculate.SingleJob(50, 1, 2)
	var runs []*specRun
	for seed := range 7 {
		opt := speculate.DefaultOptions()
		opt.Strategy, opt.Seed = speculate.ESE, uint64(seed+1)
		runs = append(runs, &specRun{w: w, ms: nodes(4), opt: opt})
	}
	var done atomic.Int64
	if err := runSpecRuns(context.Background(), runs, 3, func() { done.Add(1) }); err != nil {
		t.Fatal(err)
	}
	if done.Load() != int64(len(runs)) {
		t.Errorf("done called %d times for %d replays", done.Load(), len(runs))
	}
	for i, r := range runs {
		if r.res == nil || len(r.res.Jobs) != 1 {
			t.Errorf("replay %d: result %v, want one job", i, r.res)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	done.Store(0)
	if err := runSpecRuns(ctx, runs, 3, func() { done.Add(1) }); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: error %v, want context.Canceled", err)
	}
	if done.Load() != 0 {
		t.Errorf("cancelled before it began: done called %d times", done.Load())
	}
}
