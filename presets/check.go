package presets

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep"
)

// checker collects a file's problems, each placed at the line of its key.
type checker struct {
	file string
	root *yaml.Node
	errs []error
}

// at is "FILE:LINE: path" for a path of keys (string) and list indices (int); the line is the
// deepest key of the path the file has.
func (c *checker) at(path ...any) string {
	n, line := c.root, c.root.Line
	var parts []string
	for _, p := range path {
		switch p := p.(type) {
		case string:
			parts = append(parts, p)
			if n != nil && n.Kind == yaml.MappingNode {
				var next *yaml.Node
				for i := 0; i+1 < len(n.Content); i += 2 {
					if n.Content[i].Value == p {
						line, next = n.Content[i].Line, n.Content[i+1]
					}
				}
				n = next
			} else {
				n = nil
			}
		case int:
			parts[len(parts)-1] += fmt.Sprintf("[%d]", p)
			if n != nil && n.Kind == yaml.SequenceNode && p < len(n.Content) {
				n = n.Content[p]
				line = n.Line
			} else {
				n = nil
			}
		}
	}
	return fmt.Sprintf("%s:%d: %s", c.file, line, strings.Join(parts, "."))
}

func (c *checker) errorf(where string, format string, args ...any) {
	c.errs = append(c.errs, fmt.Errorf("%s: %s", where, fmt.Sprintf(format, args...)))
}

// required reports an empty string field.
func (c *checker) required(v, what string, path ...any) {
	if strings.TrimSpace(v) == "" {
		c.errorf(c.at(path...), "missing %s", what)
	}
}

func (p *Preset) check(c *checker) {
	c.required(p.Name, "the preset's name", "name")
	c.required(p.Title, "the title", "title")
	c.required(p.Citation.Authors, "the authors", "citation", "authors")
	c.required(p.Citation.Title, "the paper's title", "citation", "title")
	if p.Citation.Year == 0 {
		c.errorf(c.at("citation", "year"), "missing the year")
	}
	c.required(p.Setup, "the paper's setup", "setup")
	switch p.Runner {
	case "", "sweeps":
		if len(p.Experiments) == 0 {
			c.errorf(c.at("experiments"), "no experiments")
		}
		if p.Speculative != nil {
			c.errorf(c.at("speculative"), "only for runner: speculative")
		}
	case "speculative":
		if p.Speculative == nil || len(p.Experiments) > 0 {
			c.errorf(c.at("runner"), "runner speculative takes a speculative block and no experiments")
			return
		}
		p.checkSpeculative(c)
		return
	default:
		c.errorf(c.at("runner"), "unknown runner %q (want sweeps or speculative)", p.Runner)
		return
	}
	if p.Semantics != nil {
		c.required(p.Semantics.Why, "why the paper most likely ran under these semantics", "semantics", "why")
	}
	names := map[string]bool{}
	files := map[string]bool{}
	for i, e := range p.Experiments {
		if names[e.Name] {
			c.errorf(c.at("experiments", i, "name"), "experiment %q twice", e.Name)
		}
		names[e.Name] = true
		p.checkExperiment(c, i, files)
	}
}

func (p *Preset) checkExperiment(c *checker, i int, files map[string]bool) {
	e := p.Experiments[i]
	at := func(path ...any) string { return c.at(append([]any{"experiments", i}, path...)...) }
	c.required(e.Name, "the experiment's name", "experiments", i, "name")
	if len(e.Levels)+len(e.Generated) == 0 {
		c.errorf(at("levels"), "no levels")
	}
	if len(e.Sweeps) == 0 || len(e.Figures) == 0 {
		c.errorf(at(), "an experiment needs sweeps and figures")
	}
	for j := range e.Sweeps {
		if _, err := p.grid(c, i, j); err != nil {
			c.errs = append(c.errs, err)
		}
	}
	levels := slices.Clone(e.Levels)
	for _, lv := range e.Generated {
		levels = append(levels, lv.Name)
	}
	runs := e.variants().scope(levels)
	for j, f := range e.Figures {
		fat := func(path ...any) string { return at(append([]any{"figures", j}, path...)...) }
		if files[f.File] {
			c.errorf(fat("file"), "figure file %q twice", f.File)
		}
		files[f.File] = true
		for _, what := range [][2]string{{f.File, "file"}, {f.Title, "title"}, {f.Paper, "paper"}} {
			c.required(what[0], "the figure's "+what[1], "experiments", i, "figures", j, what[1])
		}
		switch {
		case f.Kind != "" && (f.Bars != "" || f.Metric != ""):
			c.errorf(fat("kind"), "a figure is a kind of the report's or bars (bars and metric), not both")
		case f.Kind != "" && !slices.Contains(report.FigureKinds(), f.Kind):
			c.errorf(fat("kind"), "unknown figure kind %q (known: %s)", f.Kind, strings.Join(report.FigureKinds(), ", "))
		case f.Kind == "" && f.Bars != report.BarsByName && f.Bars != report.BarsByLevel:
			c.errorf(fat("bars"), "a figure is a kind of the report's or bars by %s or %s", report.BarsByName, report.BarsByLevel)
		case f.Kind == "" && !slices.Contains(report.MetricNames(), f.Metric):
			c.errorf(fat("metric"), "unknown metric %q", f.Metric)
		}
		if len(f.Metrics) == 0 {
			c.errorf(fat("metrics"), "no metrics for the figure's table")
		}
		for k, m := range f.Metrics {
			if !slices.Contains(report.MetricNames(), m) {
				c.errorf(fat("metrics", k), "unknown metric %q", m)
			}
		}
		if f.Check != "" {
			if _, err := checkFunc(f.Check); err != nil {
				c.errorf(fat("check"), "%v", err)
			}
		}
		for k, s := range f.Runs {
			checkSelector(c, s, runs, fat("runs", k))
		}
		for k, cl := range f.Claims {
			cl.check(c, runs, func(path ...any) string { return fat(append([]any{"claims", k}, path...)...) })
		}
	}
}

// variants are the names (MM-P) and heuristics an experiment's sweeps run, canonical, and the
// pruning variants.
type variants struct{ names, heuristics, prunes []string }

// scope is what the claims and selectors of a part of a file may name: the levels, metrics and
// options of its runs, and for some options the values the runs have.
type scope struct {
	levels, metrics, options []string
	ran                      map[string][]string
}

// scope is what an experiment's selectors and claims may name: runs.parquet's metrics and
// options, and the names, heuristics and pruning variants its sweeps run.
func (v variants) scope(levels []string) scope {
	return scope{levels: levels, metrics: report.MetricNames(), options: report.OptionNames(),
		ran: map[string][]string{"name": v.names, "heuristic": v.heuristics, "prune": v.prunes}}
}

func (e Experiment) variants() variants {
	var v variants
	suffix := map[string]string{"none": "", "defer": "-D", "drop": "-Drop", "both": "-P"}
	for _, s := range e.Sweeps {
		prunes := s.Prune
		if len(prunes) == 0 {
			prunes = []string{"none"}
		}
		for _, h := range s.Heuristics {
			if c, err := sweep.CanonicalHeuristic(h); err == nil {
				h = c
			}
			v.heuristics = append(v.heuristics, h)
			for _, pr := range prunes {
				v.names = append(v.names, h+suffix[pr])
				v.prunes = append(v.prunes, pr)
			}
		}
	}
	return v
}

// checkSelector checks a selector's keys, and that the values it names of the options the
// scope knows the runs of (heuristics, names, variants) are among those.
func checkSelector(c *checker, s Selector, sc scope, where string) {
	if len(s) == 0 {
		c.errorf(where, "an empty selector matches every run")
	}
	for key, vals := range s {
		if !slices.Contains(sc.options, key) {
			c.errorf(where, "unknown option column %q (known: %s)", key, strings.Join(sc.options, ", "))
			continue
		}
		ran := sc.ran[key]
		if ran == nil {
			continue
		}
		for _, x := range vals {
			if !slices.ContainsFunc(ran, func(r string) bool { return strings.EqualFold(r, x) }) {
				c.errorf(where, "%s %q is not in the experiment's sweeps (they run %s)", key, x, strings.Join(uniq(ran), ", "))
			}
		}
	}
}

func uniq(xs []string) []string {
	s := slices.Clone(xs)
	slices.Sort(s)
	return slices.Compact(s)
}

func (cl Claim) check(c *checker, v scope, at func(...any) string) {
	if strings.TrimSpace(cl.Wording) == "" || strings.TrimSpace(cl.Section) == "" {
		c.errorf(at(), "a claim needs the paper's wording and section")
	}
	if !slices.Contains(v.metrics, cl.Metric) {
		c.errorf(at("metric"), "unknown metric %q (known: %s)", cl.Metric, strings.Join(v.metrics, ", "))
	}
	if !slices.Contains(v.levels, cl.Level) {
		c.errorf(at("level"), "level %q is not among the experiment's (%s)", cl.Level, strings.Join(v.levels, ", "))
	}
	need := func(ok bool, key, what string) {
		if !ok {
			c.errorf(at(key), "a %s claim needs %s", cl.Form, what)
		}
	}
	bound := func() {
		need(cl.Bound == report.AtMost || cl.Bound == report.AtLeast, "bound", "bound: at_most or at_least")
	}
	switch cl.Form {
	case report.FormRatio:
		need(len(cl.Of) > 0 && len(cl.Over) > 0, "of", "of and over (the runs of the numerator and the denominator)")
		need(cl.Value != nil, "value", "the paper's value")
		if cl.Bound != "" {
			bound()
		}
	case report.FormBound:
		need(len(cl.Of) > 0, "of", "of (the runs)")
		need(cl.Value != nil, "value", "the paper's bound")
		bound()
	case report.FormOrdering:
		need(len(cl.Order) >= 2, "order", "two or more selectors in order, highest first")
	case report.FormTrend:
		need(len(cl.Of) > 0, "of", "of (the runs)")
		need(slices.Contains(v.options, cl.Axis), "axis", "an option column as its axis")
		need(len(cl.Points) >= 2, "points", "two or more points along the axis")
		need(cl.Direction == report.Rises || cl.Direction == report.Falls, "direction", "direction: rises or falls")
	default:
		c.errorf(at("form"), "unknown claim form %q (want ratio, bound, ordering or trend)", cl.Form)
	}
	if len(cl.Of) > 0 {
		checkSelector(c, cl.Of, v, at("of"))
	}
	if len(cl.Over) > 0 {
		checkSelector(c, cl.Over, v, at("over"))
	}
	for k, s := range cl.Order {
		checkSelector(c, s, v, at("order", k))
	}
}

// Grid is sweep j of experiment i as a sweep grid on levels: the preset's semantics, its
// common keys, then the sweep's own, in that order (a later key replaces an earlier one), as
// `hcreplay figures` passes them to `hcreplay sweep`. The PET is left to the caller.
func (p *Preset) Grid(i, j int, levels []sweep.Level) (*sweep.Grid, error) {
	root := p.root
	if root == nil { // a Preset not read by Parse
		root = &yaml.Node{}
	}
	g, err := p.grid(&checker{file: p.file, root: root}, i, j)
	if err != nil {
		return nil, err
	}
	g.SetLevels(levels, nil)
	return g, nil
}

// grid builds the grid of a sweep without levels and checks it on a stand-in level, so that a
// bad key or value is an error of the file, at its line.
func (p *Preset) grid(c *checker, i, j int) (*sweep.Grid, error) {
	s := p.Experiments[i].Sweeps[j]
	g := sweep.NewGrid()
	set := func(key, values string, path ...any) error {
		return g.Set(key, values, c.at(path...))
	}
	var errs []error
	if p.Semantics != nil {
		for _, kv := range p.Semantics.Keys() {
			k, v, _ := strings.Cut(kv, "=")
			errs = append(errs, set(k, v, "semantics", k))
		}
	}
	for _, kv := range p.Common.Keys() {
		k, v, _ := strings.Cut(kv, "=")
		errs = append(errs, set(k, v, "common", k))
	}
	place := []any{"experiments", i, "sweeps", j}
	if len(s.Heuristics) == 0 {
		errs = append(errs, fmt.Errorf("%s: no heuristics", c.at(place...)))
	} else {
		errs = append(errs, set("heuristics", strings.Join(s.Heuristics, ","), append(place, "heuristics")...))
	}
	if len(s.Prune) > 0 {
		errs = append(errs, set("prune", strings.Join(s.Prune, ","), append(place, "prune")...))
	}
	for _, kv := range s.Options.Keys() {
		k, v, _ := strings.Cut(kv, "=")
		if k == "pet" || k == "catalog" || k == "levels" || k == "time_unit" {
			errs = append(errs, fmt.Errorf("%s: the trial source sets %s, not a preset's sweep", c.at(append(place, k)...), k))
			continue
		}
		errs = append(errs, set(k, v, append(place, k)...))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	probe := *g
	gen := sweep.DefaultGenerate()
	gen.Level = "19k"
	probe.SetLevels([]sweep.Level{{Name: "probe", Generate: gen, Trials: 1, Seed: 1}}, nil)
	probe.PET = "pet.json"
	if err := probe.Validate(); err != nil {
		return nil, err // its keys were set with their places in the file as their names
	}
	return g, nil
}
