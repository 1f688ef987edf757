package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/hcreplay/hcreplay/internal/progressbar"
	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
	"github.com/hcreplay/hcreplay/replay/prune"
	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep/trialrun"
	"github.com/hcreplay/hcreplay/sweep/trialset"
)

// writeTiny writes a two-type, two-machine PET in .etc form and a CSV trace of n tasks.
func writeTiny(t *testing.T, n int) (pet, tr string) {
	t.Helper()
	dir := t.TempDir()
	pet = filepath.Join(dir, "tiny.etc")
	etc := "machineCount=2;taskCount=2;\n" +
		"machine=0;task=0;\n2\t0.5\n4\t0.5\n" + "machine=1;task=0;\n4\t1\n" +
		"machine=0;task=1;\n6\t1\n" + "machine=1;task=1;\n2\t0.25\n4\t0.75\n"
	writeFile(t, pet, etc)
	var b strings.Builder
	b.WriteString("task_type,arrival,deadline\n")
	for i := range n {
		at := float64(i) * 1.5
		b.WriteString(strings.Join([]string{[]string{"0", "1"}[i%2], ftoa(at), ftoa(at + 9)}, ",") + "\n")
	}
	tr = filepath.Join(dir, "trace.csv")
	writeFile(t, tr, b.String())
	return pet, tr
}

func ftoa(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func TestReplayCommand(t *testing.T) {
	pet, tr := writeTiny(t, 40)
	out := filepath.Join(t.TempDir(), "run")
	var stdout, stderr bytes.Buffer
	code := run([]string{"replay", "--pet", pet, "--trace", tr, "-H", "MM", "--trim", "5", "--json", "--out", out, "--csv"}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	var got map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("--json output is not one JSON object: %v\n%s", err, stdout.String())
	}
	for _, key := range []string{"heuristic", "prune", "tasks", "scored", "on_time", "late", "dropped_deadline",
		"dropped_pruned", "expired_unmapped", "robustness", "fairness_variance", "cost_per_on_time",
		"energy_per_on_time", "mapping_events", "convolutions"} {
		if _, ok := got[key]; !ok {
			t.Errorf("--json output lacks %q", key)
		}
	}
	if got["tasks"] != 40.0 || got["scored"] != 30.0 {
		t.Errorf("tasks %v scored %v, want 40 and 30", got["tasks"], got["scored"])
	}
	rows, err := parquet.ReadFile[report.TaskRow](filepath.Join(out, "tasks.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	onTime := 0
	for _, r := range rows {
		if r.Scored && r.Status == "on_time" {
			onTime++
		}
	}
	if len(rows) != 40 || float64(onTime) != got["on_time"] {
		t.Errorf("tasks.parquet has %d rows and %d scored on time; summary says 40 and %v", len(rows), onTime, got["on_time"])
	}
	csvText, err := os.ReadFile(filepath.Join(out, "tasks.csv"))
	if err != nil || strings.Count(string(csvText), "\n") != 42 {
		t.Errorf("tasks.csv: %v, %d lines, want comment + header + 40", err, strings.Count(string(csvText), "\n"))
	}
	for _, f := range []string{"summary.json", "timing.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestReplayBadInput(t *testing.T) {
	pet, tr := writeTiny(t, 10)
	dir := t.TempDir()
	badTrace := filepath.Join(dir, "bad.csv")
	writeFile(t, badTrace, "task_type,arrival,deadline\n0,abc,5\n")
	unknownType := filepath.Join(dir, "unknown.csv")
	writeFile(t, unknownType, "task_type,arrival,deadline\n7,1,5\n")
	noDeadline := filepath.Join(dir, "nodl.csv")
	writeFile(t, noDeadline, "task_type,arrival\n0,1\n")
	kpbConfig := filepath.Join(dir, "c.yaml") // a config file's values are checked as flags' are
	writeFile(t, kpbConfig, "kpb-percent: .nan\n")
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"unknown heuristic", []string{"-H", "XX"}, []string{`unknown heuristic "XX"`, "MM"}},
		{"a flag given twice", []string{"-H", "MM", "--seed", "1", "--seed", "2"}, []string{"--seed is given more than once"}},
		{"a flag and its negation", []string{"-H", "MM", "--condition-elapsed", "--no-condition-elapsed"}, []string{"--condition-elapsed is given more than once"}},
		{"unknown heuristic among several", []string{"-H", "MM,XX"}, []string{`unknown heuristic "XX"`}},
		{"unknown variant among several", []string{"-H", "MM", "--prune", "both,all"}, []string{"--prune", `"all"`}},
		{"non-numeric arrival", []string{"-H", "MM", "--trace", badTrace}, []string{"bad.csv", "line 2", "arrival", `"abc"`}},
		{"unknown task type", []string{"-H", "MM", "--trace", unknownType}, []string{"unknown.csv", "task_type", `"7"`}},
		{"no deadline", []string{"-H", "MM", "--trace", noDeadline}, []string{"nodl.csv", "--deadline"}},
		{"bad drop model", []string{"-H", "MM", "--drop-model", "kill"}, []string{"--drop-model", "kill"}},
		{"missing PET", []string{"-H", "MM", "--pet", filepath.Join(dir, "none.etc")}, []string{"none.etc", "no such file"}},
		{"negative approx bucket", []string{"-H", "MM", "--engine", "approx", "--approx-bucket=-1"}, []string{"approximation bucket -1"}},
		{"too many MOC candidates", []string{"-H", "MOC", "--moc-candidates", "50"}, []string{"--moc-candidates 50: MOC candidates 50 outside 1 to 8"}},
		{"KPB percent NaN", []string{"-H", "KPB", "--kpb-percent", "NaN"}, []string{"--kpb-percent NaN: KPB percent NaN"}},
		{"lambda past 1", []string{"-H", "PAM", "--lambda", "5"}, []string{"--lambda 5: pruning: λ 5 outside [0, 1]"}},
		{"MOC cull past 1", []string{"-H", "MOC", "--moc-cull", "2"}, []string{"--moc-cull 2: MOC cull 2 outside"}},
		{"drop threshold past 1", []string{"-H", "PAM", "--drop-threshold", "2"}, []string{"--drop-threshold 2: pruning: dropping threshold 2"}},
		{"negative fairness", []string{"-H", "PAMF", "--fairness=-0.5"}, []string{"--fairness -0.5: pruning: fairness factor -0.5"}},
		{"infinite rho", []string{"-H", "PAM", "--rho", "Inf"}, []string{"--rho +Inf: pruning: ρ +Inf must be finite"}},
		{"KPB percent NaN from a config file", []string{"-H", "KPB", "--config", kpbConfig}, []string{"--kpb-percent NaN: KPB percent NaN"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"replay"}, c.args...)
			if !slices.Contains(args, "--pet") {
				args = append(args, "--pet", pet)
			}
			if !slices.Contains(args, "--trace") {
				args = append(args, "--trace", tr)
			}
			var stdout, stderr bytes.Buffer
			if code := run(args, &stdout, &stderr); code != 2 {
				t.Fatalf("exit %d, want 2; stderr: %s", code, stderr.String())
			}
			for _, w := range c.want {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr %q lacks %q", stderr.String(), w)
				}
			}
			if strings.Contains(stderr.String(), "goroutine") {
				t.Errorf("stack trace on bad input: %s", stderr.String())
			}
		})
	}
}

// TestTrimLeavesNothingWarns: a trim that leaves no task of a trace scored (2 × 10 ≥ 20 tasks)
// is warned about by replay and by sweep, which still succeed; a trim that leaves some is not.
func TestTrimLeavesNothingWarns(t *testing.T) {
	pet, tr := writeTiny(t, 20)
	const warning = "left none scored"
	cases := []struct {
		args []string
		warn string // "" for no warning
	}{
		{[]string{"replay", "--pet", pet, "--trace", tr, "-H", "MM", "--trim", "10"}, "--trim 10 leaves none of its 20 tasks scored"},
		{[]string{"replay", "--pet", pet, "--trace", tr, "-H", "MM", "--trim", "9"}, ""},
		{[]string{"sweep", "--pet", pet, "--trace", "t=" + tr, "-H", "MM,MSD", "--set", "trim=9,10", "--out", filepath.Join(t.TempDir(), "s")},
			"in 2 of the 4 runs just made, a trim of 10 tasks or more at each end " + warning},
		{[]string{"sweep", "--pet", pet, "--trace", "t=" + tr, "-H", "MM", "--set", "trim=9", "--out", filepath.Join(t.TempDir(), "s")}, ""},
	}
	for _, c := range cases {
		code, _, stderr := cli(t, c.args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		switch {
		case c.warn != "" && !strings.Contains(stderr, c.warn):
			t.Errorf("%v: stderr %q lacks %q", c.args, stderr, c.warn)
		case c.warn == "" && (strings.Contains(stderr, "scored") || strings.Contains(stderr, "warning")):
			t.Errorf("%v: unexpected warning: %s", c.args, stderr)
		}
	}
}

// tinyTrial loads the PET at petPath with its default machines and opens the trace, a single
// trial, against it.
func tinyTrial(t *testing.T, petPath, trace string) (*petbuild.PET, []replay.Machine, trialset.Trial) {
	t.Helper()
	pet, err := loadPET(petPath)
	if err != nil {
		t.Fatal(err)
	}
	machines, err := loadMachines("", pet)
	if err != nil {
		t.Fatal(err)
	}
	trials, err := trialset.Open(trialset.Input{Spec: trace}, pet, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	if len(trials) != 1 {
		t.Fatalf("%s: %d trials, want 1", trace, len(trials))
	}
	return pet, machines, trials[0]
}

// writeTrials writes len(sizes) CSV traces of the tiny workload (writeTiny's), trial-i.csv with
// sizes[i] tasks, into one folder, and returns the tiny PET and the folder's glob.
func writeTrials(t *testing.T, sizes ...int) (pet, glob string) {
	t.Helper()
	dir := t.TempDir()
	for i, n := range sizes {
		p, tr := writeTiny(t, n)
		pet = p
		b, err := os.ReadFile(tr)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "trial-"+strconv.Itoa(i+1)+".csv"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return pet, filepath.Join(dir, "trial-*.csv")
}

// jsonRuns runs hcreplay with args, which must include --json, and returns its runs' lines.
func jsonRuns(t *testing.T, args ...string) []map[string]any {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
	}
	var runs []map[string]any
	dec := json.NewDecoder(&stdout)
	for dec.More() {
		var r map[string]any
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		delete(r, "timing") // wall times differ from run to run
		runs = append(runs, r)
	}
	return runs
}

// TestReplaySeveralMappers: -H and --prune take several values, and replaying each trial through
// each mapper in one command gives, run for run, what a command per mapper and trial gives, in
// trial order then mapper order (heuristics as given, each under its variants), with each run's
// files in a folder of its mapper and trial, its summary.json naming the trace replayed. A mapper asked for twice (PAMF is PAMF-P whatever
// the variant) runs once.
func TestReplaySeveralMappers(t *testing.T) {
	pet, glob := writeTrials(t, 30, 36, 42)
	// Trials 2 and 3 out of order: they are loaded, once each, and each of the trial's mappers
	// replays the tasks of that load, which must be what a replay of the trial alone loads.
	for _, i := range []int{2, 3} {
		path := filepath.Join(filepath.Dir(glob), "trial-"+strconv.Itoa(i)+".csv")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		lines[5], lines[6] = lines[6], lines[5] // two task rows: the header is lines[0]
		writeFile(t, path, strings.Join(lines, "\n"))
	}
	out := filepath.Join(t.TempDir(), "runs")
	runs := jsonRuns(t, "replay", "--pet", pet, "--trace", glob, "-H", "MM,PAM", "-H", "PAMF",
		"--prune", "none", "--prune", "both", "--trim", "5", "--json", "--out", out)
	want := []struct{ name, prune, label string }{
		{"MM", "none", "MM"}, {"MM", "both", "MM-P"}, {"PAM", "none", "PAM"}, {"PAM", "both", "PAM-P"}, {"PAMF", "none", "PAMF-P"},
	}
	if len(runs) != 3*len(want) {
		t.Fatalf("%d runs, want %d", len(runs), 3*len(want))
	}
	for i := range 3 {
		trace := filepath.Join(filepath.Dir(glob), "trial-"+strconv.Itoa(i+1)+".csv")
		for j, w := range want {
			got := runs[i*len(want)+j]
			alone := jsonRuns(t, "replay", "--pet", pet, "--trace", trace, "-H", w.name, "--prune", w.prune, "--trim", "5", "--json")
			if len(alone) != 1 || !reflect.DeepEqual(got, alone[0]) {
				t.Errorf("trial %d, %s: %v\nalone: %v", i+1, w.label, got, alone)
			}
			if got["heuristic"] != w.label {
				t.Errorf("trial %d run %d is %v, want %s", i+1, j, got["heuristic"], w.label)
			}
			b, err := os.ReadFile(filepath.Join(out, w.label, fmt.Sprintf("trial-%03d", i+1), "summary.json"))
			if err != nil {
				t.Fatal(err)
			}
			var file map[string]any
			if err := json.Unmarshal(b, &file); err != nil {
				t.Fatal(err)
			}
			if file["trace"] != trace {
				t.Errorf("%s trial %d: summary.json names trace %v, want %s", w.label, i+1, file["trace"], trace)
			}
			if !reflect.DeepEqual(file, got) { // the trace included
				t.Errorf("%s trial %d: summary.json %v, printed %v", w.label, i+1, file, got)
			}
		}
	}
}

// TestReplayMeansTable: over several trials, replay closes with a table of each mapper's mean
// robustness ± the half-width of its 95% Student t interval, checked against the runs' own
// values with t quantiles from a table (t₀.₉₇₅ = 4.3027 on 2 degrees of freedom, 12.706 on 1);
// a trial whose robustness is undefined (--trim leaves nothing scored) is left out and counted.
func TestReplayMeansTable(t *testing.T) {
	pet, glob := writeTrials(t, 30, 36, 42)
	for _, c := range []struct {
		trim      string
		undefined int     // trials with nothing scored
		t975      float64 // on len(trials) - undefined - 1 degrees of freedom
	}{{"5", 0, 4.302652729911275}, {"16", 1, 12.706204736174696}} {
		args := []string{"replay", "--pet", pet, "--trace", glob, "-H", "MM,PAM", "--prune", "none,both", "--trim", c.trim}
		runs := jsonRuns(t, append(args, "--json")...)
		var stdout, stderr bytes.Buffer
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		_, table, ok := strings.Cut(stdout.String(), "Mean over the 3 trials")
		if !ok {
			t.Fatalf("no table of means:\n%s", stdout.String())
		}
		for _, label := range []string{"MM", "MM-P", "PAM", "PAM-P"} {
			var xs []float64
			for _, r := range runs {
				if x, ok := r["robustness"].(float64); r["heuristic"] == label && ok { // JSON null: undefined
					xs = append(xs, x)
				}
			}
			if len(xs) != 3-c.undefined {
				t.Fatalf("--trim %s, %s: %d defined robustness values, want %d", c.trim, label, len(xs), 3-c.undefined)
			}
			suffix := ""
			if c.undefined > 0 {
				suffix = fmt.Sprintf(" (%d undefined)", c.undefined)
			}
			checkMeansRow(t, table, fmt.Sprintf("│ %-9s │      3 │", label), xs, c.t975, suffix)
		}
	}
}

// checkMeansRow checks that the row of replay's table of means that starts with prefix shows
// the robustness values xs as their mean ± t975 × their standard error, to two decimals, then
// suffix: the sums done here, the t quantile from a table.
func checkMeansRow(t *testing.T, table, prefix string, xs []float64, t975 float64, suffix string) {
	t.Helper()
	mean, ss := 0.0, 0.0
	for _, x := range xs {
		mean += x / float64(len(xs))
	}
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	cell := fmt.Sprintf("%.2f ± %.2f%s", mean, t975*math.Sqrt(ss/float64(len(xs)-1)/float64(len(xs))), suffix)
	_, row, ok := strings.Cut(table, prefix)
	row, _, _ = strings.Cut(row, "\n")
	if !ok || !strings.Contains(row, " "+cell+" │") {
		t.Errorf("no row %q with robustness %q in\n%s", prefix, cell, table)
	}
}

// TestReplaySeveralFromConfig: the heuristics and variants can come as lists from a config file
// (a YAML list, a TOML comma-separated string) and from HCREPLAY_HEURISTIC, as from flags.
func TestReplaySeveralFromConfig(t *testing.T) {
	pet, tr := writeTiny(t, 20)
	dir := t.TempDir()
	yamlCfg, tomlCfg := filepath.Join(dir, "c.yaml"), filepath.Join(dir, "c.toml")
	writeFile(t, yamlCfg, "replay:\n  heuristic: [MM, PAM]\n  prune: [both]\n")
	writeFile(t, tomlCfg, "[replay]\nheuristic = \"MM,PAM\"\nprune = \"both\"\n")
	base := []string{"replay", "--pet", pet, "--trace", tr, "--trim", "2", "--json"}
	for _, c := range []struct {
		name string
		args []string
		env  string
	}{
		{"yaml", []string{"--config", yamlCfg}, ""},
		{"toml", []string{"--config", tomlCfg}, ""},
		{"environment", []string{"--prune", "both"}, "MM,PAM"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.env != "" {
				t.Setenv("HCREPLAY_HEURISTIC", c.env)
			}
			var got []any
			for _, r := range jsonRuns(t, append(base, c.args...)...) {
				got = append(got, r["heuristic"])
			}
			if want := []any{"MM-P", "PAM-P"}; !reflect.DeepEqual(got, want) {
				t.Errorf("runs %v, want %v", got, want)
			}
		})
	}
}

// TestReplaySeveralTraces: each --trace given is a set of trials replayed as if alone, random
// deadlines (urgency, drawn per trial) included, and the table of means has a row per set and
// mapper, never pooling two sets' trials.
func TestReplaySeveralTraces(t *testing.T) {
	pet, _ := writeTiny(t, 1)
	dir := t.TempDir()
	for i, n := range []int{24, 30, 28, 34} {
		var b strings.Builder
		b.WriteString("task_type,arrival\n")
		for k := range n {
			fmt.Fprintf(&b, "%d,%s\n", (k+i)%2, ftoa(float64(k)*1.5))
		}
		writeFile(t, filepath.Join(dir, fmt.Sprintf("%c%d.csv", "ab"[i/2], i%2+1)), b.String())
	}
	a, b := filepath.Join(dir, "a*.csv"), filepath.Join(dir, "b*.csv")
	base := []string{"replay", "--pet", pet, "-H", "MM,PAM", "--deadline", "urgency", "--trim", "2"}
	alone := append(jsonRuns(t, append(base, "--json", "--trace", a)...), jsonRuns(t, append(base, "--json", "--trace", b)...)...)
	both := jsonRuns(t, append(base, "--json", "--trace", a, "--trace", b)...)
	if len(both) != 8 || !reflect.DeepEqual(alone, both) {
		t.Errorf("each --trace alone: %v\nboth in one command: %v", alone, both)
	}
	var stdout, stderr bytes.Buffer
	if code := run(append(base, "--trace", a, "--trace", b), &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	_, table, ok := strings.Cut(stdout.String(), "Mean over the trials of each --trace")
	if !ok {
		t.Fatalf("no table of means:\n%s", stdout.String())
	}
	for set, glob := range []string{"a*.csv", "b*.csv"} {
		for _, label := range []string{"MM", "PAM"} {
			var xs []float64
			for _, r := range both[set*4:][:4] {
				if r["heuristic"] == label {
					xs = append(xs, r["robustness"].(float64))
				}
			}
			checkMeansRow(t, table, fmt.Sprintf("│ %s │ %-9s │      2 │", glob, label), xs, 12.706204736174696, "")
		}
	}
}

// TestSameMapperWarns: two names that make the same mapper with the flags given (PAMF-P is PAM-P
// once --fairness is set; PAMND-D is PAM-D) are replayed once, under the first label, with a
// warning that says so; the second, replayed alone with the same flags, gives the same run but
// for its label (the oracle of the collapse). Two that differ get no warning.
func TestSameMapperWarns(t *testing.T) {
	pet, tr := writeTiny(t, 40)
	cases := []struct {
		args     []string
		warn     string // "" for none
		fairness bool   // the warning blames --fairness
	}{
		{[]string{"-H", "PAM,PAMF", "--prune", "both", "--fairness", "0.05"}, "PAMF-P is PAM-P with these flags", true},
		{[]string{"-H", "PAM,PAMND", "--prune", "defer", "--fairness", "0.05"}, "PAMND-D is PAM-D with these flags", false},
		{[]string{"-H", "PAM,PAMND", "--prune", "defer"}, "PAMND-D is PAM-D with these flags", false},
		{[]string{"-H", "PAM,PAMF", "--prune", "both"}, "", false},                          // ϑ = 0.1 for PAMF only
		{[]string{"-H", "PAM,PAMF", "--fairness", "0.05"}, "", false},                       // PAM is not pruned
		{[]string{"-H", "MM,PAM", "--prune", "none,both", "--fairness", "0.05"}, "", false}, // four different mappers
	}
	for _, c := range cases {
		args := append([]string{"replay", "--pet", pet, "--trace", tr, "--json"}, c.args...)
		code, stdout, stderr := cli(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
		}
		if c.warn == "" {
			if strings.Contains(stderr, "with these flags") {
				t.Errorf("%v: unexpected warning: %s", c.args, stderr)
			}
			continue
		}
		if !strings.Contains(stderr, c.warn) {
			t.Errorf("%v: stderr %q lacks %q", c.args, stderr, c.warn)
		}
		if got := strings.Contains(stderr, "--fairness gives"); got != c.fairness {
			t.Errorf("%v: warning blames --fairness: %v, want %v: %s", c.args, got, c.fairness, stderr)
		}
		runs := decodeRuns(t, stdout)
		_, second, _ := strings.Cut(c.args[1], ",") // -H FIRST,SECOND
		alone := slices.Clone(args)
		alone[slices.Index(alone, c.args[1])] = second
		_, stdout, _ = cli(t, alone...)
		runs = append(runs, decodeRuns(t, stdout)...)
		if len(runs) != 2 || !reflect.DeepEqual(runs[0], runs[1]) {
			t.Errorf("%v: one run, equal to %s's alone but for the label, want; got\n%v", c.args, second, runs)
		}
	}
}

// decodeRuns reads replay --json's runs, without their timing and label.
func decodeRuns(t *testing.T, stdout string) []map[string]any {
	t.Helper()
	var runs []map[string]any
	dec := json.NewDecoder(strings.NewReader(stdout))
	for dec.More() {
		var r map[string]any
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		delete(r, "timing")
		delete(r, "heuristic")
		runs = append(runs, r)
	}
	return runs
}

// TestReplaySeveralRunsOneBar: a replay of several runs shows one bar, of runs (issue 46): no
// trial draws a bar of its own beside it, and the log lines of the trials go above it (through
// the bar's output), not straight to stderr where they would break into its frames. A single
// run has no bar of runs.
func TestReplaySeveralRunsOneBar(t *testing.T) {
	petPath, trace := writeTiny(t, 40)
	pet, machines, tr := tinyTrial(t, petPath, trace)
	var stderr, frames bytes.Buffer
	con := &Console{Stdout: io.Discard, Stderr: &stderr}
	if runsBar(con, 1) != nil {
		t.Error("a bar of runs for a single run")
	}
	overall := progressbar.Draw(&frames) // redrawing by itself: the buffer is no terminal
	overall.StartRuns(2, "replay")
	if trialBar(con, overall) != nil {
		t.Error("a trial's bar beside the bar of runs")
	}
	runner := trialrun.Runner{Base: replay.Config{PET: pet, Machines: machines, Options: replay.DefaultOptions()},
		Jobs: 1, Progress: runProgress{con, overall}}
	for _, name := range []string{"MM", "MCT"} {
		runner.Mappers = append(runner.Mappers, trialrun.Mapper{Label: name, New: func() (replay.Mapper, error) {
			return prune.New(name, heuristic.DefaultParams(), prune.Config{})
		}})
	}
	if err := runner.Run(t.Context(), []trialset.Trial{tr}, func(_, _ int, _ *replay.Result) error { overall.Inc(); return nil }); err != nil {
		t.Fatal(err)
	}
	overall.Stop()
	if strings.Contains(stderr.String(), "replaying") {
		t.Errorf("the trials' log lines went to stderr beside the bar:\n%s", stderr.String())
	}
	if n := strings.Count(frames.String(), "replaying"); n != 2 {
		t.Errorf("%d log lines above the bar, want 2:\n%q\nstderr %q", n, frames.String(), stderr.String())
	}
}
