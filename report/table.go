package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// Table is what every table renderer draws from: the terminal, Markdown, CSV, LaTeX and HTML
// all render the same model, so they cannot disagree.
type Table struct {
	Caption string
	Columns []Column
	Rows    [][]Cell
	Notes   []string // printed under the table
}

// Column describes one column of a Table.
type Column struct {
	Header string // as people read it: "robustness (%)"
	Key    string // CSV header, or its stem for a column of numbers: "robustness"
	Right  bool   // right-aligned (numbers)
	// Parts names the numbers each cell of the column carries for CSV, which gets one column
	// per part ("robustness_mean", "robustness_ci95") at full precision instead of the text.
	// Nil for a text column.
	Parts []string
}

// Cell is one table cell: the text people read and, in a numeric column, the numbers behind it.
type Cell struct {
	Text string
	Nums []float64 // one per part of the column
}

// WriteTerminal draws the table with tablewriter, the caption above and the notes below.
func (t Table) WriteTerminal(w io.Writer) error {
	if t.Caption != "" {
		fmt.Fprintln(w, t.Caption)
	}
	align := make(tw.Alignment, len(t.Columns))
	header := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		align[i], header[i] = tw.AlignLeft, c.Header
		if c.Right {
			align[i] = tw.AlignRight
		}
	}
	tab := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithAlignment(align),
		tablewriter.WithRowAutoWrap(tw.WrapNone))
	tab.Header(header)
	for _, row := range t.Rows {
		if err := tab.Append(texts(row)); err != nil {
			return err
		}
	}
	if err := tab.Render(); err != nil {
		return err
	}
	for _, n := range t.Notes {
		fmt.Fprintln(w, n)
	}
	return nil
}

func texts(row []Cell) []string {
	s := make([]string, len(row))
	for i, c := range row {
		s[i] = c.Text
	}
	return s
}

// WriteMarkdown writes a GitHub-flavoured Markdown table. tablewriter's Markdown renderer
// escapes nothing, so a "|" in a cell would split it; cells are escaped here.
func (t Table) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	if t.Caption != "" {
		fmt.Fprintf(&b, "%s\n\n", t.Caption)
	}
	rule := make([]string, len(t.Columns))
	header := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		header[i], rule[i] = markdownCell(c.Header), ":---"
		if c.Right {
			rule[i] = "---:"
		}
	}
	markdownRow(&b, header)
	markdownRow(&b, rule)
	for _, row := range t.Rows {
		cells := texts(row)
		for i := range cells {
			cells[i] = markdownCell(cells[i])
		}
		markdownRow(&b, cells)
	}
	for _, n := range t.Notes {
		fmt.Fprintf(&b, "\n%s\n", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func markdownRow(b *strings.Builder, cells []string) {
	fmt.Fprintf(b, "| %s |\n", strings.Join(cells, " | "))
}

// markdownCell escapes what would break a table row: "|" ends the cell and a line break ends
// the row.
func markdownCell(s string) string {
	return strings.NewReplacer("|", `\|`, "\r\n", "<br>", "\n", "<br>", "\r", "<br>").Replace(s)
}

// WriteCSV writes the table with encoding/csv: a text column as its text, a numeric column as
// one column per part at full precision (NaN as an empty field), so that the file is data
// rather than formatted text.
func (t Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	var header []string
	for _, c := range t.Columns {
		if c.Parts == nil {
			header = append(header, c.Key)
			continue
		}
		for _, p := range c.Parts {
			header = append(header, c.Key+"_"+p)
		}
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, row := range t.Rows {
		var rec []string
		for i, c := range t.Columns {
			if c.Parts == nil {
				rec = append(rec, row[i].Text)
				continue
			}
			for j := range c.Parts {
				rec = append(rec, csvNumber(row[i].Nums, j))
			}
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func csvNumber(nums []float64, j int) string {
	if j >= len(nums) || math.IsNaN(nums[j]) {
		return ""
	}
	return strconv.FormatFloat(nums[j], 'g', -1, 64)
}

// WriteLaTeX writes a booktabs tabular (\toprule, \midrule, \bottomrule; the document needs
// \usepackage{booktabs}), with the caption and notes as comments above it, ready to put in a
// table float.
func (t Table) WriteLaTeX(w io.Writer) error {
	var b strings.Builder
	for _, line := range append([]string{t.Caption}, t.Notes...) {
		if line != "" {
			fmt.Fprintf(&b, "%% %s\n", strings.ReplaceAll(line, "\n", " "))
		}
	}
	spec := make([]byte, len(t.Columns))
	header := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		spec[i], header[i] = 'l', latexEscape(c.Header)
		if c.Right {
			spec[i] = 'r'
		}
	}
	fmt.Fprintf(&b, "\\begin{tabular}{%s}\n\\toprule\n%s \\\\\n\\midrule\n", spec, strings.Join(header, " & "))
	for _, row := range t.Rows {
		cells := texts(row)
		for i := range cells {
			cells[i] = latexEscape(cells[i])
		}
		fmt.Fprintf(&b, "%s \\\\\n", strings.Join(cells, " & "))
	}
	b.WriteString("\\bottomrule\n\\end{tabular}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// latexEscape escapes LaTeX's special characters and spells the non-ASCII symbols our tables
// use in math mode, so the output compiles with pdfLaTeX and no extra packages.
func latexEscape(s string) string {
	return strings.NewReplacer(
		`\`, `\textbackslash{}`, "&", `\&`, "%", `\%`, "$", `\$`, "#", `\#`, "_", `\_`,
		"{", `\{`, "}", `\}`, "~", `\textasciitilde{}`, "^", `\textasciicircum{}`,
		"|", `\textbar{}`, "<", `\textless{}`, ">", `\textgreater{}`,
		"±", `$\pm$`, "Δ", `$\Delta$`, "−", `$-$`, "–", "--", "λ", `$\lambda$`, "θ", `$\theta$`,
		"ρ", `$\rho$`, "ϑ", `$\vartheta$`, "×", `$\times$`, "\n", " ",
	).Replace(s)
}

// SummaryTable is the table `hcreplay report` prints: per grid point the name, level, the
// options that vary in the sweep, the trials, robustness with its 95% interval, fairness
// variance, cost and energy per on-time task, and with a baseline the paired difference in
// robustness.
func SummaryTable(a *Aggregate) Table {
	vary := varying(a.Groups, "name", "level")
	t := Table{
		Caption: "Mean over trials; ± is the half-width of the 95% Student t confidence interval.",
		Columns: []Column{{Header: "name", Key: "name"}, {Header: "level", Key: "level"}},
	}
	for _, o := range vary {
		t.Columns = append(t.Columns, Column{Header: o.label, Key: o.name})
	}
	t.Columns = append(t.Columns,
		Column{Header: "n", Key: "n", Right: true},
		estimateColumn("robustness (%)", "robustness"),
		estimateColumn("fairness var.", "fairness_variance"),
		estimateColumn("cost/on-time ($)", "cost_per_on_time"),
		estimateColumn("energy/on-time (J)", "energy_per_on_time"))
	if a.Baseline != "" {
		t.Columns = append(t.Columns, Column{Header: "Δ robustness vs " + a.Baseline, Key: "diff_robustness", Right: true, Parts: []string{"mean", "ci95", "n"}})
		t.Notes = append(t.Notes, fmt.Sprintf("Δ: paired difference against %s under the same options, trial by trial, with its 95%% interval.", a.Baseline))
	}
	skipped := false
	for _, g := range a.Groups {
		r := g.Run()
		row := []Cell{{Text: nameOf(r)}, {Text: r.Level}}
		for _, o := range vary {
			if o.applies(r) {
				row = append(row, Cell{Text: shown(o.value(r))})
			} else {
				row = append(row, Cell{Text: "–"})
			}
		}
		row = append(row, Cell{Text: strconv.Itoa(len(g.Runs)), Nums: []float64{float64(len(g.Runs))}})
		for _, m := range []string{"robustness", "fairness_variance", "cost_per_on_time", "energy_per_on_time"} {
			e := g.Stat(m)
			skipped = skipped || e.Skipped > 0
			if m == "robustness" { // percentages: one decimal in every row, with the interval
				row = append(row, estimateCell(e, true, 1, len(g.Runs)))
			} else {
				row = append(row, estimateCell(e, false, -1, len(g.Runs)))
			}
		}
		if a.Baseline != "" {
			row = append(row, diffCell(g))
		}
		t.Rows = append(t.Rows, row)
	}
	if skipped {
		t.Notes = append(t.Notes, "(n=K): the metric was undefined (NaN) in some runs, e.g. cost per on-time task with no task on time; the mean is over the K others.")
	}
	return t
}

func estimateColumn(header, metric string) Column {
	return Column{Header: header, Key: metric, Right: true, Parts: []string{"mean", "ci95", "n"}}
}

// estimateCell shows the mean to d decimals (see formatEstimate), with the interval when
// withCI, and the count when NaNs were left out of it.
func estimateCell(e Estimate, withCI bool, d, runs int) Cell {
	c := Cell{Text: formatEstimate(e, withCI, false, d), Nums: []float64{e.Mean, e.Half, float64(e.N)}}
	if e.N < runs {
		c.Text += fmt.Sprintf(" (n=%d)", e.N)
	}
	return c
}

func diffCell(g *Group) Cell {
	switch {
	case g.Diff == nil:
		return Cell{Text: "–", Nums: []float64{math.NaN(), math.NaN(), 0}}
	case g.Baseline == g.Point:
		return Cell{Text: "baseline", Nums: []float64{0, 0, float64(len(g.Runs))}}
	}
	e := g.Diff["robustness"]
	return Cell{Text: formatEstimate(e, true, true, 1), Nums: []float64{e.Mean, e.Half, float64(e.N)}}
}

// FormatEstimate is an estimate as the report's tables print it: "mean ± half" to d decimals
// (d < 0: three significant digits, in exponent notation when tiny or huge), the mean alone
// when it has no interval, and "–" when it is undefined.
func FormatEstimate(e Estimate, d int) string { return formatEstimate(e, true, false, d) }

// formatEstimate prints "mean ± half" with d decimals (d < 0: three significant digits on the
// mean), the half-width to the same decimals, and "–" for an undefined mean.
func formatEstimate(e Estimate, withCI, signed bool, d int) string {
	if math.IsNaN(e.Mean) {
		return "–"
	}
	if a := math.Abs(e.Mean); d < 0 && a != 0 && (a < 1e-3 || a >= 1e7) {
		return scientific(e, withCI, signed)
	}
	if d < 0 {
		d = decimals(e.Mean)
	}
	verb := "%.*f"
	if signed {
		verb = "%+.*f"
	}
	s := fmt.Sprintf(verb, d, e.Mean)
	if withCI && !math.IsNaN(e.Half) {
		s += fmt.Sprintf(" ± %.*f", d, e.Half)
	}
	return s
}

// scientific prints a tiny or huge "mean ± half" in exponent notation, three significant
// digits on the mean, two on the half-width.
func scientific(e Estimate, withCI, signed bool) string {
	verb := "%.3g"
	if signed {
		verb = "%+.3g"
	}
	s := fmt.Sprintf(verb, e.Mean)
	if withCI && !math.IsNaN(e.Half) {
		s += fmt.Sprintf(" ± %.2g", e.Half)
	}
	return s
}

// decimals gives three significant digits, at least one decimal below 1000 and none
// beyond.
func decimals(v float64) int {
	a := math.Abs(v)
	if a == 0 || math.IsInf(a, 0) {
		return 1
	}
	d := 2 - int(math.Floor(math.Log10(a)))
	if a < 1000 {
		d = max(d, 1)
	}
	return max(d, 0)
}

// MetricsTable holds every option and every metric of every grid point: mean, standard
// deviation, interval half-width, count and NaNs left out, and with a baseline the paired
// differences. It is written as CSV for further analysis.
func MetricsTable(a *Aggregate) Table {
	t := Table{Columns: []Column{{Header: "point", Key: "point"}}}
	for _, o := range options() {
		t.Columns = append(t.Columns, Column{Header: o.label, Key: o.name})
	}
	t.Columns = append(t.Columns, Column{Header: "level rate", Key: "level_rate", Right: true}, Column{Header: "n", Key: "n", Right: true})
	parts := []string{"mean", "sd", "ci95", "n", "nan"}
	for _, m := range metrics() {
		t.Columns = append(t.Columns, Column{Header: m.label, Key: m.name, Right: true, Parts: parts})
	}
	if a.Baseline != "" {
		for _, m := range metrics() {
			t.Columns = append(t.Columns, Column{Header: "Δ " + m.label, Key: "diff_" + m.name, Right: true, Parts: parts})
		}
	}
	for _, g := range a.Groups {
		r := g.Run()
		row := []Cell{{Text: g.Point}}
		for _, o := range options() {
			row = append(row, Cell{Text: o.value(r)})
		}
		rate := ""
		if known(r.LevelRate) {
			rate = strconv.FormatFloat(r.LevelRate, 'g', -1, 64)
		}
		row = append(row, Cell{Text: rate}, Cell{Text: strconv.Itoa(len(g.Runs))})
		for _, m := range metrics() {
			row = append(row, fullCell(g.Stat(m.name)))
		}
		if a.Baseline != "" {
			for _, m := range metrics() {
				d, ok := g.Diff[m.name]
				if !ok {
					d = EstimateOf(nil)
				}
				row = append(row, fullCell(d))
			}
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

func fullCell(e Estimate) Cell {
	return Cell{Text: formatEstimate(e, true, false, -1), Nums: []float64{e.Mean, e.SD, e.Half, float64(e.N), float64(e.Skipped)}}
}
