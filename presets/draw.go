package presets

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
	"github.com/hcreplay/hcreplay/report"
)

// Draw writes the figure as out/File.svg and .png (FigureFormats): the report's own figure of
// its kind, copied from reportDir, when it shows every run of the experiment; else (subset, or
// bars) redrawn from a, the runs it shows.
func (f Figure) Draw(a *report.Aggregate, subset bool, reportDir, out string) error {
	switch {
	case f.Kind != "" && !subset:
		for _, ext := range FigureFormats() {
			if err := atomicfile.Copy(os.DirFS(reportDir), f.Kind+"."+ext, filepath.Join(out, f.File+"."+ext)); err != nil {
				return fmt.Errorf("the report has no %s figure: %w", f.Kind, err)
			}
		}
		return nil
	case f.Kind != "":
		_, ok, err := report.WriteFigure(a, f.Kind, out, f.File, FigureFormats())
		if err == nil && !ok {
			err = fmt.Errorf("the runs do not vary what a %s figure shows", f.Kind)
		}
		return err
	}
	_, err := report.WriteBars(a, f.Bars, f.Metric, out, f.File, FigureFormats())
	return err
}
