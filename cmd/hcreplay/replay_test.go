package main

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/vbauerster/mpb/v8"

	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
	"github.com/hcreplay/hcreplay/replay/prune"
	"github.com/hcreplay/hcreplay/report"
)

// writeTiny writes a two-type, two-machine PET in .etc form and a CSV trace of n tasks.
func writeTiny(t *testing.T, n int) (pet, tr string) {
	t.Helper()
	dir := t.TempDir()
	pet = filepath.Join(dir, "tiny.etc")
	etc := "machineCount=2;taskCount=2;\n" +
		"machine=0;task=0;\n2\t0.5\n4\t0.5\n" + "machine=1;task=0;\n4\t1\n" +
		"machine=0;task=1;\n6\t1\n" + "machine=1;task=1;\n2\t0.25\n4\t0.75\n"
	if err := os.WriteFile(pet, []byte(etc), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("task_type,arrival,deadline\n")
	for i := range n {
		at := float64(i) * 1.5
		b.WriteString(strings.Join([]string{[]string{"0", "1"}[i%2], ftoa(at), ftoa(at + 9)}, ",") + "\n")
	}
	tr = filepath.Join(dir, "trace.csv")
	if err := os.WriteFile(tr, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
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
	os.WriteFile(badTrace, []byte("task_type,arrival,deadline\n0,abc,5\n"), 0o644)
	unknownType := filepath.Join(dir, "unknown.csv")
	os.WriteFile(unknownType, []byte("task_type,arrival,deadline\n7,1,5\n"), 0o644)
	noDeadline := filepath.Join(dir, "nodl.csv")
	os.WriteFile(noDeadline, []byte("task_type,arrival\n0,1\n"), 0o644)
	kpbConfig := filepath.Join(dir, "c.yaml") // a config file's values are checked as flags' are
	os.WriteFile(kpbConfig, []byte("kpb-percent: .nan\n"), 0o644)
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"unknown heuristic", []string{"-H", "XX"}, []string{`unknown heuristic "XX"`, "MM"}},
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

// TestReplayProgressCounts: the replay's progress counter hears of every task's outcome once,
// with and without --out (replayOne hands outcomes on in two ways), and moves the bar in whole
// steps of progressStep.
func TestReplayProgressCounts(t *testing.T) {
	petPath, tr := writeTiny(t, 40)
	pet, err := loadPET(petPath)
	if err != nil {
		t.Fatal(err)
	}
	machines, err := loadMachines("", pet)
	if err != nil {
		t.Fatal(err)
	}
	trials, err := openTrials(traceInput{Spec: tr}, pet, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	c := &ReplayCmd{}
	for _, dir := range []string{"", t.TempDir()} {
		_, tasks, _, err := trials[0].stream()
		if err != nil {
			t.Fatal(err)
		}
		mapper, err := prune.New("MM", heuristic.DefaultParams(), prune.Config{})
		if err != nil {
			t.Fatal(err)
		}
		cfg := replay.Config{PET: pet, Machines: machines, Tasks: tasks, Options: replay.DefaultOptions()}
		calls := 0
		if _, err := c.replayOne(t.Context(), mapper, cfg, pet, dir, func() { calls++ }); err != nil {
			t.Fatal(err)
		}
		if calls != len(tasks) {
			t.Errorf("out %q: %d calls for %d tasks", dir, calls, len(tasks))
		}
	}

	p := &progress{p: mpb.New(mpb.WithOutput(io.Discard))}
	p.startTasks(3*progressStep, "x")
	tick := p.counter()
	for range 2*progressStep + 5 {
		tick()
	}
	if got := p.bar.Current(); got != 2*progressStep {
		t.Errorf("bar at %d after %d ticks, want %d", got, 2*progressStep+5, 2*progressStep)
	}
	p.stop()
}
