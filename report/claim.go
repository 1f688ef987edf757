package report

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// A Claim is one statement of a paper that the runs of an experiment can check (issue 48), in
// one of four forms:
//
//   - ratio: Metric of the runs Of divided by Metric of the runs Over, at Level, against the
//     paper's Value ("PAM-P completes 1.75× the on-time tasks of MOC at 34k"); with Bound set,
//     the paper's value is a bound on the ratio ("more than quadrupling": at_least 4).
//   - bound: Metric of the runs Of at Level is at_most or at_least Value ("MSD at 34k ≤ 1 %").
//   - ordering: Metric of the runs Order, at Level, falls from the first to the last
//     ("PAM > MOC > MM").
//   - trend: Metric of the runs Of at Level, along the option Axis through the values Points,
//     rises or falls (Direction) from the first point to the last ("from toggle never to 0").
//
// docs/presets.md states the rule of each verdict; EvaluateClaim applies it.
type Claim struct {
	Form      string     // ratio, bound, ordering or trend
	Metric    string     // a runs.parquet metric column: robustness, on_time, ...
	Level     string     // the level the claim is made at
	Of        Selector   // ratio: the numerator; bound and trend: the runs
	Over      Selector   // ratio: the denominator
	Order     []Selector // ordering: highest first
	Axis      string     // trend: the option that varies (a runs.parquet column)
	Points    []string   // trend: the option's values in the order of the claim
	Direction string     // trend: rises or falls
	Bound     string     // bound (and a ratio's bound): at_most or at_least
	Value     float64    // ratio: the paper's ratio or its bound; bound: the limit
}

// Claim forms, bounds and directions.
const (
	FormRatio    = "ratio"
	FormBound    = "bound"
	FormOrdering = "ordering"
	FormTrend    = "trend"
	AtMost       = "at_most"
	AtLeast      = "at_least"
	Rises        = "rises"
	Falls        = "falls"
)

// Selector picks runs by their options: each key is a runs.parquet option column (name,
// heuristic, prune, toggle, fairness, ...) and a run matches when its value is one of the
// key's values. Numbers compare as numbers (0.05 matches 5e-02).
type Selector map[string][]string

// Matches reports whether r matches every key of s.
func (s Selector) Matches(r RunRow) bool {
	return s.matches(func(key string) (string, bool) { return OptionValue(r, key) })
}

// matches reports whether the options option gives match every key of s.
func (s Selector) matches(option func(string) (string, bool)) bool {
	for key, want := range s {
		v, ok := option(key)
		if !ok || !slices.ContainsFunc(want, func(w string) bool { return sameValue(v, w) }) {
			return false
		}
	}
	return true
}

// String is s as "key=v1|v2, key=v", sorted by key, for messages.
func (s Selector) String() string {
	var parts []string
	for k, v := range s {
		parts = append(parts, k+"="+strings.Join(v, "|"))
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}

func sameValue(a, b string) bool {
	if strings.EqualFold(a, b) {
		return true
	}
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && x == y
}

// OptionValue is the value of the option column key of r as a table shows it; false when key
// is no option column.
func OptionValue(r RunRow, key string) (string, bool) {
	for _, o := range options() {
		if o.name == key {
			return o.value(r), true
		}
	}
	return "", false
}

// OptionNames lists the option columns a Selector and a trend's Axis may name.
func OptionNames() []string {
	var names []string
	for _, o := range options() {
		names = append(names, o.name)
	}
	return names
}

// MetricNames lists the metric columns a claim may name.
func MetricNames() []string {
	var names []string
	for _, m := range metrics() {
		names = append(names, m.name)
	}
	return names
}

// FigureKinds lists the figure kinds of the report, which a preset's figure may name.
func FigureKinds() []string {
	var names []string
	for _, k := range figureKinds() {
		names = append(names, k.name)
	}
	return names
}

// Verdict is the outcome of checking a claim.
type Verdict string

// Verdicts, from the best. NotEvaluated is for a claim whose runs are not there (a --quick
// run without the claim's level) or whose numbers are undefined: never read it as holding.
const (
	Holds        Verdict = "holds"
	ShapeHolds   Verdict = "shape holds"
	DoesNotHold  Verdict = "does not hold"
	NotEvaluated Verdict = "not evaluated"
)

// ClaimResult is a claim checked against the runs.
type ClaimResult struct {
	Verdict Verdict
	Paper   string // the paper's value: "1.75", "≤ 1", "PAM-P > MOC > MM", "rises"
	Ours    string // ours with its 95% interval
	Why     string // the rule's finding in words, or why the claim was not evaluated
}

// ClaimPoint is one grid point as a claim sees it: its level, its options and its trials'
// values of each metric. The points of runs.parquet come from an Aggregate (ClaimPoints); runs
// of another kind (the speculative preset's job replays) make their own.
type ClaimPoint struct {
	Point  string
	Level  string
	Option func(key string) (string, bool)     // the value of an option; false when there is no such option
	Trials []int32                             // the trial numbers, which pair two points' runs
	Metric func(name string) ([]float64, bool) // a metric per trial, in the order of Trials (NaN where undefined); false when there is no such metric
}

// ClaimPoints are the aggregate's grid points as claims see them.
func (a *Aggregate) ClaimPoints() []ClaimPoint {
	out := make([]ClaimPoint, len(a.Groups))
	for i, g := range a.Groups {
		out[i] = g.claimPoint()
	}
	return out
}

func (g *Group) claimPoint() ClaimPoint {
	r := g.Run()
	trials := make([]int32, len(g.Runs))
	for i, run := range g.Runs {
		trials[i] = run.Trial
	}
	return ClaimPoint{Point: g.Point, Level: r.Level, Trials: trials,
		Option: func(key string) (string, bool) { return OptionValue(r, key) },
		Metric: func(name string) ([]float64, bool) {
			m, ok := metricByName(name)
			if !ok {
				return nil, false
			}
			return column(g.Runs, m.value), true
		}}
}

// EvaluateClaim checks c against the aggregate. An error is a claim the runs cannot answer by
// construction (a selector that matches several grid points); a claim whose runs are missing
// is NotEvaluated, with the reason.
func EvaluateClaim(a *Aggregate, c Claim) (ClaimResult, error) {
	return EvaluateClaimOn(a.ClaimPoints(), c)
}

// EvaluateClaimOn checks c against grid points, as EvaluateClaim does against an aggregate's.
func EvaluateClaimOn(points []ClaimPoint, c Claim) (ClaimResult, error) {
	if !slices.ContainsFunc(points, func(p ClaimPoint) bool { return p.Level == c.Level }) {
		return ClaimResult{Verdict: NotEvaluated, Why: "no runs at level " + c.Level}, nil
	}
	switch c.Form {
	case FormRatio:
		return evalRatio(points, c)
	case FormBound:
		return evalBound(points, c)
	case FormOrdering:
		return evalOrdering(points, c)
	case FormTrend:
		return evalTrend(points, c)
	}
	return ClaimResult{}, fmt.Errorf("claim form %q: want ratio, bound, ordering or trend", c.Form)
}

// errMissing marks a selector that matches no group: the claim is not evaluated.
var errMissing = errors.New("no runs")

// pick returns the one point at level that s (and extra, when not nil) matches.
func pick(points []ClaimPoint, level string, s Selector, extra Selector) (*ClaimPoint, error) {
	var found []*ClaimPoint
	for i := range points {
		p := &points[i]
		if p.Level == level && s.matches(p.Option) && (extra == nil || extra.matches(p.Option)) {
			found = append(found, p)
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("%w at %s match %s", errMissing, level, joinSel(s, extra))
	case 1:
		return found[0], nil
	}
	return nil, fmt.Errorf("at %s, %s matches %d grid points (%s, %s, ...); name more options", level, joinSel(s, extra),
		len(found), found[0].Point, found[1].Point)
}

func joinSel(s, extra Selector) string {
	if extra == nil {
		return s.String()
	}
	return s.String() + ", " + extra.String()
}

// picked turns a missing group into a NotEvaluated result and passes other errors on.
func picked(err error) (ClaimResult, error) {
	if errors.Is(err, errMissing) {
		return ClaimResult{Verdict: NotEvaluated, Why: err.Error()}, nil
	}
	return ClaimResult{}, err
}

// ival is a mean and the half-width of its 95% interval (NaN when unknown).
type ival struct{ mean, half float64 }

func (v ival) lo() float64 { return v.mean - v.half }
func (v ival) hi() float64 { return v.mean + v.half }

func (v ival) String() string {
	if math.IsNaN(v.half) {
		return fmt.Sprintf("%.3g (one trial: no ival)", v.mean)
	}
	return fmt.Sprintf("%.3g [%.3g, %.3g]", v.mean, v.lo(), v.hi())
}

// intervalOf is the mean of metric over p's trials with its 95% interval.
func intervalOf(p *ClaimPoint, metric string) (ival, error) {
	xs, ok := p.Metric(metric)
	if !ok {
		return ival{}, fmt.Errorf("no metric %q", metric)
	}
	e := EstimateOf(xs)
	return ival{e.Mean, e.Half}, nil
}

// RatioInterval is the ratio of the means of a and b with its 95% interval. When the two
// groups ran the same trials (pairs by Trial), the interval is the delta method's for a ratio
// of paired means: with R = ā / b̄ and dᵢ = aᵢ − R·bᵢ, the half-width is t(n−1) · s_d / (√n · |b̄|),
// which keeps the covariance the shared traces give both. Otherwise the two means are taken as
// independent: Var R ≈ (s_a²/n_a + R²·s_b²/n_b) / b̄², with t at min(n_a, n_b) − 1 degrees of
// freedom. NaN values (a metric undefined in a run) leave their pair, or their run, out.
func RatioInterval(a, b *Group, metric string) (mean, half float64, err error) {
	pa, pb := a.claimPoint(), b.claimPoint()
	return ratioInterval(&pa, &pb, metric)
}

func ratioInterval(a, b *ClaimPoint, metric string) (mean, half float64, err error) {
	av, ok1 := a.Metric(metric)
	bv, ok2 := b.Metric(metric)
	if !ok1 || !ok2 {
		return 0, 0, fmt.Errorf("no metric %q", metric)
	}
	bt := map[int32]float64{}
	for i, t := range b.Trials {
		bt[t] = bv[i]
	}
	var xs, ys []float64
	paired := len(a.Trials) == len(b.Trials)
	for i, t := range a.Trials {
		y, ok := bt[t]
		paired = paired && ok
		if x := av[i]; ok && !math.IsNaN(x) && !math.IsNaN(y) {
			xs, ys = append(xs, x), append(ys, y)
		}
	}
	if !paired {
		return unpairedRatio(EstimateOf(av), EstimateOf(bv))
	}
	n := len(xs)
	if n == 0 {
		return math.NaN(), math.NaN(), nil
	}
	mb := stat.Mean(ys, nil)
	r := stat.Mean(xs, nil) / mb
	if n < 2 {
		return r, math.NaN(), nil
	}
	d := make([]float64, n)
	for i := range xs {
		d[i] = xs[i] - r*ys[i]
	}
	sd := stat.StdDev(d, nil)
	return r, tQuantile(n-1) * sd / (math.Sqrt(float64(n)) * math.Abs(mb)), nil
}

func unpairedRatio(ea, eb Estimate) (float64, float64, error) {
	r := ea.Mean / eb.Mean
	n := min(ea.N, eb.N)
	if n < 2 {
		return r, math.NaN(), nil
	}
	v := (ea.SD*ea.SD/float64(ea.N) + r*r*eb.SD*eb.SD/float64(eb.N)) / (eb.Mean * eb.Mean)
	return r, tQuantile(n-1) * math.Sqrt(v), nil
}

func tQuantile(df int) float64 {
	return distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(df)}.Quantile(0.975)
}

func metricByName(name string) (metric, bool) {
	for _, m := range metrics() {
		if m.name == name {
			return m, true
		}
	}
	return metric{}, false
}

// evalRatio: holds when the paper's value lies in our interval (or, for a bound, when the whole
// interval meets it); shape holds when our whole interval lies on the paper's side of 1 (the same
// runs ahead; for a bound, when our mean meets it); else does not hold. An interval that holds
// both the paper's value and 1 is not evaluated: a ratio of 1 is no effect, and runs that cannot
// tell the paper's ratio from it neither confirm nor refute the claim.
func evalRatio(points []ClaimPoint, c Claim) (ClaimResult, error) {
	num, err := pick(points, c.Level, c.Of, nil)
	if err != nil {
		return picked(err)
	}
	den, err := pick(points, c.Level, c.Over, nil)
	if err != nil {
		return picked(err)
	}
	mean, half, err := ratioInterval(num, den, c.Metric)
	if err != nil {
		return ClaimResult{}, err
	}
	v := ival{mean, half}
	res := ClaimResult{Paper: strconv.FormatFloat(c.Value, 'g', -1, 64), Ours: v.String()}
	if math.IsNaN(mean) || math.IsInf(mean, 0) {
		res.Verdict, res.Why = NotEvaluated, "the ratio is undefined (no trials, or a mean of 0 below)"
		return res, nil
	}
	if c.Bound != "" {
		return boundVerdict(res, v, c.Bound, c.Value), nil
	}
	lo, hi := v.lo(), v.hi()
	if math.IsNaN(half) { // one trial: the side of 1 at best
		lo, hi = math.Inf(-1), math.Inf(1)
		if (c.Value > 1) == (mean > 1) {
			lo, hi = mean, mean
		}
	}
	switch {
	case !math.IsNaN(half) && lo <= c.Value && c.Value <= hi && lo <= 1 && 1 <= hi:
		res.Verdict, res.Why = NotEvaluated, "our 95% interval holds both the paper's ratio and 1: the runs cannot tell the paper's ratio from no effect"
	case !math.IsNaN(half) && lo <= c.Value && c.Value <= hi:
		res.Verdict, res.Why = Holds, "the paper's ratio lies in our 95% interval"
	case (c.Value > 1 && lo > 1) || (c.Value < 1 && hi < 1):
		res.Verdict, res.Why = ShapeHolds, "the paper's ratio lies outside our interval, but ours is on the same side of 1"
	default:
		res.Verdict, res.Why = DoesNotHold, "the paper's ratio lies outside our interval, which reaches the other side of 1"
	}
	return res, nil
}

// boundVerdict: holds when the whole interval meets the bound; shape holds when the mean does
// but the interval crosses it (or there is none); does not hold when the mean does not.
func boundVerdict(res ClaimResult, v ival, bound string, limit float64) ClaimResult {
	meets := func(x float64) bool {
		if bound == AtMost {
			return x <= limit
		}
		return x >= limit
	}
	edge := v.hi()
	res.Paper = "≤ " + strconv.FormatFloat(limit, 'g', -1, 64)
	if bound == AtLeast {
		edge = v.lo()
		res.Paper = "≥ " + strconv.FormatFloat(limit, 'g', -1, 64)
	}
	switch {
	case !meets(v.mean):
		res.Verdict, res.Why = DoesNotHold, "our mean is past the paper's bound"
	case !math.IsNaN(v.half) && meets(edge):
		res.Verdict, res.Why = Holds, "our whole 95% interval meets the paper's bound"
	default:
		res.Verdict, res.Why = ShapeHolds, "our mean meets the paper's bound, our 95% interval does not"
	}
	return res
}

func evalBound(points []ClaimPoint, c Claim) (ClaimResult, error) {
	g, err := pick(points, c.Level, c.Of, nil)
	if err != nil {
		return picked(err)
	}
	v, err := intervalOf(g, c.Metric)
	if err != nil {
		return ClaimResult{}, err
	}
	res := ClaimResult{Ours: v.String()}
	if math.IsNaN(v.mean) {
		res.Verdict, res.Why = NotEvaluated, c.Metric+" is undefined in every run"
		return res, nil
	}
	return boundVerdict(res, v, c.Bound, c.Value), nil
}

// evalOrdering: holds when each mean is above the next and their intervals do not overlap;
// shape holds when the means are in order but some neighbours' intervals overlap; else does
// not hold.
func evalOrdering(points []ClaimPoint, c Claim) (ClaimResult, error) {
	var vs []ival
	var names, ours []string
	for _, s := range c.Order {
		g, err := pick(points, c.Level, s, nil)
		if err != nil {
			return picked(err)
		}
		v, err := intervalOf(g, c.Metric)
		if err != nil {
			return ClaimResult{}, err
		}
		if math.IsNaN(v.mean) {
			return ClaimResult{Verdict: NotEvaluated, Why: c.Metric + " is undefined for " + s.String()}, nil
		}
		vs = append(vs, v)
		names = append(names, s.String())
		ours = append(ours, s.String()+" "+v.String())
	}
	res := ClaimResult{Paper: strings.Join(names, " > "), Ours: strings.Join(ours, "; ")}
	separated := true
	for i := 1; i < len(vs); i++ {
		if !(vs[i-1].mean > vs[i].mean) {
			res.Verdict, res.Why = DoesNotHold, fmt.Sprintf("%s is not above %s", names[i-1], names[i])
			return res, nil
		}
		separated = separated && vs[i-1].lo() > vs[i].hi()
	}
	if separated {
		res.Verdict, res.Why = Holds, "in the paper's order, with non-overlapping 95% intervals"
	} else {
		res.Verdict, res.Why = ShapeHolds, "in the paper's order, but some neighbours' 95% intervals overlap"
	}
	return res, nil
}

// evalTrend: holds when the last point is past the first in the claimed direction with
// non-overlapping intervals and no step between neighbours goes the other way with
// non-overlapping intervals; shape holds when the last mean is past the first in the claimed
// direction; else does not hold.
func evalTrend(points []ClaimPoint, c Claim) (ClaimResult, error) {
	var vs []ival
	var ours []string
	for _, p := range c.Points {
		g, err := pick(points, c.Level, c.Of, Selector{c.Axis: {p}})
		if err != nil {
			return picked(err)
		}
		v, err := intervalOf(g, c.Metric)
		if err != nil {
			return ClaimResult{}, err
		}
		if math.IsNaN(v.mean) {
			return ClaimResult{Verdict: NotEvaluated, Why: c.Metric + " is undefined at " + c.Axis + " " + p}, nil
		}
		vs = append(vs, v)
		ours = append(ours, c.Axis+" "+p+": "+v.String())
	}
	res := ClaimResult{Paper: c.Direction + " from " + c.Axis + " " + c.Points[0] + " to " + c.Points[len(c.Points)-1],
		Ours: strings.Join(ours, " → ")}
	// up reports whether y is past x in the claimed direction, beyond both intervals when strict.
	up := func(x, y ival, strict bool) bool {
		if c.Direction == Falls {
			x, y = ival{-x.mean, x.half}, ival{-y.mean, y.half}
		}
		if strict {
			return y.lo() > x.hi()
		}
		return y.mean > x.mean
	}
	first, last := vs[0], vs[len(vs)-1]
	if !up(first, last, false) {
		res.Verdict, res.Why = DoesNotHold, "the last point is not past the first in the claimed direction"
		return res, nil
	}
	against := false
	for i := 1; i < len(vs); i++ {
		against = against || up(vs[i], vs[i-1], true)
	}
	switch {
	case up(first, last, true) && !against:
		res.Verdict, res.Why = Holds, "the ends differ in the claimed direction with non-overlapping 95% intervals, and no step goes clearly the other way"
	case against:
		res.Verdict, res.Why = ShapeHolds, "the ends move in the claimed direction, but one step goes the other way with non-overlapping intervals"
	default:
		res.Verdict, res.Why = ShapeHolds, "the ends move in the claimed direction, but their 95% intervals overlap"
	}
	return res, nil
}
