package replay

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// TestReliabilityTable checks Summary.Reliability against the outcomes themselves, binned here
// by hand: the scored mapped tasks in ten bins of predicted chance, their count, their on-time
// count and mean predicted chance, on a random replay of each drop model.
func TestReliabilityTable(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 6))
	for _, model := range []pmf.Model{pmf.Evict, pmf.Pending, pmf.None} {
		opt := DefaultOptions()
		opt.DropModel, opt.Trim = model, 5
		cfg := Config{PET: randomPET(r, 3, 2, 6, 20, 1), Machines: machinesOf(0, 1, 1), Tasks: randomTasks(r, 300, 3, 0.4, 5, 40), Options: opt}
		res := run(t, cfg, greedyBest)
		var n, on [10]int
		var sum [10]float64
		total := 0
		for _, o := range res.Outcomes {
			if !o.Scored || math.IsNaN(o.Predicted) {
				continue
			}
			b := int(math.Floor(o.Predicted * 10))
			if b == 10 {
				b = 9 // a chance of 1 is in the last bin, [0.9, 1]
			}
			n[b]++
			sum[b] += o.Predicted
			if o.Status == OnTime {
				on[b]++
			}
			total++
		}
		if total < 100 {
			t.Fatalf("%v: only %d scored mapped tasks", model, total)
		}
		rel := res.Summary.Reliability
		if len(rel) != 10 {
			t.Fatalf("%v: %d bins, want 10", model, len(rel))
		}
		for b, row := range rel {
			if row.Tasks != n[b] || row.OnTime != on[b] || math.Abs(row.BinLow-float64(b)/10) > 1e-15 {
				t.Errorf("%v bin %d: %+v, want %d tasks, %d on time", model, b, row, n[b], on[b])
			}
			if n[b] > 0 && (math.Abs(float64(row.Predicted)-sum[b]/float64(n[b])) > 1e-12 ||
				float64(row.Observed) != float64(on[b])/float64(n[b]) ||
				!(row.IntervalLow <= row.Observed && row.Observed <= row.IntervalHigh)) {
				t.Errorf("%v bin %d: %+v, want predicted mean %v, observed %v inside its interval", model, b, row, sum[b]/float64(n[b]), float64(on[b])/float64(n[b]))
			}
		}
	}
}

// TestWilson checks the interval against values computed by hand from Wilson's formula
// (z = 1.96): 5 of 10 gives 0.5 ± 0.2634; 0 of 10 gives [0, 0.2775]; 10 of 10 [0.7225, 1].
func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{{5, 10, 0.2366, 0.7634}, {0, 10, 0, 0.2775}, {10, 10, 0.7225, 1}} {
		lo, hi := wilson(c.k, c.n)
		if math.Abs(lo-c.lo) > 1e-4 || math.Abs(hi-c.hi) > 1e-4 {
			t.Errorf("wilson(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
}

// TestReliabilityBinFill: a bin's bounds, means and interval, by hand. Bin 3 is [0.3, 0.4);
// with 4 tasks, 3 on time, predicted chances summing to 1.4: predicted mean 0.35, observed 0.75,
// inside Wilson's interval. Empty, it has no mean, share or interval (Wilson's formula divides
// by the count): NaN.
func TestReliabilityBinFill(t *testing.T) {
	var b ReliabilityBin
	b.fill(3)
	if b.BinLow != 0.3 || b.BinHigh != 0.4 {
		t.Errorf("bin 3: [%v, %v), want [0.3, 0.4)", b.BinLow, b.BinHigh)
	}
	for name, x := range map[string]Num{"predicted": b.Predicted, "observed": b.Observed, "interval low": b.IntervalLow, "interval high": b.IntervalHigh} {
		if !math.IsNaN(float64(x)) {
			t.Errorf("empty bin: %s %v, want NaN", name, x)
		}
	}
	b = ReliabilityBin{Tasks: 4, OnTime: 3, PredictedSum: 1.4}
	b.fill(3)
	if math.Abs(float64(b.Predicted)-0.35) > 1e-15 || b.Observed != 0.75 || !(b.IntervalLow < 0.75 && 0.75 < b.IntervalHigh) {
		t.Errorf("4 tasks, 3 on time: %+v", b)
	}
}
