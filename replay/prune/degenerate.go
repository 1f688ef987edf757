package prune

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/replay/heuristic"
)

// Problem is a combination of pruning options that makes a policy degenerate. A fatal one prunes
// every task (a deferring threshold of 1 defers every task until its deadline passes: the run
// scores 0 % without a word), and is refused: by Wrap, and with the user's own spelling of the
// options by the command line and the sweep's grid. The others make the pruning asked for do
// nothing, or nothing to some tasks but drop them whatever their chance; they are warnings.
type Problem struct {
	Fatal bool
	// Options are the options that combine into the problem, as the sweep's grid keys spell them
	// (drop_threshold, defer, rho, toggle, lambda); Values are their values, in the same order.
	Options, Values []string
	text            func(name func(key string) string) string
}

// Message says what is wrong and what fixes it, naming each option by name(key): the command
// line gives flags (--drop-threshold), a grid its keys.
func (p Problem) Message(name func(key string) string) string {
	var parts []string
	for i, k := range p.Options {
		parts = append(parts, name(k)+" "+p.Values[i])
	}
	return strings.Join(parts, " with ") + ": " + p.text(name)
}

func (p Problem) String() string { return p.Message(func(k string) string { return k }) }

// Problems lists what makes cfg degenerate, after a preset's tuning (Resolve) when the caller
// has one. Only the kinds of pruning the variant does are looked at: a dropping threshold of 1
// means nothing to X-D under a static deferring threshold. A task is deferred or dropped when
// its chance is at or below its threshold (the package doc), so a threshold of 1 prunes every
// task, and one of 0 none.
func (c Config) Problems() []Problem {
	var out []Problem
	// Rounded to 1e-9, so that 1 − 0.8 reads 0.2 and not 0.19999999999999996.
	num := func(v float64) string { return strconv.FormatFloat(math.Round(v*1e9)/1e9, 'g', -1, 64) }
	add := func(fatal bool, opts, vals []string, text func(func(string) string) string) {
		out = append(out, Problem{Fatal: fatal, Options: opts, Values: vals, text: text})
	}
	drop, rule := num(c.DropThreshold), c.Defer.String()
	if c.Variant.defers() {
		switch d := c.Defer; {
		case d.Kind == "static" && d.Value >= 1:
			add(true, []string{"defer"}, []string{rule}, func(n func(string) string) string {
				return "a deferring threshold of 1 defers every task until its deadline passes (no chance is above 1), so no task is ever mapped; give " +
					n("defer") + " static:T with T below 1"
			})
		case d.Kind == "gap" && c.DropThreshold+d.Value >= 1-sumSlack:
			add(true, []string{"drop_threshold", "defer"}, []string{drop, rule}, func(n func(string) string) string {
				return fmt.Sprintf("the deferring threshold is %s + %s ≥ 1, which defers every task until its deadline passes (no chance is above 1), so no task is ever mapped; "+
					"keep the two below 1 in sum (%s gap:G with G < %s), or give %s static:T with T below 1",
					drop, num(d.Value), n("defer"), num(1-c.DropThreshold), n("defer"))
			})
		case d.Kind == "dynamic" && (c.DropThreshold >= 1 || d.Value == 0 && c.DropThreshold+0.25 >= 1-sumSlack):
			add(true, []string{"drop_threshold", "defer"}, []string{drop, rule}, func(n func(string) string) string {
				return fmt.Sprintf("the dynamic deferring threshold starts at min(%s + 0.25, 1) and never falls below %s, so it stays at 1 and defers every task until its deadline passes; "+
					"give a %s below 0.75, or %s dynamic:C with C above 0", drop, drop, n("drop_threshold"), n("defer"))
			})
		case d.Kind == "static" && d.Value == 0 || d.Kind == "gap" && c.DropThreshold+d.Value == 0:
			opts, vals := []string{"defer"}, []string{rule}
			if d.Kind == "gap" {
				opts, vals = []string{"drop_threshold", "defer"}, []string{drop, rule}
			}
			add(false, opts, vals, func(n func(string) string) string {
				return "a deferring threshold of 0 defers no task, so the runs that defer are those of the same heuristic without deferring, under a deferring name (X-D, X-P)"
			})
		}
	}
	if !c.Variant.drops() {
		return out
	}
	never := c.Toggle.Kind == "never" || c.Lambda == 0 && (c.Toggle.Kind == "threshold" || c.Toggle.Kind == "schmitt") && c.Toggle.On > 0
	switch {
	case c.DropThreshold >= 1 && !never:
		add(true, []string{"drop_threshold"}, []string{drop}, func(n func(string) string) string {
			return "a dropping threshold of 1 drops every queued task once dropping engages (no chance is above 1); give a " + n("drop_threshold") + " below 1"
		})
	case c.DropThreshold == 0:
		add(false, []string{"drop_threshold"}, []string{drop}, func(n func(string) string) string {
			return "a dropping threshold of 0 drops no task, so the runs that drop are those of the same heuristic without dropping, under a dropping name (X-Drop, X-P)"
		})
	case never && c.Toggle.Kind == "never":
		add(false, []string{"toggle"}, []string{c.Toggle.String()}, func(n func(string) string) string {
			return "dropping never engages, so the runs that drop are those of the same heuristic without dropping, under a dropping name (X-Drop, X-P)"
		})
	case never:
		add(false, []string{"lambda", "toggle"}, []string{num(c.Lambda), c.Toggle.String()}, func(n func(string) string) string {
			return fmt.Sprintf("with a weight of 0 the oversubscription level stays at 0 and never reaches the toggle's %s, so dropping never engages and the runs that drop are those of the same heuristic without dropping; give %s above 0",
				num(c.Toggle.On), n("lambda"))
		})
	case c.Rho > 0 && c.DropThreshold+c.Rho >= 1-sumSlack:
		add(false, []string{"drop_threshold", "rho"}, []string{drop, num(c.Rho)}, func(n func(string) string) string {
			return fmt.Sprintf("a task at the head of a queue whose completion time has skewness −1 gets the dropping threshold %s + %s ≥ 1 and is dropped whatever its chance; keep the two below 1 in sum",
				drop, num(c.Rho))
		})
	}
	return out
}

// sumSlack lets a sum of two thresholds that is 1 on paper count as 1: 0.7 + 0.3 is
// 0.9999999999999999 in floating point, a threshold that still prunes every task but those
// certain to succeed.
const sumSlack = 1e-9

// MapperProblems are the problems of the mapper New builds for name: its pruning's, after the
// preset's tuning, and its heuristic's: MOC culls every task whose best chance is not above its
// cull, so a cull of 1 maps no task.
func MapperProblems(name string, p heuristic.Params, cfg Config) []Problem {
	base, p, cfg := Resolve(name, p, cfg)
	out := cfg.Problems()
	if h, err := heuristic.Lookup(base); err == nil && h.Name == "MOC" && p.MOCCull >= 1 {
		out = append(out, Problem{Fatal: true, Options: []string{"moc_cull"}, Values: []string{strconv.FormatFloat(p.MOCCull, 'g', -1, 64)},
			text: func(n func(string) string) string {
				return "MOC keeps in the batch every task whose best chance is not above its cull, and no chance is above 1, so it maps no task; give a " +
					n("moc_cull") + " below 1"
			}})
	}
	return out
}

// fatal is the first fatal problem of cfg, as an error, or nil.
func (c Config) fatal() error {
	for _, p := range c.Problems() {
		if p.Fatal {
			return fmt.Errorf("pruning: %s", p)
		}
	}
	return nil
}
