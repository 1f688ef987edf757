package report

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// awkwardTable has the cells that break naive renderers: a "|", a line break, a comma and
// quotes, an undefined number.
func awkwardTable() Table {
	nan := math.NaN()
	return Table{
		Caption: "Runs | trials",
		Columns: []Column{
			{Header: "name", Key: "name"},
			{Header: "robustness (%)", Key: "robustness", Right: true, Parts: []string{"mean", "ci95"}},
		},
		Rows: [][]Cell{
			{{Text: "MM|est"}, {Text: "45.2 ± 1.3", Nums: []float64{45.25, 1.3}}},
			{{Text: "two\nlines"}, {Text: "–", Nums: []float64{nan, nan}}},
			{{Text: `PAM,"x"`}, {Text: "50.0", Nums: []float64{50, nan}}},
		},
		Notes: []string{"± is 95%"},
	}
}

func render(t *testing.T, write func(*bytes.Buffer) error) string {
	t.Helper()
	var b bytes.Buffer
	if err := write(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestMarkdownEscapes(t *testing.T) {
	tab := awkwardTable()
	got := render(t, func(b *bytes.Buffer) error { return tab.WriteMarkdown(b) })
	want := "Runs | trials\n\n" +
		"| name | robustness (%) |\n" +
		"| :--- | ---: |\n" +
		"| MM\\|est | 45.2 ± 1.3 |\n" +
		"| two<br>lines | – |\n" +
		"| PAM,\"x\" | 50.0 |\n" +
		"\n± is 95%\n"
	if got != want {
		t.Errorf("markdown:\n%s\nwant:\n%s", got, want)
	}
}

// TestCSVQuotes: text as is (quoted where CSV needs it), numbers at full precision in one
// column per part, NaN as an empty field.
func TestCSVQuotes(t *testing.T) {
	tab := awkwardTable()
	got := render(t, func(b *bytes.Buffer) error { return tab.WriteCSV(b) })
	want := "name,robustness_mean,robustness_ci95\n" +
		"MM|est,45.25,1.3\n" +
		"\"two\nlines\",,\n" +
		"\"PAM,\"\"x\"\"\",50,\n"
	if got != want {
		t.Errorf("csv:\n%s\nwant:\n%s", got, want)
	}
}

func TestLaTeXEscapes(t *testing.T) {
	tab := awkwardTable()
	got := render(t, func(b *bytes.Buffer) error { return tab.WriteLaTeX(b) })
	want := "% Runs | trials\n" +
		"% ± is 95%\n" +
		"\\begin{tabular}{lr}\n" +
		"\\toprule\n" +
		"name & robustness (\\%) \\\\\n" +
		"\\midrule\n" +
		"MM\\textbar{}est & 45.2 $\\pm$ 1.3 \\\\\n" +
		"two lines & -- \\\\\n" +
		"PAM,\"x\" & 50.0 \\\\\n" +
		"\\bottomrule\n" +
		"\\end{tabular}\n"
	if got != want {
		t.Errorf("latex:\n%s\nwant:\n%s", got, want)
	}
	in := `50% & $5_x #1 {a} ~^\ ±Δ θ`
	out := `50\% \& \$5\_x \#1 \{a\} \textasciitilde{}\textasciicircum{}\textbackslash{} $\pm$$\Delta$ $\theta$`
	if got := latexEscape(in); got != out {
		t.Errorf("latexEscape(%q) = %q, want %q", in, got, out)
	}
}

// TestSummaryTable renders the hand-built sweep: values from TestAggregateRuns, rounded.
func TestSummaryTable(t *testing.T) {
	a, err := AggregateRuns(handRuns(), "MM")
	if err != nil {
		t.Fatal(err)
	}
	tab := SummaryTable(a)
	md := render(t, func(b *bytes.Buffer) error { return tab.WriteMarkdown(b) })
	// PAM at a: 2, 2, 5, 5, 90: mean 20.8, sd √(5994.8/4) = 38.7130, t(0.975, 4) = 2.77645,
	// half 2.77645 × 38.7130 / √5 = 48.07.
	for _, row := range []string{
		"| name | level | n | robustness (%) | fairness var. | cost/on-time ($) | energy/on-time (J) | Δ robustness vs MM |",
		"| PAM | b | 1 | 50.0 | 0.0 | 9.00 | 0.0 | – |",
		"| MM | a | 4 | 2.5 ± 2.1 | 0.0 | 10.0 | 0.0 | baseline |",
		"| MM-P | a | 4 | 5.0 ± 3.4 | 0.0 | 12.0 (n=3) | 0.0 | +2.5 ± 2.1 |",
		"| PAM | a | 5 | 20.8 ± 48.1 | 0.0 | 9.00 | 0.0 | +1.0 ± 1.3 |",
	} {
		if !strings.Contains(md, row+"\n") {
			t.Errorf("summary lacks %s\n%s", row, md)
		}
	}
	if !strings.Contains(md, "(n=K)") || !strings.Contains(md, "paired difference against MM") {
		t.Errorf("summary notes:\n%s", md)
	}
	// tablewriter would upper-case headers and put spaces into them by default.
	term := render(t, func(b *bytes.Buffer) error { return tab.WriteTerminal(b) })
	if !strings.Contains(term, "fairness var.") || !strings.Contains(term, "Δ robustness vs MM") || !strings.Contains(term, "+2.5 ± 2.1") {
		t.Errorf("terminal:\n%s", term)
	}
	csv := render(t, func(b *bytes.Buffer) error { return tab.WriteCSV(b) })
	if !strings.HasPrefix(csv, "name,level,n,robustness_mean,robustness_ci95,robustness_n,") ||
		!strings.Contains(csv, "\nMM-P,a,4,5,3.4374") {
		t.Errorf("csv:\n%s", csv)
	}
}

// TestSummaryVaryingColumns: an option that varies gets a column, shown as "–" where it does
// not apply (a pruning option of an unpruned run).
func TestSummaryVaryingColumns(t *testing.T) {
	rows := handRuns()
	for i := range rows {
		if rows[i].Point == "mmp-a" && rows[i].Trial > 2 {
			rows[i].Point, rows[i].Lambda = "mmp-a-half", 0.5
		}
	}
	a, err := AggregateRuns(rows, "")
	if err != nil {
		t.Fatal(err)
	}
	md := render(t, func(b *bytes.Buffer) error { return SummaryTable(a).WriteMarkdown(b) })
	for _, row := range []string{"| name | level | λ | n |", "| MM | a | – | 4 |", "| MM-P | a | 0.5 | 2 |", "| MM-P | a | 1 | 2 |"} {
		if !strings.Contains(md, row) {
			t.Errorf("summary lacks %s\n%s", row, md)
		}
	}
}

func TestMetricsTable(t *testing.T) {
	a, err := AggregateRuns(handRuns(), "MM")
	if err != nil {
		t.Fatal(err)
	}
	csv := render(t, func(b *bytes.Buffer) error { return MetricsTable(a).WriteCSV(b) })
	lines := strings.Split(strings.TrimSpace(csv), "\n")
	header := strings.Split(lines[0], ",")
	if len(lines) != 5 || header[0] != "point" || !strings.Contains(lines[0], ",robustness_mean,robustness_sd,robustness_ci95,robustness_n,robustness_nan,") ||
		!strings.Contains(lines[0], ",diff_robustness_mean,") {
		t.Fatalf("aggregate.csv header %s, %d lines", lines[0], len(lines))
	}
	for _, l := range lines[1:] {
		if n := len(strings.Split(l, ",")); n != len(header) {
			t.Errorf("%d fields, header has %d: %s", n, len(header), l)
		}
	}
}

func TestFormatEstimate(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		e      Estimate
		ci     bool
		signed bool
		d      int
		want   string
	}{
		{Estimate{Mean: 45.25, Half: 1.26}, true, false, 1, "45.2 ± 1.3"},
		{Estimate{Mean: 2.5, Half: nan}, true, true, 1, "+2.5"},
		{Estimate{Mean: nan}, true, false, 1, "–"},
		{Estimate{Mean: 6.1834}, false, false, -1, "6.18"},
		{Estimate{Mean: 0.5}, false, false, -1, "0.500"},
		{Estimate{Mean: 1331.4}, false, false, -1, "1331"},
		{Estimate{Mean: 100}, false, false, -1, "100.0"},
		{Estimate{Mean: 0}, false, false, -1, "0.0"},
		{Estimate{Mean: 1.234e-6, Half: 5.6e-8}, true, false, -1, "1.23e-06 ± 5.6e-08"},
		{Estimate{Mean: 2.5e9}, false, false, -1, "2.5e+09"},
	} {
		if got := formatEstimate(c.e, c.ci, c.signed, c.d); got != c.want {
			t.Errorf("formatEstimate(%+v, %v, %v, %d) = %q, want %q", c.e, c.ci, c.signed, c.d, got, c.want)
		}
	}
}
