package report

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
// two ways gives one string), and for each value how it sets a run.
type axis struct {
	key    string
	values []string
	set    []func(*SweepRun)
}

// Validate checks every value of the grid without reading any file. Messages name the file,
// the line and the key (or the flag) of the first bad value of each key.
func (g *Grid) Validate() error {
	_, err := g.axes()
	return errors.Join(err, g.validateLevels())
}

// Expand lists the runs of the grid in its fixed order: levels in the order given, then
// heuristics, pruning variants and the options in the order of GridOptions, each in the order
// of its list, with the trial varying fastest. trials gives each level's number of trials.
// The same grid and counts always give the same runs, keys and indices.
func (g *Grid) Expand(trials map[string]int) ([]SweepRun, error) {
	axes, err := g.axes()
	if err = errors.Join(err, g.validateLevels()); err != nil {
		return nil, err
	}
	points := 1 // per level and trial, saturated past maxSweepRuns (lists from a file can multiply past any int)
	for _, a := range axes {
		points = min(points*len(a.values), maxSweepRuns+1)
	}
	total := 0
	for i, lv := range g.Levels { // every count is checked before any run is listed
		n := trials[lv.Name]
		if n < 1 {
			return nil, fmt.Errorf("%s: level %q has no trials", g.Where(fmt.Sprintf("levels[%d]", i)), lv.Name)
		}
		if n > (maxSweepRuns-total)/points {
			return nil, fmt.Errorf("%s: level %q makes the sweep more than %d runs (%d trials of each grid point, and %s grid points): is a list or a trial count longer than meant?",
				g.Where(fmt.Sprintf("levels[%d]", i)), lv.Name, maxSweepRuns, n, countText(points, maxSweepRuns))
		}
		total += n * points
	}
	runs := make([]SweepRun, 0, total)
	for _, lv := range g.Levels {
		n := trials[lv.Name]
		start := SweepRun{Level: lv.Name}
		product(axes, start, []string{"level=" + lv.Name}, func(r SweepRun, parts []string) {
			r.Point = strings.Join(parts, "|")
			for t := 1; t <= n; t++ {
				r.Trial, r.Index = t, len(runs)
				r.Key = r.Point + "|trial=" + strconv.Itoa(t)
				runs = append(runs, r)
			}
		})
	}
	return runs, nil
}

// maxGeneratedTasks is the most tasks a sweep's generated levels may have in all: they are
// generated before the first run and held until the last, at about 32 bytes a task (3.2 GB).
const maxGeneratedTasks = 100_000_000

// maxSweepRuns is the most runs a sweep may have: at a few milliseconds a replay, ten million
// are days of one core's work, and their list alone takes gigabytes, so a larger grid is
// almost surely a mistyped trial count rather than a plan.
const maxSweepRuns = 10_000_000

// countText is n, or "more than limit" when n has saturated past limit.
func countText(n, limit int) string {
	if n > limit {
		return fmt.Sprintf("more than %d", limit)
	}
	return strconv.Itoa(n)
}

// product calls emit for every combination of the axes' values, the last axis fastest.
func product(axes []axis, r SweepRun, parts []string, emit func(SweepRun, []string)) {
	if len(axes) == 0 {
		emit(r, parts)
		return
	}
	a := axes[0]
	for i, v := range a.values {
		next := r
		a.set[i](&next)
		product(axes[1:], next, append(parts[:len(parts):len(parts)], a.key+"="+v), emit)
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
			canon, err := canonicalHeuristic(name)
			return canon, func(r *SweepRun) { r.Heuristic = canon }, err
		}))
	}
	add(makeAxis(g, "prune", "prune", g.Prune, "none", func(s string) (string, func(*SweepRun), error) {
		v, err := prune.ParseVariant(s)
		return v.String(), func(r *SweepRun) { r.Prune = v }, err
	}))
	o, c, p := replay.DefaultOptions(), prune.DefaultConfig(), heuristic.DefaultParams()
	add(intAxis(g, "queue_size", g.QueueSize, o.QueueSize, 1, func(r *SweepRun, v int) { r.QueueSize = v }))
	add(makeAxis(g, "drop_model", "drop_model", g.DropModel, o.DropModel.String(), func(s string) (string, func(*SweepRun), error) {
		m, err := pmf.ParseModel(s)
		return m.String(), func(r *SweepRun) { r.DropModel = m }, err
	}))
	add(boolAxis(g, "strict", g.Strict, o.Strict, func(r *SweepRun, v bool) { r.Strict = v }))
	add(boolAxis(g, "condition_elapsed", g.ConditionElapsed, o.ConditionElapsed, func(r *SweepRun, v bool) { r.ConditionElapsed = v }))
	add(intAxis(g, "trim", g.Trim, o.Trim, 0, func(r *SweepRun, v int) { r.Trim = v }))
	add(makeAxis(g, "seed", "seed", g.Seed, 1, func(v uint64) (string, func(*SweepRun), error) {
		return strconv.FormatUint(v, 10), func(r *SweepRun) { r.Seed = v }, nil
	}))
	add(makeAxis(g, "engine", "engine", g.Engine, o.Engine, func(s string) (string, func(*SweepRun), error) {
		if s != "fast" && s != "reference" && s != "approx" { // the engines replay.Options accepts
			return s, nil, fmt.Errorf("engine %q: want fast, reference or approx", s)
		}
		return s, func(r *SweepRun) { r.Engine = s }, nil
	}))
	add(makeAxis(g, "toggle", "toggle", g.Toggle, c.Toggle.String(), func(s string) (string, func(*SweepRun), error) {
		t, err := prune.ParseToggle(s)
		return t.String(), func(r *SweepRun) { r.Toggle = t }, err
	}))
	add(floatAxis(g, "lambda", g.Lambda, c.Lambda, 0, 1, func(r *SweepRun, v float64) { r.Lambda = v }))
	add(floatAxis(g, "drop_threshold", g.DropThreshold, c.DropThreshold, 0, 1, func(r *SweepRun, v float64) { r.DropThreshold = v }))
	add(floatAxis(g, "rho", g.Rho, c.Rho, 0, math.Inf(1), func(r *SweepRun, v float64) { r.Rho = v }))
	add(makeAxis(g, "defer", "defer", g.Defer, c.Defer.String(), func(s string) (string, func(*SweepRun), error) {
		d, err := prune.ParseDeferRule(s)
		return d.String(), func(r *SweepRun) { r.Defer = d }, err
	}))
	add(floatAxis(g, "fairness", g.Fairness, c.Fairness, 0, 1, func(r *SweepRun, v float64) { r.Fairness = v }))
	add(floatAxis(g, "kpb_percent", g.KPBPercent, p.KPBPercent, 0, 100, func(r *SweepRun, v float64) { r.KPBPercent = v }))
	add(floatAxis(g, "moc_cull", g.MOCCull, p.MOCCull, 0, 1, func(r *SweepRun, v float64) { r.MOCCull = v }))
	add(makeAxis(g, "defer_at", "defer_at", g.DeferAt, c.DeferAt.String(), func(s string) (string, func(*SweepRun), error) {
		d, err := prune.ParseDeferPlace(s)
		return d.String(), func(r *SweepRun) { r.DeferAt = d }, err
	}))
	add(makeAxis(g, "drop_running", "drop_running", g.DropRunning, c.DropRunning.String(), func(s string) (string, func(*SweepRun), error) {
		d, err := prune.ParseRunningDrop(s)
		return d.String(), func(r *SweepRun) { r.DropRunning = d }, err
	}))
	add(boolAxis(g, "sufferage_expired", g.SufferageExpired, c.SufferExpired, func(r *SweepRun, v bool) { r.SufferageExpired = v }))
	return axes, errors.Join(errs...)
}

// makeAxis turns a list into an axis: the default when the list is empty, each value parsed to
// its canonical string, duplicates refused (they would give two runs with one key).
func makeAxis[T any](g *Grid, name, key string, vals List[T], def T, parse func(T) (string, func(*SweepRun), error)) (axis, error) {
	if len(vals) == 0 {
		vals = List[T]{def}
	}
	a := axis{key: name}
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

func intAxis(g *Grid, key string, vals List[int], def, least int, set func(*SweepRun, int)) (axis, error) {
	return makeAxis(g, key, key, vals, def, func(v int) (string, func(*SweepRun), error) {
		if v < least {
			return "", nil, fmt.Errorf("%d is below %d", v, least)
		}
		return strconv.Itoa(v), func(r *SweepRun) { set(r, v) }, nil
	})
}

func boolAxis(g *Grid, key string, vals List[bool], def bool, set func(*SweepRun, bool)) (axis, error) {
	return makeAxis(g, key, key, vals, def, func(v bool) (string, func(*SweepRun), error) {
		return strconv.FormatBool(v), func(r *SweepRun) { set(r, v) }, nil
	})
}

func floatAxis(g *Grid, key string, vals List[float64], def, lo, hi float64, set func(*SweepRun, float64)) (axis, error) {
	return makeAxis(g, key, key, vals, def, func(v float64) (string, func(*SweepRun), error) {
		if !(v >= lo && v <= hi) || math.IsInf(v, 0) { // [0, ∞) holds no ∞
			return "", nil, fmt.Errorf("%v is outside %s", v, interval(lo, hi))
		}
		return strconv.FormatFloat(v, 'g', -1, 64), func(r *SweepRun) { set(r, v) }, nil
	})
}

func interval(lo, hi float64) string {
	if math.IsInf(hi, 1) {
		return fmt.Sprintf("[%g, ∞)", lo)
	}
	return fmt.Sprintf("[%g, %g]", lo, hi)
}

// canonicalHeuristic returns the registry's spelling of a heuristic or preset name.
func canonicalHeuristic(name string) (string, error) {
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
	generated := 0 // tasks of the generated levels so far, all held in memory through the sweep
	for i, lv := range g.Levels {
		at := func(key string) string { return g.Where(fmt.Sprintf("levels[%d]%s", i, key)) }
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

// row is the run's identity and options as a RunRow, without metrics.
func (r *SweepRun) row() RunRow {
	return RunRow{
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
