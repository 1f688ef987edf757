package main

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSpeculateSynthetic runs the command on a small synthetic workload as a user would: a
// table by default, one JSON object per run with --json, and with --out a summaries.json and a
// jobs CSV per run whose rows are the jobs.
func TestSpeculateSynthetic(t *testing.T) {
	args := []string{"speculate", "--rate", "0.5", "--horizon", "40", "--machines", "60", "--tasks", "1:10", "-q"}
	table := mustCLI(t, args...)
	for _, want := range []string{"strategy", "none", "SCA", "SDA", "ESE", "Mantri", "p80"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	out := t.TempDir()
	lines := strings.Split(strings.TrimSpace(mustCLI(t, append(args, "--json", "-s", "none,auto", "--seeds", "2", "--out", out)...)), "\n")
	if len(lines) != 4 {
		t.Fatalf("--json with 2 strategies × 2 seeds printed %d lines:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	var run struct {
		Summary map[string]any `json:"summary"`
	}
	if err := json.Unmarshal([]byte(lines[1]), &run); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"flowtime_mean", "flowtime_p99", "resource_total", "wasted_time", "energy_joules", "cost", "backups_won", "decision_epochs", "offered_load"} {
		if _, ok := run.Summary[key]; !ok {
			t.Errorf("summary lacks %s: %v", key, run.Summary)
		}
	}
	if run.Summary["strategy"] != "auto" {
		t.Errorf("second run is %v, want auto", run.Summary["strategy"])
	}
	f, err := os.Open(filepath.Join(out, "jobs-synthetic-auto-2.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment = '#' // the first line records the time unit and the version
	rows, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var all []map[string]any
	b, err := os.ReadFile(filepath.Join(out, "summaries.json"))
	if err != nil || json.Unmarshal(b, &all) != nil || len(all) != 4 {
		t.Fatalf("summaries.json: %v, %d runs", err, len(all))
	}
	jobs := all[3]["summary"].(map[string]any)["jobs"].(float64)
	if len(rows) != int(jobs)+1 || rows[0][0] != "job_id" || rows[0][6] != "flowtime" {
		t.Errorf("jobs CSV has %d rows for %v jobs, header %v", len(rows), jobs, rows[0])
	}
}

// TestSpeculateTrace groups a CSV arrival trace by job_id on a synthesized PET: three tasks of
// job a (two types), two of job b, and one task without a job, which is a job of its own.
func TestSpeculateTrace(t *testing.T) {
	dir := t.TempDir()
	pet := filepath.Join(dir, "pet.json")
	mustCLI(t, "pet", "synth", "--out", pet, "--types", "2", "--machines", "2", "--samples", "200", "-q")
	tr := filepath.Join(dir, "jobs.csv")
	rows := "task_type,arrival,job_id\n0,0,a\n1,0,a\n0,5,a\n1,10,b\n1,10,b\n0,20,\n"
	writeFile(t, tr, rows)
	for _, dist := range []string{"pet", "pareto"} {
		out := mustCLI(t, "speculate", "--trace", tr, "--pet", pet, "--per-type", "4", "--dist", dist, "--json", "-s", "none,SCA,ESE", "-q")
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != 3 {
			t.Fatalf("%s: %d lines:\n%s", dist, len(lines), out)
		}
		for _, line := range lines {
			var run struct {
				Summary struct {
					Jobs, Tasks, Machines int
					Flow                  float64 `json:"flowtime_mean"`
				} `json:"summary"`
			}
			if err := json.Unmarshal([]byte(line), &run); err != nil {
				t.Fatal(err)
			}
			s := run.Summary
			if s.Jobs != 3 || s.Tasks != 6 || s.Machines != 8 || !(s.Flow > 0) || math.IsInf(s.Flow, 0) {
				t.Errorf("%s: %+v, want 3 jobs, 6 tasks, 8 machines, a flowtime", dist, s)
			}
		}
	}
}

// TestSpeculateBadInput: mistakes exit 2 with a message naming what is wrong.
func TestSpeculateBadInput(t *testing.T) {
	dir := t.TempDir()
	pet := filepath.Join(dir, "pet.json")
	mustCLI(t, "pet", "synth", "--out", pet, "--types", "2", "--machines", "2", "--samples", "50", "-q")
	badTrace := filepath.Join(dir, "bad.csv")
	writeFile(t, badTrace, "task_type,arrival,job_id\n7,0,a\n")
	synth := func(args ...string) []string { // a small synthetic workload
		return append([]string{"speculate", "--horizon", "5", "--machines", "5"}, args...)
	}
	traced := func(args ...string) []string { return append([]string{"speculate"}, args...) } // its flags do not go with a trace
	checkBadInput(t, []badInputCase{
		{synth("-s", "nosuch"), []string{"nosuch"}},
		{synth("--tasks", "9:2"), []string{"--tasks"}},
		{synth("--alpha", "1"), []string{"α"}},
		{synth("--detect", "1.5"), []string{"detection"}},
		{synth("--seeds", "0"), []string{"--seeds"}},
		{traced("--trace", badTrace), []string{"--pet"}},
		{traced("--trace", badTrace, "--pet", pet), []string{"7"}},
		{traced("--trace", filepath.Join(dir, "none.csv"), "--pet", pet), []string{"none.csv"}},
		{synth("--pet", pet), []string{"--trace"}},
	}, nil)
}

// TestSpeculateHelpNamesItsFiles: --out's help names the files speculate writes, in the
// pattern docs/outputs.md documents (WORKLOAD-STRATEGY-SEED, the workload first).
func TestSpeculateHelpNamesItsFiles(t *testing.T) {
	help := mustCLI(t, "speculate", "--help")
	out := t.TempDir()
	mustCLI(t, "speculate", "--rate", "1", "--horizon", "10", "--machines", "20", "-s", "SCA", "--seed", "7", "--out", out, "-q")
	for _, name := range []string{"summaries.json", "jobs-WORKLOAD-STRATEGY-SEED.csv"} {
		if !strings.Contains(strings.Join(strings.Fields(help), " "), name) {
			t.Errorf("speculate --help does not name %s:\n%s", name, help)
		}
	}
	for _, name := range []string{"summaries.json", "jobs-synthetic-SCA-7.csv"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Errorf("speculate --out wrote no %s: %v", name, err)
		}
	}
}
