package report

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/hcreplay/hcreplay/replay"
)

// genericRows reads a Parquet file through parquet-go's schema-less reader, which shares no
// code with ours: a NULL comes back as a nil value.
func genericRows(t *testing.T, b []byte) (*parquet.File, []map[string]any) {
	t.Helper()
	pf, err := parquet.OpenFile(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	r := parquet.NewGenericReader[map[string]any](pf, pf.Schema())
	defer r.Close()
	rows := make([]map[string]any, pf.NumRows())
	for i := range rows {
		rows[i] = map[string]any{}
	}
	if n, _ := r.Read(rows); n != len(rows) {
		t.Fatalf("read %d of %d rows", n, len(rows))
	}
	return pf, rows
}

func metaOf(pf *parquet.File, key string) string {
	v, _ := pf.Lookup(key)
	return v
}

// TestRunsNaNIsNull writes a run whose cost per on-time task is undefined (NaN: no task on
// time) and whose level rate is unknown: parquet-go's generic reader sees NULL there and the
// numbers elsewhere, the file names its time unit and version, and ReadRuns gives NaN back.
func TestRunsNaNIsNull(t *testing.T) {
	nan := math.NaN()
	rows := []RunRow{
		{Key: "a", Point: "p", Heuristic: "MM", Trial: 1, LevelRate: nan, Robustness: 0, Cost: 2.5, CostPerOnTime: nan, EnergyPerOnTime: nan, BrierScore: nan},
		{Key: "b", Point: "p", Heuristic: "MM", Trial: 2, LevelRate: 19, Robustness: 50, Cost: 3, CostPerOnTime: 0.5, EnergyPerOnTime: 7, BrierScore: 0.1},
	}
	var buf bytes.Buffer
	if err := WriteRuns(&buf, rows, FileMeta{TimeUnit: "ms", Version: "v1.2.3"}); err != nil {
		t.Fatal(err)
	}
	pf, got := genericRows(t, buf.Bytes())
	for _, col := range []string{"level_rate", "cost_per_on_time", "energy_per_on_time", "brier_score"} {
		if v, ok := got[0][col]; !ok || v != nil {
			t.Errorf("row a, %s = %v (present %v), want NULL", col, v, ok)
		}
		if v := got[1][col]; v == nil {
			t.Errorf("row b, %s is NULL, want a number", col)
		}
	}
	// A zero is a value, not a missing one: robustness 0 % stays 0.
	if v := got[0]["robustness"]; v != 0.0 {
		t.Errorf("row a, robustness = %v, want 0", v)
	}
	if got[1]["cost_per_on_time"] != 0.5 || got[0]["cost"] != 2.5 {
		t.Errorf("numbers changed: %v", got)
	}
	for k, want := range map[string]string{"time_unit": "ms", "tool": "hcreplay", "tool_version": "v1.2.3"} {
		if v := metaOf(pf, k); v != want {
			t.Errorf("metadata %s = %q, want %q", k, v, want)
		}
	}

	path := filepath.Join(t.TempDir(), RunsFile)
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := ReadRuns(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 2 || !math.IsNaN(back[0].CostPerOnTime) || !math.IsNaN(back[0].LevelRate) || back[0].Cost != 2.5 ||
		!reflect.DeepEqual(back[1], rows[1]) {
		t.Errorf("round trip: %+v", back)
	}
}

// TestReadRunsOfOldFiles reads a runs.parquet of an earlier version, whose float columns are
// required and hold NaN: a sweep resumed over it, or a report of it, still sees every run.
func TestReadRunsOfOldFiles(t *testing.T) {
	rows := []RunRow{{Key: "a", Point: "p", Heuristic: "MM", Trial: 1, Robustness: 40, CostPerOnTime: math.NaN()}}
	path := filepath.Join(t.TempDir(), RunsFile)
	if err := parquet.WriteFile(path, rows); err != nil {
		t.Fatal(err)
	}
	back, err := ReadRuns(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 1 || back[0].Key != "a" || back[0].Robustness != 40 || !math.IsNaN(back[0].CostPerOnTime) {
		t.Errorf("old file read as %+v", back)
	}
}

// TestTasksNaNIsNull: a task never mapped has no map time, start or prediction; in
// tasks.parquet those are NULL, not NaN, so that avg(start - arrival) is over the tasks that
// started.
func TestTasksNaNIsNull(t *testing.T) {
	nan := math.NaN()
	var pq bytes.Buffer
	w, err := NewTaskWriter(&pq, nil, FileMeta{TimeUnit: "s", Version: "v0"})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []replay.Outcome{
		{Task: replay.Task{ID: 1, Arrival: 1, Deadline: 9}, Status: replay.OnTime, MapTime: 1, Start: 2, End: 5, Predicted: 0.75},
		{Task: replay.Task{ID: 2, Arrival: 2, Deadline: 3}, Status: replay.ExpiredUnmapped, Machine: -1, MapTime: nan, Start: nan, End: 3, Predicted: nan},
	} {
		if err := w.Write(TaskRowOf(o, []string{"t"}, []replay.Machine{{Name: "m"}})); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	pf, got := genericRows(t, pq.Bytes())
	for _, col := range []string{"map_time", "start", "predicted_success"} {
		if got[1][col] != nil {
			t.Errorf("task 2, %s = %v, want NULL", col, got[1][col])
		}
		if got[0][col] == nil {
			t.Errorf("task 1, %s is NULL", col)
		}
	}
	if got[1]["end"] != 3.0 || got[0]["start"] != 2.0 {
		t.Errorf("numbers changed: %v", got)
	}
	if metaOf(pf, "time_unit") != "s" || metaOf(pf, "tool_version") != "v0" {
		t.Errorf("metadata time_unit %q, tool_version %q", metaOf(pf, "time_unit"), metaOf(pf, "tool_version"))
	}
}
