package sweep

import (
	"fmt"
	"strings"

	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay/prune"
)

// pointKey is what makes two grid points replay alike: the same level and replay options, and
// a mapper of the same kind (prune.KindOf). TestPointKeyCoversSweepRun keeps it in step with
// SweepRun. Grid.Expand lists one run per pointKey and trial.
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

// sameMappers collects the grid points left out because another name makes the same mapper there
// (prune.KindOf), as PAMF does PAM's, pruned, once a fairness factor is set for both: the user
// asked for both labels and gets one replay, under the label that comes first in the grid.
type sameMappers struct {
	count map[[2]string]int    // by the labels kept and left out
	first map[[2]string]string // the first point left out
	order [][2]string
}

// add notes that dup, left out, replays as kept.
func (s *sameMappers) add(kept, dup *SweepRun) {
	l := [2]string{kept.label(), dup.label()}
	if l[0] == l[1] {
		return // an option that does not apply, or a preset under a variant it overrides: one label
	}
	if s.count == nil {
		s.count, s.first = map[[2]string]int{}, map[[2]string]string{}
	}
	if s.count[l]++; s.count[l] == 1 {
		s.order, s.first[l] = append(s.order, l), kept.Point
	}
}

// notes says, once per pair of labels, where one was left out for the other, in the grid's order.
func (s *sameMappers) notes(runs []SweepRun) []string {
	if len(s.order) == 0 {
		return nil
	}
	short := pointNamer(runs)
	var out []string
	for _, l := range s.order {
		at := "grid point " + short(s.first[l])
		if n := s.count[l]; n > 1 {
			at = fmt.Sprintf("%d grid points, the first %s", n, short(s.first[l]))
		}
		out = append(out, fmt.Sprintf("warning: %s is %s at %s (the same heuristic, parameters and pruning): replayed once, under %s",
			l[1], l[0], at, l[0]))
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
