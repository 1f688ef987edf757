package presets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDrawCopiesReportFigure checks the case that needs no plotting: a figure of a report kind
// over all the runs is the report's file of that kind, copied byte for byte under the paper's
// name in every format; a report without that figure is an error naming the kind.
func TestDrawCopiesReportFigure(t *testing.T) {
	reportDir, out := t.TempDir(), t.TempDir()
	for _, ext := range FigureFormats() {
		if err := os.WriteFile(filepath.Join(reportDir, "robustness."+ext), []byte("figure "+ext), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f := Figure{File: "fig4-robustness", Kind: "robustness"}
	if err := f.Draw(nil, false, reportDir, out); err != nil {
		t.Fatal(err)
	}
	for _, ext := range FigureFormats() {
		got, err := os.ReadFile(filepath.Join(out, "fig4-robustness."+ext))
		if err != nil || string(got) != "figure "+ext {
			t.Errorf("%s: %q, %v; want the report's bytes", ext, got, err)
		}
	}
	err := Figure{File: "fig5", Kind: "toggle"}.Draw(nil, false, reportDir, out)
	if err == nil || !strings.HasPrefix(err.Error(), "the report has no toggle figure: copy toggle.svg to ") {
		t.Errorf("missing figure: %v", err)
	}
}
