// Command benchtable copies `go test -bench` output from its input to its output as it arrives,
// then prints BenchmarkReplay's tasks/s as one table per engine, a row per heuristic and a column
// per pruning variant, and the fast engine's speed-up over the reference one in the same shape:
// some 300 benchmark lines are easier to compare as tables. Last it prints issue 6's targets
// beside the medians of the benchmarks that carry them, and whether each is met, of all samples
// and of those taken while the core ran near its fastest in the run (the core-Gops/s the
// benchmarks report, internal/corespeed). make bench pipes into it.
//
// It owns the layout of those tables and the list of targets. It measures nothing and does not
// know which heuristics or engines exist: rows and columns are the ones the input names, in input
// order.
package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/internal/benchfmt"
	"github.com/hcreplay/hcreplay/report"
)

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

// run echoes in to out line by line, then writes the tables.
func run(in io.Reader, out io.Writer) error {
	res, aims := newResults(), newSampled()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if _, err := fmt.Fprintln(out, line); err != nil {
			return err
		}
		res.add(line)
		aims.add(line)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read benchmark output: %w", err)
	}
	if err := res.write(out); err != nil {
		return err
	}
	return aims.write(out)
}

// variants are the column heads, in the thesis's order, and the name suffix of each.
var variants = []struct{ head, suffix string }{
	{"none", ""}, {"-D", "-D"}, {"-Drop", "-Drop"}, {"-P", "-P"},
}

// results holds tasks/s by engine, heuristic and variant; several samples of one cell (go test
// -count) are kept, and the table shows their median.
type results struct {
	engines, heuristics []string
	cells               map[[3]string][]float64 // engine, heuristic, variant suffix
}

func newResults() *results { return &results{cells: map[[3]string][]float64{}} }

// add records line if it is a BenchmarkReplay result with a tasks/s metric.
func (r *results) add(line string) {
	name, pairs, ok := benchfmt.Line(line)
	if !ok || !strings.HasPrefix(name, "BenchmarkReplay/") {
		return
	}
	engine, label, ok := strings.Cut(strings.TrimPrefix(name, "BenchmarkReplay/"), "/")
	if !ok {
		return
	}
	v, ok := benchfmt.Metric(pairs, "tasks/s")
	if !ok {
		return
	}
	heur, suffix := splitVariant(label)
	if !slices.Contains(r.engines, engine) {
		r.engines = append(r.engines, engine)
	}
	if !slices.Contains(r.heuristics, heur) {
		r.heuristics = append(r.heuristics, heur)
	}
	k := [3]string{engine, heur, suffix}
	r.cells[k] = append(r.cells[k], v)
}

// splitVariant splits "MM-Drop" into "MM" and "-Drop"; heuristic names hold no dash.
func splitVariant(label string) (heuristic, suffix string) {
	for _, v := range slices.Backward(variants) {
		if v.suffix != "" && strings.HasSuffix(label, v.suffix) {
			return strings.TrimSuffix(label, v.suffix), v.suffix
		}
	}
	return label, ""
}

// value is the median of a cell's samples, or false for a cell the input did not name.
func (r *results) value(engine, heur, suffix string) (float64, bool) {
	xs := r.cells[[3]string{engine, heur, suffix}]
	if len(xs) == 0 {
		return 0, false
	}
	return benchfmt.Median(xs), true
}

// write prints a table of tasks/s per engine, then fast ÷ reference when both ran.
func (r *results) write(w io.Writer) error {
	for _, e := range r.engines {
		t := r.table(fmt.Sprintf("BenchmarkReplay, engine %s: tasks replayed per second", e),
			func(h, s string) (string, bool) {
				v, ok := r.value(e, h, s)
				return rate(v), ok
			})
		if err := writeTable(w, t); err != nil {
			return err
		}
	}
	if !slices.Contains(r.engines, "fast") || !slices.Contains(r.engines, "reference") {
		return nil
	}
	t := r.table("BenchmarkReplay: fast ÷ reference (tasks/s of separate runs)", func(h, s string) (string, bool) {
		f, ok1 := r.value("fast", h, s)
		ref, ok2 := r.value("reference", h, s)
		if !ok1 || !ok2 || ref <= 0 {
			return "", false
		}
		return fmt.Sprintf("%.0f×", f/ref), true
	})
	return writeTable(w, t)
}

// table lays out one table: the heuristics with at least one cell as rows, the variants as
// columns, "–" where cell says the input has none.
func (r *results) table(caption string, cell func(heuristic, suffix string) (string, bool)) report.Table {
	t := report.Table{Caption: caption, Columns: []report.Column{{Header: "heuristic"}}}
	for _, v := range variants {
		t.Columns = append(t.Columns, report.Column{Header: v.head, Right: true})
	}
	for _, h := range r.heuristics {
		row := []report.Cell{{Text: h}}
		named := false
		for _, v := range variants {
			text, ok := cell(h, v.suffix)
			if !ok {
				text = "–"
			}
			named = named || ok
			row = append(row, report.Cell{Text: text})
		}
		if named {
			t.Rows = append(t.Rows, row)
		}
	}
	return t
}

func writeTable(w io.Writer, t report.Table) error {
	if _, err := fmt.Fprintln(w); err != nil {
		return err
	}
	return t.WriteTerminal(w)
}

// rate formats tasks/s with three significant figures: 237k, 29.3k, 4.38k, 62.8.
func rate(v float64) string { return rateFigures(v, 3) }

// rateFigures is rate with n ≥ 3 significant figures: 199.8k with four.
func rateFigures(v float64, n int) string {
	switch {
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', digits(v/1e6, n), 64) + "M"
	case v >= 1e3:
		return strconv.FormatFloat(v/1e3, 'f', digits(v/1e3, n), 64) + "k"
	}
	return strconv.FormatFloat(v, 'f', digits(v, n), 64)
}

// digits after the point that give x (in [0, 1000)) n ≥ 3 significant figures.
func digits(x float64, n int) int {
	switch {
	case x >= 100:
		return n - 3
	case x >= 10:
		return n - 2
	}
	return n - 1
}
