package main

import (
	"fmt"
	"io"
	"math"
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
	// Issue 50's: pet build from a 10M-row log (cmd/hcreplay BenchmarkPETBuild). The peak is the
	// heap's object bytes sampled in process, not the RSS the 162 MiB was measured as.
	{what: "pet build, 10M-row CSV log, rows/s (issue 50)", bench: "BenchmarkPETBuild/csv/10M", unit: "rows/s", atLeast: 5e6},
	{what: "pet build, 10M-row CSV log, peak heap (issue 50)", bench: "BenchmarkPETBuild/csv/10M", unit: "peak-heap-MiB", note: "no higher than before"},
	{what: "pet build, 10M-row Parquet log, rows/s (issue 50)", bench: "BenchmarkPETBuild/parquet/10M", unit: "rows/s", atLeast: 2e7},
	{what: "pet build, 10M-row Parquet log, peak heap (issue 50)", bench: "BenchmarkPETBuild/parquet/10M", unit: "peak-heap-MiB", note: "no higher than before"},
	{what: "SVG line chart, bytes (issue 50)", bench: "BenchmarkSVGFigure", unit: "B/figure", atMost: 100_000},
	{what: "figures --preset journal, full, on HCW19, s (issue 50)", bench: "BenchmarkFiguresJournal", unit: "s/figures", atMost: 60},
	{what: "figures --preset journal, largest SVG, KB (issue 50)", bench: "BenchmarkFiguresJournal", unit: "max-svg-KB", atMost: 100},
}

// sample is one benchmark line's value of a target's metric, and the core's speed around it
// (the benchmark's core-Gops/s, internal/corespeed; NaN when the line has none).
type sample struct{ value, speed float64 }

// nearFastest is how close to the fastest core speed of the run a sample's must come for the
// sample to count as taken on the run's fastest core. The run's fastest is not the machine's:
// a run spent on a slow core has a slow fastest, which the table's note shows (cpuClock).
const nearFastest = 0.9

// sampled collects, for each target, the metric's value on every line of its benchmark
// (several with go test -count), the fastest core speed any line reports, and the processor's
// nominal clock from go test's cpu line (0 when it names none).
type sampled struct {
	samples map[int][]sample
	fastest float64
	ghz     float64
}

func newSampled() *sampled { return &sampled{samples: map[int][]sample{}} }

func (s *sampled) add(line string) {
	if ghz, ok := cpuClock(line); ok {
		s.ghz = ghz
	}
	name, pairs, ok := benchfmt.Line(line)
	if !ok {
		return
	}
	speed, ok := benchfmt.Metric(pairs, speedUnit)
	if !ok {
		speed = math.NaN()
	} else {
		s.fastest = max(s.fastest, speed)
	}
	for i, t := range targets {
		if name != t.bench {
			continue
		}
		if v, ok := benchfmt.Metric(pairs, t.unit); ok {
			s.samples[i] = append(s.samples[i], sample{v, speed})
		}
	}
}

// speedUnit is the unit of the core's speed in a benchmark line.
const speedUnit = "core-Gops/s"

// table lays out the targets: the median of each one's samples, their range when there are
// several, and whether the median meets the target; for the tasks/s targets, the same of the
// samples taken on the run's fastest core (atFastest). Targets whose benchmark did not run (make bench
// with a -bench pattern that leaves it out) are left out; with none, the table is empty.
func (s *sampled) table() report.Table {
	t := report.Table{
		Caption: "Targets (issue 6): the median of each benchmark's samples",
		Columns: []report.Column{{Header: "measure"}, {Header: "target", Right: true}, {Header: "median", Right: true},
			{Header: "samples", Right: true}, {Header: "met"}, {Header: "on the fastest core", Right: true}, {Header: "met there"}},
		Notes: []string{"tasks/s depend on the machine and on what else runs on it (on a shared machine they have " +
			"swung 1.8× from one minute to the next): make bench-targets takes five samples of each in a minute."},
	}
	slowest := math.Inf(1)
	for i, tg := range targets {
		ss := s.samples[i]
		if len(ss) == 0 {
			continue
		}
		xs := make([]float64, len(ss))
		for j, x := range ss {
			xs[j] = x.value
			if tg.unit == "tasks/s" && !math.IsNaN(x.speed) {
				slowest = min(slowest, x.speed)
			}
		}
		median, samples, met := tg.summary(xs)
		fastest, fastMet := "–", "–"
		if fast, n := s.atFastest(tg, ss); n > 0 {
			fastest = "none"
			if len(fast) > 0 {
				m, _, ok := tg.summary(fast)
				fastest, fastMet = fmt.Sprintf("%s (%d of %d)", m, len(fast), n), ok
			}
		}
		t.Rows = append(t.Rows, []report.Cell{{Text: tg.what}, {Text: tg.goal()}, {Text: median}, {Text: samples},
			{Text: met}, {Text: fastest}, {Text: fastMet}})
	}
	if !math.IsInf(slowest, 1) {
		t.Notes = append(t.Notes, s.coreNote(slowest))
	}
	return t
}

// coreNote says what the fastest-core columns count and how fast the core ran, from the
// slowest of the targets' samples to the fastest of the run.
func (s *sampled) coreNote(slowest float64) string {
	note := fmt.Sprintf("On the fastest core: the samples during which the core ran within %.0f%% of the fastest it "+
		"ran in this run, by a loop of multiply-adds that touches no memory (internal/corespeed) probed between a "+
		"sample's iterations. In this run the core ran at %.3g–%.3g multiply-adds per ns (%.0f%%–100%% of its fastest)",
		100*nearFastest, slowest, s.fastest, 100*slowest/s.fastest)
	if s.ghz > 0 {
		// A multiply (3 cycles) and an add (1) that each wait for the last: 4 cycles a step on
		// the x86 cores of Intel since 2008 and of AMD since Zen.
		note += fmt.Sprintf(", that is %.2f–%.2f GHz at the 4 cycles one takes on current x86 cores, against the "+
			"processor's nominal %.2f GHz", 4*slowest, 4*s.fastest, s.ghz)
	}
	return note + ": a sample slower on a slower core is the machine's doing, not the code's."
}

// cpuClock reads the nominal clock from go test's cpu line ("cpu: Intel(R) Xeon(R) Processor @
// 2.50GHz"); false for any other line, or one that names no clock.
func cpuClock(line string) (float64, bool) {
	rest, ok := strings.CutPrefix(line, "cpu: ")
	if !ok {
		return 0, false
	}
	_, clock, ok := strings.Cut(rest, "@")
	if !ok {
		return 0, false
	}
	ghz, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(clock), "GHz"), 64)
	return ghz, err == nil && ghz > 0
}

// atFastest returns the values of the samples ss of target tg taken on the run's fastest core:
// those whose core speed is within nearFastest of the fastest of the run; n is how many of ss have a
// core speed at all, and 0 for a target that is not a speed (tasks/s).
func (s *sampled) atFastest(tg target, ss []sample) (fast []float64, n int) {
	if tg.unit != "tasks/s" {
		return nil, 0
	}
	for _, x := range ss {
		if math.IsNaN(x.speed) {
			continue
		}
		n++
		if x.speed >= nearFastest*s.fastest {
			fast = append(fast, x.value)
		}
	}
	return fast, n
}

// goal is the target in words: its bound, or the paper's figure.
func (t target) goal() string {
	switch {
	case t.atLeast > 0:
		return "≥ " + t.format(t.atLeast)
	case t.atMost > 0:
		return "≤ " + t.format(t.atMost)
	}
	return t.note
}

// summary is the median of xs (written as formatBeside writes it beside a bound), their count
// and range, and whether the median meets the target ("–" when it has no bound).
func (t target) summary(xs []float64) (median, samples, met string) {
	m := benchfmt.Median(xs)
	samples = strconv.Itoa(len(xs))
	if len(xs) > 1 {
		samples = fmt.Sprintf("%d: %s–%s", len(xs), t.format(slices.Min(xs)), t.format(slices.Max(xs)))
	}
	switch {
	case t.atLeast > 0:
		return t.formatBeside(m, t.atLeast), samples, yesNo(m >= t.atLeast)
	case t.atMost > 0:
		return t.formatBeside(m, t.atMost), samples, yesNo(m <= t.atMost)
	}
	return t.format(m), samples, "–"
}

// format writes a value of the target's unit with three significant figures, as rate does:
// tasks/s and rows/s bare, megabytes with " MB", mebibytes with " MiB", bytes with " B", kilobytes with " KB",
// seconds (s/...) with " s", ratios with a ×.
func (t target) format(v float64) string { return t.withFigures(v, 3) }

// withFigures is format with n significant figures (at least three).
func (t target) withFigures(v float64, n int) string {
	switch {
	case t.unit == "tasks/s" || t.unit == "rows/s":
		return rateFigures(v, n)
	case strings.HasSuffix(t.unit, "-MB"):
		return rateFigures(v, n) + " MB"
	case strings.HasSuffix(t.unit, "-MiB"):
		return rateFigures(v, n) + " MiB"
	case strings.HasPrefix(t.unit, "B/"):
		return rateFigures(v, n) + " B"
	case strings.HasSuffix(t.unit, "-KB"):
		return rateFigures(v, n) + " KB"
	case strings.HasPrefix(t.unit, "s/"):
		return rateFigures(v, n) + " s"
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
func (s *sampled) write(w io.Writer) error {
	t := s.table()
	if len(t.Rows) == 0 {
		return nil
	}
	return writeTable(w, t)
}
