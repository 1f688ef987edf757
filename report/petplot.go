package report

import (
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/hcreplay/hcreplay/petbuild"
)

// PETPlots draws a PET as two figures: a heat map of the cell means at path, and a grid of
// small PMF plots (rows: task types, columns: machine types) next to it, at path with
// "-pmfs" before the extension. It returns the second path.
func PETPlots(pet *petbuild.PET, path string) (string, error) {
	if err := SaveFigure(meansHeatMap(pet), 4*vg.Centimeter+vg.Length(pet.NumMachineTypes())*1.6*vg.Centimeter,
		3*vg.Centimeter+vg.Length(pet.NumTaskTypes())*0.9*vg.Centimeter, path); err != nil {
		return "", err
	}
	ext := filepath.Ext(path)
	grid := strings.TrimSuffix(path, ext) + "-pmfs" + ext
	rows, cols := pet.NumTaskTypes(), pet.NumMachineTypes()
	return grid, SaveFigure(pmfGrid(pet), vg.Length(cols)*3*vg.Centimeter, vg.Length(rows)*2.2*vg.Centimeter, grid)
}

// meansGrid adapts a PET's means to plotter.GridXYZ: columns are machine types, rows task types.
type meansGrid struct{ pet *petbuild.PET }

func (g meansGrid) Dims() (c, r int)   { return g.pet.NumMachineTypes(), g.pet.NumTaskTypes() }
func (g meansGrid) Z(c, r int) float64 { return g.pet.Summary(r, c).Mean }
func (g meansGrid) X(c int) float64    { return float64(c) }
func (g meansGrid) Y(r int) float64    { return float64(r) }

func meansHeatMap(pet *petbuild.PET) *plot.Plot {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Mean execution time (%s)", pet.TimeUnit())
	p.X.Label.Text = "machine type"
	p.Y.Label.Text = "task type"
	g := meansGrid{pet}
	pal := moreland.Kindlmann().Palette(64) // perceptually uniform, readable in grey and by colour-blind readers
	h := plotter.NewHeatMap(g, pal)
	// Stop short of the palette's white end, so that the largest cell still shows its label.
	h.Max = h.Min + (h.Max-h.Min)*1.15
	p.Add(h)
	labels := plotter.XYLabels{}
	var dark []bool
	for r := range pet.NumTaskTypes() {
		for c := range pet.NumMachineTypes() {
			labels.XYs = append(labels.XYs, plotter.XY{X: float64(c), Y: float64(r)})
			labels.Labels = append(labels.Labels, fmt.Sprintf("%.0f", g.Z(c, r)))
			dark = append(dark, (g.Z(c, r)-h.Min)/(h.Max-h.Min) < 0.55)
		}
	}
	if l, err := plotter.NewLabels(labels); err == nil {
		for i := range l.TextStyle {
			l.TextStyle[i].Color = color.Black
			if dark[i] {
				l.TextStyle[i].Color = color.White
			}
			l.TextStyle[i].XAlign, l.TextStyle[i].YAlign = draw.XCenter, draw.YCenter
			l.TextStyle[i].Font.Size = vg.Points(7)
		}
		p.Add(l)
	}
	p.NominalX(pet.MachineTypes()...)
	p.NominalY(pet.TaskTypes()...)
	return p
}

// plotGrid draws plots in rows and columns.
type plotGrid [][]*plot.Plot

func (g plotGrid) Draw(c draw.Canvas) {
	tiles := draw.Tiles{Rows: len(g), Cols: len(g[0]), PadX: vg.Millimeter, PadY: vg.Millimeter,
		PadTop: vg.Millimeter, PadBottom: vg.Millimeter, PadLeft: vg.Millimeter, PadRight: vg.Millimeter}
	canvases := plot.Align(g, tiles, c)
	for r := range g {
		for col, p := range g[r] {
			p.Draw(canvases[r][col])
		}
	}
}

func pmfGrid(pet *petbuild.PET) plotGrid {
	maxT := 0.0
	for _, s := range pet.Summaries() {
		maxT = math.Max(maxT, s.Max)
	}
	g := make(plotGrid, pet.NumTaskTypes())
	for r := range g {
		g[r] = make([]*plot.Plot, pet.NumMachineTypes())
		for c := range g[r] {
			cell := pet.Cell(r, c)
			pts := make(plotter.XYs, cell.Len())
			for k := range pts {
				pts[k] = plotter.XY{X: cell.Time(k), Y: cell.Prob(k)}
			}
			p := plot.New()
			p.Title.Text = fmt.Sprintf("%s on %s", pet.TaskType(r), pet.MachineType(c))
			p.Title.TextStyle.Font.Size = vg.Points(7)
			p.X.Min, p.X.Max = 0, maxT
			p.X.Tick.Label.Font.Size, p.Y.Tick.Label.Font.Size = vg.Points(5), vg.Points(5)
			// The panels share their axes: name them once, along the bottom and the left edge.
			if r == len(g)-1 {
				p.X.Label.Text = "execution time (" + pet.TimeUnit() + ")"
				p.X.Label.TextStyle.Font.Size = vg.Points(6)
			}
			if c == 0 {
				p.Y.Label.Text = "probability"
				p.Y.Label.TextStyle.Font.Size = vg.Points(6)
			}
			if l, err := plotter.NewLine(pts); err == nil {
				l.StepStyle = plotter.MidStep
				l.Color = color.RGBA{R: 0x00, G: 0x72, B: 0xB2, A: 0xff}
				p.Add(l)
			}
			g[r][c] = p
		}
	}
	return g
}
