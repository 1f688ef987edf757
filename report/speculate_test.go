package report

import (
	"bytes"
	"encoding/csv"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/replay/speculate"
)

func TestWriteJobs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "jobs.csv") // the folder is made
	jobs := []speculate.JobOutcome{
		{ID: "j1", Tasks: 3, MeanTask: 1.5, Arrival: 0, Start: 0.25, Finish: 4, Flowtime: 4, MachineTime: 5, Resource: 0.05,
			Wasted: 0.2, Cost: 0.001, Copies: 4, ExtraCopies: 1, BackupsWon: 1},
		{ID: "j2", Tasks: 1, MeanTask: 2, Arrival: 1, Start: math.NaN(), Finish: math.NaN(), Flowtime: math.NaN()},
	}
	if err := WriteJobs(path, jobs, FileMeta{TimeUnit: "s", Version: "test"}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	comment, body, _ := strings.Cut(string(data), "\n")
	if !strings.HasPrefix(comment, "#") || !strings.Contains(comment, "s") {
		t.Errorf("first line %q: want the meta comment", comment)
	}
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"job_id", "tasks", "mean_task", "arrival", "start", "finish", "flowtime", "machine_time", "resource", "wasted", "cost", "copies", "extra_copies", "backups_won"},
		{"j1", "3", "1.5", "0", "0.25", "4", "4", "5", "0.05", "0.2", "0.001", "4", "1", "1"},
		{"j2", "1", "2", "1", "", "", "", "0", "0", "0", "0", "0", "0", "0"}, // NaN: empty
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d:\n%s", len(rows), len(want), body)
	}
	for i := range want {
		if strings.Join(rows[i], ",") != strings.Join(want[i], ",") {
			t.Errorf("row %d: %v, want %v", i, rows[i], want[i])
		}
	}
}

func TestSpeculateTable(t *testing.T) {
	run := SpeculateRun{Workload: "synthetic", Timing: speculate.Timing{DecisionSeconds: 0.0123}}
	run.Summary.Strategy, run.Summary.Jobs, run.Summary.FlowtimeMean, run.Summary.WastedFraction = "SDA", 7, 12.345, 0.125
	var b bytes.Buffer
	if err := SpeculateTable(&b, []SpeculateRun{run}); err != nil {
		t.Fatal(err)
	}
	// 12.345 to 3 significant digits, 0.125 as 12.5 %, 0.0123 s as 12 ms.
	for _, cell := range []string{"synthetic", "SDA", " 7 ", "12.3", "12.5", " 12 ", "decide ms"} {
		if !strings.Contains(b.String(), cell) {
			t.Errorf("table lacks %q:\n%s", cell, b.String())
		}
	}
}
