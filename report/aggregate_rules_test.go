package report

import (
	"fmt"
	"testing"
)

// TestBaselineCloseLambdas: options are compared with every digit they have, so λ = 0.5 and
// λ = 0.52 are two grid points, and MM-P at each λ pairs with the MM run of its own λ (as
// TestBaselineSameLambda's 0.5 and 1 do): rounded to one digit both would read 0.5, and MM-P
// would have two candidate baselines.
func TestBaselineCloseLambdas(t *testing.T) {
	var rows []RunRow
	for _, pr := range []string{"none", "both"} {
		for _, l := range []float64{0.5, 0.52} {
			for trial := int32(1); trial <= 2; trial++ {
				name := map[string]string{"none": "MM", "both": "MM-P"}[pr]
				rows = append(rows, RunRow{Point: fmt.Sprint(name, l), Heuristic: "MM", Prune: pr, Name: name, Level: "a",
					Trial: trial, Toggle: "threshold:1", Lambda: l, DropThreshold: 0.5, Defer: "gap:0.25",
					Robustness: float64(trial) + l*10})
			}
		}
	}
	a, err := AggregateRuns(rows, "MM")
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Groups) != 4 {
		t.Fatalf("%d groups, want 4", len(a.Groups))
	}
	for _, g := range a.Groups {
		if want := fmt.Sprint("MM", g.Run().Lambda); g.Baseline != want {
			t.Errorf("%s: baseline %q, want %q", g.Point, g.Baseline, want)
		}
	}
}
