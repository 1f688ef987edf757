package report

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// TestEstimateOf checks means, sample standard deviations and t intervals worked out by hand.
func TestEstimateOf(t *testing.T) {
	nan := math.NaN()
	cases := []struct {
		name                string
		xs                  []float64
		n, skipped          int
		mean, sd, half, tol float64
	}{
		// sd = √((1.5²+0.5²+0.5²+1.5²)/3) = √(5/3) = 1.29099; t(0.975, 3) = 3.18245;
		// half = 3.18245 × 1.29099 / √4 = 2.05426.
		{"1..4", []float64{1, 2, 3, 4}, 4, 0, 2.5, 1.29099, 2.05426, 1e-5},
		// One value: a mean, no spread, no interval.
		{"one", []float64{7}, 1, 0, 7, nan, nan, 0},
		// The NaN is left out and counted: {1, 3}: sd = √2; t(0.975, 1) = 12.7062;
		// half = 12.7062 × √2 / √2 = 12.7062.
		{"NaN skipped", []float64{1, nan, 3}, 2, 1, 2, math.Sqrt2, 12.7062, 1e-4},
		{"all NaN", []float64{nan, nan}, 0, 2, nan, nan, nan, 0},
		{"empty", nil, 0, 0, nan, nan, nan, 0},
		// Equal values: a zero-width interval, not NaN.
		{"constant", []float64{5, 5, 5}, 3, 0, 5, 0, 0, 0},
	}
	same := func(got, want, tol float64) bool {
		return math.IsNaN(got) && math.IsNaN(want) || near(got, want, tol)
	}
	for _, c := range cases {
		e := EstimateOf(c.xs)
		if e.N != c.n || e.Skipped != c.skipped || !same(e.Mean, c.mean, c.tol) || !same(e.SD, c.sd, c.tol) || !same(e.Half, c.half, c.tol) {
			t.Errorf("%s: got %+v, want n %d skipped %d mean %v sd %v half %v", c.name, e, c.n, c.skipped, c.mean, c.sd, c.half)
		}
	}
}

// handRuns builds a tiny sweep by hand: at level "a", MM, MM-P and PAM over four trials (PAM
// also ran a fifth), and at level "b" PAM alone. MM-P carries pruning options MM leaves at zero.
func handRuns() []RunRow {
	row := func(point, heuristic, prune, name, level string, rate float64, trial int32, rob, cost float64) RunRow {
		r := RunRow{Key: point + "/" + string('0'+rune(trial)), Point: point, Heuristic: heuristic, Prune: prune, Name: name,
			Level: level, LevelRate: rate, Trial: trial, QueueSize: 4, Engine: "fast", Robustness: rob, CostPerOnTime: cost}
		if prune == "both" {
			r.Toggle, r.Lambda, r.DropThreshold, r.Defer = "threshold:1", 1, 0.5, "gap:0.25"
		}
		return r
	}
	nan := math.NaN()
	var rows []RunRow
	for i, v := range []float64{1, 2, 3, 4} {
		rows = append(rows, row("mm-a", "MM", "none", "MM", "a", 0.2, int32(i+1), v, 10))
	}
	for i, v := range []float64{3, 5, 4, 8} {
		cost := 12.0
		if i == 1 {
			cost = nan // no task on time in that trial
		}
		rows = append(rows, row("mmp-a", "MM", "both", "MM-P", "a", 0.2, int32(i+1), v, cost))
	}
	// Trials out of order, and a fifth that MM did not run.
	for i, v := range []float64{5, 2, 2, 5, 90} {
		trial := []int32{4, 1, 2, 3, 5}[i]
		rows = append(rows, row("pam-a", "PAM", "none", "PAM", "a", 0.2, trial, v, 9))
	}
	rows = append(rows, row("pam-b", "PAM", "none", "PAM", "b", 0.1, 1, 50, 9))
	return rows
}

func groupOf(t *testing.T, a *Aggregate, point string) *Group {
	t.Helper()
	for _, g := range a.Groups {
		if g.Point == point {
			return g
		}
	}
	t.Fatalf("no group %s", point)
	return nil
}

// TestAggregateRuns checks grouping, order and the paired differences against MM by hand.
func TestAggregateRuns(t *testing.T) {
	a, err := AggregateRuns(handRuns(), "MM")
	if err != nil {
		t.Fatal(err)
	}
	// Level b has the lower rate, so it comes first; in level a the baseline leads.
	var order []string
	for _, g := range a.Groups {
		order = append(order, g.Point)
	}
	if strings.Join(order, " ") != "pam-b mm-a mmp-a pam-a" || strings.Join(a.Levels, " ") != "b a" {
		t.Errorf("groups %v, levels %v", order, a.Levels)
	}

	mmp := groupOf(t, a, "mmp-a")
	// MM-P robustness 3, 5, 4, 8: mean 5, sd √(14/3) = 2.16025, half 3.18245 × 2.16025 / 2 = 3.43743.
	if e := mmp.Stat("robustness"); e.N != 4 || !near(e.Mean, 5, 1e-12) || !near(e.SD, 2.16025, 1e-5) || !near(e.Half, 3.43743, 1e-5) {
		t.Errorf("MM-P robustness %+v", e)
	}
	// Cost per on-time task: the NaN trial is skipped and counted.
	if e := mmp.Stat("cost_per_on_time"); e.N != 3 || e.Skipped != 1 || e.Mean != 12 {
		t.Errorf("MM-P cost %+v", e)
	}
	// MM-P's pruning options differ from MM's zeros; it is paired with MM all the same.
	// Differences 3−1, 5−2, 4−3, 8−4 = 2, 3, 1, 4: mean 2.5, half 2.05426.
	if mmp.Baseline != "mm-a" {
		t.Fatalf("MM-P baseline %q", mmp.Baseline)
	}
	if d := mmp.Diff["robustness"]; d.N != 4 || !near(d.Mean, 2.5, 1e-12) || !near(d.Half, 2.05426, 1e-5) {
		t.Errorf("MM-P − MM %+v", d)
	}
	if d := mmp.Diff["cost_per_on_time"]; d.N != 3 || d.Skipped != 1 || d.Mean != 2 {
		t.Errorf("MM-P − MM cost %+v", d)
	}

	// PAM is paired by trial number, not by row order, and its fifth trial has no partner:
	// trials 1–4 are 2, 2, 5, 5 against 1, 2, 3, 4: differences 1, 0, 2, 1; mean 1,
	// sd √(2/3) = 0.816497, half 3.18245 × 0.816497 / 2 = 1.29923.
	pam := groupOf(t, a, "pam-a")
	if d := pam.Diff["robustness"]; d.N != 4 || !near(d.Mean, 1, 1e-12) || !near(d.SD, 0.816497, 1e-6) || !near(d.Half, 1.29923, 1e-5) {
		t.Errorf("PAM − MM %+v", d)
	}
	if e := pam.Stat("robustness"); e.N != 5 || !near(e.Mean, 20.8, 1e-12) {
		t.Errorf("PAM robustness %+v", e)
	}
	// No MM at level b: no difference rather than one against another level.
	if g := groupOf(t, a, "pam-b"); g.Diff != nil || g.Baseline != "" {
		t.Errorf("PAM at b paired with %q", g.Baseline)
	}
	// The baseline is its own baseline, with zero differences.
	if g := groupOf(t, a, "mm-a"); g.Baseline != "mm-a" || g.Diff["robustness"].Mean != 0 {
		t.Errorf("MM: baseline %q diff %+v", g.Baseline, g.Diff["robustness"])
	}

	if _, err := AggregateRuns(handRuns(), "EDF"); err == nil || !strings.Contains(err.Error(), "MM, MM-P, PAM") {
		t.Errorf("unknown baseline: %v", err)
	}
	if a, err := AggregateRuns(handRuns(), ""); err != nil || groupOf(t, a, "mmp-a").Diff != nil {
		t.Errorf("no baseline: %v", err)
	}
}

// TestBaselineByHeuristic: in a sweep of pruned variants only, --baseline MM means MM-P for
// PAM-P, as no group is named MM.
func TestBaselineByHeuristic(t *testing.T) {
	var rows []RunRow
	for _, h := range []string{"MM", "PAM"} {
		for _, pr := range []string{"defer", "both"} {
			for trial := int32(1); trial <= 2; trial++ {
				rows = append(rows, RunRow{Point: h + pr, Heuristic: h, Prune: pr, Name: h + "-" + pr, Level: "a",
					Trial: trial, Robustness: float64(len(h)*10 + len(pr) + int(trial))})
			}
		}
	}
	a, err := AggregateRuns(rows, "MM")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range a.Groups {
		want := "MM" + g.Run().Prune
		if g.Baseline != want {
			t.Errorf("%s: baseline %q, want %q", g.Point, g.Baseline, want)
		}
	}
	// PAM-both − MM-both = 30+4+t − (20+4+t) = 10.
	if d := groupOf(t, a, "PAMboth").Diff["robustness"]; d.Mean != 10 || d.Half != 0 {
		t.Errorf("difference %+v", d)
	}
}

func TestLevelOrder(t *testing.T) {
	nan := math.NaN()
	rows := []RunRow{{Level: "spiky"}, {Level: "10", LevelRate: nan}, {Level: "2"}, {Level: "34k", LevelRate: 0.4}, {Level: "19k", LevelRate: 0.2}}
	if got := strings.Join(levelOrder(rows), " "); got != "19k 34k 2 10 spiky" {
		t.Errorf("levels %s", got)
	}
}

// TestBaselineSameLambda: a sweep writes the pruning options into every row, unpruned ones
// too, so a λ axis splits MM into two identical groups; MM-P at each λ pairs with the MM row of
// that λ rather than giving up over two candidates.
func TestBaselineSameLambda(t *testing.T) {
	rows := lambdaRows(0.5, 1)
	a, err := AggregateRuns(rows, "MM")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range a.Groups {
		if want := fmt.Sprint("MM", g.Run().Lambda); g.Baseline != want {
			t.Errorf("%s: baseline %q, want %q", g.Point, g.Baseline, want)
		}
	}
	// λ does not apply to MM: it is not a varying option for the unpruned groups alone.
	var plain []*Group
	for _, g := range a.Groups {
		if g.Run().Prune == "none" {
			plain = append(plain, g)
		}
	}
	if v := varying(plain); len(v) != 0 {
		t.Errorf("varying among unpruned groups: %v", v[0].name)
	}
}

// lambdaRows is MM and MM-P at each λ of lambdas, two trials each, with the pruning options a
// sweep writes into every row, unpruned ones too: robustness trial + 10λ.
func lambdaRows(lambdas ...float64) []RunRow {
	var rows []RunRow
	for _, pr := range []string{"none", "both"} {
		for _, l := range lambdas {
			for trial := int32(1); trial <= 2; trial++ {
				name := map[string]string{"none": "MM", "both": "MM-P"}[pr]
				rows = append(rows, RunRow{Point: fmt.Sprint(name, l), Heuristic: "MM", Prune: pr, Name: name, Level: "a",
					Trial: trial, Toggle: "threshold:1", Lambda: l, DropThreshold: 0.5, Defer: "gap:0.25",
					Robustness: float64(trial) + l*10})
			}
		}
	}
	return rows
}

// TestAggregateFolders splits the hand-made runs over two run folders: the aggregate of the
// folders is that of all the rows, e.g. MM at level a has robustness mean (1+2+3+4)/4 = 2.5
// from the first folder's four trials, and PAM at b its one run (50) from the second.
func TestAggregateFolders(t *testing.T) {
	rows := handRuns()
	var dirs []string
	for _, part := range [][]RunRow{rows[:6], rows[6:]} {
		dir := t.TempDir()
		f, err := os.Create(filepath.Join(dir, RunsFile))
		if err != nil {
			t.Fatal(err)
		}
		if err := WriteRuns(f, part); err != nil {
			t.Fatal(err)
		}
		f.Close()
		dirs = append(dirs, dir)
	}
	a, err := AggregateFolders(dirs)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Groups) != 4 {
		t.Fatalf("%d groups, want 4 (mm-a, mmp-a, pam-a, pam-b)", len(a.Groups))
	}
	if g := groupOf(t, a, "mm-a"); len(g.Runs) != 4 || !near(g.Stats["robustness"].Mean, 2.5, 1e-12) {
		t.Errorf("mm-a: %d runs, mean robustness %v; want 4 and 2.5", len(g.Runs), g.Stats["robustness"].Mean)
	}
	if g := groupOf(t, a, "mmp-a"); len(g.Runs) != 4 { // trials 1-2 in the first folder, 3-4 in the second
		t.Errorf("mmp-a: %d runs, want 4 across the two folders", len(g.Runs))
	}
	if g := groupOf(t, a, "pam-b"); !near(g.Stats["robustness"].Mean, 50, 1e-12) {
		t.Errorf("pam-b: mean robustness %v, want 50", g.Stats["robustness"].Mean)
	}
	if _, err := AggregateFolders([]string{t.TempDir()}); err == nil {
		t.Error("a folder without runs.parquet aggregated")
	}
}
