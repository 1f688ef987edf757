// Package benchfmt reads the result lines of `go test -bench` output, for the commands that
// summarise benchmarks (internal/benchtable, internal/benchcmp). It owns the line format and
// the median of samples; it runs no benchmark and lays out no table.
package benchfmt

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// procs is the -GOMAXPROCS suffix go test appends to a benchmark's name when it is not 1.
var procs = regexp.MustCompile(`-[0-9]+$`)

// Line splits a benchmark result line into the benchmark's name, without the -GOMAXPROCS
// suffix, and its value-unit pairs (after the iteration count); false for any other line.
func Line(line string) (name string, pairs []string, ok bool) {
	f := strings.Fields(line)
	if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
		return "", nil, false
	}
	return procs.ReplaceAllString(f[0], ""), f[2:], true
}

// Metric finds the value of unit in a benchmark line's value-unit pairs.
func Metric(pairs []string, unit string) (float64, bool) {
	for i := 1; i < len(pairs); i += 2 {
		if pairs[i] == unit {
			v, err := strconv.ParseFloat(pairs[i-1], 64)
			return v, err == nil
		}
	}
	return 0, false
}

// Median of xs, which is not empty.
func Median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
