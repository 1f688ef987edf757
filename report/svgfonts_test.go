package report

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"
	"gonum.org/v1/plot/vg/vgsvg"
)

// lineChart is a small robustness figure: a line chart, two levels, with and without pruning.
func lineChart(t testing.TB) *chart {
	var pts []RunRow
	for _, lv := range []RunRow{{Level: "25k", LevelRate: 0.283}, {Level: "19k", LevelRate: 0.215}} {
		for _, pr := range []string{"none", "both"} {
			r := lv
			r.Heuristic, r.Prune, r.Engine = "MM", pr, "fast"
			if pr != "none" {
				r = pruneDefaults(r)
			}
			pts = append(pts, r)
		}
	}
	a, err := AggregateRuns(gridRuns(pts, 3), "")
	if err != nil {
		t.Fatal(err)
	}
	return robustnessFigure(a)
}

// svgLineChartBound is issue 50's target for an SVG line chart (it was about 570 KB with the
// fonts embedded).
const svgLineChartBound = 100_000

// TestSVGNamesFonts: an SVG figure stays under the bound, embeds no font, and names Liberation
// Sans followed by its metric-compatible fallbacks; the text it draws is the embedding SVG's
// (the same drawing, only the font data gone).
func TestSVGNamesFonts(t *testing.T) {
	ch := lineChart(t)
	w, h := ch.size()
	path := filepath.Join(t.TempDir(), "robustness.svg")
	if err := SaveFigure(ch, w, h, path); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) >= svgLineChartBound {
		t.Errorf("SVG line chart is %d bytes, want under %d", len(got), svgLineChartBound)
	}
	if bytes.Contains(got, []byte("@font-face")) || bytes.Contains(got, []byte("base64")) {
		t.Error("SVG embeds a font")
	}
	if !bytes.Contains(got, []byte("font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")) {
		t.Error("SVG does not name Liberation Sans with its fallbacks")
	}
	if bytes.Contains(got, []byte("font-family:Liberation")) {
		t.Error("a font family left without fallbacks")
	}

	// The independent drawing: gonum's own SVG with the fonts embedded. Without its font rules
	// and with the family spelt as ours, it must be ours byte for byte.
	c := vgsvg.NewWith(vgsvg.UseWH(w, h), vgsvg.EmbedFonts(true))
	ch.Draw(draw.New(c))
	var emb bytes.Buffer
	if _, err := c.WriteTo(&emb); err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`<defs>\s*<style>(\s*@font-face\{[^}]*\})*\s*</style>\s*</defs>\n`).ReplaceAllString(emb.String(), "")
	want = strings.ReplaceAll(want, "font-family:Liberation Sans;", "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;")
	if string(got) != want {
		t.Errorf("SVG differs from gonum's embedding SVG beyond the font rules (%d bytes against %d)", len(got), len(want))
	}
	if len(emb.Bytes()) < 5*len(got) {
		t.Errorf("embedding SVG %d bytes, ours %d: the fonts were expected to dominate", emb.Len(), len(got))
	}

	// An HTML page inlining the figure carries exactly the font rules gonum embeds.
	pg := Page{Title: "t", Figures: []Figure{{Name: "robustness", Caption: "c", Files: []string{path}}}}
	var page bytes.Buffer
	if err := pg.WriteHTML(&page); err != nil {
		t.Fatal(err)
	}
	rules := fontFace.FindAllString(emb.String(), -1)
	if len(rules) == 0 {
		t.Fatal("gonum's embedding SVG has no font rule")
	}
	for _, r := range rules {
		if strings.Count(page.String(), r) != 1 {
			t.Errorf("page has %d copies of the font rule %.60s…", strings.Count(page.String(), r), r)
		}
	}
	if n := strings.Count(page.String(), "@font-face"); n != len(rules) {
		t.Errorf("page has %d font rules, want %d", n, len(rules))
	}
}

// TestPNGAndPDFAsGonumDraws: SaveFigure's PNG and PDF are gonum's own, byte for byte (the SVG
// change left them alone): PNG at 300 dpi, PDF with the fonts embedded and the dates fixed.
func TestPNGAndPDFAsGonumDraws(t *testing.T) {
	ch := lineChart(t)
	w, h := ch.size()
	dir := t.TempDir()
	png := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(300))}
	fpdf.SetDefaultCreationDate(time.Unix(0, 0).UTC())
	fpdf.SetDefaultModificationDate(time.Unix(0, 0).UTC())
	pdf := vgpdf.New(w, h)
	ch.Draw(draw.New(png))
	ch.Draw(draw.New(pdf))
	var wantPNG, wantPDF bytes.Buffer
	if _, err := png.WriteTo(&wantPNG); err != nil {
		t.Fatal(err)
	}
	if _, err := pdf.WriteTo(&wantPDF); err != nil {
		t.Fatal(err)
	}
	for ext, want := range map[string][]byte{".png": wantPNG.Bytes(), ".pdf": wantPDF.Bytes()} {
		path := filepath.Join(dir, "robustness"+ext)
		if err := SaveFigure(ch, w, h, path); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes differ from gonum's %d", ext, len(got), len(want))
		}
	}
}

// BenchmarkSVGFigure draws the robustness line chart as SVG and reports its size (issue 50:
// under 100 KB).
func BenchmarkSVGFigure(b *testing.B) {
	ch := lineChart(b)
	w, h := ch.size()
	var n int
	for b.Loop() {
		c := newSVGCanvas(w, h)
		ch.Draw(draw.New(c))
		var buf bytes.Buffer
		if _, err := c.WriteTo(&buf); err != nil {
			b.Fatal(err)
		}
		n = buf.Len()
	}
	b.ReportMetric(float64(n), "B/figure")
}
