package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/internal/natural"
)

// figureKind is one figure of SPEC §6. build returns nil when the runs do not vary what the
// figure is about: a fairness figure of one fairness factor would be a single point per line.
type figureKind struct {
	name  string // file stem
	build func(*Aggregate) *chart
}

// figureKinds lists the figures in the order the report shows them.
func figureKinds() []figureKind {
	return []figureKind{
		{"robustness", robustnessFigure},
		{"fairness", fairnessFigure},
		{"cost", func(a *Aggregate) *chart { return perOnTimeFigure(a, "cost_per_on_time", "cost per on-time task", "$") }},
		{"energy", func(a *Aggregate) *chart {
			return perOnTimeFigure(a, "energy_per_on_time", "energy per on-time task", "J")
		}},
		{"overhead", overheadFigure},
		{"thresholds", thresholdFigure},
		{"toggle", toggleFigure},
		{"deferring", deferringFigure},
	}
}

const ciNote = "Mean over trials with its 95% confidence interval (Student t)."

// robustnessFigure is always drawn: robustness against the oversubscription level, one line per
// heuristic, solid without pruning and dashed with it.
func robustnessFigure(a *Aggregate) *chart {
	f := lineFigure{groups: a.Groups, x: levelAxis(a.Groups, a.Levels), y: "robustness",
		yLabel: "robustness (% on time)", colourBy: "heuristic", dashPruned: true}
	return f.chart("Robustness (% of scored tasks finished on time) against the oversubscription level; " +
		"dashed lines are pruned variants. " + ciNote)
}

// fairnessFigure needs at least two fairness factors.
func fairnessFigure(a *Aggregate) *chart {
	if distinct(a.Groups, "fairness") < 2 {
		return nil
	}
	f := lineFigure{groups: a.Groups, y: "fairness_variance", yLabel: "fairness variance (%²)",
		x:        numericAxis("fairness factor ϑ", "fairness", func(r RunRow) float64 { return r.Fairness }),
		colourBy: "heuristic", dashPruned: true,
		pointLabel: func(g *Group) string {
			if m := g.Stat("robustness").Mean; !math.IsNaN(m) {
				return fmt.Sprintf("%.0f%%", m)
			}
			return ""
		}}
	return f.chart("Variance of the per-task-type on-time percentages against the fairness factor ϑ; " +
		"labels give the robustness. " + ciNote)
}

// perOnTimeFigure draws cost or energy per on-time task against the level, when the machines
// had prices or power figures (some mean is neither zero nor undefined). The axis is in unit,
// with an SI prefix when the values are very small or large (µ$, kJ), at round ticks.
func perOnTimeFigure(a *Aggregate, metric, label, unit string) *chart {
	top := 0.0
	for _, g := range a.Groups {
		if m := g.Stat(metric).Mean; !math.IsNaN(m) && !math.IsInf(m, 0) {
			top = math.Max(top, math.Abs(m))
		}
	}
	if top == 0 {
		return nil
	}
	scale, prefix := siScale(top)
	yLabel := fmt.Sprintf("%s (%s%s)", label, prefix, unit)
	f := lineFigure{groups: a.Groups, x: levelAxis(a.Groups, a.Levels), y: metric, yLabel: yLabel,
		colourBy: "heuristic", dashPruned: true}
	ch := f.chart(fmt.Sprintf("%s against the oversubscription level. %s",
		strings.ToUpper(yLabel[:1])+yLabel[1:], ciNote))
	ch.panels[0].Y.Tick.Marker = roundTicks{scale: scale}
	return ch
}

// overheadFigure needs at least two engines: wall time in the mapper and the deterministic
// counters per run, one line per engine, on a log axis when they are orders of magnitude apart.
func overheadFigure(a *Aggregate) *chart {
	if distinct(a.Groups, "engine") < 2 {
		return nil
	}
	ch := &chart{caption: "Mapping overhead per run against the oversubscription level, per engine: wall time in the " +
		"mapper, and the deterministic counts of convolutions and success-chance evaluations (log scale " +
		"when they span orders of magnitude). " + ciNote}
	panels := []struct{ metric, label string }{
		{"mapper_seconds", "mapper time (s)"},
		{"convolutions", "convolutions"},
		{"success_evaluations", "success evals"},
	}
	for _, pn := range panels {
		if !slices.ContainsFunc(a.Groups, func(g *Group) bool { return g.Stat(pn.metric).Mean > 0 }) {
			continue // a counter the engines do not keep
		}
		f := lineFigure{groups: a.Groups, x: levelAxis(a.Groups, a.Levels), y: pn.metric, yLabel: pn.label,
			colourBy: "engine", dashPruned: true, logY: true}
		p, legend := f.panel()
		ch.panels = append(ch.panels, p)
		if ch.legend == nil {
			ch.legend = legend
		}
	}
	if len(ch.panels) == 0 {
		return nil
	}
	for _, p := range ch.panels[:len(ch.panels)-1] {
		p.X.Label.Text = "" // the panels share the x axis: name it once, at the bottom
	}
	return ch
}

// thresholdFigure needs at least two deferring thresholds (static or dropping threshold plus
// gap) among the variants that defer: robustness against the deferring threshold, one line per
// dropping threshold.
func thresholdFigure(a *Aggregate) *chart {
	groups := filter(a.Groups, func(r RunRow) bool { return defers(r) && !math.IsNaN(deferThreshold(r)) })
	if distinctFunc(groups, func(r RunRow) string { return fmt.Sprint(deferThreshold(r)) }) < 2 {
		return nil
	}
	f := lineFigure{groups: groups, y: "robustness", yLabel: "robustness (% on time)",
		x:        numericAxis("deferring threshold", "defer", deferThreshold),
		colourBy: "drop_threshold"}
	return f.chart("Robustness against the deferring threshold, one line per dropping threshold θ " +
		"(variants that defer, with a static or gap rule). " + ciNote)
}

// toggleFigure needs at least two values of λ, or else two toggles, among the variants that
// drop: robustness against λ, one line per toggle (threshold against Schmitt trigger); or, with
// one λ, robustness per toggle.
func toggleFigure(a *Aggregate) *chart {
	groups := filter(a.Groups, drops)
	var f lineFigure
	switch {
	case distinct(groups, "lambda") >= 2:
		f = lineFigure{x: numericAxis("λ (weight of the current event)", "lambda", func(r RunRow) float64 { return r.Lambda }),
			colourBy: "toggle"}
	case distinct(groups, "toggle") >= 2:
		var toggles []string
		for _, g := range groups {
			if t := g.Run().Toggle; !slices.Contains(toggles, t) {
				toggles = append(toggles, t)
			}
		}
		slices.SortFunc(toggles, compareToggles)
		f = lineFigure{x: categoryAxis("toggle", "toggle", toggles, func(r RunRow) string { return r.Toggle }),
			colourBy: "heuristic"}
	default:
		return nil
	}
	f.groups, f.y, f.yLabel = groups, "robustness", "robustness (% on time)"
	return f.chart("Robustness of the variants that drop against the toggle's history weight λ and rule " +
		"(threshold or Schmitt trigger on the oversubscription level). " + ciNote)
}

// deferringFigure needs a dynamic deferring rule and at least one other among the variants
// that defer: grouped bars of robustness per trace set, one bar per rule.
func deferringFigure(a *Aggregate) *chart {
	groups := filter(a.Groups, defers)
	if distinct(groups, "defer") < 2 || !slices.ContainsFunc(groups, func(g *Group) bool {
		return strings.HasPrefix(g.Run().Defer, "dynamic")
	}) {
		return nil
	}
	// Static rules first, as the figure compares dynamic deferring against them.
	groups = slices.Clone(groups)
	dynamic := func(g *Group) int {
		if strings.HasPrefix(g.Run().Defer, "dynamic") {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(groups, func(x, y *Group) int { return cmp.Compare(dynamic(x), dynamic(y)) })
	x := levelAxis(groups, a.Levels)
	x.label = "trace set"
	f := barFigure{groups: groups, x: x, y: "robustness", yLabel: "robustness (% on time)"}
	return f.chart("Robustness with static and dynamic deferring thresholds, per trace set. " + ciNote)
}

// numericAxis places groups at a number derived from their options.
func numericAxis(label, option string, pos func(RunRow) float64) xAxis {
	return xAxis{label: label, options: []string{option}, pos: pos}
}

// pruned reports whether a run used pruning at all.
func pruned(r RunRow) bool { return r.Prune != "" && r.Prune != "none" }

// defers and drops report whether a run's variant defers (X-D, X-P) or drops (X-Drop, X-P).
func defers(r RunRow) bool { return r.Prune == "defer" || r.Prune == "both" }
func drops(r RunRow) bool  { return r.Prune == "drop" || r.Prune == "both" }

// deferThreshold is the deferring threshold a static rule (static:T) or a gap rule (gap:G, on
// top of the dropping threshold, capped at 1) sets; NaN for a dynamic rule, which moves it.
func deferThreshold(r RunRow) float64 {
	kind, val, _ := strings.Cut(r.Defer, ":")
	v, err := strconv.ParseFloat(val, 64)
	if err != nil {
		return math.NaN()
	}
	switch kind {
	case "static":
		return v
	case "gap":
		return min(r.DropThreshold+v, 1)
	}
	return math.NaN()
}

// compareToggles orders toggles always, never, threshold, schmitt, then by their numbers.
func compareToggles(a, b string) int {
	rank := func(t string) int {
		kind, _, _ := strings.Cut(t, ":")
		if i := slices.Index([]string{"always", "never", "threshold", "schmitt"}, kind); i >= 0 {
			return i
		}
		return 4
	}
	return cmp.Or(cmp.Compare(rank(a), rank(b)), natural.Compare(a, b))
}

func filter(groups []*Group, keep func(RunRow) bool) []*Group {
	var out []*Group
	for _, g := range groups {
		if keep(g.Run()) {
			out = append(out, g)
		}
	}
	return out
}

// distinct counts the values of the named option among the groups it applies to.
func distinct(groups []*Group, name string) int {
	o := optionNamed(name)
	return distinctFunc(filter(groups, o.applies), o.value)
}

func distinctFunc(groups []*Group, value func(RunRow) string) int {
	seen := map[string]bool{}
	for _, g := range groups {
		seen[value(g.Run())] = true
	}
	return len(seen)
}
