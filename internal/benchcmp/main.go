// Command benchcmp compares two builds of one package's benchmarks on a machine whose speed
// swings: it runs the two test binaries in turn, many short rounds, the first of the two
// alternating (ABBA), so that both meet the same phases of the machine, and prints for each
// benchmark the median of the per-round ratios with a 95% confidence interval. On the shared
// machines this project is measured on, tasks/s have swung 1.8× from one minute to the next
// while a change under test moves them by a few percent: two make bench runs minutes apart
// cannot tell such a change from the machine, and rounds of a second each, side by side, can.
// make bench-compare builds the binaries (the older from a git worktree) and runs it.
//
// With -each every benchmark the pattern matches runs in processes of its own, the two builds'
// one after the other, instead of all of them in one process per build: the two values of a
// round are then a second apart, not a whole run of every benchmark. On this project's shared
// machine, a round of 35 BenchmarkReplay rows in one process put about 12 s between them, and
// the machine's phases then moved single rows from one run of benchcmp to the next by more than
// their confidence intervals (MaxMin 0.890× in one, 1.072× in the next, the same two builds).
//
// With -process it compares two builds of a command instead: each round runs both binaries once
// with the arguments after --, a fresh process each, and compares their wall times (ns/op), as a
// user meets them, start-up included (make bench-process).
//
// It owns the schedule of the runs and the statistics. It knows nothing of what the benchmarks
// measure beyond the unit it is told to read.
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hcreplay/hcreplay/internal/benchfmt"
	"github.com/hcreplay/hcreplay/report"
)

func main() {
	var c config
	flag.StringVar(&c.old, "old", "", "test binary of the older build (go test -c)")
	flag.StringVar(&c.new, "new", "", "test binary of the newer build")
	flag.StringVar(&c.bench, "bench", ".", "benchmarks to run (go test -bench pattern)")
	flag.StringVar(&c.benchtime, "benchtime", "50x", "length of one run of each benchmark (go test -benchtime)")
	flag.StringVar(&c.unit, "unit", "ns/op", "the metric to compare; a unit ending in /s counts higher as faster")
	flag.StringVar(&c.dir, "dir", ".", "directory the binaries run in (their package's, for its testdata)")
	flag.IntVar(&c.rounds, "rounds", 30, "rounds: each runs both binaries once")
	flag.BoolVar(&c.each, "each", false, "run each benchmark in processes of its own, both builds' side by side")
	process := flag.Bool("process", false, "run the binaries with the arguments after -- and compare their wall times")
	flag.StringVar(&c.name, "name", "process", "with -process, the row's name")
	flag.Parse()
	if *process {
		c.process, c.unit = flag.Args(), "ns/op"
	}
	if *process && c.each {
		fmt.Fprintln(os.Stderr, "benchcmp: -each runs test binaries' benchmarks one by one; -process runs a command, which has one row: drop one of them")
		os.Exit(2)
	}
	if c.old == "" || c.new == "" || c.rounds < 1 || *process && len(c.process) == 0 {
		fmt.Fprintln(os.Stderr, "usage: benchcmp -old A.test -new B.test [-bench RE] [-benchtime 50x] [-rounds 30] [-each] [-unit ns/op] [-dir DIR]\n"+
			"       benchcmp -process -old A -new B [-rounds 30] [-name NAME] [-dir DIR] -- ARGS...")
		os.Exit(2)
	}
	runs, err := schedule(context.Background(), c, execRunner{dir: c.dir}, os.Stderr)
	if err == nil {
		err = compare(runs, c.unit).WriteTerminal(os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchcmp:", err)
		os.Exit(1)
	}
}

// config is what to compare and how long.
type config struct {
	old, new, bench, benchtime, unit, dir string
	rounds                                int
	each                                  bool             // -each: one benchmark per process
	process                               []string         // -process: the arguments each binary runs with
	name                                  string           // -process: the row's name
	now                                   func() time.Time // -process: the clock; nil is time.Now
}

// runner runs one test binary with the given arguments and returns its output.
type runner interface {
	run(ctx context.Context, binary string, args []string) ([]byte, error)
}

type execRunner struct{ dir string }

func (r execRunner) run(ctx context.Context, binary string, args []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Dir = r.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %s", binary, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// runs holds, per benchmark in the order first seen, the unit's value in each round, old and
// new side by side.
type runs struct {
	names    []string
	old, new map[string][]float64
}

// schedule runs the rounds: old then new in even rounds, new then old in odd ones, so that a
// drift of the machine's speed within a round favours neither. It reports progress to log.
func schedule(ctx context.Context, c config, r runner, log io.Writer) (runs, error) {
	res := runs{old: map[string][]float64{}, new: map[string][]float64{}}
	now := c.now
	if now == nil {
		now = time.Now
	}
	patterns := []string{c.bench} // what each process of a round runs
	if c.each {
		var err error
		if patterns, err = each(ctx, c, r); err != nil {
			return runs{}, err
		}
	}
	for round := range c.rounds {
		order := []bool{false, true} // is it the new build
		if round%2 == 1 {
			order = []bool{true, false}
		}
		for _, pattern := range patterns {
			args := c.process
			if args == nil {
				args = benchArgs(pattern, c.benchtime)
			}
			for _, isNew := range order {
				bin, into := c.old, res.old
				if isNew {
					bin, into = c.new, res.new
				}
				start := now()
				out, err := r.run(ctx, bin, args)
				if err != nil {
					return runs{}, fmt.Errorf("round %d: %w", round+1, err)
				}
				if c.process != nil {
					res.add(c.name, float64(now().Sub(start).Nanoseconds()), into)
					continue
				}
				if err := res.read(out, c.unit, into); err != nil {
					return runs{}, fmt.Errorf("round %d, %s: %w", round+1, bin, err)
				}
			}
		}
		fmt.Fprintf(log, "\rbenchcmp: round %d of %d", round+1, c.rounds)
	}
	fmt.Fprintln(log)
	for _, n := range res.names {
		if len(res.old[n]) != len(res.new[n]) {
			return runs{}, fmt.Errorf("%s: %d results from the old build, %d from the new: one of them lacks it", n, len(res.old[n]), len(res.new[n]))
		}
	}
	if len(res.names) == 0 {
		return runs{}, fmt.Errorf("no benchmark matching %q reported %s", c.bench, c.unit)
	}
	return res, nil
}

// each lists the benchmarks c.bench matches, as the new build runs them once (-test.benchtime
// 1x), and returns a pattern that matches each alone.
func each(ctx context.Context, c config, r runner) ([]string, error) {
	out, err := r.run(ctx, c.new, benchArgs(c.bench, "1x"))
	if err != nil {
		return nil, fmt.Errorf("listing the benchmarks: %w", err)
	}
	var list runs
	if err := list.read(out, c.unit, map[string][]float64{}); err != nil {
		return nil, fmt.Errorf("listing the benchmarks: %w", err)
	}
	patterns := make([]string, len(list.names))
	for i, name := range list.names {
		patterns[i] = exactly(name)
	}
	return patterns, nil
}

// benchArgs are a test binary's arguments to run the benchmarks pattern matches, for benchtime
// each, and no test.
func benchArgs(pattern, benchtime string) []string {
	return []string{"-test.run", "^$", "-test.bench", pattern, "-test.benchtime", benchtime, "-test.count", "1"}
}

// exactly is the go test -bench pattern that matches benchmark name (its sub-benchmarks
// separated by slashes) and nothing else.
func exactly(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// read adds the unit's value of each benchmark line in out to into.
func (r *runs) read(out []byte, unit string, into map[string][]float64) error {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		name, pairs, ok := benchfmt.Line(sc.Text())
		if !ok {
			continue
		}
		v, ok := benchfmt.Metric(pairs, unit)
		if !ok {
			continue
		}
		r.add(name, v, into)
	}
	return sc.Err()
}

// add records value v of benchmark name in into.
func (r *runs) add(name string, v float64, into map[string][]float64) {
	if !slices.Contains(r.names, name) {
		r.names = append(r.names, name)
	}
	into[name] = append(into[name], v)
}

// compare lays out one row per benchmark: the medians of each build, and the new build's
// speed-up in each round (old ÷ new for a time, new ÷ old for a rate), its median and a 95%
// confidence interval for that median.
func compare(r runs, unit string) report.Table {
	t := report.Table{
		Caption: fmt.Sprintf("new build against old, round by round (%s)", unit),
		Columns: []report.Column{{Header: "benchmark"}, {Header: "rounds", Right: true}, {Header: "old median", Right: true},
			{Header: "new median", Right: true}, {Header: "speed-up, median", Right: true}, {Header: "95% CI", Right: true}},
	}
	rate := strings.HasSuffix(unit, "/s")
	for _, n := range r.names {
		old, nw := r.old[n], r.new[n]
		ups := make([]float64, len(old))
		for i := range old {
			ups[i] = old[i] / nw[i]
			if rate {
				ups[i] = nw[i] / old[i]
			}
		}
		ci := "–"
		if lo, hi, ok := medianCI(len(ups)); ok {
			s := slices.Sorted(slices.Values(ups))
			ci = fmt.Sprintf("%.3f–%.3f", s[lo], s[hi])
		}
		t.Rows = append(t.Rows, []report.Cell{{Text: n}, {Text: fmt.Sprint(len(ups))},
			{Text: value(benchfmt.Median(old), unit)}, {Text: value(benchfmt.Median(nw), unit)},
			{Text: fmt.Sprintf("%.3f×", benchfmt.Median(ups))}, {Text: ci}})
	}
	return t
}

// value formats a median: ns/op as a duration (to the microsecond from a millisecond up),
// anything else in four figures.
func value(v float64, unit string) string {
	if unit == "ns/op" {
		d := time.Duration(math.Round(v))
		if d >= time.Millisecond {
			d = d.Round(time.Microsecond) // 6.556ms, not 6.555721ms
		}
		return d.String()
	}
	return fmt.Sprintf("%.4g", v)
}

// medianCI returns the 0-based ranks lo and hi such that, for n independent samples of any
// continuous distribution, sorted, [x_lo, x_hi] holds its median with probability at least
// 95%: the narrowest symmetric pair of order statistics that does, the largest lo whose
// binomial tails, P(Bin(n, ½) ≤ lo) each side, sum to at most 5%. False when n is too small for
// any (n < 6).
func medianCI(n int) (lo, hi int, ok bool) {
	// tail(k) = P(Bin(n, ½) ≤ k), summed in logs: n may be large.
	tail := func(k int) float64 {
		s := 0.0
		for j := 0; j <= k; j++ {
			s += math.Exp(logChoose(n, j) - float64(n)*math.Ln2)
		}
		return s
	}
	best := -1
	for k := 0; k < n/2; k++ {
		if 2*tail(k) > 0.05 {
			break
		}
		best = k
	}
	if best < 0 {
		return 0, 0, false
	}
	// In 1-based ranks, P(x_(best+1) ≤ median ≤ x_(n−best)) = 1 − 2·P(Bin ≤ best) ≥ 95%.
	return best, n - 1 - best, true
}

// logChoose is log C(n, k).
func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
