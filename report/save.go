package report

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgpdf"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
)

// Drawer is anything that draws itself on a canvas: a *plot.Plot, or a grid of plots.
type Drawer interface {
	Draw(draw.Canvas)
}

// FormatError is SaveFigure's refusal of a path whose extension names no format it writes: the
// user's to fix, which a command tells from a failure to write.
type FormatError struct {
	Path, Ext string
}

func (e *FormatError) Error() string {
	return fmt.Sprintf("figure %s: unknown format %q: want .png, .svg or .pdf", e.Path, e.Ext)
}

// SaveFigure writes a figure of width × height to path, in the format its extension names:
// .png (300 dpi), .svg (fonts named, with their metric-compatible fallbacks, not embedded:
// see svgCanvas; an HTML page that inlines the SVG embeds them once) or .pdf
// (fonts embedded, creation date fixed so that the same figure gives the same bytes).
func SaveFigure(d Drawer, width, height vg.Length, path string) error {
	var c interface {
		vg.CanvasSizer
		io.WriterTo
	}
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(300))}
	case ".svg":
		c = newSVGCanvas(width, height)
	case ".pdf":
		fixPDFDates()
		c = vgpdf.New(width, height)
	default:
		return &FormatError{Path: path, Ext: ext}
	}
	d.Draw(draw.New(c))
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := c.WriteTo(w)
		return err
	})
}

// fixPDFDates sets fpdf's default creation and modification dates, package variables of fpdf
// that every new PDF reads, once for the process: WriteFigures draws figures concurrently, and
// setting them at each PDF was a data race (go test -race, TestFigureFormats).
var fixPDFDates = sync.OnceFunc(func() {
	fpdf.SetDefaultCreationDate(time.Unix(0, 0).UTC())
	fpdf.SetDefaultModificationDate(time.Unix(0, 0).UTC())
})
