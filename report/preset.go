package report

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
)

// This file serves `hcreplay figures`, which reruns a paper's experiments and redraws its
// figures. A paper's figure often shows part of a sweep (the unpruned baselines against PAM-P),
// or bars where the report draws lines, and its notes compare a few numbers with the paper's;
// the helpers below do that from an Aggregate, with the report's own figure code.

// Subset returns the aggregate of the groups whose options keep accepts, and of the levels they
// use, in the same order. The groups are shared with a, not copied.
func (a *Aggregate) Subset(keep func(RunRow) bool) *Aggregate {
	s := &Aggregate{Baseline: a.Baseline}
	for _, g := range a.Groups {
		if keep(g.Run()) {
			s.Groups = append(s.Groups, g)
		}
	}
	for _, l := range a.Levels {
		if slices.ContainsFunc(s.Groups, func(g *Group) bool { return g.Run().Level == l }) {
			s.Levels = append(s.Levels, l)
		}
	}
	return s
}

// WriteFigure draws one of the figures of WriteFigures, named as there (robustness, fairness,
// cost, energy, overhead, thresholds, toggle, deferring), to dir/stem.<format> for each format.
// ok is false when the runs do not vary what the figure is about.
func WriteFigure(a *Aggregate, kind, dir, stem string, formats []string) (f Figure, ok bool, err error) {
	for _, k := range figureKinds() {
		if k.name != kind {
			continue
		}
		ch := k.build(a)
		if ch == nil {
			return Figure{}, false, nil
		}
		f, err = saveChart(ch, dir, stem, formats)
		return f, err == nil, err
	}
	return Figure{}, false, fmt.Errorf("no figure kind %q", kind)
}

// Bars are the two bar layouts of the papers' figures at one or a few levels.
const (
	BarsByName  = "name"  // one bar per name (heuristic and variant) along x; a colour per level when there are several
	BarsByLevel = "level" // a group of bars per level, one bar per name and varying options
)

// WriteBars draws a metric as bars with their 95% intervals to dir/stem.<format>, laid out by
// BarsByName or BarsByLevel. In BarsByLevel the colour is the heuristic's and the bar is lighter
// the more its variant prunes (none, defer, drop, both), so that a dozen bars stay readable
// where eight palette colours would repeat.
func WriteBars(a *Aggregate, by, metric, dir, stem string, formats []string) (Figure, error) {
	label, ok := metricLabel(metric)
	if !ok {
		return Figure{}, fmt.Errorf("no metric %q", metric)
	}
	if len(a.Groups) == 0 {
		return Figure{}, fmt.Errorf("figure %s: no runs to draw", stem)
	}
	var x xAxis
	colour := func(i int, _ series) color.Color { return seriesColour(i) }
	switch by {
	case BarsByName:
		var names []string
		for _, g := range a.Groups {
			if n := nameOf(g.Run()); !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		x = categoryAxis("heuristic", "name", names, nameOf)
	case BarsByLevel:
		x = levelAxis(a.Groups, a.Levels)
		colour = heuristicTints(a.Groups)
	default:
		return Figure{}, fmt.Errorf("bars by %q: want %s or %s", by, BarsByName, BarsByLevel)
	}
	ss := splitSeries(a.Groups, x)
	if by == BarsByName && len(varying(a.Groups, x.options...)) == 0 {
		// splitSeries names a lone series after each heuristic, which would make every bar a
		// series of its own, dodged off its tick.
		ss = []series{{groups: a.Groups}}
	}
	ch := barChart(ss, x, metric, label, colour)
	if len(ch.legend) == 1 {
		ch.legend = nil // the x axis names the bars
	}
	ch.panels[0].Y.Tick.Marker = plainTicks{}
	ch.caption = fmt.Sprintf("%s per %s. %s", label, x.label, ciNote)
	return saveChart(ch, dir, stem, formats)
}

// barChart draws grouped bars with 95% intervals, one series per colour (colour chooses it),
// dodged around each category of x: the drawing behind barFigure and WriteBars.
func barChart(ss []series, x xAxis, metric, yLabel string, colour func(int, series) color.Color) *chart {
	p := newPanel(x.label, yLabel)
	width := 0.8 / float64(len(ss))
	var legend []legendEntry
	for i, s := range ss {
		b := ciBars{width: width, fill: colour(i, s)}
		for _, g := range s.groups {
			pos, e := x.pos(g.Run()), g.Stat(metric)
			if math.IsNaN(pos) || math.IsNaN(e.Mean) || math.IsInf(e.Mean, 0) {
				continue
			}
			b.xs = append(b.xs, pos+(float64(i)-float64(len(ss)-1)/2)*width)
			b.means, b.halves = append(b.means, e.Mean), append(b.halves, e.Half)
		}
		if len(b.xs) == 0 {
			continue
		}
		p.Add(b)
		legend = append(legend, legendEntry{s.label, []plot.Thumbnailer{b}})
	}
	p.X.Min, p.X.Max = -0.5, float64(len(x.ticks))-0.5
	p.X.Tick.Marker = plot.ConstantTicks(x.ticks)
	p.Y.Min, p.Y.Max = pad(p.Y.Min, p.Y.Max, 0, 0.08)
	return &chart{panels: []*plot.Plot{p}, legend: legend}
}

// plainTicks are gonum's default ticks labelled without trailing zeros ("25", not "25.00").
type plainTicks struct{}

func (plainTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(min, max)
	for i, t := range ticks {
		if t.Label != "" {
			ticks[i].Label = strconv.FormatFloat(t.Value, 'g', 6, 64)
		}
	}
	return ticks
}

// heuristicTints colours a series by its heuristic, lightened by its pruning variant.
func heuristicTints(groups []*Group) func(int, series) color.Color {
	var heuristics []string
	for _, g := range groups {
		if h := g.Run().Heuristic; !slices.Contains(heuristics, h) {
			heuristics = append(heuristics, h)
		}
	}
	return func(_ int, s series) color.Color {
		r := s.groups[0].Run()
		return tint(seriesColour(slices.Index(heuristics, r.Heuristic)), 0.22*float64(variantRank(r.Prune)-1))
	}
}

// tint mixes c with white: f = 0 keeps c, f = 1 is white.
func tint(c color.Color, f float64) color.Color {
	r, g, b, _ := c.RGBA()
	mix := func(v uint32) uint8 {
		x := float64(v >> 8)
		return uint8(math.Round(x + (255-x)*f))
	}
	return color.RGBA{mix(r), mix(g), mix(b), 0xff}
}

// saveChart writes a chart once per format.
func saveChart(ch *chart, dir, stem string, formats []string) (Figure, error) {
	w, h := ch.size()
	f := Figure{Name: stem, Caption: ch.caption}
	for _, ext := range formats {
		path := filepath.Join(dir, stem+"."+ext)
		if err := SaveFigure(ch, w, h, path); err != nil {
			return Figure{}, err
		}
		f.Files = append(f.Files, path)
	}
	return f, nil
}

// KeyTable is the table of a rerun figure's notes: per group the name, the level, the options
// that vary among the groups, the trials, and each named metric's mean ± 95% interval (the
// runs.parquet column names, e.g. robustness, on_time, fairness_stddev).
func KeyTable(a *Aggregate, metricNames ...string) (Table, error) {
	vary := varying(a.Groups, "name", "level")
	t := Table{Columns: []Column{{Header: "name", Key: "name"}, {Header: "level", Key: "level"}}}
	for _, o := range vary {
		t.Columns = append(t.Columns, Column{Header: o.label, Key: o.name})
	}
	t.Columns = append(t.Columns, Column{Header: "n", Key: "n", Right: true})
	for _, m := range metricNames {
		label, ok := metricLabel(m)
		if !ok {
			return Table{}, fmt.Errorf("no metric %q", m)
		}
		t.Columns = append(t.Columns, estimateColumn(label, m))
	}
	for _, g := range a.Groups {
		r := g.Run()
		row := []Cell{{Text: nameOf(r)}, {Text: r.Level}}
		for _, o := range vary {
			text := "–"
			if o.applies(r) {
				text = shown(o.value(r))
			}
			row = append(row, Cell{Text: text})
		}
		row = append(row, Cell{Text: strconv.Itoa(len(g.Runs)), Nums: []float64{float64(len(g.Runs))}})
		for _, m := range metricNames {
			d := -1
			if m == "robustness" {
				d = 1 // percentages: one decimal in every row, as SummaryTable
			}
			row = append(row, estimateCell(g.Stat(m), true, d, len(g.Runs)))
		}
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// metricLabel is the label tables and axes give a runs.parquet metric column.
func metricLabel(name string) (string, bool) {
	for _, m := range metrics() {
		if m.name == name {
			return m.label, true
		}
	}
	return "", false
}
