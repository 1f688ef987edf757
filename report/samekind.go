package report

import (
	"fmt"
	"strings"

	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay/prune"
)

// pointKey is what makes two grid points replay alike: the same level and replay options, and
// a mapper of the same kind (prune.KindOf). TestPointKeyCoversSweepRun keeps it in step with
// SweepRun.
type pointKey struct {
	level            string
	queueSize        int
	dropModel        pmf.Model
	strict           bool
	conditionElapsed bool
	trim             int
	seed             uint64
	engine           string
	kind             prune.Kind
}

// pointKey is the run's pointKey: its level and replay options, and its mapper's kind.
func (r *SweepRun) pointKey() pointKey {
	p, c := r.mapperSpec()
	return pointKey{r.Level, r.QueueSize, r.DropModel, r.Strict, r.ConditionElapsed, r.Trim, r.Seed, r.Engine,
		prune.KindOf(r.Heuristic, p, c)}
}

// sameMapperWarnings tells of grid points that are one replay under two labels: two
// heuristics or presets that make the same mapper (prune.KindOf) with the same level and
// options, as PAM and PAMF do, pruned, once a fairness factor is set for both. The user asked for
// both and will see the same rows twice. One warning per pair of labels, with the number of grid
// points that have them and the first of those, in the order of the grid.
func sameMapperWarnings(runs []SweepRun) []string {
	type pair struct{ first, second int } // indices into runs
	firstOf := map[pointKey]int{}
	var pairs []pair
	for i := range runs {
		if runs[i].Trial != 1 {
			continue // a grid point's trials share its key
		}
		k := runs[i].pointKey()
		if j, ok := firstOf[k]; ok {
			pairs = append(pairs, pair{j, i})
		} else {
			firstOf[k] = i
		}
	}
	type labels struct{ first, second string }
	count := map[labels]int{}
	var order []labels
	firstPoint := map[labels]*SweepRun{}
	for _, p := range pairs {
		l := labels{runs[p.first].label(), runs[p.second].label()}
		if l.first == l.second {
			continue // one mapper asked for twice (PAMF under none and both): one label, as asked
		}
		if count[l] == 0 {
			order, firstPoint[l] = append(order, l), &runs[p.second]
		}
		count[l]++
	}
	if len(order) == 0 {
		return nil
	}
	short := pointNamer(runs)
	var out []string
	for _, l := range order {
		r := firstPoint[l]
		why := ""
		if r.Fairness > 0 && (strings.HasPrefix(l.first, "PAMF") || strings.HasPrefix(l.second, "PAMF")) {
			why = "; a fairness factor gives every pruned mapper the sufferage factor that makes PAM PAMF"
		}
		at := "grid point " + short(r.Point)
		if count[l] > 1 {
			at = fmt.Sprintf("%d grid points, the first %s", count[l], short(r.Point))
		}
		out = append(out, fmt.Sprintf("warning: %s is %s at %s (the same heuristic, parameters and pruning), so their runs will be equal%s",
			l.second, l.first, at, why))
	}
	return out
}

// label is the name of the run's mapper (MM-P, PAMF-P), or its heuristic when it has none.
func (r *SweepRun) label() string {
	m, err := r.mapper()
	if err != nil {
		return r.Heuristic // the grid was validated: not reached
	}
	return m.Name()
}

// pointNamer returns a function that shortens a grid point of runs to the keys that tell it
// apart: the level, the heuristic and the pruning, and the options whose value is not the same at
// every point (a point lists all of them, in one order).
func pointNamer(runs []SweepRun) func(string) string {
	first := strings.Split(runs[0].Point, "|")
	keep := make([]bool, len(first))
	for i, part := range first {
		key, _, _ := strings.Cut(part, "=")
		keep[i] = key == "level" || key == "heuristic" || key == "prune"
	}
	for i := range runs {
		if runs[i].Trial != 1 {
			continue
		}
		for j, part := range strings.Split(runs[i].Point, "|") {
			if j < len(first) && part != first[j] {
				keep[j] = true
			}
		}
	}
	return func(point string) string {
		var parts []string
		for j, part := range strings.Split(point, "|") {
			if j >= len(keep) || keep[j] {
				parts = append(parts, part)
			}
		}
		return strings.Join(parts, "|")
	}
}
