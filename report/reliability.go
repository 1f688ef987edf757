package report

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
	"github.com/hcreplay/hcreplay/replay"
)

// Reliability is the calibration of one mapper's predicted chances, pooled over its runs: the
// tasks of every run in ten bins of the chance predicted when they were mapped
// (replay.Summary.Reliability).
type Reliability struct {
	Name string // the mapper: MM, PAM-P, ...
	Runs int
	Bins []replay.ReliabilityBin
}

// Reliabilities pools the reliability tables of rows per mapper name, in order of first
// appearance. Runs of every level and trial are pooled: calibration is a property of the
// predictions, which each bin conditions on. Rows without a table (runs files written before
// it was recorded) are left out; nil when none has one.
func Reliabilities(rows []RunRow) []Reliability {
	var out []Reliability
	index := map[string]int{}
	tables := map[string][][]replay.ReliabilityBin{}
	for _, r := range rows {
		t, ok := parseReliability(r.Reliability)
		if !ok {
			continue
		}
		if _, ok := index[r.Name]; !ok {
			index[r.Name] = len(out)
			out = append(out, Reliability{Name: r.Name})
		}
		tables[r.Name] = append(tables[r.Name], t)
		out[index[r.Name]].Runs++
	}
	for i := range out {
		out[i].Bins = replay.PoolReliability(tables[out[i].Name]...)
	}
	return out
}

// reliabilityJSON is RunRow.Reliability of a run's table: [tasks, on_time, predicted_sum] per bin.
func reliabilityJSON(bins []replay.ReliabilityBin) string {
	if len(bins) == 0 {
		return ""
	}
	rows := make([][3]float64, len(bins))
	for i, b := range bins {
		rows[i] = [3]float64{float64(b.Tasks), float64(b.OnTime), b.PredictedSum}
	}
	out, err := json.Marshal(rows)
	if err != nil {
		panic("report: " + err.Error()) // finite numbers always encode
	}
	return string(out)
}

// parseReliability reads RunRow.Reliability back; ok is false when it is empty or not what
// reliabilityJSON writes.
func parseReliability(s string) ([]replay.ReliabilityBin, bool) {
	var rows [][3]float64
	if s == "" || json.Unmarshal([]byte(s), &rows) != nil || len(rows) == 0 {
		return nil, false
	}
	bins := make([]replay.ReliabilityBin, len(rows))
	for i, r := range rows {
		bins[i] = replay.ReliabilityBin{Tasks: int(r[0]), OnTime: int(r[1]), PredictedSum: r[2]}
	}
	return bins, true
}

// ReliabilityTable is the reliability tables as one Table: per mapper and bin of predicted
// chance with tasks, the tasks, their mean predicted chance, the share on time and its 95%
// interval (Wilson).
func ReliabilityTable(rels []Reliability) Table {
	t := Table{
		Caption: "Calibration: tasks by the chance of success predicted when they were mapped",
		Columns: []Column{
			{Header: "mapper", Key: "mapper"},
			{Header: "predicted chance", Key: "bin", Parts: []string{"low", "high"}},
			{Header: "tasks", Key: "tasks", Right: true, Parts: []string{"count"}},
			{Header: "predicted (mean)", Key: "predicted", Right: true, Parts: []string{"mean"}},
			{Header: "on time", Key: "on_time", Right: true, Parts: []string{"share"}},
			{Header: "95% interval", Key: "on_time_ci95", Right: true, Parts: []string{"low", "high"}},
		},
		Notes: []string{"Scored mapped tasks of every run pooled per mapper; the interval is Wilson's score interval of the on-time share. " +
			"Predictions are calibrated where the on-time share lies near the predicted mean."},
	}
	for _, r := range rels {
		for _, b := range r.Bins {
			if b.Tasks == 0 {
				continue
			}
			t.Rows = append(t.Rows, []Cell{
				{Text: r.Name},
				{Text: fmt.Sprintf("%.1f–%.1f", b.BinLow, b.BinHigh), Nums: []float64{b.BinLow, b.BinHigh}},
				{Text: fmt.Sprint(b.Tasks), Nums: []float64{float64(b.Tasks)}},
				{Text: fmt.Sprintf("%.3f", float64(b.Predicted)), Nums: []float64{float64(b.Predicted)}},
				{Text: fmt.Sprintf("%.3f", float64(b.Observed)), Nums: []float64{float64(b.Observed)}},
				{Text: fmt.Sprintf("%.3f–%.3f", float64(b.IntervalLow), float64(b.IntervalHigh)), Nums: []float64{float64(b.IntervalLow), float64(b.IntervalHigh)}},
			})
		}
	}
	return t
}

// WriteReliabilityFigure draws the reliability diagram of rels into dir as reliability.FORMAT:
// per mapper, each bin's on-time share (with its 95% interval) against its mean predicted
// chance, and the diagonal a calibrated mapper lies on. ok is false when there is nothing to
// draw.
func WriteReliabilityFigure(rels []Reliability, dir string, formats []string) (f Figure, ok bool, err error) {
	if len(rels) == 0 {
		return Figure{}, false, nil
	}
	p := newPanel("predicted chance of success (bin mean)", "on time (share of tasks)")
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 1, 0, 1
	diag, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		return Figure{}, false, err
	}
	diag.Color, diag.Dashes = color.Gray{Y: 0x80}, []vg.Length{vg.Points(2), vg.Points(2)}
	p.Add(diag)
	ch := &chart{caption: "Reliability of the predicted chances: the on-time share of the tasks in each bin of predicted chance, with its 95% interval, against the bin's mean prediction; calibrated predictions lie on the diagonal.",
		panels: []*plot.Plot{p}}
	for i, r := range rels {
		var pts plotter.XYs
		var errs plotter.YErrors
		for _, b := range r.Bins {
			if b.Tasks == 0 {
				continue
			}
			pts = append(pts, plotter.XY{X: float64(b.Predicted), Y: float64(b.Observed)})
			errs = append(errs, struct{ Low, High float64 }{float64(b.Observed - b.IntervalLow), float64(b.IntervalHigh - b.Observed)})
		}
		if len(pts) == 0 {
			continue
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return Figure{}, false, err
		}
		line.Color, points.Color, points.Shape = seriesColour(i), seriesColour(i), marker(i)
		bars, err := plotter.NewYErrorBars(struct {
			plotter.XYer
			plotter.YErrorer
		}{pts, errs})
		if err != nil {
			return Figure{}, false, err
		}
		bars.Color = seriesColour(i)
		p.Add(line, points, bars)
		ch.legend = append(ch.legend, legendEntry{label: r.Name, thumbs: []plot.Thumbnailer{line, points}})
	}
	f, err = saveChart(ch, dir, "reliability", formats)
	return f, err == nil, err
}

// WriteRunReliability writes one run's reliability table (replay.Summary.Reliability) to path
// as CSV, after meta's comment line: one row per bin of predicted chance with its tasks, tasks
// on time, mean predicted chance, observed on-time rate and that rate's 95% interval; empty
// cells for a bin without tasks (NaN), numbers to 6 significant digits.
func WriteRunReliability(path string, rows []replay.ReliabilityBin, meta FileMeta) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		if _, err := io.WriteString(w, meta.CSVComment()); err != nil {
			return err
		}
		c := csv.NewWriter(w)
		if err := c.Write([]string{"bin_low", "bin_high", "tasks", "on_time", "predicted_mean", "observed_on_time", "ci_low", "ci_high"}); err != nil {
			return err
		}
		num := func(x float64) string {
			if math.IsNaN(x) {
				return ""
			}
			return strconv.FormatFloat(x, 'g', 6, 64)
		}
		for _, r := range rows {
			rec := []string{num(r.BinLow), num(r.BinHigh), strconv.Itoa(r.Tasks), strconv.Itoa(r.OnTime),
				num(float64(r.Predicted)), num(float64(r.Observed)), num(float64(r.IntervalLow)), num(float64(r.IntervalHigh))}
			if err := c.Write(rec); err != nil {
				return err
			}
		}
		c.Flush()
		return c.Error()
	})
}
