package speculate

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/hcreplay/hcreplay/pmf"
)

// Dist is a task's execution-time distribution as the strategies see it: what the scheduler
// believes about one copy of a task (seed 002 §III: F_i is known). Copies are i.i.d. draws.
type Dist interface {
	// Mean is E[X].
	Mean() float64
	// CDF is F(t) = P(X ≤ t).
	CDF(t float64) float64
	// Quantile is the inverse CDF for u in [0, 1): the smallest t with F(t) ≥ u.
	Quantile(u float64) float64
	// MinMean is E[min of c i.i.d. copies] = ∫₀^∞ S(t)^c dt (+Inf when it diverges).
	MinMean(c int) float64
	// MinSecondMoment is E[(min of c copies)²] = ∫₀^∞ 2t·S(t)^c dt (+Inf when it diverges).
	MinSecondMoment(c int) float64
	// SpanMean is E[max over m tasks of the min of c copies each] = ∫₀^∞ 1 − (1 − S(t)^c)^m dt:
	// the expected span of a job of m tasks started together with c copies each (002 Eq 11–12).
	SpanMean(m, c int) float64
	// PartialMean is E[min(u, X)] = ∫₀^u S(t) dt.
	PartialMean(u float64) float64
}

// Pareto is the distribution of every example of seed 002: F(t) = 1 − (Mu/t)^Alpha for t ≥ Mu.
type Pareto struct {
	Mu, Alpha float64
}

// ParetoWithMean returns the Pareto distribution of tail order alpha and mean mean (alpha > 1):
// Mu = mean·(alpha−1)/alpha (002 §IV-C: E[x] ~ U(1,4), alpha = 2, so Mu ∈ [0.5, 2]).
func ParetoWithMean(mean, alpha float64) Pareto {
	return Pareto{Mu: mean * (alpha - 1) / alpha, Alpha: alpha}
}

func (p Pareto) Mean() float64 { return p.MinMean(1) }

func (p Pareto) CDF(t float64) float64 {
	if t < p.Mu {
		return 0
	}
	return 1 - math.Pow(p.Mu/t, p.Alpha)
}

func (p Pareto) Quantile(u float64) float64 { return p.Mu * math.Pow(1-u, -1/p.Alpha) }

// MinMean: the min of c copies is Pareto(Mu, c·Alpha), with mean Mu·β/(β−1).
func (p Pareto) MinMean(c int) float64 {
	b := p.Alpha * float64(c)
	if b <= 1 {
		return math.Inf(1)
	}
	return p.Mu * b / (b - 1)
}

func (p Pareto) MinSecondMoment(c int) float64 {
	b := p.Alpha * float64(c)
	if b <= 2 {
		return math.Inf(1)
	}
	return p.Mu * p.Mu * b / (b - 2)
}

// SpanMean is the mean of the max of m i.i.d. Pareto(Mu, β = c·Alpha):
// Mu·Γ(m+1)·Γ(1−1/β)/Γ(m+1−1/β), through log-gamma so that m can be large.
func (p Pareto) SpanMean(m, c int) float64 {
	b := p.Alpha * float64(c)
	if b <= 1 {
		return math.Inf(1)
	}
	lm, _ := math.Lgamma(float64(m) + 1)
	la, _ := math.Lgamma(1 - 1/b)
	lb, _ := math.Lgamma(float64(m) + 1 - 1/b)
	return p.Mu * math.Exp(lm+la-lb)
}

func (p Pareto) PartialMean(u float64) float64 {
	if u <= p.Mu {
		return math.Max(u, 0)
	}
	if p.Alpha == 1 {
		return p.Mu + p.Mu*math.Log(u/p.Mu)
	}
	a := p.Alpha
	return p.Mu*a/(a-1) - p.Mu/(a-1)*math.Pow(p.Mu/u, a-1)
}

// Discrete is a distribution on finitely many points: a PET cell (a pmf.PMF, whose impulses
// are the times a copy can take, as pmf's Sampler draws them) or a mixture of cells. Its
// integrals are exact: S is constant between support points.
type Discrete struct {
	t   []float64 // support, increasing, > 0
	p   []float64 // probabilities, sum 1
	cum []float64 // cum[k] = P(X ≤ t[k])
}

// FromPMF returns the distribution of a PET cell. A cell must lie on positive times: a copy that
// takes no time would finish where it starts.
func FromPMF(d pmf.PMF) (*Discrete, error) {
	ts := make([]float64, d.Len())
	for k := range ts {
		ts[k] = d.Time(k)
	}
	return newDiscrete(ts, d.Probs())
}

// Mixture is the distribution of a copy placed on a machine drawn with the given weights from
// machines whose copies follow ds: the "cluster-average machine" of reference §5.1.
func Mixture(ds []*Discrete, weights []float64) (*Discrete, error) {
	if len(ds) == 0 || len(ds) != len(weights) {
		return nil, errors.New("mixture: want one weight per distribution")
	}
	total := 0.0
	for _, w := range weights {
		total += w
	}
	if !(total > 0) {
		return nil, errors.New("mixture: weights sum to zero")
	}
	type point struct{ t, p float64 }
	var pts []point
	for i, d := range ds {
		for k := range d.t {
			pts = append(pts, point{d.t[k], d.p[k] * weights[i] / total})
		}
	}
	slices.SortFunc(pts, func(a, b point) int { return cmp.Compare(a.t, b.t) })
	var ts, ps []float64
	for _, q := range pts {
		if n := len(ts); n > 0 && ts[n-1] == q.t {
			ps[n-1] += q.p
			continue
		}
		ts, ps = append(ts, q.t), append(ps, q.p)
	}
	return newDiscrete(ts, ps)
}

func newDiscrete(ts, ps []float64) (*Discrete, error) {
	if len(ts) == 0 || len(ts) != len(ps) {
		return nil, errors.New("distribution: no support points")
	}
	d := &Discrete{}
	sum := 0.0
	for k, t := range ts {
		if ps[k] == 0 {
			continue
		}
		if !(t > 0) || math.IsInf(t, 0) || ps[k] < 0 || math.IsNaN(ps[k]) {
			return nil, fmt.Errorf("distribution: point %g with probability %g: want times > 0 and probabilities ≥ 0", t, ps[k])
		}
		if n := len(d.t); n > 0 && t <= d.t[n-1] {
			return nil, errors.New("distribution: support points must increase")
		}
		d.t, d.p = append(d.t, t), append(d.p, ps[k])
		sum += ps[k]
	}
	if len(d.t) == 0 || !(sum > 0) {
		return nil, errors.New("distribution: no mass")
	}
	acc := 0.0
	d.cum = make([]float64, len(d.p))
	for k := range d.p {
		d.p[k] /= sum
		acc += d.p[k]
		d.cum[k] = acc
	}
	d.cum[len(d.cum)-1] = 1
	return d, nil
}

func (d *Discrete) Mean() float64 { return d.MinMean(1) }

func (d *Discrete) CDF(t float64) float64 {
	k, found := slices.BinarySearch(d.t, t)
	if found {
		return d.cum[k]
	}
	if k == 0 {
		return 0
	}
	return d.cum[k-1]
}

func (d *Discrete) Quantile(u float64) float64 {
	k, _ := slices.BinarySearch(d.cum, u)
	return d.t[min(k, len(d.t)-1)]
}

// survivalIntegral is ∫₀^∞ g(S(t))·w(t) dt for S piecewise constant: S = 1 on [0, t0), and
// S = 1 − cum[k] on [t_k, t_{k+1}). wInt(a, b) is ∫_a^b w.
func (d *Discrete) survivalIntegral(g func(s float64) float64, wInt func(a, b float64) float64) float64 {
	total := g(1) * wInt(0, d.t[0])
	for k := 0; k+1 < len(d.t); k++ {
		total += g(1-d.cum[k]) * wInt(d.t[k], d.t[k+1])
	}
	return total
}

func length(a, b float64) float64      { return b - a }
func twiceMoment(a, b float64) float64 { return b*b - a*a }

func (d *Discrete) MinMean(c int) float64 {
	return d.survivalIntegral(func(s float64) float64 { return math.Pow(s, float64(c)) }, length)
}

func (d *Discrete) MinSecondMoment(c int) float64 {
	return d.survivalIntegral(func(s float64) float64 { return math.Pow(s, float64(c)) }, twiceMoment)
}

func (d *Discrete) SpanMean(m, c int) float64 {
	return d.survivalIntegral(func(s float64) float64 { return -math.Expm1(float64(m) * math.Log1p(-math.Pow(s, float64(c)))) }, length)
}

func (d *Discrete) PartialMean(u float64) float64 {
	return d.survivalIntegral(func(s float64) float64 { return s }, func(a, b float64) float64 {
		return math.Max(0, math.Min(b, u)-a)
	})
}

// Len is the number of support points.
func (d *Discrete) Len() int { return len(d.t) }

// FitPareto fits a Pareto distribution to d's tail: the tail order from the Hill estimator on
// the top tail (the mass above the (1−tail)-quantile) and the scale so that the mean is d's.
// Cloning and backups gain from the tail, which a histogram truncates at its last bin
// (reference §5.1); the fit restores an unbounded tail of the observed order. The order is
// kept within [1.05, 50] so that the mean stays finite and a flat tail stays a distribution.
func FitPareto(d *Discrete, tail float64) Pareto {
	if !(tail > 0 && tail < 1) {
		tail = 0.2
	}
	q := d.Quantile(1 - tail)
	num, den := 0.0, 0.0
	for k, t := range d.t {
		if t > q {
			num += d.p[k] * math.Log(t/q)
			den += d.p[k]
		}
	}
	alpha := 50.0
	if num > 0 {
		alpha = min(50, max(1.05, den/num))
	}
	return ParetoWithMean(d.Mean(), alpha)
}
