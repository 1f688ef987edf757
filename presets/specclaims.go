package presets

import (
	"slices"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/replay/speculate"
	"github.com/hcreplay/hcreplay/report"
)

// The speculative preset's claims (its file's speculative.figures) are checked by the four claim
// forms on grid points of its job replays, one point per configuration with a trial per seed
// (or per repetition of Fig 5), in place of runs.parquet's:
//
//   - level light: every strategy at the light λ (Fig 2); option strategy
//   - level sigma: SDA at the light λ against σ (Fig 3); options strategy and sigma
//   - level single: the one job of Fig 5, ESE against σ and none; options strategy and sigma
//   - level heavy: every strategy at the last heavy λ (Fig 6); option strategy
//
// and the metrics of each run's summary below (summaries.json's names).

// specLevels are the levels a speculative claim may name.
var specLevels = []string{"light", "sigma", "single", "heavy"}

// specFigures are the files the speculative runner draws, which a claim's figure names.
var specFigures = []string{"fig2-light", "fig3-sda-sigma", "fig4-ese-analysis", "fig5-single-job", "fig6-heavy"}

// specOptions are the options a speculative claim's selectors and trends may name.
var specOptions = []string{"strategy", "sigma"}

// specMetrics are the metrics of a replay's summary a speculative claim may name.
func specMetrics() map[string]func(speculate.Summary) float64 {
	return map[string]func(speculate.Summary) float64{
		"flowtime_mean":       func(s speculate.Summary) float64 { return float64(s.FlowtimeMean) },
		"flowtime_small_mean": func(s speculate.Summary) float64 { return float64(s.FlowtimeSmallMean) },
		"resource_mean":       func(s speculate.Summary) float64 { return float64(s.ResourceMean) },
		"resource_total":      func(s speculate.Summary) float64 { return float64(s.ResourceTotal) },
	}
}

func specMetricNames() []string {
	var names []string
	for n := range specMetrics() {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// figure is f as a Figure, for its claims' ids and evaluation.
func (f SpecFigure) figure() Figure { return Figure{File: f.File, Claims: f.Claims} }

// checkSpeculative checks the claims of the speculative block.
func (p *Preset) checkSpeculative(c *checker) {
	var strategies []string
	for _, st := range specStrategies() {
		strategies = append(strategies, string(st))
	}
	sc := scope{levels: specLevels, metrics: specMetricNames(), options: specOptions, ran: map[string][]string{"strategy": strategies}}
	for j, f := range p.Speculative.Figures {
		at := func(path ...any) string { return c.at(append([]any{"speculative", "figures", j}, path...)...) }
		if !slices.Contains(specFigures, f.File) {
			c.errorf(at("file"), "the speculative runner draws no figure %q (it draws %s)", f.File, strings.Join(specFigures, ", "))
		}
		for k, cl := range f.Claims {
			cl.check(c, sc, func(path ...any) string { return at(append([]any{"claims", k}, path...)...) })
		}
	}
}

func specStrategies() []speculate.Strategy {
	return []speculate.Strategy{speculate.None, speculate.SCA, speculate.SDA, speculate.ESE, speculate.Mantri, speculate.Auto}
}

// specPoint is the grid point of runs, one trial per run, in order.
func specPoint(level string, st speculate.Strategy, sigma float64, runs []*specRun) report.ClaimPoint {
	trials := make([]int32, len(runs))
	for i := range runs {
		trials[i] = int32(i + 1)
	}
	opts := map[string]string{"strategy": string(st), "sigma": strconv.FormatFloat(sigma, 'g', -1, 64)}
	return report.ClaimPoint{Point: level + "|" + string(st) + "|" + opts["sigma"], Level: level, Trials: trials,
		Option: func(key string) (string, bool) { v, ok := opts[key]; return v, ok },
		Metric: func(name string) ([]float64, bool) {
			m, ok := specMetrics()[name]
			if !ok {
				return nil, false
			}
			xs := make([]float64, len(runs))
			for i, r := range runs {
				xs[i] = m(r.res.Summary)
			}
			return xs, true
		}}
}

// specPoints are the grid points of the runs for the claims: light and heavy hold each
// strategy at σ 0 (σ* per job), sigma and single each σ swept.
func specPoints(set specSetup, by map[float64]map[speculate.Strategy][]*specRun, sigmaRuns, f5 [][]*specRun) []report.ClaimPoint {
	var out []report.ClaimPoint
	for _, st := range specStrategies() {
		out = append(out, specPoint("light", st, 0, by[set.light][st]), specPoint("heavy", st, 0, by[set.heavy[len(set.heavy)-1]][st]))
	}
	for i, s := range set.sigmas {
		out = append(out, specPoint("sigma", speculate.SDA, s, sigmaRuns[i]))
	}
	for i, s := range set.f5Sigmas {
		out = append(out, specPoint("single", speculate.ESE, s, f5[i]))
	}
	return append(out, specPoint("single", speculate.None, 0, f5[len(set.f5Sigmas)]))
}

// specEvaluate checks the claims of the speculative block against the runs' points.
func (p *Preset) specEvaluate(points []report.ClaimPoint) ([]Checked, error) {
	var out []Checked
	for _, f := range p.Speculative.Figures {
		checked, err := f.figure().evaluate(points)
		if err != nil {
			return nil, err
		}
		out = append(out, checked...)
	}
	return out, nil
}
