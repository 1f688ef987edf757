package report

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// claimRows is a hand-made runs.parquet: per grid point (level, name, toggle) a value of metric
// for trials first, first+1, ...
func claimRows(level, name, toggle, metric string, first int32, values ...float64) []RunRow {
	h, variant, _ := strings.Cut(name, "-")
	prune := map[string]string{"": "none", "P": "both", "D": "defer", "Drop": "drop"}[variant]
	var rows []RunRow
	for i, v := range values {
		r := RunRow{Level: level, Name: name, Heuristic: h, Prune: prune, Toggle: toggle, Trial: first + int32(i),
			Point: level + "|" + name + "|" + toggle}
		switch metric {
		case "on_time":
			r.OnTime = int32(v)
		case "robustness":
			r.Robustness = v
		}
		rows = append(rows, r)
	}
	return rows
}

// TestEvaluateClaim checks each claim form on a hand-made runs.parquet against verdicts worked out by hand
// (t(2, 0.975) = 4.302653 for three trials; docs/presets.md states the rules).
func TestEvaluateClaim(t *testing.T) {
	var rows []RunRow
	add := func(r []RunRow) { rows = append(rows, r...) }
	// Ratio, paired: PAM-P [3 4 8] over MOC [1 2 3] at 34k. R = 5/2 = 2.5; d = a − 2.5 b =
	// [0.5 −1 0.5], s_d = √0.75 = 0.866025; half = 4.302653 · 0.866025 / (√3 · 2) = 1.075663:
	// [1.4243, 3.5757].
	add(claimRows("34k", "PAM-P", "", "on_time", 1, 3, 4, 8))
	add(claimRows("34k", "MOC", "", "on_time", 1, 1, 2, 3))
	// Ratio, unpaired (MM ran trials 4-6): MM [1 2 3] mean 2, s 1; PAM-P mean 5, s² = 7; R = 2.5.
	// Var R = (7/3 + 2.5² · 1/3) / 2² = 1.104167, half = 4.302653 · 1.050793 = 4.521196:
	// [−2.0212, 7.0212].
	add(claimRows("34k", "MM", "", "on_time", 4, 1, 2, 3))
	// Bound: MSD robustness [0.5 1 1.5] at 34k: mean 1, s 0.5, half = 4.302653 · 0.5/√3 =
	// 1.242068: [−0.2421, 2.2421].
	add(claimRows("34k", "MSD", "", "robustness", 1, 0.5, 1, 1.5))
	// Ordering at 15k: PAM-P 67 ± 2.4842, MOC 58 ± 2.4842, MM [47 58 60] = 55, s 7, ± 17.389.
	add(claimRows("15k", "PAM-P", "", "robustness", 1, 66, 67, 68))
	add(claimRows("15k", "MOC", "", "robustness", 1, 57, 58, 59))
	add(claimRows("15k", "MM", "", "robustness", 1, 47, 58, 60))
	// Trend at 19k, PAM-P along the toggle: never 34, threshold:0 43, threshold:1 39,
	// threshold:4 48 (each ± 2.4842), threshold:2 [30 45 60] = 45 ± 37.26.
	for toggle, base := range map[string]float64{"never": 34, "threshold:0": 43, "threshold:1": 39, "threshold:4": 48} {
		add(claimRows("19k", "PAM-P", toggle, "robustness", 1, base-1, base, base+1))
	}
	add(claimRows("19k", "PAM-P", "threshold:2", "robustness", 1, 30, 45, 60))
	// Through a runs.parquet, as the claims will be read.
	path := filepath.Join(t.TempDir(), RunsFile)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(WriteRuns(f, rows), f.Close()); err != nil {
		t.Fatal(err)
	}
	read, err := ReadRuns(path)
	if err != nil {
		t.Fatal(err)
	}
	a, err := AggregateRuns(read, "")
	if err != nil {
		t.Fatal(err)
	}
	pamP, moc, mm, msd := Selector{"name": {"PAM-P"}}, Selector{"name": {"MOC"}}, Selector{"name": {"MM"}}, Selector{"name": {"MSD"}}
	ratio := func(over Selector, value float64, bound string) Claim {
		return Claim{Form: FormRatio, Metric: "on_time", Level: "34k", Of: pamP, Over: over, Value: value, Bound: bound}
	}
	bound := func(b string, v float64) Claim {
		return Claim{Form: FormBound, Metric: "robustness", Level: "34k", Of: msd, Bound: b, Value: v}
	}
	order := func(s ...Selector) Claim {
		return Claim{Form: FormOrdering, Metric: "robustness", Level: "15k", Order: s}
	}
	trend := func(dir string, points ...string) Claim {
		return Claim{Form: FormTrend, Metric: "robustness", Level: "19k", Of: pamP, Axis: "toggle", Points: points, Direction: dir}
	}
	cases := []struct {
		name  string
		claim Claim
		want  Verdict
	}{
		{"ratio 1.75 inside [1.42, 3.58]", ratio(moc, 1.75, ""), Holds},
		{"ratio 4 above, ours all > 1", ratio(moc, 4, ""), ShapeHolds},
		{"ratio 0.8 below 1, ours above", ratio(moc, 0.8, ""), DoesNotHold},
		{"ratio at least 1.2: lo 1.42", ratio(moc, 1.2, AtLeast), Holds},
		{"ratio at least 2: mean 2.5, lo 1.42", ratio(moc, 2, AtLeast), ShapeHolds},
		{"ratio at least 3: mean 2.5", ratio(moc, 3, AtLeast), DoesNotHold},
		{"unpaired ratio 0.5 inside [−2.02, 7.02], and so is 1", ratio(mm, 0.5, ""), NotEvaluated},
		{"ratio 1.2 inside [1.42, 3.58]? no: below, 1 outside too", ratio(moc, 1.2, ""), ShapeHolds},
		{"unpaired ratio 8 above, ours reaches below 1", ratio(mm, 8, ""), DoesNotHold},
		{"bound ≤ 3: hi 2.24", bound(AtMost, 3), Holds},
		{"bound ≤ 1.5: mean 1, hi 2.24", bound(AtMost, 1.5), ShapeHolds},
		{"bound ≤ 0.9: mean 1", bound(AtMost, 0.9), DoesNotHold},
		{"bound ≥ −1: lo −0.24", bound(AtLeast, -1), Holds},
		{"ordering PAM-P > MOC: 64.52 > 60.48", order(pamP, moc), Holds},
		{"ordering PAM-P > MOC > MM: MOC and MM overlap", order(pamP, moc, mm), ShapeHolds},
		{"ordering MM > MOC: 55 < 58", order(mm, moc), DoesNotHold},
		{"trend never → 0 rises: 36.48 < 40.52", trend(Rises, "never", "threshold:0"), Holds},
		{"trend never → 1 → 0 rises", trend(Rises, "never", "threshold:1", "threshold:0"), Holds},
		{"trend never → 0 falls", trend(Falls, "never", "threshold:0"), DoesNotHold},
		{"trend never → 2 rises, overlapping", trend(Rises, "never", "threshold:2"), ShapeHolds},
		{"trend never → 4 → 1 rises, a clear step back (45.52 > 41.48)", trend(Rises, "never", "threshold:4", "threshold:1"), ShapeHolds},
		{"a level without runs", Claim{Form: FormBound, Metric: "robustness", Level: "9k", Of: msd, Bound: AtMost, Value: 1}, NotEvaluated},
		{"a heuristic without runs", ratio(Selector{"name": {"MCT"}}, 2, ""), NotEvaluated},
	}
	for _, c := range cases {
		got, err := EvaluateClaim(a, c.claim)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got.Verdict != c.want {
			t.Errorf("%s: %s (%s; ours %s), want %s", c.name, got.Verdict, got.Why, got.Ours, c.want)
		}
	}
	// The intervals themselves, against the hand computation above.
	for _, c := range []struct {
		over       *Group
		mean, half float64
	}{{find(t, a, "34k", "MOC"), 2.5, 1.075663}, {find(t, a, "34k", "MM"), 2.5, 4.521196}} {
		m, h, err := RatioInterval(find(t, a, "34k", "PAM-P"), c.over, "on_time")
		if err != nil || math.Abs(m-c.mean) > 1e-9 || math.Abs(h-c.half) > 1e-5 {
			t.Errorf("ratio over %s: %g ± %g (%v), want %g ± %g", c.over.Point, m, h, err, c.mean, c.half)
		}
	}
	// A selector that matches several grid points is the preset's mistake, not a verdict.
	if _, err := EvaluateClaim(a, Claim{Form: FormBound, Metric: "robustness", Level: "19k", Of: pamP, Bound: AtMost, Value: 1}); err == nil {
		t.Error("a selector matching five toggles gave a verdict")
	}
}

func find(t *testing.T, a *Aggregate, level, name string) *Group {
	t.Helper()
	for _, g := range a.Groups {
		if r := g.Run(); r.Level == level && r.Name == name {
			return g
		}
	}
	t.Fatalf("no group %s at %s", name, level)
	return nil
}

// TestClaimsSectionPages checks the pages' claims section on a hand-made case: a ratio and an
// ordering checked on three paired trials (t(2, 0.975) = 4.302653). A [30 10 32] over B
// [10 20 30] is R = 1.2, d = a − 1.2·b = [18 −14 −4], s_d = √268 = 16.371, half = 4.302653 ·
// 16.371 / (√3 · 20) = 2.033: [−0.833, 3.23] holds the paper's 1.19 and 1, so not evaluated.
// A (24) above B (20) in order, A's interval ± 4.302653 · √148 / √3 = ± 30.2 reaching B's: shape holds.
func TestClaimsSectionPages(t *testing.T) {
	var rows []RunRow
	rows = append(rows, claimRows("x", "A", "", "on_time", 1, 30, 10, 32)...)
	rows = append(rows, claimRows("x", "B", "", "on_time", 1, 10, 20, 30)...)
	a, err := AggregateRuns(rows, "")
	if err != nil {
		t.Fatal(err)
	}
	sA, sB := Selector{"name": {"A"}}, Selector{"name": {"B"}}
	var sec ClaimSection
	sec.Title = "under the preset's semantics"
	for i, c := range []Claim{
		{Form: FormRatio, Metric: "on_time", Level: "x", Of: sA, Over: sB, Value: 1.19},
		{Form: FormOrdering, Metric: "on_time", Level: "x", Order: []Selector{sA, sB}},
	} {
		res, err := EvaluateClaim(a, c)
		if err != nil {
			t.Fatal(err)
		}
		sec.Rows = append(sec.Rows, ClaimRow{ID: fmt.Sprintf("fig1/%d", i+1), Wording: "A <beats> B", Section: "Doe 2024 §5",
			Form: c.Form, Metric: c.Metric, Level: c.Level, ClaimResult: res})
	}
	pg := Page{Title: "r", Table: SummaryTable(a), Claims: []ClaimSection{sec}}
	var h, m bytes.Buffer
	if err := pg.WriteHTML(&h); err != nil {
		t.Fatal(err)
	}
	if err := pg.WriteMarkdown(&m); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<h2 id="claims">The paper&#39;s claims, checked</h2>`, "<h3>under the preset&#39;s semantics</h3>",
		"<td><code>fig1/1</code></td><td>A &lt;beats&gt; B (Doe 2024 §5)</td><td>on_time, x</td><td>1.19</td><td>1.2 [-0.833, 3.23]</td><td><strong>not evaluated</strong>",
		"<td>name=A &gt; name=B</td><td>name=A 24 [-6.22, 54.2]; name=B 20 [-4.84, 44.8]</td><td><strong>shape holds</strong>",
		"<li>ratio: holds when the paper&#39;s value lies in our 95% interval of the ratio and 1 does not; not evaluated when the interval holds both",
		"<li>ordering: holds when every mean is above the next",
	} {
		if !strings.Contains(h.String(), want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	for _, want := range []string{"## The paper's claims, checked", "### Under the preset's semantics",
		"| `fig1/1` | A <beats> B (Doe 2024 §5) | on_time, x | 1.19 | 1.2 [-0.833, 3.23] | **not evaluated**: "} {
		if !strings.Contains(m.String(), want) {
			t.Errorf("index.md lacks %q:\n%s", want, m.String())
		}
	}
}
