package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/internal/benchfmt"
	"github.com/hcreplay/hcreplay/report"
)

// target is a figure the project holds a benchmark metric to (issue 6), or, with neither bound,
// one to set beside a paper's.
type target struct {
	what    string  // what is measured, for the reader
	bench   string  // the benchmark's name, without the -GOMAXPROCS suffix
	unit    string  // the metric's unit in the benchmark line
	atLeast float64 // the target is met at this value or more; 0: no lower bound
	atMost  float64 // ... at this value or less; 0: no upper bound
	note    string  // the target, in words, when there is no bound: the paper's figure
}

// targets are issue 6's, in its order. The HCW19-like workload and its 1,000 tasks are
// BenchmarkReplay's (replay/prune).
var targets = []target{
	{what: "PAM-P, fast engine, tasks/s", bench: "BenchmarkReplay/fast/PAM-P", unit: "tasks/s", atLeast: 20000},
	{what: "MM, fast engine, tasks/s", bench: "BenchmarkReplay/fast/MM", unit: "tasks/s", atLeast: 200000},
	{what: "MM, 1M streamed tasks, tasks/s", bench: "BenchmarkMillionTasks", unit: "tasks/s", atLeast: 200000},
	{what: "MM, 1M streamed tasks, peak heap", bench: "BenchmarkMillionTasks", unit: "peak-heap-MB", atMost: 200},
	{what: "PAM-P, fast ÷ reference, one run", bench: "BenchmarkEngineRatio", unit: "fast/reference", atLeast: 20},
	{what: "PAM-P, approx ÷ reference, one run", bench: "BenchmarkEngineRatio", unit: "approx/reference", note: "paper: 13.5×"},
}

// sampled collects, for each target, the metric's value on every line of its benchmark
// (several with go test -count).
type sampled map[int][]float64

func (s sampled) add(line string) {
	name, pairs, ok := benchfmt.Line(line)
	if !ok {
		return
	}
	for i, t := range targets {
		if name != t.bench {
			continue
		}
		if v, ok := benchfmt.Metric(pairs, t.unit); ok {
			s[i] = append(s[i], v)
		}
	}
}

// table lays out the targets: the median of each one's samples, their range when there are
// several, and whether the median meets the target. Targets whose benchmark did not run (make
// bench with a -bench pattern that leaves it out) are left out; with none, the table is empty.
func (s sampled) table() report.Table {
	t := report.Table{
		Caption: "Targets (issue 6): the median of each benchmark's samples",
		Columns: []report.Column{{Header: "measure"}, {Header: "target", Right: true}, {Header: "median", Right: true},
			{Header: "samples", Right: true}, {Header: "met"}},
		Notes: []string{"tasks/s depend on the machine and on what else runs on it (on a shared machine they have " +
			"swung 1.8× from one minute to the next): make bench-targets takes five samples of each in a minute."},
	}
	for i, tg := range targets {
		xs := s[i]
		if len(xs) == 0 {
			continue
		}
		m := benchfmt.Median(xs)
		samples := strconv.Itoa(len(xs))
		if len(xs) > 1 {
			samples = fmt.Sprintf("%d: %s–%s", len(xs), tg.format(slices.Min(xs)), tg.format(slices.Max(xs)))
		}
		goal, met, median := tg.note, "–", tg.format(m)
		switch {
		case tg.atLeast > 0:
			goal, met, median = "≥ "+tg.format(tg.atLeast), yesNo(m >= tg.atLeast), tg.formatBeside(m, tg.atLeast)
		case tg.atMost > 0:
			goal, met, median = "≤ "+tg.format(tg.atMost), yesNo(m <= tg.atMost), tg.formatBeside(m, tg.atMost)
		}
		t.Rows = append(t.Rows, []report.Cell{{Text: tg.what}, {Text: goal}, {Text: median}, {Text: samples}, {Text: met}})
	}
	return t
}

// format writes a value of the target's unit with three significant figures, as rate does:
// tasks/s bare, megabytes with " MB", ratios with a ×.
func (t target) format(v float64) string { return t.withFigures(v, 3) }

// withFigures is format with n significant figures (at least three).
func (t target) withFigures(v float64, n int) string {
	switch {
	case t.unit == "tasks/s":
		return rateFigures(v, n)
	case strings.HasSuffix(t.unit, "-MB"):
		return rateFigures(v, n) + " MB"
	}
	return rateFigures(v, n) + "×"
}

// formatBeside is format(v) with as many more figures as it takes to tell v from the target
// goal, up to three more: a median of 199,800 tasks/s against 200k reads 199.8k, not a 200k
// that is marked as missing a target of 200k.
func (t target) formatBeside(v, goal float64) string {
	n := 3
	for n < 6 && v != goal && t.withFigures(v, n) == t.withFigures(goal, n) {
		n++
	}
	return t.withFigures(v, n)
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "no"
}

// write prints the targets' table, when any target's benchmark ran.
func (s sampled) write(w io.Writer) error {
	t := s.table()
	if len(t.Rows) == 0 {
		return nil
	}
	return writeTable(w, t)
}
