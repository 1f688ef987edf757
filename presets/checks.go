package presets

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/report"
)

// A figure's `check` names a computed line or list that sets our numbers beside the paper's
// the way its text does, where the four claim forms cannot say it: a best-of comparison, the
// λ of a curve's extremes, a table of the paper's counts. Each is one of these, with its
// arguments after colons (variant:defer, fairness:0.05, per-on-time:cost_per_on_time:MM).

// checkNames are the checks a figure may name, with the number of arguments each takes.
var checkNames = map[string]int{"toggle": 0, "pam-over": 0, "variant": 1, "fairness": 1, "lambda": 0, "defer": 0,
	"pam-over-baselines": 0, "pruning-gain": 0, "per-on-time": 2, "batch2010": 0}

// CheckNames lists the checks a figure may name.
func CheckNames() []string {
	var names []string
	for n := range checkNames {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// checkFunc returns the check a figure names, or an error saying what is wrong with the name.
func checkFunc(name string) (func(*report.Aggregate) string, error) {
	parts := strings.Split(name, ":")
	n, ok := checkNames[parts[0]]
	if !ok {
		return nil, fmt.Errorf("unknown check %q (known: %s)", parts[0], strings.Join(CheckNames(), ", "))
	}
	if len(parts)-1 != n {
		return nil, fmt.Errorf("check %s takes %d arguments after colons, not %d", parts[0], n, len(parts)-1)
	}
	switch parts[0] {
	case "toggle":
		return toggleCheck, nil
	case "pam-over":
		return pamOverCheck, nil
	case "variant":
		if !slices.Contains([]string{"defer", "drop", "both"}, parts[1]) {
			return nil, fmt.Errorf("check variant:%s: want defer, drop or both", parts[1])
		}
		return variantCheck(parts[1]), nil
	case "fairness":
		v, err := strconv.ParseFloat(parts[1], 64)
		if err != nil {
			return nil, fmt.Errorf("check fairness:%s: want the chosen factor, a number", parts[1])
		}
		return fairnessCheck(v), nil
	case "lambda":
		return lambdaCheck, nil
	case "defer":
		return deferCheck, nil
	case "pam-over-baselines":
		return pamOverBaselinesCheck, nil
	case "pruning-gain":
		return pruningGainCheck, nil
	case "per-on-time":
		if !slices.Contains(report.MetricNames(), parts[1]) {
			return nil, fmt.Errorf("check per-on-time:%s: unknown metric", parts[1])
		}
		return perOnTimeCheck(parts[1], parts[2]), nil
	}
	return batchCheck, nil
}

// Checks: one computed line or list comparing our numbers the way the paper's text does.

// estimate returns a metric of the first group at level whose run match accepts.
func estimate(a *report.Aggregate, level, metric string, match func(report.RunRow) bool) (report.Estimate, bool) {
	for _, g := range a.Groups {
		if r := g.Run(); r.Level == level && match(r) {
			return g.Stat(metric), true
		}
	}
	return report.Estimate{}, false
}

func named(name string) func(report.RunRow) bool {
	return func(r report.RunRow) bool { return r.Name == name }
}

// pm formats an estimate as "mean ± half" with d decimals.
func pm(e report.Estimate, d int) string {
	return fmt.Sprintf("%.*f ± %.*f", d, e.Mean, d, e.Half)
}

// change is the relative change from a to b, in percent with a sign.
func change(a, b float64) string { return fmt.Sprintf("%+.0f %%", 100*(b/a-1)) }

// bullets joins lines as a Markdown list under a heading line; "" when there are none.
func bullets(head string, lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return head + "\n\n- " + strings.Join(lines, "\n- ")
}

func toggleCheck(a *report.Aggregate) string {
	var lines []string
	for _, l := range a.Levels {
		never, ok1 := estimate(a, l, "robustness", func(r report.RunRow) bool { return r.Toggle == "never" })
		zero, ok2 := estimate(a, l, "robustness", func(r report.RunRow) bool { return r.Toggle == "threshold:0" })
		if ok1 && ok2 {
			lines = append(lines, fmt.Sprintf("%s: toggle never %s %% → toggle 0 %s %% (paper: 34 %% → 43 %%)", l, pm(never, 1), pm(zero, 1)))
		}
	}
	return bullets("Check:", lines)
}

// pamOverCheck compares on-time counts at the highest level, as the thesis's "PAM outperforms
// MOC by 75 %, and doubles the performance of MM".
func pamOverCheck(a *report.Aggregate) string {
	if len(a.Levels) == 0 {
		return ""
	}
	top := a.Levels[len(a.Levels)-1]
	pam, ok := estimate(a, top, "on_time", named("PAM-P"))
	if !ok {
		return ""
	}
	var lines []string
	for _, base := range []string{"MOC", "MM"} {
		if e, ok := estimate(a, top, "on_time", named(base)); ok && e.Mean > 0 {
			lines = append(lines, fmt.Sprintf("PAM-P completes %.2f× the on-time tasks of %s (%.0f against %.0f)", pam.Mean/e.Mean, base, pam.Mean, e.Mean))
		}
	}
	return bullets(fmt.Sprintf("Check at %s (paper: 1.75× MOC, 2× MM):", top), lines)
}

// variantCheck compares each heuristic with its variant at each level.
func variantCheck(variant string) func(*report.Aggregate) string {
	return func(a *report.Aggregate) string {
		var lines []string
		for _, l := range a.Levels {
			for _, h := range []string{"MM", "MSD", "MMU"} {
				base, ok1 := estimate(a, l, "robustness", func(r report.RunRow) bool { return r.Heuristic == h && r.Prune == "none" })
				v, ok2 := estimate(a, l, "robustness", func(r report.RunRow) bool { return r.Heuristic == h && r.Prune == variant })
				if ok1 && ok2 {
					lines = append(lines, fmt.Sprintf("%s, %s: %s %% → %s %% (%.1f×)", l, h, pm(base, 1), pm(v, 1), v.Mean/base.Mean))
				}
			}
		}
		return bullets("Check, no pruning → "+variant+":", lines)
	}
}

func fairnessCheck(chosen float64) func(*report.Aggregate) string {
	return func(a *report.Aggregate) string {
		var lines []string
		for _, l := range a.Levels {
			at := func(v float64) func(report.RunRow) bool { return func(r report.RunRow) bool { return r.Fairness == v } }
			r0, ok1 := estimate(a, l, "robustness", at(0))
			r1, ok2 := estimate(a, l, "robustness", at(chosen))
			v0, _ := estimate(a, l, "fairness_variance", at(0))
			v1, _ := estimate(a, l, "fairness_variance", at(chosen))
			s0, _ := estimate(a, l, "fairness_stddev", at(0))
			s1, _ := estimate(a, l, "fairness_stddev", at(chosen))
			if ok1 && ok2 {
				lines = append(lines, fmt.Sprintf("%s: robustness %s %% → %s %%, variance %.0f → %.0f, standard deviation %.1f → %.1f",
					l, pm(r0, 1), pm(r1, 1), v0.Mean, v1.Mean, s0.Mean, s1.Mean))
			}
		}
		return bullets(fmt.Sprintf("Check, ϑ = 0 → ϑ = %g:", chosen), lines)
	}
}

func lambdaCheck(a *report.Aggregate) string {
	var lines []string
	for _, l := range a.Levels {
		for _, t := range []string{"threshold:1", "schmitt:1:0.8"} {
			var lo, hi report.Estimate
			var loAt, hiAt float64
			found := false
			for _, g := range a.Groups {
				r, e := g.Run(), g.Stat("robustness")
				if r.Level != l || r.Toggle != t {
					continue
				}
				if !found || e.Mean < lo.Mean {
					lo, loAt = e, r.Lambda
				}
				if !found || e.Mean > hi.Mean {
					hi, hiAt = e, r.Lambda
				}
				found = true
			}
			if found {
				lines = append(lines, fmt.Sprintf("%s, %s: lowest %s %% at λ = %g, highest %s %% at λ = %g", l, t, pm(lo, 1), loAt, pm(hi, 1), hiAt))
			}
		}
	}
	return bullets("Check:", lines)
}

// deferCheck sets the best dynamic rule against the best static threshold on each trace set.
func deferCheck(a *report.Aggregate) string {
	var lines []string
	for _, l := range a.Levels {
		best := map[string]report.Estimate{}
		rule := map[string]string{}
		for _, g := range a.Groups {
			r, e := g.Run(), g.Stat("robustness")
			kind, _, _ := strings.Cut(r.Defer, ":")
			if r.Level == l && (rule[kind] == "" || e.Mean > best[kind].Mean) {
				best[kind], rule[kind] = e, r.Defer
			}
		}
		if rule["static"] != "" && rule["dynamic"] != "" {
			lines = append(lines, fmt.Sprintf("%s: best static (%s) %s %%, best dynamic (%s) %s %%",
				l, rule["static"], pm(best["static"], 1), rule["dynamic"], pm(best["dynamic"], 1)))
		}
	}
	return bullets("Check:", lines)
}

// pamOverBaselinesCheck compares PAM-P and PAMF-P with the mean of the unpruned baselines.
func pamOverBaselinesCheck(a *report.Aggregate) string {
	var lines []string
	for _, l := range a.Levels {
		sum, n := 0.0, 0
		for _, h := range []string{"MM", "MSD", "MMU", "MOC"} {
			if e, ok := estimate(a, l, "robustness", named(h)); ok {
				sum, n = sum+e.Mean, n+1
			}
		}
		if n == 0 {
			continue
		}
		mean := sum / float64(n)
		for _, name := range []string{"PAM-P", "PAMF-P"} {
			if e, ok := estimate(a, l, "robustness", named(name)); ok {
				lines = append(lines, fmt.Sprintf("%s: %s %s %% against %.1f %% for the mean of the %d baselines (%+.1f points, %s)",
					l, name, pm(e, 1), mean, n, e.Mean-mean, change(mean, e.Mean)))
			}
		}
	}
	return bullets("Check:", lines)
}

func pruningGainCheck(a *report.Aggregate) string {
	var lines []string
	for _, l := range a.Levels {
		for _, h := range []string{"MM", "MSD", "MMU", "MOC"} {
			base, ok1 := estimate(a, l, "robustness", named(h))
			p, ok2 := estimate(a, l, "robustness", named(h+"-P"))
			if ok1 && ok2 {
				lines = append(lines, fmt.Sprintf("%s, %s: %s %% → %s-P %s %% (%+.1f points)", l, h, pm(base, 1), h, pm(p, 1), p.Mean-base.Mean))
			}
		}
	}
	return bullets("Check, pruning's gain:", lines)
}

// perOnTimeCheck compares PAM-P's and PAMF-P's cost or energy per on-time task with base's.
func perOnTimeCheck(metric, base string) func(*report.Aggregate) string {
	return func(a *report.Aggregate) string {
		var lines []string
		for _, l := range a.Levels {
			b, ok := estimate(a, l, metric, named(base))
			if !ok || !(b.Mean > 0) {
				continue
			}
			for _, name := range []string{"PAM-P", "PAMF-P"} {
				if e, ok := estimate(a, l, metric, named(name)); ok {
					lines = append(lines, fmt.Sprintf("%s: %s %s against %s (%s)", l, name, change(b.Mean, e.Mean), base, metricShort(metric)))
				}
			}
		}
		return bullets("Check:", lines)
	}
}

func metricShort(metric string) string { return strings.ReplaceAll(metric, "_", " ") }

// batchCheck is 004's numbers beside ours: on-time tasks of the trial's tasks.
func batchCheck(a *report.Aggregate) string {
	paper := []struct {
		name     string
		mean, ci float64
	}{{"MOC", 1401, 19}, {"MM", 1175, 42}, {"MMU", 1139, 55}, {"MSD", 1131, 49}, {"MCT", 100, 5}}
	var b strings.Builder
	b.WriteString("Paper against ours, on-time tasks (Smith et al. 2010 name MCT \"MECT\" and MSD \"MESD\"):\n\n")
	b.WriteString("| heuristic | paper, of 2000 | paper % | ours | ours % | ours, tasks a trial |\n|:---|---:|---:|---:|---:|---:|\n")
	for _, p := range paper {
		for _, l := range a.Levels {
			on, ok := estimate(a, l, "on_time", named(p.name))
			if !ok {
				continue
			}
			rob, _ := estimate(a, l, "robustness", named(p.name))
			tasks, _ := estimate(a, l, "tasks", named(p.name))
			fmt.Fprintf(&b, "| %s | %.0f ± %.0f | %.1f | %s | %s | %.0f |\n", p.name, p.mean, p.ci, p.mean/20, pm(on, 0), pm(rob, 1), tasks.Mean)
		}
	}
	return b.String()
}
