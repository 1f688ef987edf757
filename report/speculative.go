package report

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Figures of the speculative-execution preset (seed 002 Figs 2–6): curves computed elsewhere
// (CDFs of job flowtime and resource, metrics against σ, the analytic resource curve), drawn
// in the style of the other figures: stacked panels, one legend under them, a colour and a
// marker per label, the same in every panel.

// Curve is one line of a panel.
type Curve struct {
	Label  string
	X, Y   []float64
	Dashed bool
	Points bool // markers at the points (sweeps); off for CDFs
}

// CurvePanel is one panel: its axes and curves. XMax > 0 cuts the x axis there (a CDF of a
// heavy-tailed quantity is unreadable out to its maximum).
type CurvePanel struct {
	XLabel, YLabel string
	Curves         []Curve
	XMax           float64
}

// WriteCurves draws the panels stacked into dir/stem.<format> for each format and returns the
// files written.
func WriteCurves(dir, stem, caption string, formats []string, panels []CurvePanel) ([]string, error) {
	ch := &chart{caption: caption}
	colour := map[string]int{}
	for _, pn := range panels {
		p := newPanel(pn.XLabel, pn.YLabel)
		for _, c := range pn.Curves {
			if len(c.X) == 0 || len(c.X) != len(c.Y) {
				continue
			}
			k, seen := colour[c.Label]
			if !seen {
				k = len(colour)
				colour[c.Label] = k
			}
			xys := make(plotter.XYs, 0, len(c.X))
			for i := range c.X {
				if math.IsNaN(c.X[i]) || math.IsNaN(c.Y[i]) || math.IsInf(c.X[i], 0) || math.IsInf(c.Y[i], 0) {
					continue
				}
				if pn.XMax > 0 && c.X[i] > pn.XMax {
					// Carry the curve to the edge at its value there, then stop.
					xys = append(xys, plotter.XY{X: pn.XMax, Y: c.Y[max(i-1, 0)]})
					break
				}
				xys = append(xys, plotter.XY{X: c.X[i], Y: c.Y[i]})
			}
			if len(xys) == 0 {
				continue
			}
			l, err := plotter.NewLine(xys)
			if err != nil {
				return nil, fmt.Errorf("figure %s: %w", stem, err)
			}
			l.Color, l.Width = seriesColour(k), vg.Points(1)
			if c.Dashed {
				l.Dashes = []vg.Length{vg.Points(3), vg.Points(1.5)}
			}
			thumbs := []plot.Thumbnailer{l}
			p.Add(l)
			if c.Points {
				sc, err := plotter.NewScatter(xys)
				if err != nil {
					return nil, fmt.Errorf("figure %s: %w", stem, err)
				}
				sc.Shape, sc.Color, sc.Radius = marker(k), seriesColour(k), vg.Points(2)
				p.Add(sc)
				thumbs = append(thumbs, sc)
			}
			if !seen {
				ch.legend = append(ch.legend, legendEntry{c.Label, thumbs})
			}
		}
		if pn.XMax > 0 {
			p.X.Min, p.X.Max = math.Min(p.X.Min, 0), pn.XMax
		}
		ch.panels = append(ch.panels, p)
	}
	f, err := saveChart(ch, dir, stem, formats)
	return f.Files, err
}
