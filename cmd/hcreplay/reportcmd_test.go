package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/report"
)

// sweepRows is a small sweep: MM and MM-P at two levels, three trials, MM-P better by 5 points.
func sweepRows() []report.RunRow {
	var rows []report.RunRow
	for _, lv := range []struct {
		name string
		rate float64
	}{{"19k", 0.215}, {"25k", 0.283}} {
		for _, pr := range []struct{ prune, name string }{{"none", "MM"}, {"both", "MM-P"}} {
			for trial := int32(1); trial <= 3; trial++ {
				point := pr.name + "@" + lv.name
				rob := 90 - 100*lv.rate + float64(trial)
				if pr.prune == "both" {
					rob += 5
				}
				rows = append(rows, report.RunRow{Key: fmt.Sprintf("%s#%d", point, trial), Point: point, Heuristic: "MM",
					Prune: pr.prune, Name: pr.name, Level: lv.name, LevelRate: lv.rate, Trial: trial, Engine: "fast",
					Robustness: rob, CostPerOnTime: 5 + float64(trial), EnergyPerOnTime: 100, MapperSeconds: float64(trial) / 10})
			}
		}
	}
	return rows
}

func writeRuns(t *testing.T, dir string, rows []report.RunRow) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "runs.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := report.WriteRuns(f, rows); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestReportShardsEqualWhole: two shards of a sweep, given as a folder and a file, report the
// same tables and figures as the whole sweep in one file.
func TestReportShardsEqualWhole(t *testing.T) {
	dir := t.TempDir()
	rows := sweepRows()
	whole := writeRuns(t, filepath.Join(dir, "whole"), rows)
	var a, b []report.RunRow
	for i, r := range rows {
		if i%2 == 0 {
			a = append(a, r)
		} else {
			b = append(b, r)
		}
	}
	shardA := filepath.Join(dir, "shard1")
	writeRuns(t, shardA, a)
	shardB := writeRuns(t, filepath.Join(dir, "shard2"), b)
	outWhole, outShards := filepath.Join(dir, "out1"), filepath.Join(dir, "out2")

	termWhole := mustCLI(t, "report", whole, "--out", outWhole, "--baseline", "MM", "--formats", "svg")
	// A shard given twice is read once.
	termShards := mustCLI(t, "report", shardA, shardB, shardA, "--out", outShards, "--baseline", "MM", "--formats", "svg")

	table := func(s string) string { return s[:strings.Index(s, "report written to")] }
	if table(termWhole) != table(termShards) {
		t.Errorf("terminal tables differ:\n%s\n%s", termWhole, termShards)
	}
	if !strings.Contains(termWhole, "+5.0 ± 0.0") || !strings.Contains(termWhole, filepath.Join(outWhole, "index.html")) {
		t.Errorf("terminal:\n%s", termWhole)
	}
	for _, f := range []string{"summary.md", "summary.csv", "summary.tex", "aggregate.csv", "robustness.svg", "cost.svg", "energy.svg"} {
		x, errX := os.ReadFile(filepath.Join(outWhole, f))
		y, errY := os.ReadFile(filepath.Join(outShards, f))
		if errX != nil || errY != nil || len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s: %v %v, equal %v", f, errX, errY, bytes.Equal(x, y))
		}
	}
	for _, f := range []string{"index.html", "index.md"} {
		if st, err := os.Stat(filepath.Join(outShards, f)); err != nil || st.Size() < 1000 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(outWhole, "robustness.png")); err == nil {
		t.Error("--formats svg wrote a PNG")
	}
}

func TestReportBadInput(t *testing.T) {
	dir := t.TempDir()
	good := writeRuns(t, filepath.Join(dir, "good"), sweepRows())
	changed := sweepRows()
	changed[4].Robustness += 1
	other := writeRuns(t, filepath.Join(dir, "other"), changed)
	empty := filepath.Join(dir, "empty")
	os.MkdirAll(empty, 0o755)
	replayed := filepath.Join(dir, "replayed") // replay --out with several mappers and trials
	os.MkdirAll(filepath.Join(replayed, "MM-P", "trial-001"), 0o755)
	writeFile(t, filepath.Join(replayed, "MM-P", "trial-001", "summary.json"), "{}\n")
	out := filepath.Join(dir, "out")
	missing := filepath.Join(dir, "nope", "runs.parquet")
	for _, c := range []struct {
		name string
		args []string
		want []string // in stderr
	}{
		{"missing path", []string{"report", good, missing, "--out", out}, []string{missing}},
		{"folder without runs", []string{"report", empty, "--out", out}, []string{empty, "no runs.parquet (hcreplay sweep writes one)"}},
		{"replay's output", []string{"report", replayed, "--out", out}, []string{replayed, "no runs.parquet (it looks like the output of hcreplay replay", "sweep --trace NAME=SPEC"}},
		{"same key, other results", []string{"report", good, other, "--out", out}, []string{good, other, sweepRows()[4].Key}},
		{"unknown baseline", []string{"report", good, "--out", out, "--baseline", "EDF"}, []string{"EDF", "MM, MM-P"}},
		{"unknown format", []string{"report", good, "--out", out, "--formats", "svg,gif"}, []string{"gif"}},
		{"unknown table", []string{"report", good, "--out", out, "--tables", "xls"}, []string{"xls"}},
		{"claims of an unknown preset", []string{"report", good, "--out", out, "--claims", "nosuch:batch"}, []string{"--claims nosuch:batch", `no preset "nosuch"`}},
		{"claims of an unknown experiment", []string{"report", good, "--out", out, "--claims", "thesis:nosuch"}, []string{`no experiment "nosuch"`, "toggle"}},
		{"claims of a preset without sweeps", []string{"report", good, "--out", out, "--claims", "speculative"}, []string{"speculative has no experiments of sweeps"}},
	} {
		code, _, stderr := cli(t, c.args...)
		if code != exitUsage {
			t.Errorf("%s: exit %d, want %d\n%s", c.name, code, exitUsage, stderr)
		}
		for _, w := range c.want {
			if !strings.Contains(stderr, w) {
				t.Errorf("%s: stderr lacks %q:\n%s", c.name, w, stderr)
			}
		}
	}
}

// TestReportManifest: the manifest next to runs.parquet shows on the page; timings that differ
// between two copies of a run do not count as a conflict.
func TestReportManifest(t *testing.T) {
	dir := t.TempDir()
	rows := sweepRows()
	runs := writeRuns(t, filepath.Join(dir, "a"), rows)
	writeFile(t, filepath.Join(dir, "a", "manifest.json"), `{"tool":"hcreplay","grid":{"heuristics":["MM"]}}`)
	for i := range rows {
		rows[i].MapperSeconds *= 2
	}
	rerun := writeRuns(t, filepath.Join(dir, "b"), rows)
	out := filepath.Join(dir, "out")
	mustCLI(t, "report", runs, rerun, "--out", out, "--formats", "svg", "--tables", "md")
	html, _ := os.ReadFile(filepath.Join(out, "index.html"))
	if !bytes.Contains(html, []byte("Sweep manifest")) || !bytes.Contains(html, []byte("&#34;heuristics&#34;")) {
		t.Errorf("index.html lacks the manifest")
	}
	if _, err := os.Stat(filepath.Join(out, "summary.csv")); err == nil {
		t.Error("--tables md wrote CSV")
	}
}

// TestReportMissingShard (issue 46): a report over the folders of shards 1/3 and 2/3 of a sweep
// is refused, naming shard 3/3 and how many of the grid's runs are there, unless --partial asks
// for the runs there are (with the same words as a warning); all three shards report.
// The grid has 16 runs (sweepFixture), run 3 of every 3 in shard 3/3: indices 2, 5, 8, 11, 14,
// so the first two shards hold 11.
func TestReportMissingShard(t *testing.T) {
	grid := sweepFixture(t, 2)
	dir := t.TempDir()
	var shards []string
	for _, s := range []string{"1/3", "2/3", "3/3"} {
		out := filepath.Join(dir, "shard"+s[:1])
		mustCLI(t, "sweep", grid, "--out", out, "--shard", s, "-q")
		shards = append(shards, out)
	}
	const want = "shard 3/3 missing: the folders hold 11 of the sweep's 16 runs"
	code, _, stderr := cli(t, "report", shards[0], shards[1], "--out", filepath.Join(dir, "r1"), "--formats", "svg")
	if code != exitUsage || !strings.Contains(stderr, want) || !strings.Contains(stderr, "--partial") {
		t.Errorf("two of three shards: exit %d, want %d and %q:\n%s", code, exitUsage, want, stderr)
	}
	code, _, stderr = cli(t, "report", shards[0], shards[1], "--out", filepath.Join(dir, "r2"), "--formats", "svg", "--partial")
	if code != 0 || !strings.Contains(stderr, "warning: ") || !strings.Contains(stderr, want) {
		t.Errorf("--partial: exit %d, want 0 and a warning %q:\n%s", code, want, stderr)
	}
	code, _, stderr = cli(t, "report", shards[2], shards[0], shards[1], "--out", filepath.Join(dir, "r3"), "--formats", "svg")
	if code != 0 || strings.Contains(stderr, "missing") {
		t.Errorf("all shards: exit %d:\n%s", code, stderr)
	}
}

// TestReportRefusesMixedTrials: two runs files whose rows name one level and trial but came
// from different trace files (two sweeps that called different trials 19k) would be compared as
// if on the same trials, paired differences included: refused, naming both files. The same file
// name under another folder (a shard run on another machine) is the same trial.
func TestReportRefusesMixedTrials(t *testing.T) {
	dir := t.TempDir()
	var a, b []report.RunRow
	for _, r := range sweepRows() {
		r.Trace = fmt.Sprintf("/data/one/arr%s_%d.dat", r.Level, r.Trial)
		if r.Name == "MM" {
			a = append(a, r)
			continue
		}
		r.Trace = fmt.Sprintf("/elsewhere/arr%s_%d.dat", r.Level, r.Trial)
		b = append(b, r)
	}
	fa, fb := writeRuns(t, filepath.Join(dir, "a"), a), writeRuns(t, filepath.Join(dir, "b"), b)
	mustCLI(t, "report", fa, fb, "--out", filepath.Join(dir, "same"), "--formats", "svg")
	for i := range b {
		b[i].Trace = fmt.Sprintf("/data/one/spk%s_%d.dat", b[i].Level, b[i].Trial)
	}
	fb = writeRuns(t, filepath.Join(dir, "c"), b)
	code, _, stderr := cli(t, "report", fa, fb, "--out", filepath.Join(dir, "mixed"), "--formats", "svg")
	if code != exitUsage || !strings.Contains(stderr, "arr19k_1.dat") || !strings.Contains(stderr, "spk19k_1.dat") {
		t.Errorf("exit %d, want %d and both trace names:\n%s", code, exitUsage, stderr)
	}
}

// TestReportClaims checks batch2010's claims against hand-made runs with --claims and the
// verdicts worked out by hand (t(2, 0.975) = 4.302653, three trials paired by trial number):
// MOC [30 10 32] over MM [10 20 30] is R = 1.2 with d = [18 −14 −4], s_d = √268, half =
// 4.302653 · 16.371 / (√3 · 20) = 2.033, so [−0.833, 3.23] holds both 1.19 and 1: not evaluated;
// MM over MCT [1 2 3] is 10 ± 0: shape holds.
func TestReportClaims(t *testing.T) {
	var rows []report.RunRow
	for name, onTime := range map[string][3]int32{"MOC": {30, 10, 32}, "MM": {10, 20, 30}, "MMU": {15, 15, 15}, "MSD": {14, 14, 14}, "MCT": {1, 2, 3}} {
		for i, v := range onTime {
			rows = append(rows, report.RunRow{Key: fmt.Sprintf("%s#%d", name, i+1), Point: name, Heuristic: name, Prune: "none", Name: name,
				Level: "poisson", Trial: int32(i + 1), OnTime: v, DropModel: "none", DeferAt: "after", DropRunning: "evict"})
		}
	}
	dir := t.TempDir()
	runs := writeRuns(t, filepath.Join(dir, "runs"), rows)
	out := mustCLI(t, "report", runs, "--out", filepath.Join(dir, "report"), "--formats", "svg", "--claims", "batch2010:batch")
	for _, want := range []string{
		"| `fig1-robustness/1` | MOC beats MM by 19 %", "| 1.19 | 1.2 [-0.833, 3.23] | **not evaluated**",
		"| 11.75 | 10 [10, 10] | **shape holds**", "not evaluated when the interval holds both",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, "report", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), "<td>1.2 [-0.833, 3.23]</td><td><strong>not evaluated</strong>") {
		t.Errorf("index.html lacks the MOC ÷ MM verdict")
	}
}
