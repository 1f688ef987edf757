package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// ClaimSection is the paper's claims checked against one run of its experiment, as a page
// shows them: one section for the semantics the preset runs under and, where the experiment
// has a sensitivity run, one for the default semantics.
type ClaimSection struct {
	Title string     // "under the preset's semantics (drop model pending, ...)"
	Rows  []ClaimRow // one per claim
}

// ClaimRow is one claim with its verdict, in words.
type ClaimRow struct {
	ID      string // FIGURE/N: the claim's place in its experiment file
	Wording string // the paper's words
	Section string // where the paper says it: "Gentry 2018 §4.4.6"
	Form    string // ratio, bound, ordering, trend
	Bound   string // at_most or at_least for a bound (and a ratio's bound)
	Metric  string
	Level   string
	ClaimResult
}

// Rule is the rule the verdict of the row followed (docs/presets.md).
func (r ClaimRow) Rule() string { return ClaimRule(r.Form, r.Bound) }

// ClaimRule states the rule of the verdicts of a claim form, as docs/presets.md does; bound is
// at_most or at_least for a ratio with a bound, else "".
func ClaimRule(form, bound string) string {
	switch {
	case form == FormRatio && bound == "":
		return "ratio: holds when the paper's value lies in our 95% interval of the ratio and 1 does not; " +
			"not evaluated when the interval holds both (the runs cannot tell the paper's ratio from no effect); " +
			"shape holds when our whole interval lies on the paper's side of 1; else does not hold"
	case form == FormRatio || form == FormBound:
		return form + " with a bound: holds when our whole 95% interval meets the bound; shape holds when our mean meets it " +
			"and the interval does not; does not hold when our mean does not"
	case form == FormOrdering:
		return "ordering: holds when every mean is above the next with the neighbours' 95% intervals apart; " +
			"shape holds when the means are in order and some neighbours' intervals overlap; does not hold when a mean is out of order"
	case form == FormTrend:
		return "trend: holds when the last point is past the first in the claimed direction with the 95% intervals apart " +
			"and no step between neighbours goes clearly (intervals apart) the other way; shape holds when the last mean is past the first; else does not hold"
	}
	return ""
}

// Rules are the rules of the forms the section's rows have, each once, in the order of the rows.
func (s ClaimSection) Rules() []string {
	var out []string
	for _, r := range s.Rows {
		if rule := r.Rule(); rule != "" && !slices.Contains(out, rule) {
			out = append(out, rule)
		}
	}
	return out
}

// claimsHeading is the heading of a page's claims.
const claimsHeading = "The paper's claims, checked"

// claimsIntro says what the verdicts mean.
const claimsIntro = "Each claim of the paper, with the paper's value, ours (mean with its 95% Student t interval over the trials) and the verdict. " +
	"Not evaluated is never a pass: the claim's runs are missing, its metric is undefined, or the runs cannot tell the paper's ratio from no effect."

// WriteClaimsMarkdown writes the claim sections as Markdown: a table per section and the rules
// of its verdicts.
func WriteClaimsMarkdown(w io.Writer, sections []ClaimSection) error {
	if len(sections) == 0 {
		return nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n## %s\n\n%s\n", claimsHeading, claimsIntro)
	for _, s := range sections {
		fmt.Fprintf(&b, "\n### %s\n\n", upper(s.Title))
		if err := WriteClaimTable(&b, s.Rows); err != nil {
			return err
		}
		b.WriteString("\nThe rules of the verdicts:\n\n")
		for _, rule := range s.Rules() {
			fmt.Fprintf(&b, "- %s.\n", rule)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// WriteClaimTable writes claims as a Markdown table: the claim's id, the paper's words and
// section, the metric and level, the paper's value, ours with its 95% interval, and the verdict
// with the finding behind it.
func WriteClaimTable(w io.Writer, rows []ClaimRow) error {
	if len(rows) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString("| claim | the paper | at | paper | ours (95% interval) | verdict |\n|:---|:---|:---|:---|:---|:---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| `%s` | %s (%s) | %s, %s | %s | %s | **%s**: %s |\n", r.ID, MarkdownCell(r.Wording), MarkdownCell(r.Section), r.Metric, r.Level,
			MarkdownCell(r.Paper), MarkdownCell(r.Ours), r.Verdict, MarkdownCell(r.Why))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// MarkdownCell is s fit for a cell of a Markdown table: one line, its bars escaped.
func MarkdownCell(s string) string {
	return strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "|", `\|`)
}
