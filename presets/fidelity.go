package presets

import (
	"fmt"
	"strings"

	"github.com/hcreplay/hcreplay/report"
)

// ClaimID is the id of the figure's k-th claim (from 0): FIGURE/N, N from 1.
func (f Figure) ClaimID(k int) string { return fmt.Sprintf("%s/%d", f.File, k+1) }

// ClaimIDs lists the ids of every claim of the preset, in the file's order.
func (p *Preset) ClaimIDs() []string {
	var ids []string
	var figs []Figure
	for _, e := range p.Experiments {
		figs = append(figs, e.Figures...)
	}
	if p.Speculative != nil {
		for _, f := range p.Speculative.Figures {
			figs = append(figs, f.figure())
		}
	}
	for _, f := range figs {
		for k := range f.Claims {
			ids = append(ids, f.ClaimID(k))
		}
	}
	return ids
}

// VerdictMarkers are the lines between which docs/fidelity.md holds a preset's verdict table.
func VerdictMarkers(preset string) (begin, end string) {
	return "<!-- verdicts:" + preset + " begin -->", "<!-- verdicts:" + preset + " end -->"
}

// SpliceVerdicts replaces the text between the preset's markers in doc with the table of v.
func SpliceVerdicts(doc string, v Verdicts) (string, error) {
	begin, end := VerdictMarkers(v.Preset)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		return "", fmt.Errorf("no lines %q and %q in the document", begin, end)
	}
	return doc[:i+len(begin)] + "\n" + v.Table() + doc[j:], nil
}

// Table is v as a Markdown table for docs/fidelity.md, a row per claim and semantics, and the
// command that made it.
func (v Verdicts) Table() string {
	var b strings.Builder
	fmt.Fprintf(&b, "From `%s` (hcreplay %s).\n\n", v.Command, v.Version)
	if len(v.Claims) == 0 {
		b.WriteString("The preset's file states no claims.\n")
		return b.String()
	}
	b.WriteString("| claim | the paper (section) | at | semantics | paper | ours (95% interval) | verdict |\n|:---|:---|:---|:---|:---|:---|:---|\n")
	for _, c := range v.Claims {
		fmt.Fprintf(&b, "| `%s` | %s (%s) | %s, %s | %s | %s | %s | **%s** |\n", c.ID, report.MarkdownCell(c.Wording), report.MarkdownCell(c.Section), c.Metric, c.Level,
			c.Semantics, report.MarkdownCell(c.Paper), report.MarkdownCell(c.Ours), c.Verdict)
	}
	return b.String()
}
