package presets

import (
	"fmt"
	"io"
	"strings"

	"github.com/hcreplay/hcreplay/report"
)

// Checked is a claim with its verdict.
type Checked struct {
	Claim
	report.ClaimResult
}

// Evaluate checks a figure's claims against the runs it shows (docs/presets.md states the
// rules). An error is a claim whose selector names several grid points.
func (f Figure) Evaluate(a *report.Aggregate) ([]Checked, error) {
	var out []Checked
	for _, c := range f.Claims {
		res, err := report.EvaluateClaim(a, c.Report())
		if err != nil {
			return nil, fmt.Errorf("%s: claim %q: %w", f.File, c.Wording, err)
		}
		out = append(out, Checked{c, res})
	}
	return out, nil
}

// WriteMarkdown writes checked claims as a table for notes.md: the paper's words and section,
// its value, ours with its 95% interval, and the verdict with the finding behind it.
func WriteMarkdown(w io.Writer, checked []Checked) error {
	if len(checked) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("| the paper | at | paper | ours (95% interval) | verdict |\n|:---|:---|:---|:---|:---|\n")
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	for _, c := range checked {
		fmt.Fprintf(&b, "| %s (%s) | %s, %s | %s | %s | **%s**: %s |\n", cell(c.Wording), cell(c.Section), c.Metric, c.Level,
			cell(c.Paper), cell(c.Ours), c.Verdict, cell(c.Why))
	}
	_, err := io.WriteString(w, b.String())
	return err
}
