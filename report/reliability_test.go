package report

import (
	"math"
	"os"
	"testing"

	"github.com/hcreplay/hcreplay/replay"
)

// TestReliabilities pools hand-made reliability counts: two MM runs with 10 tasks (4 on time,
// predicted chances summing to 3.5) and 30 tasks (12, 10.5) in the bin 0.3–0.4 pool to 40
// tasks, a mean prediction of 14/40 = 0.35 and an on-time share of 16/40 = 0.4; a run of
// another mapper stays apart, and a run without a table (an older runs file) is left out.
func TestReliabilities(t *testing.T) {
	bins := func(k int, tasks, on int, sum float64) string {
		t := make([]replay.ReliabilityBin, 10)
		t[k] = replay.ReliabilityBin{Tasks: tasks, OnTime: on, PredictedSum: sum}
		return reliabilityJSON(t)
	}
	var rows []RunRow
	for _, x := range []struct {
		name      string
		k         int
		tasks, on int
		sum       float64
	}{{"MM", 3, 10, 4, 3.5}, {"PAM-P", 9, 5, 5, 4.9}, {"MM", 3, 30, 12, 10.5}} {
		r := RunRow{Name: x.name}
		r.Reliability = bins(x.k, x.tasks, x.on, x.sum)
		rows = append(rows, r)
	}
	rows = append(rows, RunRow{Name: "old"})
	rels := Reliabilities(rows)
	if len(rels) != 2 || rels[0].Name != "MM" || rels[0].Runs != 2 || rels[1].Name != "PAM-P" {
		t.Fatalf("pooled %+v, want MM of 2 runs then PAM-P", rels)
	}
	b := rels[0].Bins[3]
	if b.Tasks != 40 || b.OnTime != 16 || math.Abs(float64(b.Predicted)-0.35) > 1e-12 || math.Abs(float64(b.Observed)-0.4) > 1e-12 {
		t.Errorf("MM bin 0.3–0.4: %+v, want 40 tasks, 16 on time, predicted 0.35, observed 0.4", b)
	}
	if !(b.IntervalLow < 0.4 && 0.4 < b.IntervalHigh) || rels[0].Bins[2].Tasks != 0 {
		t.Errorf("MM bins: %+v", rels[0].Bins)
	}
	table := ReliabilityTable(rels)
	if len(table.Rows) != 2 || table.Rows[0][2].Text != "40" || table.Rows[1][0].Text != "PAM-P" {
		t.Errorf("table rows %+v, want one per bin with tasks", table.Rows)
	}
	dir := t.TempDir()
	f, ok, err := WriteReliabilityFigure(rels, dir, []string{"svg"})
	if err != nil || !ok || len(f.Files) != 1 {
		t.Fatalf("figure %+v, %v, %v", f, ok, err)
	}
	if st, err := os.Stat(f.Files[0]); err != nil || st.Size() == 0 {
		t.Errorf("figure file %s: %v", f.Files[0], err)
	}
	if _, ok, _ := WriteReliabilityFigure(Reliabilities(rows[3:]), dir, []string{"svg"}); ok {
		t.Error("a figure drawn from runs without a table")
	}
}

func TestWriteRunReliability(t *testing.T) {
	nan := replay.Num(math.NaN())
	bins := []replay.ReliabilityBin{
		{BinLow: 0, BinHigh: 0.1, Predicted: nan, Observed: nan, IntervalLow: nan, IntervalHigh: nan}, // no tasks: empty cells
		{BinLow: 0.9, BinHigh: 1, Tasks: 3, OnTime: 2, Predicted: 0.95, Observed: replay.Num(2.0 / 3), IntervalLow: 0.2, IntervalHigh: 1},
	}
	path := t.TempDir() + "/reliability.csv"
	meta := FileMeta{Version: "v9"}
	if err := WriteRunReliability(path, bins, meta); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// 2/3 to 6 significant digits is 0.666667.
	want := meta.CSVComment() + "bin_low,bin_high,tasks,on_time,predicted_mean,observed_on_time,ci_low,ci_high\n" +
		"0,0.1,0,0,,,,\n" + "0.9,1,3,2,0.95,0.666667,0.2,1\n"
	if string(data) != want {
		t.Errorf("got\n%s\nwant\n%s", data, want)
	}
}
