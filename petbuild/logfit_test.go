package petbuild

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/trace"
)

// TestFitLogs: FitLogs counts the rows of every log and those under 1 ms, warns of the unit
// only when most are under 1 ms, fits the samples of all the logs together, and returns a read
// error as the reader gave it, ahead of the fit's.
func TestFitLogs(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, times ...float64) string {
		var b strings.Builder
		b.WriteString("task_type,machine_type,exec_time\n")
		for _, x := range times {
			fmt.Fprintf(&b, "a,m,%g\n", x)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	opt := FitOptions{Binning: Binning{Width: 1}, MinSamples: 1}
	read := trace.ReadOptions{Unit: trace.Millisecond}
	// 4 + 2 rows, 3 of them under 1 ms: half, not most, so no warning; one more makes 4 of 7.
	for _, c := range []struct {
		logs []string
		rows int
		sub  int
		warn bool
	}{
		{[]string{write("a.csv", 0.5, 0.2, 5, 6), write("b.csv", 0.9, 7)}, 6, 3, false},
		{[]string{write("c.csv", 0.5, 0.2, 5, 6), write("d.csv", 0.9, 0.1, 7)}, 7, 4, true},
		// Exactly 1 ms is not under 1 ms: of 1, 0.999 and 2, one is.
		{[]string{write("g.csv", 1, 0.999, 2)}, 3, 1, false},
	} {
		pet, st, err := FitLogs(t.Context(), c.logs, read, opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		if st.Rows != c.rows || st.SubMillisecond != c.sub || (st.UnitWarning() != "") != c.warn {
			t.Errorf("%v: stats %+v, warning %q; want %d rows, %d under 1 ms, a warning: %v", c.logs, st, st.UnitWarning(), c.rows, c.sub, c.warn)
		}
		if s := pet.Summaries()[0]; s.Samples != c.rows {
			t.Errorf("%v: the cell has %d samples, want %d", c.logs, s.Samples, c.rows)
		}
	}
	_, _, err := FitLogs(t.Context(), []string{write("e.csv", 5), filepath.Join(dir, "none.csv")}, read, FitOptions{MinSamples: 50}, nil)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing second log: error %v, want the reader's (not found), not the fit's thin cells", err)
	}
	var thin *ThinCellsError
	if _, _, err := FitLogs(t.Context(), []string{write("f.csv", 5)}, read, FitOptions{MinSamples: 50}, nil); !errors.As(err, &thin) {
		t.Errorf("one sample for 50: error %v, want thin cells", err)
	}
}

// TestSummaryNotes: each flag of a cell, worked out by hand from its fields.
func TestSummaryNotes(t *testing.T) {
	for _, c := range []struct {
		s    Summary
		want string
	}{
		{Summary{Mean: 10, Provenance: Provenance{SampleMean: 10.05}}, ""}, // −0.5%: within tolerance
		{Summary{Provenance: Provenance{Deficit: 0.002, CutMass: 0.01, FilledFrom: "gpu", SampleMean: 10}, Mean: 10.5},
			"renormalised (deficit 0.0020); cropped 0.0100; filled from gpu; mean +5.0% off the samples'"},
		{Summary{Mean: 9, Provenance: Provenance{SampleMean: 10}}, "mean -10.0% off the samples'"},
		// A deficit of 1e-9 either way is rounding, not renormalisation: the note starts past it.
		{Summary{Mean: 10, Provenance: Provenance{Deficit: 1e-9, SampleMean: 10}}, ""},
		{Summary{Mean: 10, Provenance: Provenance{Deficit: -1e-9, SampleMean: 10}}, ""},
		{Summary{Mean: 10, Provenance: Provenance{Deficit: -2e-9, SampleMean: 10}}, "renormalised (deficit -0.0000)"},
	} {
		if got := c.s.Notes(); got != c.want {
			t.Errorf("%+v: notes %q, want %q", c.s, got, c.want)
		}
	}
}
