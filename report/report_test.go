package report

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/trace"
)

// TestTraceStatistics checks the summary against numbers worked out by hand.
func TestTraceStatistics(t *testing.T) {
	nan := math.NaN()
	a := &trace.Trace{Unit: trace.Millisecond, Tasks: []trace.Task{
		{Type: "1", Arrival: 0, Deadline: 10}, {Type: "10", Arrival: 5, Deadline: 25}, {Type: "1", Arrival: 10, Deadline: nan},
	}}
	b := &trace.Trace{Unit: trace.Millisecond, Tasks: []trace.Task{{Type: "2", Arrival: 100, Deadline: 130}, {Type: "1", Arrival: 120, Deadline: 124}}}
	st := TraceStatistics([]*trace.Trace{a, b}, 2)
	// Spans 10 and 20: mean 15; 5 tasks over 30 units of trace: rate 1/6.
	if st.Tasks != 5 || st.Span != 15 || math.Abs(st.Rate-5.0/30) > 1e-12 {
		t.Errorf("tasks %d span %v rate %v", st.Tasks, st.Span, st.Rate)
	}
	if strings.Join(st.Types, ",") != "1,2,10" || st.PerType["1"] != 3 {
		t.Errorf("types %v per type %v", st.Types, st.PerType)
	}
	// Slacks 10, 20, 30, 4 (the NaN deadline has none), sorted.
	if len(st.Slack) != 4 || st.Slack[0] != 4 || st.Slack[3] != 30 {
		t.Errorf("slack %v", st.Slack)
	}
	// Bins of 10 (longest span 20 / 2): trace a puts 0 and 5 in bin 0, 10 in bin 1; trace b puts
	// 100 in bin 0 and 120 in bin 1 (the last edge belongs to the last bin). Rates are per
	// unit and per trace: bin 0 holds 3 arrivals → 3/(10·2).
	if len(st.RateCurve) != 2 || math.Abs(st.RateCurve[0]-0.15) > 1e-12 || math.Abs(st.RateCurve[1]-0.1) > 1e-12 {
		t.Errorf("rate curve %v, want [0.15 0.1]", st.RateCurve)
	}
	var out bytes.Buffer
	if err := st.WriteTable(&out); err != nil || !strings.Contains(out.String(), "4 of 5 tasks have deadlines") {
		t.Errorf("table: %v\n%s", err, out.String())
	}
}

// TestFiguresAreDeterministic: the same figure saved twice gives the same bytes in every format
// (gonum's PNG and SVG are deterministic; the PDF's dates are fixed), so figures can be golden
// files and reruns do not churn outputs.
func TestFiguresAreDeterministic(t *testing.T) {
	dir := t.TempDir()
	mk := func() *plot.Plot {
		p := plot.New()
		p.Title.Text = "robustness"
		l, _ := plotter.NewLine(plotter.XYs{{X: 1, Y: 2}, {X: 2, Y: 3}, {X: 3, Y: 2.5}})
		p.Add(l)
		return p
	}
	for _, ext := range []string{".png", ".svg", ".pdf"} {
		a, b := filepath.Join(dir, "a"+ext), filepath.Join(dir, "b"+ext)
		if err := SaveFigure(mk(), 8*vg.Centimeter, 6*vg.Centimeter, a); err != nil {
			t.Fatal(err)
		}
		if err := SaveFigure(mk(), 8*vg.Centimeter, 6*vg.Centimeter, b); err != nil {
			t.Fatal(err)
		}
		x, _ := os.ReadFile(a)
		y, _ := os.ReadFile(b)
		if len(x) < 500 || !bytes.Equal(x, y) {
			t.Errorf("%s: %d and %d bytes, equal %v", ext, len(x), len(y), bytes.Equal(x, y))
		}
	}
	bmp := filepath.Join(dir, "x.bmp")
	var fe *FormatError
	if err := SaveFigure(mk(), vg.Centimeter, vg.Centimeter, bmp); !errors.As(err, &fe) || fe.Ext != ".bmp" ||
		err.Error() != "figure "+bmp+`: unknown format ".bmp": want .png, .svg or .pdf` {
		t.Errorf("unknown format: error %v, want a FormatError naming the file and .bmp", err)
	}
}

func TestPETPlots(t *testing.T) {
	c := func(t0 float64) petbuild.Cell {
		d, _ := pmf.New(t0, 1, []float64{0.5, 0.5})
		return petbuild.Cell{PMF: d}
	}
	pet, err := petbuild.New([]string{"a", "b"}, []string{"x", "y", "z"}, "ms", []petbuild.Cell{c(1), c(2), c(3), c(4), c(5), c(6)})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "pet.svg")
	grid, err := PETPlots(pet, path)
	if err != nil {
		t.Fatal(err)
	}
	svg, _ := os.ReadFile(path)
	// The heat map labels each cell with its mean: 1.5 … 6.5 round to 2, 2, 4, 4, 6, 6 (%.0f,
	// half to even).
	for _, label := range []string{">2<", ">4<", ">6<", "machine type", "task type"} {
		if !bytes.Contains(svg, []byte(label)) {
			t.Errorf("heat map lacks %q", label)
		}
	}
	g, _ := os.ReadFile(grid)
	// Panel titles, and the axes named once with the PET's unit: 3 columns share "execution
	// time (ms)" along the bottom, 2 rows "probability" along the left.
	for label, want := range map[string]int{"b on z": 1, "execution time (ms)": 3, "probability": 2} {
		if n := bytes.Count(g, []byte(">"+label+"<")); n != want {
			t.Errorf("PMF grid %s has %q %d times, want %d", grid, label, n, want)
		}
	}
}

// TestTaskWriter writes outcomes and reads them back through parquet-go and the CSV text.
func TestTaskWriter(t *testing.T) {
	nan := math.NaN()
	outs := []replay.Outcome{
		{Task: replay.Task{ID: 7, Type: 1, Arrival: 1, Deadline: 9}, Status: replay.OnTime, Machine: 0, MapTime: 1, Start: 2, End: 5, Predicted: 0.75, Scored: true},
		{Task: replay.Task{ID: 8, Type: 0, Arrival: 2, Deadline: 3}, Status: replay.ExpiredUnmapped, Machine: -1, MapTime: nan, Start: nan, End: 3, Predicted: nan, Deferred: 2},
	}
	var pq, csvOut bytes.Buffer
	w, err := NewTaskWriter(&pq, &csvOut, FileMeta{TimeUnit: "ms", Version: "v9.9.9"})
	if err != nil {
		t.Fatal(err)
	}
	machines := []replay.Machine{{Name: "m0"}}
	for _, o := range outs {
		if err := w.Write(TaskRowOf(o, []string{"enc", "dec"}, machines)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rows, err := ReadTasks(bytes.NewReader(pq.Bytes()), int64(pq.Len()))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].TaskType != "dec" || rows[0].Machine != "m0" || rows[0].Status != "on_time" ||
		rows[1].Machine != "" || !math.IsNaN(rows[1].Start) || rows[1].Deferred != 2 || rows[1].Status != "expired_unmapped" {
		t.Errorf("rows %+v", rows)
	}
	want := "# time_unit=ms tool=hcreplay tool_version=v9.9.9\ntask_id,task_type,arrival,deadline,status,machine,map_time,start,end,predicted_success,deferred,scored\n" +
		"7,dec,1,9,on_time,m0,1,2,5,0.75,0,true\n8,enc,2,3,expired_unmapped,,,,3,,2,false\n"
	if csvOut.String() != want {
		t.Errorf("csv:\n%s\nwant:\n%s", csvOut.String(), want)
	}
}
