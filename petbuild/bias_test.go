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

// tiePET is a 2 × 2 PET in ms whose a×cpu (10 and 20 evenly: mean 15, sd 5) and a×gpu (20 and
// 30: mean 25, sd 5) are equally far from their samples, given as sample means and standard
// deviations of a×cpu then a×gpu; b's cells are point masses without sample statistics.
func tiePET(t *testing.T, sampleMean, sampleSD [2]float64) *PET {
	t.Helper()
	var cells []Cell
	for i, c := range []struct {
		origin float64
		w      []float64
	}{{10, []float64{1, 1}}, {20, []float64{1, 1}}, {30, []float64{1}}, {50, []float64{1}}} {
		d, _, err := pmf.FromWeights(c.origin, 10, c.w)
		if err != nil {
			t.Fatal(err)
		}
		var prov Provenance
		if i < 2 {
			prov = Provenance{SampleMean: sampleMean[i], SampleSD: sampleSD[i]}
		}
		cells = append(cells, Cell{PMF: d, Provenance: prov})
	}
	p, err := New([]string{"a", "b"}, []string{"cpu", "gpu"}, "ms", cells)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBiasTies: of cells equally far off the first wins, for the mean and the spread alike.
// Means 15 against 7.5 and 25 against 12.5 are both +100%; sds 5 against 2.5 both +100%.
func TestBiasTies(t *testing.T) {
	b := tiePET(t, [2]float64{7.5, 12.5}, [2]float64{2.5, 2.5}).Bias()
	if b.Mean.MachineType != "cpu" || b.MeanBias != 1 {
		t.Errorf("mean: %s×%s %v, want a×cpu 1 (the first of equals)", b.Mean.TaskType, b.Mean.MachineType, b.MeanBias)
	}
	if b.Spread.MachineType != "cpu" || b.SpreadBias != 1 {
		t.Errorf("spread: %s×%s %v, want a×cpu 1 (the first of equals)", b.Spread.TaskType, b.Spread.MachineType, b.SpreadBias)
	}
}

// TestBiasNoSampleSD: cells with a spread but no sample standard deviation (0: unknown) have
// no spread bias, rather than an infinite one.
func TestBiasNoSampleSD(t *testing.T) {
	b := tiePET(t, [2]float64{15, 25}, [2]float64{0, 0}).Bias()
	if b.SpreadBias != 0 || b.Spread.TaskType != "" || b.MeanBias != 0 {
		t.Errorf("no sample sd: spread %s×%s %v, mean bias %v; want no cell, 0, 0", b.Spread.TaskType, b.Spread.MachineType, b.SpreadBias, b.MeanBias)
	}
}

// TestBiasOffBoundary: exactly the tolerance is not "further than" it (1% for the mean, 10%
// for the spread); just over is.
func TestBiasOffBoundary(t *testing.T) {
	for _, c := range []struct {
		b              Bias
		meanOff, sdOff bool
	}{
		{Bias{MeanBias: 0.01, SpreadBias: 0.1}, false, false},
		{Bias{MeanBias: -0.01, SpreadBias: -0.1}, false, false},
		{Bias{MeanBias: 0.0101, SpreadBias: -0.101}, true, true},
	} {
		if c.b.MeanOff() != c.meanOff || c.b.SpreadOff() != c.sdOff {
			t.Errorf("mean bias %v, spread bias %v: MeanOff %v SpreadOff %v, want %v %v", c.b.MeanBias, c.b.SpreadBias, c.b.MeanOff(), c.b.SpreadOff(), c.meanOff, c.sdOff)
		}
	}
}
