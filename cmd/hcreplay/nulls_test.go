package main

import (
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep"
)

// TestRunsNullsRoundTrip sweeps a grid where half the runs score no task (trim 1000 of 60
// tasks), so their robustness is undefined. runs.parquet must hold NULL there (parquet-go's
// generic reader sees nil), a sweep resumed from a partial file holding those NULLs must end
// with the same rows, and the report must count the undefined runs instead of averaging NaN.
func TestRunsNullsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	mustCLI(t, "pet", "synth", "--out", filepath.Join(dir, "pet.json"), "--types", "2", "--machines", "2", "--samples", "100", "-q")
	mustCLI(t, "trace", "gen", "--pet", filepath.Join(dir, "pet.json"), "--out", filepath.Join(dir, "trials"), "--trials", "2",
		"--tasks", "60", "--level", "19k", "--format", "csv", "-q")
	grid := filepath.Join(dir, "grid.yaml")
	writeFile(t, grid, "pet: pet.json\nheuristics: [MM]\nprune: [none]\ntrim: [5, 1000]\nlevels:\n  - {name: 19k, trace: \"trials/*.csv\"}\n")
	out := filepath.Join(dir, "runs")
	cli(t, "sweep", grid, "--out", out, "-q") // warns that trim 1000 leaves nothing scored
	path := filepath.Join(out, report.RunsFile)

	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	generic := make([]map[string]any, pf.NumRows())
	for i := range generic {
		generic[i] = map[string]any{}
	}
	r := parquet.NewGenericReader[map[string]any](pf, pf.Schema())
	n, _ := r.Read(generic)
	r.Close()
	f.Close()
	if n != 4 {
		t.Fatalf("%d runs, want 4", n)
	}
	for _, row := range generic {
		unscored := row["trim"] == int32(1000)
		if (row["robustness"] == nil) != unscored {
			t.Errorf("trim %v: robustness %v; want NULL exactly when nothing is scored", row["trim"], row["robustness"])
		}
	}

	rows, err := report.ReadRuns(path)
	if err != nil {
		t.Fatal(err)
	}
	nulls := 0
	for _, row := range rows {
		if math.IsNaN(row.Robustness) {
			nulls++
		}
	}
	if nulls != 2 {
		t.Fatalf("ReadRuns: %d runs with NaN robustness, want 2", nulls)
	}

	// A sweep stopped after three runs, one of them unscored, resumes to the same rows.
	f2, err := os.Create(filepath.Join(out, sweep.PartialRunsFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := report.WriteRuns(f2, rows[:3], report.FileMeta{TimeUnit: "ms"}); err != nil {
		t.Fatal(err)
	}
	f2.Close()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	_, _, errb := cli(t, "sweep", grid, "--out", out, "--resume")
	if !strings.Contains(errb, "3 of 4 runs already done") {
		t.Errorf("resume did not take the partial rows:\n%s", errb)
	}
	again, err := report.ReadRuns(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != len(rows) {
		t.Fatalf("%d rows after resuming, want %d", len(again), len(rows))
	}
	for i := range rows {
		if !sameRun(rows[i], again[i]) {
			t.Errorf("row %d after resuming:\n%+v\nwant\n%+v", i, again[i], rows[i])
		}
	}

	// The report counts the undefined runs (robustness_nan) and averages the others.
	rep := filepath.Join(dir, "report")
	mustCLI(t, "report", out, "--out", rep, "--tables", "csv", "--formats", "svg", "-q")
	b, err := os.ReadFile(filepath.Join(rep, "aggregate.csv"))
	if err != nil {
		t.Fatal(err)
	}
	cr := csv.NewReader(strings.NewReader(string(b)))
	cr.Comment = '#'
	recs, err := cr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, rec := range recs[1:] {
		mean, nan := rec[col["robustness_mean"]], rec[col["robustness_nan"]]
		switch rec[col["trim"]] {
		case "1000":
			if mean != "" || nan != "2" {
				t.Errorf("trim 1000: robustness_mean %q, robustness_nan %q; want empty and 2", mean, nan)
			}
		case "5":
			if mean == "" || nan != "0" {
				t.Errorf("trim 5: robustness_mean %q, robustness_nan %q; want a number and 0", mean, nan)
			}
		}
	}
}

// sameRun compares two rows apart from their wall times, as text so that NaN metrics (undefined
// in both) are equal: the comparison sweep.MergeRuns makes of one key in two files.
func sameRun(a, b report.RunRow) bool {
	return fmt.Sprintf("%#v", a.WithoutTimes()) == fmt.Sprintf("%#v", b.WithoutTimes())
}
