package trace

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// TypeMeans is what the deadline rules need to know about execution times:
// for each task type, its mean execution time over machine types (the mean of
// the PET cell means of that row), and a global mean. It is plain data so
// that this package does not depend on the PET package; petbuild computes it.
type TypeMeans struct {
	PerType map[string]float64
	Global  float64
}

// NewTypeMeans builds TypeMeans with Global the mean over types of the
// per-type means, which is what the original generator and thesis Eq 3.7
// use (avg_all, "the mean of all task type's execution").
func NewTypeMeans(perType map[string]float64) TypeMeans {
	sum := 0.0
	for _, v := range perType {
		sum += v
	}
	g := 0.0
	if len(perType) > 0 {
		g = sum / float64(len(perType))
	}
	return TypeMeans{PerType: perType, Global: g}
}

// DeadlineRule synthesizes deadlines for traces that have none. The rules
// are those of the original study's generator (HCW19_Workload,
// convertWorkLoad.py: "tight", "urgency", "prop") and the slack rule of the
// journal paper (000 §8.2) and the thesis (Eq 3.7). With m_i the mean of task
// type i over machine types and m the global mean:
//
//	tight      δ = a + m_i
//	prop:α     δ = a + m_i + α·m            (default α = 1)
//	slack:β    δ = a + m_i + β·m            (default β = 1)
//	urgency    δ = a + f·m_i, f ~ N(μ, σ²) of the task's urgency class
//
// prop and slack are the same formula under two names, so that a command
// line can use the name of either source. α = 1 is the generator's ALPHA and
// reproduces the deadlines of every file in constant.zip and spiky.zip
// exactly (to their two decimals) from the means of classes_2.etc.
//
// urgency follows the generator: a task is of low urgency with probability
// low_share, and its factor is drawn from N(low_mean, low_var), else from
// N(high_mean, high_var). Its defaults are the generator's constants:
// low_share=0.5, low_mean=2, low_var=0.5, high_mean=1.3, high_var=0.5 (the
// script passes sqrt(var) as the standard deviation). The generator
// multiplies by a fixed per-type duration table; we use m_i. It puts no floor
// on f, so about 3% of high-urgency deadlines fell before the arrival; we
// clamp f at min (default 0, i.e. a deadline never precedes its arrival),
// which is our choice, not the generator's. The generator also rounds
// deadlines to two decimals; we do not.
//
// Syntax: "tight", "prop", "prop:0.5", "slack:2", "urgency",
// "urgency:low_share=0.3,high_mean=1.5,min=0.5".
//
// α, β, the urgency means and min are at most MaxDeadlineFactor, the means
// above 0 and min at least 0; Deadline returns an error rather than a
// deadline that is not finite or precedes its arrival.
type DeadlineRule struct {
	Kind    string // "tight", "prop", "slack" or "urgency"
	Alpha   float64
	Urgency UrgencyParams
}

// UrgencyParams are the parameters of the urgency rule.
type UrgencyParams struct {
	LowShare          float64
	LowMean, LowVar   float64
	HighMean, HighVar float64
	Min               float64
}

// DefaultUrgency returns the original generator's urgency parameters.
func DefaultUrgency() UrgencyParams {
	return UrgencyParams{LowShare: 0.5, LowMean: 2, LowVar: 0.5, HighMean: 1.3, HighVar: 0.5, Min: 0}
}

// MaxDeadlineFactor bounds the factors of the deadline rules (α, β, the
// urgency means and min; the urgency variances are bounded by its square).
// The papers use factors from 0.25 to 4. MaxGenTasks tasks run back to back
// on ten machines end within a million mean execution times of the first
// arrival, so a larger factor changes no outcome; it only brings deadlines
// near overflow (prop:1e308 gives +Inf) and is a typo in practice.
const MaxDeadlineFactor = 1e6

// ParseDeadlineRule parses the rule syntax described at DeadlineRule.
func ParseDeadlineRule(s string) (DeadlineRule, error) {
	kind, arg, hasArg := strings.Cut(strings.TrimSpace(s), ":")
	kind = strings.ToLower(strings.TrimSpace(kind))
	switch kind {
	case "tight":
		if hasArg {
			return DeadlineRule{}, fmt.Errorf("deadline rule %q: tight takes no parameter", s)
		}
		return DeadlineRule{Kind: kind}, nil
	case "prop", "slack":
		r := DeadlineRule{Kind: kind, Alpha: 1}
		if hasArg {
			v, err := strconv.ParseFloat(strings.TrimSpace(arg), 64)
			if err != nil || !(v >= 0 && v <= MaxDeadlineFactor) {
				return DeadlineRule{}, fmt.Errorf("deadline rule %q: %s needs a number from 0 to %g, e.g. %s:1", s, kind, MaxDeadlineFactor, kind)
			}
			r.Alpha = v
		}
		return r, nil
	case "urgency":
		r := DeadlineRule{Kind: kind, Urgency: DefaultUrgency()}
		if hasArg {
			if err := r.Urgency.parse(arg); err != nil {
				return DeadlineRule{}, fmt.Errorf("deadline rule %q: %w", s, err)
			}
		}
		return r, nil
	}
	return DeadlineRule{}, fmt.Errorf("unknown deadline rule %q (want tight, prop:ALPHA, slack:BETA or urgency[:key=value,...])", s)
}

func (u *UrgencyParams) parse(arg string) error {
	fields := map[string]*float64{
		"low_share": &u.LowShare, "low_mean": &u.LowMean, "low_var": &u.LowVar,
		"high_mean": &u.HighMean, "high_var": &u.HighVar, "min": &u.Min,
	}
	for _, kv := range strings.Split(arg, ",") {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.TrimSpace(k)
		p, known := fields[k]
		if !ok || !known {
			keys := make([]string, 0, len(fields))
			for name := range fields {
				keys = append(keys, name)
			}
			slices.Sort(keys)
			return fmt.Errorf("urgency parameter %q: want key=value with key one of %s", kv, strings.Join(keys, ", "))
		}
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("urgency parameter %q: not a number", kv)
		}
		*p = x
	}
	return u.validate()
}

// validate checks each parameter's range: factors up to MaxDeadlineFactor
// (variances up to its square), means above 0 (a mean of 0 or less puts
// most deadlines at the arrival, where the min clamp holds them), and min at
// least 0, so that no deadline precedes its arrival.
func (u UrgencyParams) validate() error {
	const maxVar = MaxDeadlineFactor * MaxDeadlineFactor
	ranges := []struct {
		name      string
		v, lo, hi float64
		openLo    bool // lo itself is excluded
	}{
		{"low_share", u.LowShare, 0, 1, false},
		{"low_mean", u.LowMean, 0, MaxDeadlineFactor, true},
		{"high_mean", u.HighMean, 0, MaxDeadlineFactor, true},
		{"low_var", u.LowVar, 0, maxVar, false},
		{"high_var", u.HighVar, 0, maxVar, false},
		{"min", u.Min, 0, MaxDeadlineFactor, false},
	}
	for _, r := range ranges {
		if r.v > r.lo && r.v <= r.hi || r.v == r.lo && !r.openLo {
			continue
		}
		bracket := "["
		if r.openLo {
			bracket = "("
		}
		return fmt.Errorf("urgency: %s %v must be in %s%g, %g]", r.name, r.v, bracket, r.lo, r.hi)
	}
	return nil
}

// Validate checks that the rule is one ParseDeadlineRule could return, so
// that a rule built in code or read from a sweep file gives only finite
// deadlines that do not precede their arrivals.
func (d DeadlineRule) Validate() error {
	switch d.Kind {
	case "tight":
		return nil
	case "prop", "slack":
		if !(d.Alpha >= 0 && d.Alpha <= MaxDeadlineFactor) {
			return fmt.Errorf("deadline rule %s: factor %v must be in [0, %g]", d.Kind, d.Alpha, MaxDeadlineFactor)
		}
		return nil
	case "urgency":
		if err := d.Urgency.validate(); err != nil {
			return fmt.Errorf("deadline rule %w", err)
		}
		return nil
	}
	return fmt.Errorf("unknown deadline rule %q", d.Kind)
}

// String returns the rule in the syntax ParseDeadlineRule reads.
func (d DeadlineRule) String() string {
	switch d.Kind {
	case "prop", "slack":
		return d.Kind + ":" + formatFloat(d.Alpha)
	case "urgency":
		u := d.Urgency
		return fmt.Sprintf("urgency:low_share=%s,low_mean=%s,low_var=%s,high_mean=%s,high_var=%s,min=%s",
			formatFloat(u.LowShare), formatFloat(u.LowMean), formatFloat(u.LowVar),
			formatFloat(u.HighMean), formatFloat(u.HighVar), formatFloat(u.Min))
	}
	return d.Kind
}

// Deadline returns the deadline of a task of the given type arriving at
// arrival. Only the urgency rule draws random numbers, from rng.
func (d DeadlineRule) Deadline(taskType string, arrival float64, m TypeMeans, rng *rand.Rand) (float64, error) {
	mi, ok := m.PerType[taskType]
	if !ok {
		return 0, fmt.Errorf("deadline rule %s: no mean execution time for task type %q", d.Kind, taskType)
	}
	d0, err := d.deadline(mi, arrival, m.Global, rng)
	if err == nil && !(d0 >= arrival && d0 <= math.MaxFloat64) {
		err = fmt.Errorf("deadline rule %s: task type %q arriving at %v gets deadline %v: want a finite deadline not before the arrival (are the mean execution times positive and finite?)", d, taskType, arrival, d0)
	}
	return d0, err
}

// deadline applies the rule's formula to a task whose type has mean mi.
func (d DeadlineRule) deadline(mi, arrival, global float64, rng *rand.Rand) (float64, error) {
	switch d.Kind {
	case "tight":
		return arrival + mi, nil
	case "prop", "slack":
		return arrival + mi + d.Alpha*global, nil
	case "urgency":
		if rng == nil {
			return 0, fmt.Errorf("deadline rule urgency needs a random generator")
		}
		u := d.Urgency
		mean, variance := u.HighMean, u.HighVar
		if rng.Float64() < u.LowShare {
			mean, variance = u.LowMean, u.LowVar
		}
		f := max(mean+math.Sqrt(variance)*rng.NormFloat64(), u.Min)
		return arrival + f*mi, nil
	}
	return 0, fmt.Errorf("unknown deadline rule %q", d.Kind)
}

// AssignDeadlines gives every task of the trace a deadline by the rule. Tasks
// that already have one keep it unless overwrite is set. Tasks are visited in
// trace order, so the random draws of the urgency rule are reproducible.
func AssignDeadlines(tr *Trace, rule DeadlineRule, m TypeMeans, rng *rand.Rand, overwrite bool) error {
	if err := rule.Validate(); err != nil {
		return err
	}
	for i := range tr.Tasks {
		t := &tr.Tasks[i]
		if t.HasDeadline() && !overwrite {
			continue
		}
		d, err := rule.Deadline(t.Type, t.Arrival, m, rng)
		if err != nil {
			return err
		}
		t.Deadline = d
	}
	return nil
}
