package report

import (
	"strings"
	"testing"
)

// TestRoundTicks checks labels worked out by hand: steps of 1, 2 or 5 × 10^k, no more decimals
// than the step needs, in the axis's SI unit.
func TestRoundTicks(t *testing.T) {
	for _, c := range []struct {
		min, max, scale float64
		want            string
	}{
		// Step 2 would give three labels (8 10 12): step 1. The energy axis that showed 7, 10, 13.
		{6.5, 13.4, 1, "7 8 9 10 11 12 13"},
		// In µ: step 0.5 gives three labels, 0.2 seven.
		{1.2e-6, 2.5e-6, 1e-6, "1.2 1.4 1.6 1.8 2.0 2.2 2.4"},
		// Step 50 gives three, 20 six.
		{0, 100, 1, "0 20 40 60 80 100"},
		// Negative to positive: no "-0".
		{-0.3, 0.3, 1, "-0.3 -0.2 -0.1 0.0 0.1 0.2 0.3"},
		// In k: step 2000 gives two, 1000 five.
		{1000, 5000, 1000, "1 2 3 4 5"},
	} {
		var labels []string
		for _, tk := range (roundTicks{scale: c.scale}).Ticks(c.min, c.max) {
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if got := strings.Join(labels, " "); got != c.want {
			t.Errorf("Ticks(%g, %g) in units of %g: %q, want %q", c.min, c.max, c.scale, got, c.want)
		}
	}
}

func TestSIScale(t *testing.T) {
	for _, c := range []struct {
		x      float64
		scale  float64
		prefix string
	}{
		{2.4e-6, 1e-6, "µ"}, {0.5, 1, ""}, {0.01, 1, ""}, {0.009, 1e-3, "m"}, {13, 1, ""}, {25000, 1e3, "k"}, {3e7, 1e6, "M"}, {0, 1, ""},
	} {
		if s, p := siScale(c.x); s != c.scale || p != c.prefix {
			t.Errorf("siScale(%g) = %g %q, want %g %q", c.x, s, p, c.scale, c.prefix)
		}
	}
}

// TestCostAxis: a cost per on-time task of a few millionths of a dollar is drawn in µ$ with
// round labels, not as "2.4e-06" on an axis without a unit.
func TestCostAxis(t *testing.T) {
	var rows []RunRow
	for i, c := range []float64{1.3e-6, 2.4e-6, 1.9e-6} {
		rows = append(rows, RunRow{Key: "k" + string(rune('a'+i)), Point: "p", Heuristic: "MM", Name: "MM", Level: "19k",
			Trial: int32(i + 1), Robustness: 50, CostPerOnTime: c, EnergyPerOnTime: 7 + float64(i)*3})
	}
	agg, err := AggregateRuns(rows, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		metric, label, unit, want string
	}{{"cost_per_on_time", "cost per on-time task", "$", "cost per on-time task (µ$)"}, {"energy_per_on_time", "energy per on-time task", "J", "energy per on-time task (J)"}} {
		ch := perOnTimeFigure(agg, c.metric, c.label, c.unit)
		p := ch.panels[0]
		if p.Y.Label.Text != c.want {
			t.Errorf("y axis %q, want %q", p.Y.Label.Text, c.want)
		}
		for _, tk := range p.Y.Tick.Marker.Ticks(p.Y.Min, p.Y.Max) {
			if strings.ContainsAny(tk.Label, "e") {
				t.Errorf("%s: tick label %q", c.metric, tk.Label)
			}
		}
	}
}
