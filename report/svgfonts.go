package report

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"gonum.org/v1/plot/font/liberation"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// svgCanvas draws an SVG that names its fonts instead of embedding them: embedding the
// Liberation faces costs about 570 KB per figure, against about 30 KB for the drawing itself.
// Each Liberation family is followed by the families it was designed to match metric for
// metric (Liberation Sans: Arial and Helvetica), then a generic family, so a machine without
// Liberation lays the text out in the same widths the figure was computed with.
type svgCanvas struct {
	*vgsvg.Canvas
}

func newSVGCanvas(w, h vg.Length) svgCanvas {
	return svgCanvas{vgsvg.NewWith(vgsvg.UseWH(w, h), vgsvg.EmbedFonts(false))}
}

// WriteTo writes the SVG with every font family followed by its fallbacks.
func (c svgCanvas) WriteTo(w io.Writer) (int64, error) {
	var buf bytes.Buffer
	if _, err := c.Canvas.WriteTo(&buf); err != nil {
		return 0, err
	}
	n, err := w.Write(withFallbacks(buf.Bytes()))
	return int64(n), err
}

// svgFamily matches the family vgsvg writes in a text element's style attribute.
var svgFamily = regexp.MustCompile(`font-family:(Liberation (?:Sans|Serif|Mono));`)

// fallbacks are the metric-compatible families of each Liberation family, then the generic one.
var fallbacks = map[string]string{
	"Liberation Sans":  "Arial,Helvetica,sans-serif",
	"Liberation Serif": "'Times New Roman',Times,serif",
	"Liberation Mono":  "'Courier New',Courier,monospace",
}

func withFallbacks(svg []byte) []byte {
	return svgFamily.ReplaceAllFunc(svg, func(m []byte) []byte {
		family := string(svgFamily.FindSubmatch(m)[1])
		return []byte("font-family:'" + family + "'," + fallbacks[family] + ";")
	})
}

// svgFontDescr matches a text element's font description as newSVGCanvas writes it.
var svgFontDescr = regexp.MustCompile(`font-family:'([^']+)',[^;]*;font-variant:([^;]*);font-weight:([^;]*);font-style:([^;"]*)`)

// pageFontFaces returns the @font-face rules, with the font data, of the faces the SVGs
// name, each once, in the order first named: an HTML page that inlines the figures carries
// one copy of each face, so that it looks the same on every machine.
func pageFontFaces(svgs []string) []string {
	var rules []string
	seen := map[string]bool{}
	for _, svg := range svgs {
		for _, m := range svgFontDescr.FindAllStringSubmatch(svg, -1) {
			key := strings.Join(m[1:], ";")
			if seen[key] {
				continue
			}
			seen[key] = true
			if rule, ok := liberationFaces()[key]; ok {
				rules = append(rules, rule)
			}
		}
	}
	return rules
}

// liberationFaces maps the font description vgsvg writes for each face compiled into gonum
// plot (family;variant;weight;style) to the @font-face rule vgsvg embeds for it.
var liberationFaces = sync.OnceValue(func() map[string]string {
	faces := map[string]string{}
	for _, f := range liberation.Collection() {
		c := vgsvg.NewWith(vgsvg.UseWH(vg.Points(1), vg.Points(1)), vgsvg.EmbedFonts(true))
		c.FillString(f, vg.Point{}, "x")
		var buf bytes.Buffer
		if _, err := c.WriteTo(&buf); err != nil {
			panic(fmt.Errorf("report: render font %v: %w", f.Font, err)) // a bytes.Buffer does not fail
		}
		svg := string(withFallbacks(buf.Bytes()))
		m := svgFontDescr.FindStringSubmatch(svg)
		rule := fontFace.FindString(svg)
		if m == nil || rule == "" {
			panic(fmt.Sprintf("report: vgsvg wrote no font rule for %v", f.Font))
		}
		faces[strings.Join(m[1:], ";")] = rule
	}
	return faces
})
