package report

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// roundTicks marks a linear axis at round steps, 1, 2 or 5 × 10^k, four to ten of them,
// labelled in units of scale with as many decimals as the step needs and no more: "8 10 12",
// or "1.2 1.6 2 2.4" for a cost axis in µ$. gonum's default ticks gave 7, 10, 13 on an energy
// axis and "2.4e-06" on a cost axis.
type roundTicks struct {
	scale float64 // a label is value / scale; 1e-6 for µ
}

func (t roundTicks) Ticks(min, max float64) []plot.Tick {
	scale := t.scale
	if !(scale > 0) {
		scale = 1
	}
	if !(max > min) || math.IsInf(max-min, 0) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	step := roundStep(min, max)
	decimals := max0(-int(math.Floor(math.Log10(step/scale) + 1e-9)))
	var ticks []plot.Tick
	for k := math.Ceil(min/step - 1e-9); k*step <= max+step*1e-9; k++ {
		v := k * step
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v/scale+0, 'f', decimals, 64)})
		if half := v + step/2; half <= max {
			ticks = append(ticks, plot.Tick{Value: half}) // a minor tick between labels
		}
	}
	for i := range ticks {
		if ticks[i].Label == "-0" || ticks[i].Label == "-0.0" {
			ticks[i].Label = ticks[i].Label[1:]
		}
	}
	return ticks
}

// roundStep is the largest step of 1, 2 or 5 × 10^k that puts at least four ticks in
// [min, max]; the next larger one put fewer, so there are at most ten.
func roundStep(min, max float64) float64 {
	e := math.Pow(10, math.Ceil(math.Log10(max-min)))
	for range 40 {
		for _, m := range []float64{5, 2, 1} {
			step := m * e
			if math.Floor(max/step+1e-9)-math.Ceil(min/step-1e-9)+1 >= 4 {
				return step
			}
		}
		e /= 10
	}
	return e
}

func max0(n int) int {
	if n < 0 {
		return 0
	}
	return n
}

// siScale is the power of 1000 and its prefix that bring x (the largest value an axis shows)
// to between 1 and 1000 when it is outside [0.01, 10,000): 2.4e-6 $ is shown as 2.4 µ$.
func siScale(x float64) (float64, string) {
	x = math.Abs(x)
	if x == 0 || math.IsNaN(x) || math.IsInf(x, 0) || (x >= 1e-2 && x < 1e4) {
		return 1, ""
	}
	e := int(math.Floor(math.Log10(x)/3)) * 3
	e = min(9, max(-9, e))
	prefix := map[int]string{-9: "n", -6: "µ", -3: "m", 0: "", 3: "k", 6: "M", 9: "G"}[e]
	return math.Pow(10, float64(e)), prefix
}
