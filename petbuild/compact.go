package petbuild

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/hcreplay/hcreplay/pmf"
)

// Compaction makes a PET cheaper to convolve (000 §7.2.1, Fig 6). The zero value changes
// nothing. The steps run in this order: crop, merge, cap. Cropping first removes the far tails,
// so the cap then needs a smaller merge factor and loses less resolution.
type Compaction struct {
	// CropLow and CropHigh are quantiles: the mass below the CropLow quantile and above the
	// CropHigh quantile is folded into the end impulses (pmf.Crop), and the folded mass is
	// added to each cell's Provenance.CutMass. CropHigh 0 means 1 (no upper crop).
	CropLow, CropHigh float64
	// Merge multiplies the common step by this factor (pmf.Merge): impulses move to the
	// nearest point of the coarser grid, so the mean moves by at most half a coarse step but
	// the fitted upper-edge convention is given up (some mass moves earlier). 0 or 1 means no
	// merge.
	Merge int
	// MaxImpulses caps the number of impulses per cell (at least 2). The step must stay
	// common, so every cell is merged with the smallest factor that brings the widest cell
	// within the cap. 0 means no cap.
	MaxImpulses int
}

func (c Compaction) isZero() bool {
	return c.CropLow == 0 && (c.CropHigh == 0 || c.CropHigh == 1) && c.Merge <= 1 && c.MaxImpulses == 0
}

func (c Compaction) check() error {
	hi := c.cropHigh()
	switch {
	case !(c.CropLow >= 0 && c.CropLow < 1):
		return fmt.Errorf("compaction: crop low quantile %v is not in [0, 1)", c.CropLow)
	case !(hi > c.CropLow && hi <= 1):
		return fmt.Errorf("compaction: crop high quantile %v is not in (%v, 1]", hi, c.CropLow)
	case c.Merge < 0:
		return fmt.Errorf("compaction: merge factor %d is negative", c.Merge)
	case c.MaxImpulses < 0 || c.MaxImpulses == 1:
		return fmt.Errorf("compaction: impulse cap %d must be 0 (none) or at least 2", c.MaxImpulses)
	}
	return nil
}

func (c Compaction) cropHigh() float64 {
	if c.CropHigh == 0 {
		return 1
	}
	return c.CropHigh
}

// Compact applies the compaction to every cell and records it in the provenance. The result
// keeps one common step and every origin a whole number of steps.
func Compact(p *PET, c Compaction) (*PET, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	if c.isZero() {
		return p, nil
	}
	cells := p.Cells()
	var notes string
	if c.CropLow > 0 || c.cropHigh() < 1 {
		if err := cropCells(cells, c.CropLow, c.cropHigh()); err != nil {
			return nil, err
		}
		notes += fmt.Sprintf("; tails cropped at quantiles [%g, %g]", c.CropLow, c.cropHigh())
	}
	step := p.step
	if c.Merge > 1 {
		mergeCells(cells, c.Merge)
		step *= float64(c.Merge)
		notes += fmt.Sprintf("; merged ×%d to step %s", c.Merge, num(step))
	}
	if c.MaxImpulses > 0 {
		if f := capFactor(cells, c.MaxImpulses); f > 1 {
			mergeCells(cells, f)
			step *= float64(f)
			notes += fmt.Sprintf("; capped at %d impulses: merged ×%d to step %s", c.MaxImpulses, f, num(step))
		}
	}
	for i := range cells {
		cells[i].Provenance.Binning += notes
	}
	out, err := New(p.taskTypes, p.machineTypes, p.timeUnit, cells)
	if err != nil {
		return nil, fmt.Errorf("compact: %w", err)
	}
	return out, nil
}

func cropCells(cells []Cell, qlo, qhi float64) error {
	for i := range cells {
		d := cells[i].PMF
		lo, hi := d.Min(), d.Max()
		if qlo > 0 {
			lo = d.Quantile(qlo)
		}
		if qhi < 1 {
			hi = d.Quantile(qhi)
		}
		cut := d.CDFStrict(lo) + (1 - d.CDF(hi))
		cropped, err := d.Crop(lo, hi)
		if err != nil {
			return fmt.Errorf("compact: crop cell %d: %w", i, err)
		}
		cells[i].PMF = cropped
		cells[i].Provenance.CutMass += math.Max(0, cut)
	}
	return nil
}

func mergeCells(cells []Cell, factor int) {
	for i := range cells {
		cells[i].PMF = cells[i].PMF.Merge(factor)
	}
}

// capFactor is the smallest merge factor that leaves every cell with at most n impulses.
// pmf.CapImpulses finds it per cell; the largest of those is tried first and raised until it
// works for all cells (a larger factor can, through rounding, leave one more impulse).
func capFactor(cells []Cell, n int) int {
	f := 1
	for _, c := range cells {
		capped := c.PMF.CapImpulses(n)
		f = max(f, int(math.Round(capped.Step()/c.PMF.Step())))
	}
	for ; !allWithin(cells, f, n); f++ {
	}
	return f
}

func allWithin(cells []Cell, f, n int) bool {
	for _, c := range cells {
		if mergedLen(c.PMF, f) > n {
			return false
		}
	}
	return true
}

func mergedLen(d pmf.PMF, f int) int { return d.Merge(f).Len() }

// ParseCrop parses the CLI form of the crop quantiles, "LOW:HIGH" (0.001:0.999), with
// 0 ≤ LOW < HIGH ≤ 1, for Compaction.CropLow and CropHigh.
func ParseCrop(s string) (low, high float64, err error) {
	if _, err := fmt.Sscanf(strings.Replace(s, ":", " ", 1), "%g %g", &low, &high); err != nil || low < 0 || high > 1 || low >= high {
		return 0, 0, errors.New("want LOW:HIGH quantiles with 0 ≤ LOW < HIGH ≤ 1")
	}
	return low, high, nil
}

// ParseFillFrom parses the CLI form of FitOptions.FillFrom: one MACHINE_TYPE=DONOR_TYPE per
// entry, both names non-empty; a later entry for one machine type replaces an earlier one.
func ParseFillFrom(pairs []string) (map[string]string, error) {
	fill := map[string]string{}
	for _, kv := range pairs {
		a, b, ok := strings.Cut(kv, "=")
		if !ok || a == "" || b == "" {
			return nil, fmt.Errorf("%q: want MACHINE_TYPE=DONOR_TYPE", kv)
		}
		fill[a] = b
	}
	return fill, nil
}
