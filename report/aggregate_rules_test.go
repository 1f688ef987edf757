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
	rows := lambdaRows(0.5, 0.52)
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

// TestGroupOrder: the groups of a level come in the order tables and figures show them: the
// baseline first, then by heuristic (natural order), by pruning variant in the thesis's order
// (none, defer, drop, both; a run with no variant recorded counts as none), then by the options
// that tell them apart, whatever their point names and labels say (PAM's are numbered against
// the thesis's order). The rows are given in reverse.
func TestGroupOrder(t *testing.T) {
	want := []struct {
		point, heuristic, prune, name string
		lambda                        float64
	}{
		{"z-mm", "MM", "none", "MM", 1},
		{"zz", "KPB", "none", "KPB", 1},
		{"m-a", "MET", "", "MET", 1},
		{"m-0", "MET", "both", "MET-P", 1},
		{"y1", "PAM", "none", "PAM-4", 1},
		{"y0", "PAM", "defer", "PAM-3", 1},
		{"x", "PAM", "drop", "PAM-2", 1},
		{"w2", "PAM", "both", "PAM-1", 0.5},
		{"w1", "PAM", "both", "PAM-1", 1},
	}
	var rows []RunRow
	for i := len(want) - 1; i >= 0; i-- {
		w := want[i]
		rows = append(rows, RunRow{Point: w.point, Heuristic: w.heuristic, Prune: w.prune, Name: w.name, Level: "a",
			Trial: 1, Toggle: "threshold:1", Lambda: w.lambda, DropThreshold: 0.5, Defer: "gap:0.25", Robustness: 50})
	}
	a, err := AggregateRuns(rows, "MM")
	if err != nil {
		t.Fatal(err)
	}
	var got, points []string
	for _, g := range a.Groups {
		got = append(got, g.Point)
	}
	for _, w := range want {
		points = append(points, w.point)
	}
	if fmt.Sprint(got) != fmt.Sprint(points) {
		t.Errorf("groups in order %v, want %v", got, points)
	}
}

// TestBaselineSameQueue: MM-P's baseline is the unpruned MM with the same options that are not
// about pruning: with MM at queue sizes 4 and 8, MM-P at queue 4 pairs with MM at queue 4
// (the third pass of baselineOf, after all options and all but the variant found none).
func TestBaselineSameQueue(t *testing.T) {
	var rows []RunRow
	for _, c := range []struct {
		point, prune, name string
		queue              int32
	}{{"mm4", "none", "MM", 4}, {"mm8", "none", "MM", 8}, {"mmp4", "both", "MM-P", 4}} {
		for trial := int32(1); trial <= 2; trial++ {
			r := RunRow{Point: c.point, Heuristic: "MM", Prune: c.prune, Name: c.name, Level: "a", QueueSize: c.queue,
				Trial: trial, Robustness: float64(trial)}
			if c.prune == "both" {
				r.Toggle, r.Lambda, r.DropThreshold, r.Defer = "threshold:1", 1, 0.5, "gap:0.25"
			}
			rows = append(rows, r)
		}
	}
	a, err := AggregateRuns(rows, "MM")
	if err != nil {
		t.Fatal(err)
	}
	if g := groupOf(t, a, "mmp4"); g.Baseline != "mm4" {
		t.Errorf("MM-P at queue 4: baseline %q, want mm4", g.Baseline)
	}
}
