package petbuild

import (
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// uniformPET is a 1 × len(cells) PET on the given step whose cell j is uniform over the grid
// indices cells[j][0] to cells[j][1], with provenance "test".
func uniformPET(t *testing.T, step float64, cells ...[2]int) *PET {
	t.Helper()
	var out []Cell
	var machines []string
	for j, c := range cells {
		w := make([]float64, c[1]-c[0]+1)
		for i := range w {
			w[i] = 1
		}
		d, _, err := pmf.FromWeights(float64(c[0])*step, step, w)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Cell{PMF: d, Provenance: Provenance{Binning: "test"}})
		machines = append(machines, string(rune('a'+j)))
	}
	p, err := New([]string{"t"}, machines, "ms", out)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCompactCapFactor: the cap's factor is the smallest that fits every cell, found by hand
// on a case where the largest of the cells' own factors does not. Merging moves index i to
// the nearest multiple of f, ties upward. With a cap of 2 impulses:
//
//	cell a on 1..5:  f=2: 2, 6 (3 points); f=3: 0, 6 (3); f=4: 0, 4 (2) → its own factor 4.
//	cell b on 5..10: f=2: 6, 10 (3); f=3: 6, 9 (2) → its own factor 3; but f=4: 4, 12 (3).
//	f=5: a on 0, 5 and b on 5, 10: 2 points each. The answer is 5.
//
// The grid step does not enter: on step 2 the factor is 5 too, the step 10.
func TestCompactCapFactor(t *testing.T) {
	for _, step := range []float64{1, 2} {
		p := uniformPET(t, step, [2]int{1, 5}, [2]int{5, 10})
		q, err := Compact(p, Compaction{MaxImpulses: 2})
		if err != nil {
			t.Fatal(err)
		}
		checkCells(t, q)
		if q.Step() != 5*step {
			t.Errorf("step %v: capped to step %v, want %v (factor 5)", step, q.Step(), 5*step)
		}
		for j := range 2 {
			if n := q.Cell(0, j).Len(); n != 2 {
				t.Errorf("step %v: cell %d has %d impulses, want 2", step, j, n)
			}
		}
		if b := q.Provenance(0, 0).Binning; !strings.Contains(b, "capped at 2 impulses: merged ×5") {
			t.Errorf("step %v: provenance %q lacks the cap's factor", step, b)
		}
	}
}

// TestCompactNoOps: the steps of a compaction that change nothing leave the cells and the
// provenance alone: a cap the cells are already within, a merge factor of 1 with a crop, a
// merge without a crop; the compactions that are no-ops altogether return the PET itself.
func TestCompactNoOps(t *testing.T) {
	p := uniformPET(t, 1, [2]int{1, 5}, [2]int{5, 10})
	for _, c := range []Compaction{{}, {CropHigh: 1}, {Merge: 1}, {CropHigh: 1, Merge: 1}} {
		if q, err := Compact(p, c); err != nil || q != p {
			t.Errorf("%+v: a compaction that changes nothing made a new PET (error %v)", c, err)
		}
	}
	// The widest cell has 6 impulses: a cap of 6 merges nothing.
	q, err := Compact(p, Compaction{MaxImpulses: 6})
	if err != nil {
		t.Fatal(err)
	}
	samePET(t, p, q, true)
	// CropLow 0.1 on uniform cells of 5 and 6 impulses (0.2 and 0.167 each) keeps every impulse.
	q, err = Compact(p, Compaction{CropLow: 0.1, Merge: 1})
	if err != nil {
		t.Fatal(err)
	}
	if q.Step() != 1 || strings.Contains(q.Provenance(0, 0).Binning, "merged") {
		t.Errorf("merge 1 merged: step %v, provenance %q", q.Step(), q.Provenance(0, 0).Binning)
	}
	if !strings.Contains(q.Provenance(0, 0).Binning, "cropped") {
		t.Errorf("the crop is not in the provenance: %q", q.Provenance(0, 0).Binning)
	}
	q, err = Compact(p, Compaction{Merge: 2})
	if err != nil {
		t.Fatal(err)
	}
	for j := range 2 {
		if pr := q.Provenance(0, j); strings.Contains(pr.Binning, "cropped") || pr.CutMass != 0 || !strings.Contains(pr.Binning, "merged ×2") {
			t.Errorf("merge alone: cell %d provenance %+v", j, pr)
		}
	}
}

// TestCompactCropLowKeepsTop: cropping the low tail only leaves the top impulse alone, even in a
// cell whose mass exceeds 1 (within pmf.MassTolerance) by more than that impulse: the running
// sum of 0.5, 0.5 + 5e-10 reaches 1 before the last impulse, 1e-10, so the upper end must not be
// read as the quantile 1.
func TestCompactCropLowKeepsTop(t *testing.T) {
	d, err := pmf.New(2, 1, []float64{0.5, 0.5 + 5e-10, 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	p, err := New([]string{"t"}, []string{"m"}, "ms", []Cell{{PMF: d}})
	if err != nil {
		t.Fatal(err)
	}
	q, err := Compact(p, Compaction{CropLow: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if c := q.Cell(0, 0); c.Len() != 3 || c.Max() != 4 || q.Provenance(0, 0).CutMass != 0 {
		t.Errorf("cropped to %v (cut mass %v), want the cell unchanged on 2..4", c, q.Provenance(0, 0).CutMass)
	}
}
