package petbuild

import (
	"errors"
	"strings"
	"testing"
)

func flag(key string) string { return "--" + strings.ReplaceAll(key, "_", "-") }

func TestFitSpecOptions(t *testing.T) {
	for _, c := range []struct {
		spec FitSpec
		err  string // "" for none
	}{
		{FitSpec{Binning: "width:2", MinSamples: 5, FillFrom: []string{"a=b"}, Merge: 2, Crop: "0.01:0.99"}, ""},
		{FitSpec{Binning: "nope"}, "binning"},
		{FitSpec{Binning: "fd", MinSamples: -1}, "--min-samples -1: a cell cannot have fewer than 0 samples"},
		{FitSpec{Binning: "fd", Merge: -2}, "--merge -2: want a factor of 2 or more (0 or 1 merges nothing)"},
		{FitSpec{Binning: "fd", FillFrom: []string{"a"}}, `--fill-from "a": want MACHINE_TYPE=DONOR_TYPE`},
		{FitSpec{Binning: "fd", Crop: "0.9:0.1"}, `--crop "0.9:0.1": want LOW:HIGH quantiles with 0 ≤ LOW < HIGH ≤ 1`},
	} {
		opt, err := c.spec.Options(flag)
		if c.err == "" {
			if err != nil {
				t.Errorf("%+v: %v", c.spec, err)
				continue
			}
			want := FitOptions{Binning: Binning{Width: 2}, MinSamples: 5, FillFrom: map[string]string{"a": "b"},
				Compaction: Compaction{Merge: 2, CropLow: 0.01, CropHigh: 0.99}}
			if opt.Binning != want.Binning || opt.MinSamples != want.MinSamples || opt.FillFrom["a"] != "b" || opt.Compaction != want.Compaction {
				t.Errorf("%+v: options %+v, want %+v", c.spec, opt, want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%+v: error %v, want %q", c.spec, err, c.err)
		}
	}
}

// TestThinCellsHint: the thinnest cell has 3 samples, so a minimum of 3 fits them all; a cell of
// none can only be filled from a donor.
func TestThinCellsHint(t *testing.T) {
	thin := &ThinCellsError{Min: 30, Cells: []CellCount{{"a", "x", 7}, {"b", "x", 3}}}
	err := thin.Hint(flag)
	if !errors.Is(err, thin) || !strings.HasSuffix(err.Error(), "; give --min-samples 3 to fit them from what they have (a histogram of so few samples is rough), or --fill-from MACHINE=DONOR to take them from another machine type") {
		t.Errorf("3 samples at least: %v", err)
	}
	thin.Cells = append(thin.Cells, CellCount{"c", "y", 0})
	if err := thin.Hint(flag); !strings.HasSuffix(err.Error(), "; a cell without samples cannot be fitted: give --fill-from MACHINE=DONOR to take its task type's samples on another machine type") {
		t.Errorf("an empty cell: %v", err)
	}
}
