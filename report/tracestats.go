package report

import (
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/hcreplay/hcreplay/internal/natural"
	"github.com/hcreplay/hcreplay/trace"
)

// TraceStats summarises one or more arrival traces (trials of one setup, typically): what
// `trace stats` prints and draws.
type TraceStats struct {
	Unit      trace.Unit
	Traces    int
	Tasks     int
	Span      float64 // mean over traces of last − first arrival
	Rate      float64 // tasks per time unit, over all traces
	Types     []string
	PerType   map[string]int
	Slack     []float64 // deadline − arrival of every task with a deadline, sorted
	BinWidth  float64
	RateCurve []float64 // mean arrivals per time unit in each bin since each trace's first arrival
}

// TraceStatistics computes the statistics of traces, with the arrival rate in bins time bins.
func TraceStatistics(traces []*trace.Trace, bins int) TraceStats {
	st := TraceStats{Traces: len(traces), PerType: map[string]int{}}
	bins = max(bins, 1)
	longest := 0.0
	for _, tr := range traces {
		st.Unit = tr.Unit
		if n := len(tr.Tasks); n > 0 {
			span := tr.Tasks[n-1].Arrival - tr.Tasks[0].Arrival
			st.Span += span / float64(len(traces))
			longest = math.Max(longest, span)
		}
		for _, t := range tr.Tasks {
			st.Tasks++
			if st.PerType[t.Type] == 0 {
				st.Types = append(st.Types, t.Type)
			}
			st.PerType[t.Type]++
			if t.HasDeadline() {
				st.Slack = append(st.Slack, t.Deadline-t.Arrival)
			}
		}
	}
	slices.SortFunc(st.Types, natural.Compare)
	slices.Sort(st.Slack)
	if st.Span > 0 {
		st.Rate = float64(st.Tasks) / (st.Span * float64(len(traces)))
	}
	if longest > 0 {
		st.BinWidth = longest / float64(bins)
		st.RateCurve = make([]float64, bins)
		for _, tr := range traces {
			if len(tr.Tasks) == 0 {
				continue
			}
			first := tr.Tasks[0].Arrival
			for _, t := range tr.Tasks {
				b := min(bins-1, int((t.Arrival-first)/st.BinWidth))
				st.RateCurve[b] += 1 / (st.BinWidth * float64(len(traces)))
			}
		}
	}
	return st
}

// WriteTable prints the summary and the per-type table.
func (st TraceStats) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%d traces, %d tasks, mean span %.1f %s, rate %.4g tasks per %s\n", st.Traces, st.Tasks, st.Span, st.Unit, st.Rate, st.Unit)
	if len(st.Slack) > 0 {
		q := func(p float64) float64 { return stat.Quantile(p, stat.Empirical, st.Slack, nil) }
		fmt.Fprintf(w, "slack (deadline − arrival): mean %.1f, p5 %.1f, median %.1f, p95 %.1f (%d of %d tasks have deadlines)\n",
			stat.Mean(st.Slack, nil), q(0.05), q(0.5), q(0.95), len(st.Slack), st.Tasks)
	} else {
		fmt.Fprintln(w, "no deadlines")
	}
	t := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithAlignment(tw.Alignment{tw.AlignLeft, tw.AlignRight, tw.AlignRight}))
	t.Header("task type", "tasks", "share %")
	for _, ty := range st.Types {
		if err := t.Append(ty, fmt.Sprint(st.PerType[ty]), fmt.Sprintf("%.1f", 100*float64(st.PerType[ty])/float64(st.Tasks))); err != nil {
			return err
		}
	}
	return t.Render()
}

// Plot draws the arrival rate over time above the slack histogram.
func (st TraceStats) Plot(path string) error {
	rate := plot.New()
	rate.Title.Text = fmt.Sprintf("Arrival rate (mean of %d traces)", st.Traces)
	rate.X.Label.Text = fmt.Sprintf("time since first arrival (%s)", st.Unit)
	rate.Y.Label.Text = fmt.Sprintf("tasks per %s", st.Unit)
	rate.Y.Min = 0
	pts := make(plotter.XYs, len(st.RateCurve))
	for i, r := range st.RateCurve {
		pts[i] = plotter.XY{X: (float64(i) + 0.5) * st.BinWidth, Y: r}
	}
	if l, err := plotter.NewLine(pts); err == nil {
		l.StepStyle = plotter.MidStep
		l.Color = okabeIto(4)
		rate.Add(l)
	}
	slack := plot.New()
	slack.Title.Text = "Slack (deadline − arrival)"
	slack.X.Label.Text = string(st.Unit)
	slack.Y.Label.Text = "tasks"
	if len(st.Slack) > 0 {
		if h, err := plotter.NewHist(plotter.Values(st.Slack), 40); err == nil {
			h.FillColor = okabeIto(1)
			slack.Add(h)
		}
	}
	return SaveFigure(plotGrid{{rate}, {slack}}, 16*vg.Centimeter, 14*vg.Centimeter, path)
}
