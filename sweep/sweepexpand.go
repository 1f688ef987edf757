package sweep

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
	"github.com/hcreplay/hcreplay/replay/prune"
	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/trace"
)

// SweepRun is one replay of a sweep: a grid point and a trial, with every option resolved.
type SweepRun struct {
	Index int    // position in the expanded order, from 0; shards split on it
	Key   string // Point + "|trial=N": unique within a sweep, stable across invocations
	Point string // every option but the trial, canonical: what aggregation groups by
	Level string
	Trial int // 1-based, within the level

	Heuristic        string // canonical name: MM, PAMF, MCT (for MECT), ...
	Prune            prune.Variant
	QueueSize        int
	DropModel        pmf.Model
	Strict           bool
	ConditionElapsed bool
	Trim             int
	Seed             uint64
	Engine           string
	Toggle           prune.Toggle
	Lambda           float64
	DropThreshold    float64
	Rho              float64
	Defer            prune.DeferRule
	Fairness         float64
	KPBPercent       float64
	MOCCull          float64
	DeferAt          prune.DeferPlace
	DropRunning      prune.RunningDrop
	SufferageExpired bool
}

// axis is one list of the grid: its key, its values in canonical form (the same value written
// two ways gives one string), for each value how it sets a run, and how a run's value reads in
// that form (a run canonical made may hold a value the list does not: a preset's).
type axis struct {
	key    string
	values []string
	set    []func(*SweepRun)
	get    func(*SweepRun) string
}

// Validate checks every value of the grid without reading any file, and every grid point's
// mapper (prune.MapperProblems: a deferring threshold of 1 is refused): messages name the file, the line and the key (or the flag) of
// the first bad value of each key.
func (g *Grid) Validate() error {
	_, err := g.axes()
	if err = errors.Join(err, g.validateLevels()); err != nil {
		return err
	}
	one, counts := map[string]int{}, map[string]int{} // every point once; the size with the trials known
	for _, lv := range g.Levels {
		one[lv.Name], counts[lv.Name] = 1, 1
		if lv.Generate != nil {
			counts[lv.Name] = lv.Trials
		}
	}
	if _, err = g.expand(one); err != nil {
		return err
	}
	axes, _ := g.axes()
	_, err = g.size(axes, counts)
	return err
}

// Expand lists the runs of the grid in its fixed order: levels in the order given, then
// heuristics, pruning variants and the options in the order of GridOptions, each in the order
// of its list, with the trial varying fastest. trials gives each level's number of trials.
// The same grid and counts always give the same runs, keys and indices.
//
// A combination that replays as an earlier one is left out, so that no replay runs twice and no
// report shows one replay under two labels: a run is first made what it runs (SweepRun.canonical:
// a preset's tuning, and the first value of its list for each option its mapper does not read),
// and one of the same level, options and mapper kind (prune.KindOf) as an earlier one is that
// one. A grid point whose pruning is degenerate (a deferring threshold of 1) is an error.
func (g *Grid) Expand(trials map[string]int) ([]SweepRun, error) {
	x, err := g.expand(trials)
	return x.runs, err
}

// expansion is a grid's runs and what expanding it found.
type expansion struct {
	runs         []SweepRun
	combinations int      // runs before the repeats were left out
	notes        []string // warnings: pruning that does nothing, names of one mapper
}

func (g *Grid) expand(trials map[string]int) (expansion, error) {
	var x expansion
	axes, err := g.axes()
	if err = errors.Join(err, g.validateLevels()); err != nil {
		return x, err
	}
	total, err := g.size(axes, trials) // every count is checked before any run is listed
	if err != nil {
		return x, err
	}
	var first SweepRun // every option at the first value of its list
	for _, a := range axes {
		a.set[0](&first)
	}
	runs := make([]SweepRun, 0, total)
	seen := map[pointKey]int{} // the index in runs of each distinct point's first trial
	var same sameMappers
	problems := map[string]int{} // warning → grid points
	var order []string
	for _, lv := range g.Levels {
		n := trials[lv.Name]
		product(axes, SweepRun{Level: lv.Name}, func(r SweepRun) {
			if err != nil {
				return
			}
			x.combinations += n
			r.canonical(&first)
			k := r.pointKey()
			if j, dup := seen[k]; dup {
				same.add(&runs[j], &r)
				return
			}
			var warnings []string
			if warnings, err = g.checkPruning(&r); err != nil {
				return
			}
			for _, w := range warnings {
				if problems[w]++; problems[w] == 1 {
					order = append(order, w)
				}
			}
			seen[k] = len(runs)
			r.Point = r.point(axes)
			for t := 1; t <= n; t++ {
				r.Trial, r.Index = t, len(runs)
				r.Key = r.Point + "|trial=" + strconv.Itoa(t)
				runs = append(runs, r)
			}
		})
		if err != nil {
			return x, err
		}
	}
	x.runs = runs
	for _, w := range order {
		x.notes = append(x.notes, fmt.Sprintf("warning: %s (at %d %s)", w, problems[w], plural(problems[w], "grid point", "grid points")))
	}
	x.notes = append(x.notes, same.notes(runs)...)
	return x, nil
}

// size is the number of runs of the grid with trials of each level, checked against
// maxSweepRuns, and with the generated levels' tasks against the memory both caps share.
func (g *Grid) size(axes []axis, trials map[string]int) (int, error) {
	points := 1 // per level and trial, saturated past maxSweepRuns (lists from a file can multiply past any int)
	for _, a := range axes {
		points = min(points*len(a.values), maxSweepRuns+1)
	}
	total, tasks := 0, 0
	for i, lv := range g.Levels {
		n := trials[lv.Name]
		if n < 1 {
			return 0, fmt.Errorf("%s: level %q has no trials", g.Where(fmt.Sprintf("levels[%d]", i)), lv.Name)
		}
		if n > (maxSweepRuns-total)/points {
			return 0, fmt.Errorf("%s: level %q makes the sweep more than %d runs (%d trials of each grid point, and %s grid points): is a list or a trial count longer than meant?",
				g.Where(fmt.Sprintf("levels[%d]", i)), lv.Name, maxSweepRuns, n, countText(points, maxSweepRuns))
		}
		total += n * points
		if lv.Generate != nil { // validateLevels has kept these under maxGeneratedTasks
			tasks += lv.Trials * lv.Generate.Tasks
		}
	}
	if need := total*runBytes + tasks*genTaskBytes; need > sweepMemory {
		return 0, fmt.Errorf("%s: %d runs and %d generated tasks take about %.1f GB at the sweep's peak (%d bytes a run, %d a task), more than the %.1f GB the caps allow: fewer trials, shorter lists or fewer tasks per trial",
			g.Where("levels"), total, tasks, float64(need)/1e9, runBytes, genTaskBytes, float64(sweepMemory)/1e9)
	}
	return total, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// point is the run's grid point: its level and the value of every axis, canonical.
func (r *SweepRun) point(axes []axis) string {
	var b strings.Builder
	b.WriteString("level=" + r.Level)
	for _, a := range axes {
		b.WriteString("|" + a.key + "=" + a.get(r))
	}
	return b.String()
}

// canonical makes r what it runs, so that two combinations of the grid that replay alike are
// one run: a preset's tuning is written into its fields (PAMF prunes under none too, PUM drops at
// 0.75 whatever the list says), and each option its mapper does not read takes the first value of
// its list (first): the pruning options of an unpruned run, the dropping options of one that only
// defers (the dropping threshold too, under a static deferring threshold), the deferring rule of
// one that only drops, and the parameters of other heuristics (KPB's percent, MOC's cull).
func (r *SweepRun) canonical(first *SweepRun) {
	p, c := r.mapperSpec()
	base, p, c := prune.Resolve(r.Heuristic, p, c)
	r.Prune, r.Toggle, r.Lambda, r.DropThreshold, r.Rho, r.Defer, r.Fairness = c.Variant, c.Toggle, c.Lambda, c.DropThreshold, c.Rho, c.Defer, c.Fairness
	r.KPBPercent, r.MOCCull = p.KPBPercent, p.MOCCull
	drops := r.Prune == prune.Drop || r.Prune == prune.Both
	defers := r.Prune == prune.Defer || r.Prune == prune.Both
	if !drops {
		r.Toggle, r.Lambda, r.Rho = first.Toggle, first.Lambda, first.Rho
		if !defers || r.Defer.Kind == "static" {
			r.DropThreshold = first.DropThreshold
		}
	}
	if !defers {
		r.Defer = first.Defer
	}
	if !drops && !defers {
		r.Fairness = first.Fairness
	}
	if h, err := heuristic.Lookup(base); err == nil {
		if !strings.Contains(h.Params, "KPBPercent=") {
			r.KPBPercent = first.KPBPercent
		}
		if !strings.Contains(h.Params, "MOCCull=") {
			r.MOCCull = first.MOCCull
		}
	}
}

// checkPruning refuses a run whose mapper is degenerate (prune.MapperProblems, Fatal), naming
// the grid keys, and returns the warnings of the others.
func (g *Grid) checkPruning(r *SweepRun) ([]string, error) {
	var warnings []string
	key := func(k string) string { return k }
	params, cfg := r.mapperSpec()
	for _, p := range prune.MapperProblems(r.Heuristic, params, cfg) {
		if !p.Fatal {
			warnings = append(warnings, p.Message(key))
			continue
		}
		k := p.Options[0]
		at := strings.TrimSuffix(g.Where(k), ": "+k)
		return nil, fmt.Errorf("%s: %s (at grid point level=%s|heuristic=%s|prune=%s)", at, p.Message(key), r.Level, r.Heuristic, r.Prune)
	}
	return warnings, nil
}

// sweepMemory is the memory a sweep's caps allow it at its peak: 3.2 GB, what the caps were
// first meant to allow, on the peak bytes per unit measured below rather than assumed.
const sweepMemory = 3_200_000_000

// genTaskBytes is what one generated task costs a sweep at its peak: the sweep holds 56 bytes a
// task (BenchmarkGeneratedTaskBytes, cmd/hcreplay), and the collector lets the heap grow to
// twice what is live before it collects, so up to 112; BenchmarkSweepPeakBytes measured a peak
// of 107 bytes a task (2 million tasks) and 86 at 37 million (issue 49 had measured 84).
const genTaskBytes = 112

// runBytes is what one run costs a sweep at its peak, the list of runs, the rows, the
// checkpoints and runs.parquet together: BenchmarkSweepPeakBytes measured 3,795 bytes a run
// (64,000 runs, run to the end); a sweep of 960,000 runs peaked at 2.48 GB while planning (2,580
// bytes a run).
const runBytes = 3800

// maxGeneratedTasks is the most tasks a sweep's generated levels may have in all: they are
// generated before the first run and held until the last (sweepMemory / genTaskBytes, rounded
// down).
const maxGeneratedTasks = 28_000_000

// maxSweepRuns is the most runs a sweep may have, sharded or not: every shard lists the whole
// grid (sweepMemory / runBytes, rounded down). At a few milliseconds a replay, 840,000 are a day
// of one core's work, so a larger grid is more likely a mistyped trial count than a plan.
const maxSweepRuns = 840_000

// countText is n, or "more than limit" when n has saturated past limit.
func countText(n, limit int) string {
	if n > limit {
		return fmt.Sprintf("more than %d", limit)
	}
	return strconv.Itoa(n)
}

// product calls emit for every combination of the axes' values, the last axis fastest.
func product(axes []axis, r SweepRun, emit func(SweepRun)) {
	if len(axes) == 0 {
		emit(r)
		return
	}
	a := axes[0]
	for i := range a.values {
		next := r
		a.set[i](&next)
		product(axes[1:], next, emit)
	}
}

// axes validates the heuristics, the pruning variants and the options, and returns them as
// axes in the order of expansion. Empty lists take the defaults of `hcreplay replay`:
// replay.DefaultOptions, prune.DefaultConfig, heuristic.DefaultParams and seed 1.
func (g *Grid) axes() ([]axis, error) {
	var axes []axis
	var errs []error
	add := func(a axis, err error) {
		axes = append(axes, a)
		errs = append(errs, err)
	}
	if len(g.Heuristics) == 0 {
		errs = append(errs, fmt.Errorf("%s: missing: name at least one heuristic", g.Where("heuristics")))
	} else {
		add(makeAxis(g, "heuristic", "heuristics", g.Heuristics, "", func(name string) (string, func(*SweepRun), error) {
			canon, err := CanonicalHeuristic(name)
			return canon, func(r *SweepRun) { r.Heuristic = canon }, err
		}, func(r *SweepRun) string { return r.Heuristic }))
	}
	add(makeAxis(g, "prune", "prune", g.Prune, "none", func(s string) (string, func(*SweepRun), error) {
		v, err := prune.ParseVariant(s)
		return v.String(), func(r *SweepRun) { r.Prune = v }, err
	}, func(r *SweepRun) string { return r.Prune.String() }))
	o, c, p := replay.DefaultOptions(), prune.DefaultConfig(), heuristic.DefaultParams()
	add(intAxis(g, "queue_size", g.QueueSize, o.QueueSize, 1, func(r *SweepRun) *int { return &r.QueueSize }))
	add(makeAxis(g, "drop_model", "drop_model", g.DropModel, o.DropModel.String(), func(s string) (string, func(*SweepRun), error) {
		m, err := pmf.ParseModel(s)
		return m.String(), func(r *SweepRun) { r.DropModel = m }, err
	}, func(r *SweepRun) string { return r.DropModel.String() }))
	add(boolAxis(g, "strict", g.Strict, o.Strict, func(r *SweepRun) *bool { return &r.Strict }))
	add(boolAxis(g, "condition_elapsed", g.ConditionElapsed, o.ConditionElapsed, func(r *SweepRun) *bool { return &r.ConditionElapsed }))
	add(intAxis(g, "trim", g.Trim, o.Trim, 0, func(r *SweepRun) *int { return &r.Trim }))
	add(makeAxis(g, "seed", "seed", g.Seed, 1, func(v uint64) (string, func(*SweepRun), error) {
		return strconv.FormatUint(v, 10), func(r *SweepRun) { r.Seed = v }, nil
	}, func(r *SweepRun) string { return strconv.FormatUint(r.Seed, 10) }))
	add(makeAxis(g, "engine", "engine", g.Engine, o.Engine, func(s string) (string, func(*SweepRun), error) {
		if s != "fast" && s != "reference" && s != "approx" { // the engines replay.Options accepts
			return s, nil, fmt.Errorf("engine %q: want fast, reference or approx", s)
		}
		return s, func(r *SweepRun) { r.Engine = s }, nil
	}, func(r *SweepRun) string { return r.Engine }))
	add(makeAxis(g, "toggle", "toggle", g.Toggle, c.Toggle.String(), func(s string) (string, func(*SweepRun), error) {
		t, err := prune.ParseToggle(s)
		return t.String(), func(r *SweepRun) { r.Toggle = t }, err
	}, func(r *SweepRun) string { return r.Toggle.String() }))
	add(floatAxis(g, "lambda", g.Lambda, c.Lambda, 0, 1, func(r *SweepRun) *float64 { return &r.Lambda }))
	add(floatAxis(g, "drop_threshold", g.DropThreshold, c.DropThreshold, 0, 1, func(r *SweepRun) *float64 { return &r.DropThreshold }))
	add(floatAxis(g, "rho", g.Rho, c.Rho, 0, math.Inf(1), func(r *SweepRun) *float64 { return &r.Rho }))
	add(makeAxis(g, "defer", "defer", g.Defer, c.Defer.String(), func(s string) (string, func(*SweepRun), error) {
		d, err := prune.ParseDeferRule(s)
		return d.String(), func(r *SweepRun) { r.Defer = d }, err
	}, func(r *SweepRun) string { return r.Defer.String() }))
	add(floatAxis(g, "fairness", g.Fairness, c.Fairness, 0, 1, func(r *SweepRun) *float64 { return &r.Fairness }))
	add(floatAxis(g, "kpb_percent", g.KPBPercent, p.KPBPercent, 0, 100, func(r *SweepRun) *float64 { return &r.KPBPercent }))
	add(floatAxis(g, "moc_cull", g.MOCCull, p.MOCCull, 0, 1, func(r *SweepRun) *float64 { return &r.MOCCull }))
	add(makeAxis(g, "defer_at", "defer_at", g.DeferAt, c.DeferAt.String(), func(s string) (string, func(*SweepRun), error) {
		d, err := prune.ParseDeferPlace(s)
		return d.String(), func(r *SweepRun) { r.DeferAt = d }, err
	}, func(r *SweepRun) string { return r.DeferAt.String() }))
	add(makeAxis(g, "drop_running", "drop_running", g.DropRunning, c.DropRunning.String(), func(s string) (string, func(*SweepRun), error) {
		d, err := prune.ParseRunningDrop(s)
		return d.String(), func(r *SweepRun) { r.DropRunning = d }, err
	}, func(r *SweepRun) string { return r.DropRunning.String() }))
	add(boolAxis(g, "sufferage_expired", g.SufferageExpired, c.SufferExpired, func(r *SweepRun) *bool { return &r.SufferageExpired }))
	return axes, errors.Join(errs...)
}

// makeAxis turns a list into an axis: the default when the list is empty, each value parsed to
// its canonical string, duplicates refused (they would give two runs with one key). get reads a
// run's value in the same canonical form.
func makeAxis[T any](g *Grid, name, key string, vals List[T], def T, parse func(T) (string, func(*SweepRun), error), get func(*SweepRun) string) (axis, error) {
	if len(vals) == 0 {
		vals = List[T]{def}
	}
	a := axis{key: name, get: get}
	seen := map[string]bool{}
	for _, v := range vals {
		s, set, err := parse(v)
		if err != nil {
			return a, fmt.Errorf("%s: %w", g.Where(key), err)
		}
		if seen[s] {
			return a, fmt.Errorf("%s: %s appears twice", g.Where(key), s)
		}
		seen[s] = true
		a.values, a.set = append(a.values, s), append(a.set, set)
	}
	return a, nil
}

// intAxis, boolAxis and floatAxis make the axis of a plain field of SweepRun; field points at it.
func intAxis(g *Grid, key string, vals List[int], def, least int, field func(*SweepRun) *int) (axis, error) {
	return makeAxis(g, key, key, vals, def, func(v int) (string, func(*SweepRun), error) {
		if v < least {
			return "", nil, fmt.Errorf("%d is below %d", v, least)
		}
		return strconv.Itoa(v), func(r *SweepRun) { *field(r) = v }, nil
	}, func(r *SweepRun) string { return strconv.Itoa(*field(r)) })
}

func boolAxis(g *Grid, key string, vals List[bool], def bool, field func(*SweepRun) *bool) (axis, error) {
	return makeAxis(g, key, key, vals, def, func(v bool) (string, func(*SweepRun), error) {
		return strconv.FormatBool(v), func(r *SweepRun) { *field(r) = v }, nil
	}, func(r *SweepRun) string { return strconv.FormatBool(*field(r)) })
}

func floatAxis(g *Grid, key string, vals List[float64], def, lo, hi float64, field func(*SweepRun) *float64) (axis, error) {
	return makeAxis(g, key, key, vals, def, func(v float64) (string, func(*SweepRun), error) {
		if !(v >= lo && v <= hi) || math.IsInf(v, 0) { // [0, ∞) holds no ∞
			return "", nil, fmt.Errorf("%v is outside %s", v, interval(lo, hi))
		}
		return strconv.FormatFloat(v, 'g', -1, 64), func(r *SweepRun) { *field(r) = v }, nil
	}, func(r *SweepRun) string { return strconv.FormatFloat(*field(r), 'g', -1, 64) })
}

func interval(lo, hi float64) string {
	if math.IsInf(hi, 1) {
		return fmt.Sprintf("[%g, ∞)", lo)
	}
	return fmt.Sprintf("[%g, %g]", lo, hi)
}

// CanonicalHeuristic is the name a sweep records for a heuristic or preset name (MECT → MCT):
// the registry's spelling, or an error naming the ones there are.
func CanonicalHeuristic(name string) (string, error) {
	for _, p := range prune.Presets() {
		if strings.EqualFold(p.Name, name) {
			return p.Name, nil
		}
	}
	info, err := heuristic.Lookup(name)
	if err != nil {
		// prune.New's message lists the presets too.
		_, err = prune.New(name, heuristic.DefaultParams(), prune.DefaultConfig())
		return name, err
	}
	return info.Name, nil
}

// validateLevels checks the levels: distinct names, one source each, sane generator settings.
func (g *Grid) validateLevels() error {
	if len(g.Levels) == 0 {
		return fmt.Errorf("%s: missing: give at least one level (a trace set)", g.Where("levels"))
	}
	var errs []error
	seen := map[string]bool{}
	source := map[string]string{} // what makes a level's trials → the first level with it
	generated := 0                // tasks of the generated levels so far, all held in memory through the sweep
	for i, lv := range g.Levels {
		at := func(key string) string { return g.Where(fmt.Sprintf("levels[%d]%s", i, key)) }
		// Two levels of the same trials are one replay under two labels: a copied level whose
		// trace or generator was not changed, which would show as a level with the other's results.
		src := fmt.Sprintf("%q %d %q %d", lv.Trace, lv.Trials, lv.Deadline, lv.Seed)
		if lv.Generate != nil {
			src += fmt.Sprintf(" %+v", *lv.Generate)
		}
		if first, ok := source[src]; ok {
			errs = append(errs, fmt.Errorf("%s: level %q has the same trials as level %q (the same trace or generator settings): it would replay them again under another label", at(""), lv.Name, first))
		} else {
			source[src] = lv.Name
		}
		switch {
		case lv.Name == "":
			errs = append(errs, fmt.Errorf("%s: missing: every level needs a name (its label, e.g. 19k)", at(".name")))
		case strings.ContainsAny(lv.Name, "|="):
			errs = append(errs, fmt.Errorf("%s: %q: a level name cannot contain | or =", at(".name"), lv.Name))
		case seen[lv.Name]:
			errs = append(errs, fmt.Errorf("%s: level %q appears twice", at(".name"), lv.Name))
		}
		seen[lv.Name] = true
		switch {
		case (lv.Trace == "") == (lv.Generate == nil):
			errs = append(errs, fmt.Errorf("%s: give either trace (files) or generate (synthetic trials), not both or neither", at("")))
		case lv.Trials < 0:
			errs = append(errs, fmt.Errorf("%s: %d is negative", at(".trials"), lv.Trials))
		case lv.Generate != nil && lv.Trials < 1:
			errs = append(errs, fmt.Errorf("%s: missing: say how many trials to generate", at(".trials")))
		case lv.Generate != nil && (lv.Deadline != "" || lv.Rate != 0):
			errs = append(errs, fmt.Errorf("%s: deadline and rate of a generated level go under generate", at("")))
		case lv.Generate != nil:
			err := lv.Generate.validate(at)
			if err == nil && lv.Trials > (maxGeneratedTasks-generated)/lv.Generate.Tasks {
				err = fmt.Errorf("%s: %d trials of %d tasks make the generated levels more than %d tasks, which a sweep holds in memory", at(".trials"), lv.Trials, lv.Generate.Tasks, maxGeneratedTasks)
			}
			if err == nil {
				generated += lv.Trials * lv.Generate.Tasks
			}
			errs = append(errs, err)
		case !(lv.Rate >= 0) || math.IsInf(lv.Rate, 0):
			errs = append(errs, fmt.Errorf("%s: %v is not a rate", at(".rate"), lv.Rate))
		}
	}
	return errors.Join(errs...)
}

func (gen *Generate) validate(at func(string) string) error {
	switch {
	case (gen.Level == "") == (gen.Rate == 0):
		return fmt.Errorf("%s: give either level (a label like 19k) or rate (tasks per time unit)", at(".generate"))
	case !(gen.Period > 0) || math.IsInf(gen.Period, 0):
		return fmt.Errorf("%s: %v is not a positive number", at(".generate.period"), gen.Period)
	case !(gen.Rate >= 0) || math.IsInf(gen.Rate, 0):
		return fmt.Errorf("%s: %v is not a positive number", at(".generate.rate"), gen.Rate)
	case gen.Tasks < 1 || gen.Tasks > trace.MaxGenTasks:
		return fmt.Errorf("%s: %d tasks: want 1 to %d per trial", at(".generate.tasks"), gen.Tasks, trace.MaxGenTasks)
	case !(gen.CV >= 0) || math.IsInf(gen.CV, 0):
		return fmt.Errorf("%s: %v is not a coefficient of variation", at(".generate.cv"), gen.CV)
	}
	if gen.Level != "" {
		if _, err := trace.LevelRate(gen.Level, gen.Period); err != nil {
			return fmt.Errorf("%s: %w", at(".generate.level"), err)
		}
	}
	if _, _, err := trace.ParsePattern(gen.Pattern); err != nil {
		return fmt.Errorf("%s: %w", at(".generate.pattern"), err)
	}
	return nil
}

// GenRate is the arrival rate of generated trials, in tasks per time unit.
func (gen *Generate) GenRate() (float64, error) {
	if gen.Rate > 0 {
		return gen.Rate, nil
	}
	return trace.LevelRate(gen.Level, gen.Period)
}

// mapper builds a fresh mapper for the run: heuristics and pruners keep state across mapping
// events, so no two runs may share one.
func (r *SweepRun) mapper() (replay.Mapper, error) {
	p, c := r.mapperSpec()
	return prune.New(r.Heuristic, p, c)
}

// mapperSpec is the parameters and pruning the run's mapper is built with.
func (r *SweepRun) mapperSpec() (heuristic.Params, prune.Config) {
	p := heuristic.DefaultParams()
	p.KPBPercent, p.MOCCull = r.KPBPercent, r.MOCCull
	c := prune.DefaultConfig()
	c.Variant, c.Toggle, c.Lambda, c.DropThreshold, c.Rho, c.Defer, c.Fairness = r.Prune, r.Toggle, r.Lambda, r.DropThreshold, r.Rho, r.Defer, r.Fairness
	c.DeferAt, c.DropRunning, c.SufferExpired = r.DeferAt, r.DropRunning, r.SufferageExpired
	return p, c
}

// options are the run's replay options.
func (r *SweepRun) options(timeUnitSeconds float64) replay.Options {
	o := replay.DefaultOptions()
	o.QueueSize, o.DropModel, o.Strict, o.ConditionElapsed = r.QueueSize, r.DropModel, r.Strict, r.ConditionElapsed
	o.Trim, o.Seed, o.Engine, o.TimeUnitSeconds = r.Trim, r.Seed, r.Engine, timeUnitSeconds
	o.OnTask = func(replay.Outcome) {} // a sweep keeps only the summary
	return o
}

// row is the run's identity and options as a report.RunRow, without metrics.
func (r *SweepRun) row() report.RunRow {
	return report.RunRow{
		Key: r.Key, Point: r.Point, Heuristic: r.Heuristic, Prune: r.Prune.String(), Level: r.Level, Trial: int32(r.Trial),
		QueueSize: int32(r.QueueSize), DropModel: r.DropModel.String(), Strict: r.Strict, ConditionElapsed: r.ConditionElapsed,
		Trim: int32(r.Trim), Seed: int64(r.Seed), Engine: r.Engine, Toggle: r.Toggle.String(), Lambda: r.Lambda,
		DropThreshold: r.DropThreshold, Rho: r.Rho, Defer: r.Defer.String(), Fairness: r.Fairness,
		DeferAt: r.DeferAt.String(), DropRunning: r.DropRunning.String(), SufferageExpired: r.SufferageExpired,
	}
}

// Shard selects every Count-th run of a sweep, starting at the Index-th (1-based), so that
// Count machines can share a sweep; the zero Shard is the whole sweep.
type Shard struct {
	Index, Count int
}

// ParseShard reads "i/n" with 1 ≤ i ≤ n.
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	a, err1 := strconv.Atoi(strings.TrimSpace(i))
	b, err2 := strconv.Atoi(strings.TrimSpace(n))
	if !ok || err1 != nil || err2 != nil || b < 1 || a < 1 || a > b {
		return Shard{}, fmt.Errorf("shard %q: want i/n with 1 ≤ i ≤ n, e.g. 2/4", s)
	}
	return Shard{Index: a, Count: b}, nil
}

func (s Shard) String() string {
	if s.Count == 0 {
		return "1/1"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Has says whether the run at index i of the expanded order belongs to the shard.
func (s Shard) Has(i int) bool { return s.Count <= 1 || i%s.Count == s.Index-1 }
