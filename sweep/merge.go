package sweep

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hcreplay/hcreplay/report"
)

// MergeRuns reads runs files (report.RunsFile) and merges them by key, as the shards of one sweep are. A key met
// twice with the same results is read once (a shard given twice, or rerun); with different
// results, the files come from different sweeps, and aggregating them would mix trials; so would
// rows of one level and trial that replayed different trace files. held counts, per file, the runs
// it added.
func MergeRuns(paths []string) (_ []report.RunRow, held map[string]int, _ error) {
	type seen struct {
		row  report.RunRow
		file string
	}
	byKey := map[string]seen{}
	type trial struct {
		level string
		n     int32
	}
	trials := map[trial]seen{} // the first row of each level and trial
	var rows []report.RunRow
	held = map[string]int{}
	for _, p := range paths {
		rs, err := report.ReadRuns(p)
		if err != nil {
			return nil, nil, InputError{err}
		}
		for _, r := range rs {
			if s, dup := byKey[r.Key]; dup {
				if !sameRun(s.row, r) {
					return nil, nil, InputError{fmt.Errorf("run %q is in %s and in %s with different options or results: are they from different sweeps?", r.Key, s.file, p)}
				}
				continue
			}
			byKey[r.Key] = seen{r, p}
			rows = append(rows, r)
			held[p]++
			// Every heuristic of a level replays the same trials, and pairing goes by the trial's
			// number: rows of one level and trial from different files are not comparable. Paths
			// differ between machines, so the file's name decides.
			t := trial{r.Level, r.Trial}
			if first, ok := trials[t]; !ok {
				trials[t] = seen{r, p}
			} else if filepath.Base(first.row.Trace) != filepath.Base(r.Trace) {
				return nil, nil, InputError{fmt.Errorf("level %s, trial %d: %s replays %s, but %s replays %s: the runs files hold different trials under one level; report them apart",
					r.Level, r.Trial, first.file, filepath.Base(first.row.Trace), p, filepath.Base(r.Trace))}
			}
		}
	}
	slices.SortFunc(rows, func(a, b report.RunRow) int { return strings.Compare(a.Key, b.Key) })
	return rows, held, nil
}

// sameRun compares two rows apart from their wall times, which differ between two runs of the
// same grid point. Rows are compared as text so that NaN metrics (undefined in both) are equal.
func sameRun(a, b report.RunRow) bool {
	return fmt.Sprintf("%#v", a.WithoutTimes()) == fmt.Sprintf("%#v", b.WithoutTimes())
}

// RunsTimeUnit is the time unit the runs files record (empty when none does). Files in
// different units would average times of different lengths: that is refused. Its errors, like
// MergeRuns', are InputErrors: the files are the user's.
func RunsTimeUnit(paths []string) (string, error) {
	unit, from := "", ""
	for _, p := range paths {
		m, err := report.ReadRunsMeta(p)
		if err != nil {
			return "", InputError{err}
		}
		switch {
		case m.TimeUnit == "":
		case unit == "":
			unit, from = m.TimeUnit, p
		case m.TimeUnit != unit:
			return "", InputError{fmt.Errorf("%s is in %s but %s is in %s: replay both with PETs of one time unit", from, unit, p, m.TimeUnit)}
		}
	}
	return unit, nil
}
