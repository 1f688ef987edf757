package report

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"

	"github.com/hcreplay/hcreplay/internal/parallel"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Figures are sized for one journal column (about 8.5 cm), with no font under 7 pt, so that
// they stay readable printed at that width.
const (
	figureWidth   = 8.5 * vg.Centimeter
	panelHeight   = 5.5 * vg.Centimeter
	stackedHeight = 4.2 * vg.Centimeter // per panel of a figure with several
)

// Figure is a figure written by WriteFigures.
type Figure struct {
	Name    string   // file stem: "robustness"
	Caption string   // what the figure shows, for the HTML and Markdown pages
	Files   []string // one per format, in the order asked
}

// WriteFigures draws every figure the runs support (see figureKinds) into dir, once per format
// (png, svg or pdf), and returns them in a fixed order. The figures are drawn concurrently, one
// per core at most: each is its own set of plots, and drawing them one after the other left a
// core idle between the sweeps of a preset's experiments.
func WriteFigures(a *Aggregate, dir string, formats []string) ([]Figure, error) {
	type job struct {
		name string
		ch   *chart
	}
	var jobs []job
	for _, k := range figureKinds() {
		if ch := k.build(a); ch != nil {
			jobs = append(jobs, job{k.name, ch})
		}
	}
	figs := make([]Figure, len(jobs))
	errs := make([]error, len(jobs))
	parallel.Each(len(jobs), func() func(int) {
		return func(i int) { figs[i], errs[i] = saveChart(jobs[i].ch, dir, jobs[i].name, formats) }
	})
	for _, err := range errs {
		if err != nil {
			return nil, err // the first in the figures' order, as when they were drawn in turn
		}
	}
	return figs, nil
}

func figureFont(points float64) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: vg.Points(points)}
}

// seriesColour returns palette slot i: the Okabe–Ito colours, most distinct first, yellow last
// because it fades on white.
func seriesColour(i int) color.Color {
	order := [...]int{4, 5, 3, 1, 6, 2, 0, 7}
	return okabeIto(order[i%len(order)])
}

// marker returns marker shape i, so that series stay apart in greyscale and for readers who
// cannot tell the colours apart.
func marker(i int) draw.GlyphDrawer {
	shapes := [...]draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}, draw.RingGlyph{},
		draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}}
	return shapes[i%len(shapes)]
}

// newPanel returns an empty plot in the figures' style: sans-serif at 7–8 pt, a light grid, no
// title (the caption lives in the page or the paper).
func newPanel(xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	for _, ax := range []*plot.Axis{&p.X, &p.Y} {
		ax.Label.TextStyle.Font = figureFont(8)
		ax.Tick.Label.Font = figureFont(7)
	}
	g := plotter.NewGrid()
	g.Vertical.Color, g.Horizontal.Color = color.Gray{Y: 0xE4}, color.Gray{Y: 0xE4}
	p.Add(g)
	return p
}

// chart is a figure: one or more panels stacked with aligned axes, and one legend for all of
// them under the panels, in columns. gonum draws a legend inside the data area, where it hides
// points; underneath it never does.
type chart struct {
	caption string
	panels  []*plot.Plot
	legend  []legendEntry
}

type legendEntry struct {
	label  string
	thumbs []plot.Thumbnailer
}

// size is the figure's size: a column wide, a panel height per panel plus the legend.
func (ch *chart) size() (w, h vg.Length) {
	_, lh := ch.legends(figureWidth)
	if len(ch.panels) > 1 {
		return figureWidth, stackedHeight*vg.Length(len(ch.panels)) + lh
	}
	return figureWidth, panelHeight + lh
}

// legends splits the legend into columns for a figure of width w (two when the labels fit,
// else one) and returns them with the height they need.
func (ch *chart) legends(w vg.Length) ([]plot.Legend, vg.Length) {
	if len(ch.legend) == 0 {
		return nil, 0
	}
	newLegend := func() plot.Legend {
		l := plot.NewLegend()
		l.TextStyle.Font = figureFont(7)
		l.Top, l.Left = true, true
		l.ThumbnailWidth = vg.Points(18)
		l.Padding = vg.Points(1.5)
		return l
	}
	probe := newLegend()
	widest := vg.Length(0)
	for _, e := range ch.legend {
		widest = max(widest, probe.TextStyle.Width(" "+e.label))
	}
	cols := 1
	if probe.ThumbnailWidth+widest < w/2-2*vg.Millimeter && len(ch.legend) > 1 {
		cols = 2
	}
	rows := (len(ch.legend) + cols - 1) / cols
	ls := make([]plot.Legend, cols)
	height := vg.Length(0)
	for c := range ls {
		ls[c] = newLegend()
		for _, e := range ch.legend[c*rows : min(len(ch.legend), (c+1)*rows)] {
			ls[c].Add(e.label, e.thumbs...)
		}
		r := ls[c].Rectangle(draw.Canvas{})
		height = max(height, r.Max.Y-r.Min.Y)
	}
	return ls, height + 3*vg.Millimeter
}

// Draw draws the panels above the legend.
func (ch *chart) Draw(c draw.Canvas) {
	width := c.Max.X - c.Min.X
	ls, lh := ch.legends(width)
	grid := make([][]*plot.Plot, len(ch.panels))
	for i, p := range ch.panels {
		grid[i] = []*plot.Plot{p}
	}
	tiles := draw.Tiles{Rows: len(grid), Cols: 1, PadY: 2 * vg.Millimeter, PadTop: vg.Millimeter,
		PadRight: 2 * vg.Millimeter, PadLeft: vg.Millimeter}
	canvases := plot.Align(grid, tiles, draw.Crop(c, 0, 0, lh, 0))
	for i, p := range ch.panels {
		p.Draw(canvases[i][0])
	}
	colWidth := (width - 4*vg.Millimeter) / vg.Length(max(len(ls), 1))
	for i := range ls {
		x := c.Min.X + 3*vg.Millimeter + vg.Length(i)*colWidth
		lc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x, Y: c.Min.Y + vg.Millimeter},
			Max: vg.Point{X: x + colWidth, Y: c.Min.Y + lh - vg.Millimeter}}}
		ls[i].Draw(lc)
	}
}

// xAxis places groups along a figure's x axis.
type xAxis struct {
	label   string
	options []string             // the options the position comes from, kept out of series labels
	pos     func(RunRow) float64 // NaN: not on this axis
	ticks   []plot.Tick          // a categorical axis: one labelled tick per category; nil for a numeric axis
}

// categoryAxis puts the categories cats at 0, 1, 2, ... in that order.
func categoryAxis(label, option string, cats []string, of func(RunRow) string) xAxis {
	ticks := make([]plot.Tick, len(cats))
	for i, c := range cats {
		ticks[i] = plot.Tick{Value: float64(i), Label: c}
	}
	return xAxis{label: label, options: []string{option}, ticks: ticks, pos: func(r RunRow) float64 {
		if i := slices.Index(cats, of(r)); i >= 0 {
			return float64(i)
		}
		return math.NaN()
	}}
}

// levelAxis is the oversubscription axis: the levels among groups, in the aggregate's order.
func levelAxis(groups []*Group, order []string) xAxis {
	var present []string
	for _, l := range order {
		if slices.ContainsFunc(groups, func(g *Group) bool { return g.Run().Level == l }) {
			present = append(present, l)
		}
	}
	return categoryAxis("oversubscription level", "level", present, func(r RunRow) string { return r.Level })
}

// series is one line (or one colour of bars) of a figure.
type series struct {
	label  string
	groups []*Group
}

// splitSeries splits groups into series: one per combination of the options that vary among
// them, apart from those the x axis shows. A figure therefore never merges groups that differ
// in an option into one point; it draws them apart and names the difference in the legend.
func splitSeries(groups []*Group, x xAxis) []series {
	vary := varying(groups, x.options...)
	var out []series
	index := map[string]int{}
	for _, g := range groups {
		label := seriesLabel(g.Run(), vary)
		i, ok := index[label]
		if !ok {
			i = len(out)
			index[label] = i
			out = append(out, series{label: label})
		}
		out[i].groups = append(out[i].groups, g)
	}
	for i := range out {
		slices.SortStableFunc(out[i].groups, func(a, b *Group) int { return cmp.Compare(x.pos(a.Run()), x.pos(b.Run())) })
	}
	return out
}

// seriesLabel names a series by its values of the varying options: "MM-P, λ=0.5"; a lone
// series is named after its heuristic.
func seriesLabel(r RunRow, vary []option) string {
	label := ""
	for _, o := range vary {
		if !o.applies(r) {
			continue
		}
		if label != "" {
			label += ", "
		}
		if o.name == "name" || o.name == "level" {
			label += shown(o.value(r))
		} else {
			label += o.label + "=" + shown(o.value(r))
		}
	}
	if label == "" {
		return nameOf(r)
	}
	return label
}

// lineFigure draws a metric against an x axis, one line per series, with 95% intervals.
type lineFigure struct {
	groups     []*Group
	x          xAxis
	y          string // metric
	yLabel     string
	colourBy   string              // option that picks the colour ("heuristic", "engine"); "" for one colour per series
	dashPruned bool                // dashed lines for pruned variants, solid for the plain heuristic
	logY       bool                // a log y axis when every mean is positive and they span a decade
	pointLabel func(*Group) string // text beside each point (the fairness figure's robustness)
}

// ciPoints is the value plotter.YErrorBars needs: points and their intervals in one value.
type ciPoints struct {
	plotter.XYs
	plotter.YErrors
}

// panel draws the figure's plot and returns its legend entries.
func (f lineFigure) panel() (*plot.Plot, []legendEntry) {
	p := newPanel(f.x.label, f.yLabel)
	ss := splitSeries(f.groups, f.x)
	logY := f.logY && f.spansDecade()
	if logY {
		p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, logTicks{}
	}
	colours := map[string]int{}
	var legend []legendEntry
	for i, s := range ss {
		key := fmt.Sprint("series", i)
		if f.colourBy != "" {
			key = optionNamed(f.colourBy).value(s.groups[0].Run())
		}
		if _, ok := colours[key]; !ok {
			colours[key] = len(colours)
		}
		col := seriesColour(colours[key])
		pts, ci, labels := f.points(s, i, len(ss), logY)
		if len(pts) == 0 {
			continue
		}
		if len(ci.XYs) > 0 {
			if eb, err := plotter.NewYErrorBars(ci); err == nil {
				eb.Color, eb.CapWidth, eb.Width = col, vg.Points(3), vg.Points(0.6)
				p.Add(eb)
			}
		}
		l, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			continue
		}
		l.Color, l.Width = col, vg.Points(1)
		if f.dashPruned && pruned(s.groups[0].Run()) {
			l.Dashes = []vg.Length{vg.Points(3), vg.Points(1.5)}
		}
		sc.Shape, sc.Color, sc.Radius = marker(i), col, vg.Points(2.2)
		p.Add(l, sc)
		if f.pointLabel != nil {
			if lb, err := plotter.NewLabels(plotter.XYLabels{XYs: pts, Labels: labels}); err == nil {
				for j := range lb.TextStyle {
					lb.TextStyle[j].Font, lb.TextStyle[j].Color = figureFont(7), col
				}
				// Alternate above and below the line, so that labels of close series do not overprint.
				lb.Offset = vg.Point{X: vg.Points(3), Y: vg.Points(2)}
				if i%2 == 1 {
					lb.Offset.Y = -vg.Points(9)
				}
				p.Add(lb)
			}
		}
		legend = append(legend, legendEntry{s.label, []plot.Thumbnailer{l, sc}})
	}
	f.fitAxes(p, logY)
	return p, legend
}

// points returns a series' points, the intervals of those that have one, and the point labels.
// On a categorical axis series are dodged sideways a little, so that their intervals do not
// hide each other; on a log axis an interval reaching zero is cut at a tenth of the mean.
func (f lineFigure) points(s series, i, n int, logY bool) (plotter.XYs, ciPoints, []string) {
	dodge := 0.0
	if f.x.ticks != nil && n > 1 {
		dodge = (float64(i) - float64(n-1)/2) * min(0.08, 0.5/float64(n))
	}
	var pts plotter.XYs
	var ci ciPoints
	var labels []string
	for _, g := range s.groups {
		x, e := f.x.pos(g.Run()), g.Stat(f.y)
		if math.IsNaN(x) || math.IsNaN(e.Mean) || math.IsInf(e.Mean, 0) || (logY && e.Mean <= 0) {
			continue
		}
		pt := plotter.XY{X: x + dodge, Y: e.Mean}
		pts = append(pts, pt)
		if f.pointLabel != nil {
			labels = append(labels, f.pointLabel(g))
		}
		if !math.IsNaN(e.Half) && !math.IsInf(e.Half, 0) {
			low := e.Half
			if logY {
				low = min(low, 0.9*e.Mean)
			}
			ci.XYs = append(ci.XYs, pt)
			ci.YErrors = append(ci.YErrors, struct{ Low, High float64 }{low, e.Half})
		}
	}
	return pts, ci, labels
}

// spansDecade reports whether every mean of the figure is positive and the largest is at least
// ten times the smallest: then a log axis shows small and large values (fast and reference
// engines) apart.
func (f lineFigure) spansDecade() bool {
	lo, hi := math.Inf(1), 0.0
	for _, g := range f.groups {
		m := g.Stat(f.y).Mean
		if math.IsNaN(m) {
			continue
		}
		if m <= 0 {
			return false
		}
		lo, hi = min(lo, m), max(hi, m)
	}
	return hi >= 10*lo
}

// logTicks are plot.LogTicks with labels at powers of ten, and also at 2 and 5 times them
// when fewer than two powers of ten fall on the axis: otherwise a log axis over 5,000–90,000
// reads only "10000".
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.LogTicks{Prec: -1}.Ticks(min, max)
	labelled := 0
	for _, t := range ticks {
		if t.Label != "" && t.Value >= min && t.Value <= max {
			labelled++
		}
	}
	if labelled >= 2 {
		return ticks
	}
	for i, t := range ticks {
		m := t.Value / math.Pow(10, math.Floor(math.Log10(t.Value)+1e-9))
		if math.Abs(m-2) < 1e-6 || math.Abs(m-5) < 1e-6 {
			ticks[i].Label = strconv.FormatFloat(t.Value, 'g', -1, 64)
		}
	}
	return ticks
}

// fitAxes puts categories at their ticks with half a category of margin, and gives a numeric
// axis some room so that no marker sits on the frame.
func (f lineFigure) fitAxes(p *plot.Plot, logY bool) {
	if f.x.ticks != nil {
		p.X.Min, p.X.Max = -0.5, float64(len(f.x.ticks))-0.5
		p.X.Tick.Marker = plot.ConstantTicks(f.x.ticks)
	} else {
		p.X.Min, p.X.Max = pad(p.X.Min, p.X.Max, 0.05, 0.05)
	}
	if logY {
		p.Y.Min, p.Y.Max = p.Y.Min/1.25, p.Y.Max*1.25
	} else {
		p.Y.Min, p.Y.Max = pad(p.Y.Min, p.Y.Max, 0.05, 0.08)
	}
}

// pad widens [lo, hi] by the fractions below and above of its width (of |hi| or 1 when the
// range is a single value). A plot without data has an infinite range, which would stall
// gonum's tick search; it becomes [0, 1].
func pad(lo, hi, below, above float64) (float64, float64) {
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) || math.IsNaN(lo) || math.IsNaN(hi) || lo > hi {
		return 0, 1
	}
	w := hi - lo
	if w == 0 {
		w = math.Max(math.Abs(hi), 1)
	}
	return lo - below*w, hi + above*w
}

// chart is the figure as a single panel.
func (f lineFigure) chart(caption string) *chart {
	p, legend := f.panel()
	return &chart{caption: caption, panels: []*plot.Plot{p}, legend: legend}
}

// ciBars draws bars from zero to each mean with the 95% interval as a whisker. plotter.BarChart
// shifts grouped bars by an offset in page units, which error bars placed in data units cannot
// follow; ciBars places everything in data units.
type ciBars struct {
	xs, means, halves []float64
	width             float64 // in data units
	fill              color.Color
}

var _ plot.Plotter = ciBars{}

func (b ciBars) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	line := draw.LineStyle{Color: color.Black, Width: vg.Points(0.5)}
	for i, x := range b.xs {
		x0, x1 := trX(x-b.width/2), trX(x+b.width/2)
		y0, y1 := trY(0), trY(b.means[i])
		rect := []vg.Point{{X: x0, Y: y0}, {X: x0, Y: y1}, {X: x1, Y: y1}, {X: x1, Y: y0}}
		c.FillPolygon(b.fill, c.ClipPolygonXY(rect))
		c.StrokeLines(line, c.ClipLinesXY(append(rect, rect[0]))...)
		h := b.halves[i]
		if math.IsNaN(h) || math.IsInf(h, 0) {
			continue
		}
		xm, cw := trX(x), (x1-x0)/4
		lo, hi := trY(b.means[i]-h), trY(b.means[i]+h)
		c.StrokeLines(line, c.ClipLinesXY(
			[]vg.Point{{X: xm, Y: lo}, {X: xm, Y: hi}},
			[]vg.Point{{X: xm - cw, Y: lo}, {X: xm + cw, Y: lo}},
			[]vg.Point{{X: xm - cw, Y: hi}, {X: xm + cw, Y: hi}})...)
	}
}

// DataRange covers the bars, zero and the whiskers.
func (b ciBars) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax, ymin, ymax = math.Inf(1), math.Inf(-1), 0, 0
	for i, x := range b.xs {
		xmin, xmax = min(xmin, x-b.width/2), max(xmax, x+b.width/2)
		h := b.halves[i]
		if math.IsNaN(h) || math.IsInf(h, 0) {
			h = 0
		}
		ymin, ymax = min(ymin, b.means[i]-h), max(ymax, b.means[i]+h)
	}
	return xmin, xmax, ymin, ymax
}

// Thumbnail draws the bar colour in the legend.
func (b ciBars) Thumbnail(c *draw.Canvas) {
	pts := []vg.Point{{X: c.Min.X, Y: c.Min.Y}, {X: c.Min.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Max.Y}, {X: c.Max.X, Y: c.Min.Y}}
	c.FillPolygon(b.fill, c.ClipPolygonXY(pts))
	c.StrokeLines(draw.LineStyle{Color: color.Black, Width: vg.Points(0.5)}, append(pts, pts[0]))
}

// barFigure draws a metric as grouped bars: categories along x, one bar per series in each.
type barFigure struct {
	groups []*Group
	x      xAxis // categorical
	y      string
	yLabel string
}

func (f barFigure) chart(caption string) *chart {
	ch := barChart(splitSeries(f.groups, f.x), f.x, f.y, f.yLabel, func(i int, _ series) color.Color { return seriesColour(i) })
	ch.caption = caption
	return ch
}
