package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/internal/hcw19"
)

// BenchmarkReplayFile reports tasks replayed per second by hcreplay replay itself, from a trace
// file to its outputs, as an operator sees them: 100,000 HCW19-like tasks at the 34k level (a
// synthesised PET of 12 types × 8 machines, the trace generated with CV 1 and prop:1 deadlines)
// read from CSV, with MM, its task outcomes written to tasks.parquet (out) or not (none). That
// takes the file's first pass (trialset.Trial.Streamable), the replay's own pass read ahead (prefetch), the
// events, and the outcomes written behind (trialrun's writeBehind); BenchmarkMillionTasks in replay/prune
// gives the events alone.
func BenchmarkReplayFile(b *testing.B) {
	dir := b.TempDir()
	pet, trace := filepath.Join(dir, "pet.json"), filepath.Join(dir, "trace.csv")
	const tasks = 100_000
	for _, args := range [][]string{
		{"pet", "synth", "--out", pet},
		{"trace", "gen", "--pet", pet, "--out", trace, "--trials", "1", "--tasks", strconv.Itoa(tasks), "--level", "34k", "--cv", "1"},
	} {
		benchCLI(b, args...)
	}
	for _, out := range []bool{false, true} {
		name := map[bool]string{false: "none", true: "out"}[out]
		b.Run("csv/MM/"+name, func(b *testing.B) {
			args := []string{"-q", "replay", "--pet", pet, "--trace", trace, "-H", "MM", "--prune", "none"}
			if out {
				args = append(args, "--out", filepath.Join(b.TempDir(), "run"))
			}
			for b.Loop() {
				benchCLI(b, args...)
			}
			b.ReportMetric(float64(tasks)*float64(b.N)/b.Elapsed().Seconds(), "tasks/s")
		})
	}
}

// benchCLI runs the CLI and stops the benchmark on a failure.
func benchCLI(b *testing.B, args ...string) {
	b.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != 0 {
		b.Fatalf("hcreplay %s: exit %d: %s", strings.Join(args, " "), code, stderr.String())
	}
}

// BenchmarkHCW19Replay reports the wall time of one multi-trial replay as issue 50 states its
// target: the 30 trials of HCW19's arr34k level read from the zip of .dat files, with MM-P and
// PAM-P (--prune both, deferring after the heuristic has chosen, the default), in s/replay:
// with the default -j (a trial per CPU at a time), and with -j 1 (-j1), one trial after another,
// for the ratio. Skips without ../shared/data/hcw19 (or $HCW19_DIR).
func BenchmarkHCW19Replay(b *testing.B) {
	dir := hcw19.Dir(b, "constant.zip", "classes_2.etc")
	for _, h := range []string{"MM", "PAM"} {
		for _, jobs := range []string{"0", "1"} {
			name := h + "-P"
			if jobs != "0" {
				name += "-j" + jobs
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					benchCLI(b, "-q", "replay", "--pet", filepath.Join(dir, "classes_2.etc"),
						"--trace", filepath.Join(dir, "constant.zip")+"#arr/arr34k_*.dat", "-H", h, "--prune", "both", "-j", jobs)
				}
				b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/replay")
			})
		}
	}
}

// BenchmarkFiguresJournal reports the wall time of issue 50's figures target, the full journal
// preset on the HCW19 data (30 trials a point, the reference engine's overhead experiment
// included), in s/figures, and the size of its largest SVG figure in KB (issue 50: under 100 KB
// for a line chart, the fonts named and not embedded). Minutes on two cores; skips without
// ../shared/data/hcw19 (or $HCW19_DIR) and with -short.
func BenchmarkFiguresJournal(b *testing.B) {
	if testing.Short() {
		b.Skip("the full journal preset: skipped with -short")
	}
	dir := hcw19.Dir(b, "constant.zip", "spiky.zip", "classes_2.etc")
	largest := int64(0)
	for i := 0; b.Loop(); i++ {
		out := filepath.Join(b.TempDir(), "journal"+strconv.Itoa(i))
		benchCLI(b, "-q", "figures", "--preset", "journal", "--trials", dir, "--out", out)
		svgs, err := filepath.Glob(filepath.Join(out, "*.svg"))
		if err != nil || len(svgs) == 0 {
			b.Fatalf("no SVG figure in %s (%v)", out, err)
		}
		for _, s := range svgs {
			if st, err := os.Stat(s); err == nil && st.Size() > largest {
				largest = st.Size()
			}
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/figures")
	b.ReportMetric(float64(largest)/1000, "max-svg-KB")
}
