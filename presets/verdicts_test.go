package presets

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/report"
)

// TestThesisFig47Verdicts checks the claims of the thesis's Fig 4.7 on hand-made runs at 34k,
// with the verdicts worked out by hand (t(2, 0.975) = 4.302653, three trials).
func TestThesisFig47Verdicts(t *testing.T) {
	p, err := Load("thesis")
	if err != nil {
		t.Fatal(err)
	}
	var fig Figure
	for _, e := range p.Experiments {
		for _, f := range e.Figures {
			if f.File == "fig4.7-robustness-vs-level" {
				fig = f
			}
		}
	}
	var rows []report.RunRow
	add := func(name string, onTime [3]int32, rob [3]float64) {
		for i := range onTime {
			rows = append(rows, report.RunRow{Level: "34k", Name: name, Point: name, Trial: int32(i + 1), OnTime: onTime[i], Robustness: rob[i]})
		}
	}
	add("PAM-P", [3]int32{170, 175, 180}, [3]float64{30, 30, 30})
	add("MOC", [3]int32{100, 100, 100}, [3]float64{20, 20, 20})
	add("MM", [3]int32{90, 85, 80}, [3]float64{15, 15, 15})
	add("MSD", [3]int32{0, 0, 0}, [3]float64{0, 0, 0})
	add("MMU", [3]int32{0, 1, 2}, [3]float64{0, 1, 2})
	checked := checkVerdicts(t, fig, rows, []report.Verdict{
		// PAM-P ÷ MOC: R = 1.75, d = a − 1.75·100 = [−5 0 5], half = 4.302653 · 5 / (√3 · 100) = 0.124: [1.626, 1.874] ∋ 1.75.
		report.Holds,
		// PAM-P ÷ MM: R = 175/85 = 2.0588, d = [−15.29 0 15.29], half = 4.302653 · 15.29 / (√3 · 85) = 0.447: [1.61, 2.51] ∋ 2.
		report.Holds,
		// 175 > 100 > 85: MOC 100 ± 0 above MM's 85 + 4.302653 · 5/√3 = 97.4.
		report.Holds,
		// MSD 0 ± 0 ≤ 1.
		report.Holds,
		// MMU [0 1 2]: mean 1 ≤ 1, but 1 + 4.302653/√3 = 3.48 > 1.
		report.ShapeHolds,
	})
	var b strings.Builder
	if err := WriteMarkdown(&b, checked); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"PAM outperforms MOC by 75 %", "Gentry 2018 §4.4.6", "| 1.75 |", "**holds**", "**shape holds**", "≤ 1"} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("the table lacks %q:\n%s", s, b.String())
		}
	}
}

// TestBatch2010Verdicts checks the claims of Smith et al. 2010's Fig 1 on hand-made runs, with
// the verdicts worked out by hand (t(2, 0.975) = 4.302653, three trials paired by trial number).
// Its MOC ÷ MM claim is the case the rule of an interval holding both the paper's ratio and 1
// was written for: a --quick run had it "hold" with [−2.9, 10.7].
func TestBatch2010Verdicts(t *testing.T) {
	p, err := Load("batch2010")
	if err != nil {
		t.Fatal(err)
	}
	fig := p.Experiments[0].Figures[0]
	var rows []report.RunRow
	add := func(name string, onTime ...int32) {
		for i, v := range onTime {
			rows = append(rows, report.RunRow{Level: "poisson", Name: name, Heuristic: name, Prune: "none", Point: name, Trial: int32(i + 1), OnTime: v})
		}
	}
	add("MOC", 30, 10, 32)
	add("MM", 10, 20, 30)
	add("MMU", 15, 15, 15)
	add("MSD", 14, 14, 14)
	add("MCT", 1, 2, 3)
	checkVerdicts(t, fig, rows, []report.Verdict{
		// MOC ÷ MM: R = 24/20 = 1.2, d = a − 1.2·b = [18 −14 −4], s_d = √268 = 16.371,
		// half = 4.302653 · 16.371 / (√3 · 20) = 2.033: [−0.83, 3.23] holds 1.19 and 1.
		report.NotEvaluated,
		// MM ÷ MCT: R = 20/2 = 10, d = a − 10·b = [0 0 0], half 0: [10, 10]; 11.75 outside, 10 > 1.
		report.ShapeHolds,
		// 24 > 20 > 15 > 14 > 2, but MOC's interval 24 ± 4.302653 · √148/√3 = ± 30.2 reaches MM's 20.
		report.ShapeHolds,
	})
}

// checkVerdicts checks the figure's claims on rows against the verdicts worked out by hand, in
// the order of the claims, and returns them checked.
func checkVerdicts(t *testing.T, fig Figure, rows []report.RunRow, want []report.Verdict) []Checked {
	t.Helper()
	a, err := report.AggregateRuns(rows, "")
	if err != nil {
		t.Fatal(err)
	}
	checked, err := fig.Evaluate(a)
	if err != nil {
		t.Fatal(err)
	}
	if len(checked) != len(want) {
		t.Fatalf("%d claims, want %d", len(checked), len(want))
	}
	for i, c := range checked {
		if c.Verdict != want[i] {
			t.Errorf("claim %d (%s): %s (%s, ours %s), want %s", i, c.Wording, c.Verdict, c.Why, c.Ours, want[i])
		}
	}
	return checked
}

// TestClaimsChecker checks fig 4.7's experiment of the thesis on runs that carry no semantics
// (zero options: not the thesis's defer_at after-rejudge): the warning counts all 15, and the
// report gets one section with the figure's five claims.
func TestClaimsChecker(t *testing.T) {
	p, err := Load("thesis")
	if err != nil {
		t.Fatal(err)
	}
	exp := -1
	for i, e := range p.Experiments {
		for _, f := range e.Figures {
			if f.File == "fig4.7-robustness-vs-level" {
				exp = i
			}
		}
	}
	var rows []report.RunRow
	for _, name := range []string{"PAM-P", "MOC", "MM", "MSD", "MMU"} {
		for trial := range int32(3) {
			rows = append(rows, report.RunRow{Level: "34k", Name: name, Point: name, Trial: trial + 1, OnTime: 100, Robustness: 10})
		}
	}
	agg, err := report.AggregateRuns(rows, "")
	if err != nil {
		t.Fatal(err)
	}
	var logs []string
	check := p.ClaimsChecker(exp, func(format string, args ...any) { logs = append(logs, fmt.Sprintf(format, args...)) })
	sections, err := check(agg)
	if err != nil {
		t.Fatal(err)
	}
	if len(logs) != 1 || !strings.HasPrefix(logs[0], "warning: --claims: 15 of 15 runs did not run under the semantics of preset thesis") {
		t.Errorf("logs %q", logs)
	}
	claims := 0
	for _, s := range sections {
		claims += len(s.Rows)
	}
	if claims < 5 {
		t.Errorf("%d claims in %d sections, want at least fig 4.7's five", claims, len(sections))
	}
}
