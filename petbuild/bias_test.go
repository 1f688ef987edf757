package petbuild

import (
	"math"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// biasPET is a 2 × 2 PET in ms whose cells' PMF means and spreads are known by hand, with the
// sample statistics given.
func biasPET(t *testing.T, sampleMean, sampleSD [4]float64) *PET {
	t.Helper()
	weights := [4][]float64{{1}, {1}, {1, 1}, {1}} // b×cpu: 30 and 40 evenly, mean 35, sd 5
	origins := [4]float64{10, 20, 30, 50}
	var cells []Cell
	for i := range 4 {
		d, _, err := pmf.FromWeights(origins[i], 10, weights[i])
		if err != nil {
			t.Fatal(err)
		}
		cells = append(cells, Cell{PMF: d, Provenance: Provenance{SampleMean: sampleMean[i], SampleSD: sampleSD[i]}})
	}
	p, err := New([]string{"a", "b"}, []string{"cpu", "gpu"}, "ms", cells)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBias(t *testing.T) {
	// a×gpu: mean 20 against 19 samples' (+1/19); b×cpu: sd 5 against 4 (+25%), mean 35
	// against 35.2; b×gpu has no sample statistics and counts for nothing.
	p := biasPET(t, [4]float64{10, 19, 35.2, 0}, [4]float64{0, 0, 4, 0})
	b := p.Bias()
	if b.Mean.TaskType != "a" || b.Mean.MachineType != "gpu" || math.Abs(b.MeanBias-1.0/19) > 1e-12 {
		t.Errorf("mean: cell %s×%s bias %v; want a×gpu %v", b.Mean.TaskType, b.Mean.MachineType, b.MeanBias, 1.0/19)
	}
	if b.Spread.TaskType != "b" || b.Spread.MachineType != "cpu" || math.Abs(b.SpreadBias-0.25) > 1e-12 {
		t.Errorf("spread: cell %s×%s bias %v; want b×cpu 0.25", b.Spread.TaskType, b.Spread.MachineType, b.SpreadBias)
	}
	if !b.MeanOff() || !b.SpreadOff() {
		t.Errorf("MeanOff %v SpreadOff %v; want both", b.MeanOff(), b.SpreadOff())
	}

	// Within tolerance: means 0.5% off (under 1%), spread 5% off (under 10%).
	p = biasPET(t, [4]float64{10, 20 / 1.005, 35, 50}, [4]float64{0, 0, 5 / 1.05, 0})
	if b := p.Bias(); b.MeanOff() || b.SpreadOff() {
		t.Errorf("within tolerance: %+v reported off", b)
	}
	if s := (Summary{Mean: 5}); s.MeanBias() != 0 {
		t.Errorf("no sample mean: MeanBias %v, want 0", s.MeanBias())
	}
}
