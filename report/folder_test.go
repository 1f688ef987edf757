package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/replay"
)

// TestWriteFolder writes the report of handRuns, whose four MM runs each carry 10 tasks (4 on
// time, predicted chances summing to 3.5) in the bin 0.3–0.4: the pooled calibration row has
// 40 tasks, a mean prediction of 14/40 and an on-time share of 16/40.
func TestWriteFolder(t *testing.T) {
	for _, calibrated := range []bool{false, true} {
		rows := handRuns()
		if calibrated {
			bins := make([]replay.ReliabilityBin, 10)
			bins[3] = replay.ReliabilityBin{Tasks: 10, OnTime: 4, PredictedSum: 3.5}
			for i := range rows {
				if rows[i].Name == "MM" {
					rows[i].Reliability = reliabilityJSON(bins)
				}
			}
		}
		agg, err := AggregateRuns(rows, "")
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		meta := FileMeta{TimeUnit: "ms", Version: "v9"}
		var out bytes.Buffer
		index, figs, err := WriteFolder(&out, dir, rows, agg, FolderOptions{Sources: []string{filepath.Join(dir, "none", "runs.parquet")},
			Figures: []string{"svg"}, Tables: []string{"md", "csv"}, Meta: meta})
		if err != nil {
			t.Fatal(err)
		}
		if index != filepath.Join(dir, "index.html") || len(figs) == 0 {
			t.Errorf("index %s, %d figures", index, len(figs))
		}
		read := func(name string) string {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			return string(data)
		}
		for _, name := range []string{"summary.md", "index.md", "index.html"} {
			read(name)
		}
		for _, name := range []string{"summary.csv", "aggregate.csv"} {
			if first, _, _ := strings.Cut(read(name), "\n"); first+"\n" != meta.CSVComment() {
				t.Errorf("%s starts %q, want the meta comment %q", name, first, meta.CSVComment())
			}
		}
		if _, err := os.Stat(filepath.Join(dir, "summary.tex")); err == nil {
			t.Error("summary.tex written, though --tables has no tex")
		}
		_, err = os.Stat(filepath.Join(dir, "calibration.csv"))
		if calibrated != (err == nil) {
			t.Fatalf("calibrated %v: calibration.csv exists %v", calibrated, err == nil)
		}
		if !calibrated {
			continue
		}
		cal := read("calibration.csv")
		if first, _, _ := strings.Cut(cal, "\n"); first+"\n" != (FileMeta{Version: "v9"}).CSVComment() {
			t.Errorf("calibration.csv starts %q: want a comment without time unit", first)
		}
		if !strings.Contains(cal, "\nMM,0.3,0.4,40,0.35,0.4,") { // predicted 14/40, on time 16/40
			t.Errorf("calibration.csv lacks MM's pooled bin of 40 tasks, predicted 0.35, 0.4 on time:\n%s", cal)
		}
		if !strings.Contains(read("index.md"), "calibration.csv") {
			t.Error("index.md does not list calibration.csv")
		}
	}
}
