package report

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/hcreplay/hcreplay/internal/natural"
)

// Estimate is a metric's mean over the trials of a grid point, with its 95% confidence interval.
type Estimate struct {
	N       int     // values that entered the estimate
	Skipped int     // NaN values left out: a metric undefined in a run (cost per on-time task with none on time)
	Mean    float64 // NaN when N = 0
	SD      float64 // sample standard deviation (divisor N − 1); NaN when N < 2
	Half    float64 // half-width of the 95% Student t interval; NaN when N < 2
}

// EstimateOf computes the mean, the sample standard deviation and the half-width of the 95%
// Student t confidence interval of xs, leaving out NaNs. Trials are few (often 10 to 30), so the
// interval uses t with N − 1 degrees of freedom rather than the normal 1.96.
func EstimateOf(xs []float64) Estimate {
	vals := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			vals = append(vals, x)
		}
	}
	e := Estimate{N: len(vals), Skipped: len(xs) - len(vals), Mean: math.NaN(), SD: math.NaN(), Half: math.NaN()}
	switch e.N {
	case 0:
	case 1:
		e.Mean = vals[0]
	default:
		e.Mean, e.SD = stat.MeanStdDev(vals, nil)
		t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(e.N - 1)}.Quantile(0.975)
		e.Half = t * e.SD / math.Sqrt(float64(e.N))
	}
	return e
}

// metric is one per-run number of RunRow that aggregation summarises.
type metric struct {
	name  string // the runs.parquet column
	label string // for tables and axes
	value func(RunRow) float64
}

// metrics lists every metric of RunRow, in the order of runs.parquet.
func metrics() []metric {
	return []metric{
		{"tasks", "tasks", func(r RunRow) float64 { return float64(r.Tasks) }},
		{"scored", "scored tasks", func(r RunRow) float64 { return float64(r.Scored) }},
		{"on_time", "on time", func(r RunRow) float64 { return float64(r.OnTime) }},
		{"late", "late", func(r RunRow) float64 { return float64(r.Late) }},
		{"dropped_deadline", "dropped (deadline)", func(r RunRow) float64 { return float64(r.DroppedDeadline) }},
		{"dropped_pruned", "dropped (pruned)", func(r RunRow) float64 { return float64(r.DroppedPruned) }},
		{"expired_unmapped", "expired unmapped", func(r RunRow) float64 { return float64(r.ExpiredUnmapped) }},
		{"robustness", "robustness (%)", func(r RunRow) float64 { return r.Robustness }},
		{"fairness_variance", "fairness variance", func(r RunRow) float64 { return r.FairnessVariance }},
		{"fairness_stddev", "fairness std dev", func(r RunRow) float64 { return r.FairnessStdDev }},
		{"jain_index", "Jain index", func(r RunRow) float64 { return r.JainIndex }},
		{"cost", "cost ($)", func(r RunRow) float64 { return r.Cost }},
		{"cost_per_on_time", "cost / on-time task ($)", func(r RunRow) float64 { return r.CostPerOnTime }},
		{"energy_joules", "energy (J)", func(r RunRow) float64 { return r.Energy }},
		{"energy_per_on_time", "energy / on-time task (J)", func(r RunRow) float64 { return r.EnergyPerOnTime }},
		{"wasted_busy_time", "wasted busy time", func(r RunRow) float64 { return r.WastedBusyTime }},
		{"utilisation", "utilisation", func(r RunRow) float64 { return r.Utilisation }},
		{"brier_score", "Brier score", func(r RunRow) float64 { return r.BrierScore }},
		{"mapping_events", "mapping events", func(r RunRow) float64 { return float64(r.MappingEvents) }},
		{"convolutions", "convolutions", func(r RunRow) float64 { return float64(r.Convolutions) }},
		{"impulse_multiplications", "impulse multiplications", func(r RunRow) float64 { return float64(r.Multiplications) }},
		{"success_evaluations", "success evaluations", func(r RunRow) float64 { return float64(r.SuccessEvals) }},
		{"mapper_seconds", "mapper time (s)", func(r RunRow) float64 { return r.MapperSeconds }},
		{"pruner_seconds", "pruner time (s)", func(r RunRow) float64 { return r.PrunerSeconds }},
	}
}

// option is one option of a run: what tables show in a column, legends name, and pairing with
// a baseline compares.
type option struct {
	name    string // the runs.parquet column
	label   string // table header and legend prefix
	value   func(RunRow) string
	hidden  bool // shown through the name (heuristic and variant), never on its own
	pruning bool // a pruning option (SPEC §5.3): an unpruned baseline leaves it at its zero value
}

// options lists the options of RunRow that tell grid points apart. The trial, its trace and
// the level's rate are not among them: the first two vary within a point, the rate goes with
// the level.
func options() []option {
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return []option{
		{name: "name", label: "name", value: nameOf},
		{name: "heuristic", label: "heuristic", value: func(r RunRow) string { return r.Heuristic }, hidden: true},
		{name: "prune", label: "pruning", value: func(r RunRow) string { return r.Prune }, hidden: true, pruning: true},
		{name: "level", label: "level", value: func(r RunRow) string { return r.Level }},
		{name: "queue_size", label: "queue", value: func(r RunRow) string { return strconv.Itoa(int(r.QueueSize)) }},
		{name: "drop_model", label: "drop model", value: func(r RunRow) string { return r.DropModel }},
		{name: "strict", label: "strict", value: func(r RunRow) string { return strconv.FormatBool(r.Strict) }},
		{name: "condition_elapsed", label: "condition elapsed", value: func(r RunRow) string { return strconv.FormatBool(r.ConditionElapsed) }},
		{name: "trim", label: "trim", value: func(r RunRow) string { return strconv.Itoa(int(r.Trim)) }},
		{name: "seed", label: "seed", value: func(r RunRow) string { return strconv.FormatInt(r.Seed, 10) }},
		{name: "engine", label: "engine", value: func(r RunRow) string { return r.Engine }},
		{name: "toggle", label: "toggle", value: func(r RunRow) string { return r.Toggle }, pruning: true},
		{name: "lambda", label: "λ", value: func(r RunRow) string { return num(r.Lambda) }, pruning: true},
		{name: "drop_threshold", label: "drop θ", value: func(r RunRow) string { return num(r.DropThreshold) }, pruning: true},
		{name: "rho", label: "ρ", value: func(r RunRow) string { return num(r.Rho) }, pruning: true},
		{name: "defer", label: "defer", value: func(r RunRow) string { return r.Defer }, pruning: true},
		{name: "fairness", label: "ϑ", value: func(r RunRow) string { return num(r.Fairness) }, pruning: true},
		{name: "defer_at", label: "defer at", value: func(r RunRow) string { return r.DeferAt }, pruning: true},
		{name: "drop_running", label: "drop running", value: func(r RunRow) string { return r.DropRunning }, pruning: true},
		{name: "sufferage_expired", label: "expiries suffer", value: func(r RunRow) string { return strconv.FormatBool(r.SufferageExpired) }, pruning: true},
	}
}

// optionNamed returns the option of that runs.parquet column; it panics on a name options()
// does not list, which is a bug in this package.
func optionNamed(name string) option {
	for _, o := range options() {
		if o.name == name {
			return o
		}
	}
	panic("report: no option " + name)
}

// shown is an option value as tables and legends show it: "–" for an unset (empty) one.
func shown(v string) string {
	if v == "" {
		return "–"
	}
	return v
}

// nameOf is the heuristic with its variant suffix (MM-P), or the bare heuristic for rows
// written without a name.
func nameOf(r RunRow) string {
	if r.Name != "" {
		return r.Name
	}
	return r.Heuristic
}

// Group is the runs of one grid point: every trial of one combination of options.
type Group struct {
	Point string
	Runs  []RunRow            // by trial
	Stats map[string]Estimate // by metric name (the runs.parquet column)
	// Diff holds the paired differences (this group − baseline, trial by trial) by metric name;
	// nil when the aggregate has no baseline or no baseline group matches this one.
	Diff     map[string]Estimate
	Baseline string // the baseline group's point; equal to Point for a baseline group itself
}

// Run returns the group's first run, which carries the options every run of the group shares.
func (g *Group) Run() RunRow { return g.Runs[0] }

// Stat returns the estimate of the named metric.
func (g *Group) Stat(metric string) Estimate { return g.Stats[metric] }

// Aggregate is the runs of a sweep grouped by grid point and summarised over trials.
type Aggregate struct {
	Groups   []*Group // by level, then name (the baseline first), then the other options
	Levels   []string // in oversubscription order: by level rate where known, else by label
	Baseline string   // the name differences are taken against; "" for none
}

// AggregateRuns groups rows by Point and summarises every metric over the trials. With a
// baseline name, it also pairs each group with the baseline group run under the same options
// (see pairBaseline) and computes the paired differences trial by trial: the trials of a
// level are the same arrival traces for every heuristic, so pairing removes the variance the
// traces share. A baseline that names no group is an error.
func AggregateRuns(rows []RunRow, baseline string) (*Aggregate, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("no runs to aggregate")
	}
	byPoint := map[string]*Group{}
	var groups []*Group
	for _, r := range rows {
		g := byPoint[r.Point]
		if g == nil {
			g = &Group{Point: r.Point}
			byPoint[r.Point] = g
			groups = append(groups, g)
		}
		g.Runs = append(g.Runs, r)
	}
	for _, g := range groups {
		slices.SortFunc(g.Runs, func(a, b RunRow) int { return cmp.Compare(a.Trial, b.Trial) })
		g.Stats = map[string]Estimate{}
		for _, m := range metrics() {
			g.Stats[m.name] = EstimateOf(column(g.Runs, m.value))
		}
	}
	a := &Aggregate{Groups: groups, Levels: levelOrder(rows), Baseline: baseline}
	a.sort()
	if baseline != "" {
		if err := a.pairBaseline(); err != nil {
			return nil, err
		}
	}
	return a, nil
}

func column(runs []RunRow, value func(RunRow) float64) []float64 {
	xs := make([]float64, len(runs))
	for i, r := range runs {
		xs[i] = value(r)
	}
	return xs
}

// levelOrder orders the levels by their rate (tasks per time unit) where the sweep knew it,
// since labels such as "19k" and "spiky20k" do not sort by load; levels without a rate follow
// in natural order ("2" before "10").
func levelOrder(rows []RunRow) []string {
	rate := map[string]float64{}
	var levels []string
	for _, r := range rows {
		if _, seen := rate[r.Level]; !seen {
			levels = append(levels, r.Level)
			rate[r.Level] = math.NaN()
		}
		if known(r.LevelRate) && !known(rate[r.Level]) {
			rate[r.Level] = r.LevelRate
		}
	}
	slices.SortFunc(levels, func(a, b string) int {
		ra, rb := rate[a], rate[b]
		switch {
		case known(ra) && known(rb) && ra != rb:
			return cmp.Compare(ra, rb)
		case known(ra) != known(rb):
			if known(ra) {
				return -1
			}
			return 1
		}
		return natural.Compare(a, b)
	})
	return levels
}

// known reports whether a level rate was set: RunRow leaves it NaN (or zero) when unknown.
func known(rate float64) bool { return rate > 0 && !math.IsInf(rate, 0) }

// variantRank orders the pruning variants as the thesis lists them.
func variantRank(prune string) int {
	i := slices.Index([]string{"", "none", "defer", "drop", "both"}, prune)
	if i < 0 {
		return 5
	}
	return max(i, 1)
}

func (a *Aggregate) sort() {
	level := map[string]int{}
	for i, l := range a.Levels {
		level[l] = i
	}
	opts := options()
	slices.SortStableFunc(a.Groups, func(x, y *Group) int {
		rx, ry := x.Run(), y.Run()
		if c := cmp.Compare(level[rx.Level], level[ry.Level]); c != 0 {
			return c
		}
		if bx, by := a.isBaselineName(rx), a.isBaselineName(ry); bx != by {
			if bx {
				return -1
			}
			return 1
		}
		if c := natural.Compare(rx.Heuristic, ry.Heuristic); c != 0 {
			return c
		}
		if c := cmp.Compare(variantRank(rx.Prune), variantRank(ry.Prune)); c != 0 {
			return c
		}
		for _, o := range opts {
			if c := natural.Compare(o.value(rx), o.value(ry)); c != 0 {
				return c
			}
		}
		return strings.Compare(x.Point, y.Point)
	})
}

func (a *Aggregate) isBaselineName(r RunRow) bool {
	return a.Baseline != "" && nameOf(r) == a.Baseline
}

// pairBaseline finds each group's baseline group and computes the paired differences. The
// baseline is a name (MM) or, when no group has that name, a heuristic (so that --baseline MM
// works in a sweep of pruned variants only: MM-P is then the baseline of PAM-P).
func (a *Aggregate) pairBaseline() error {
	var cands []*Group
	for _, g := range a.Groups {
		if nameOf(g.Run()) == a.Baseline {
			cands = append(cands, g)
		}
	}
	if len(cands) == 0 {
		for _, g := range a.Groups {
			if g.Run().Heuristic == a.Baseline {
				cands = append(cands, g)
			}
		}
	}
	if len(cands) == 0 {
		return fmt.Errorf("baseline %q: no runs of that heuristic; the runs have %s", a.Baseline, strings.Join(a.names(), ", "))
	}
	for _, g := range a.Groups {
		if b := baselineOf(g, cands); b != nil {
			g.Baseline = b.Point
			g.Diff = pairedDifferences(g, b)
		}
	}
	return nil
}

// names lists the names (heuristic and variant) of the groups, each once, sorted.
func (a *Aggregate) names() []string {
	var names []string
	for _, g := range a.Groups {
		if n := nameOf(g.Run()); !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	slices.SortFunc(names, natural.Compare)
	return names
}

// baselineOf returns the candidate run under the same options as g, apart from the heuristic.
// An unpruned baseline differs from a pruned group in its variant, and its pruning options are
// whatever the sweep wrote (defaults or zeros) since they do not apply to it; so the passes
// compare ever fewer options: all of them (PAM-P against MM-P), all but the variant (MM-P
// against the MM row of the same λ), then only those that are not about pruning (MM-P against
// MM). It returns nil when no candidate, or more than one, matches in the first pass that finds
// any: a difference against an arbitrary group would mislead.
func baselineOf(g *Group, cands []*Group) *Group {
	passes := []func(option) bool{
		func(o option) bool { return o.name != "name" && o.name != "heuristic" },
		func(o option) bool { return o.name != "name" && o.name != "heuristic" && o.name != "prune" },
		func(o option) bool { return o.name != "name" && o.name != "heuristic" && !o.pruning },
	}
	for _, compared := range passes {
		var found []*Group
		for _, c := range cands {
			if sameOptions(g.Run(), c.Run(), compared) {
				found = append(found, c)
			}
		}
		switch len(found) {
		case 0:
			continue
		case 1:
			return found[0]
		}
		return nil
	}
	return nil
}

func sameOptions(a, b RunRow, compared func(option) bool) bool {
	for _, o := range options() {
		if compared(o) && o.value(a) != o.value(b) {
			return false
		}
	}
	return true
}

// pairedDifferences estimates, per metric, the mean of (g − b) over the trials both groups
// ran. Trials only one of them ran are left out; a NaN on either side is skipped and counted.
func pairedDifferences(g, b *Group) map[string]Estimate {
	base := map[int32]RunRow{}
	for _, r := range b.Runs {
		base[r.Trial] = r
	}
	diff := map[string]Estimate{}
	for _, m := range metrics() {
		var d []float64
		for _, r := range g.Runs {
			if br, ok := base[r.Trial]; ok {
				d = append(d, m.value(r)-m.value(br))
			}
		}
		diff[m.name] = EstimateOf(d)
	}
	return diff
}

// applies reports whether an option means anything for a run: pruning options do not for an
// unpruned run (prune.Wrap returns the bare heuristic), whatever values the row carries.
func (o option) applies(r RunRow) bool { return !o.pruning || pruned(r) }

// varying returns the options (not hidden) that take at least two values among the groups they
// apply to, in the order of options(), leaving out those named in except.
func varying(groups []*Group, except ...string) []option {
	var out []option
	for _, o := range options() {
		if o.hidden || slices.Contains(except, o.name) {
			continue
		}
		seen := map[string]bool{}
		for _, g := range groups {
			if o.applies(g.Run()) {
				seen[o.value(g.Run())] = true
			}
		}
		if len(seen) >= 2 {
			out = append(out, o)
		}
	}
	return out
}
