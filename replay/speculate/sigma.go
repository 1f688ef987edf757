package speculate

import (
	"math"
)

// BreakEvenSigma is σ* for a task whose copies follow d: the straggler threshold, in units of
// E[X], above which one backup copy saves machine time (002 §V, Eq 28 and Theorem 3, in the
// clean break-even form of reference §2.4). With the remaining time u known, a backup costs
// 2·E[min(u, X)] of further machine time against u without it, so the rule is "back up iff
// u > u*", where u* is the root above the median of u = 2∫₀ᵘ S(t) dt; σ* = u*/E[X]. For Pareto
// α = 2 it is 1 + √2/2 (the paper's value). ESE's σ* (Eqs 30–33) is the same number, since
// the rule is optimal for every (t, asktime) pair (reference §2.5).
func BreakEvenSigma(d Dist) float64 {
	h := func(u float64) float64 { return u - 2*d.PartialMean(u) }
	lo := d.Quantile(0.5)
	hi := math.Max(2*d.Mean(), lo)
	for h(hi) <= 0 {
		hi *= 2
		if math.IsInf(hi, 0) {
			return math.Inf(1)
		}
	}
	for range 200 {
		mid := (lo + hi) / 2
		if h(mid) > 0 {
			hi = mid
		} else {
			lo = mid
		}
		if hi-lo <= 1e-13*hi {
			break
		}
	}
	return (lo + hi) / 2 / d.Mean()
}

// MantriThreshold is the remaining time above which Mantri duplicates a single-copy task:
// P(t_rem > 2·t_new) > δ with t_new ~ F and t_rem known is F(t_rem/2) > δ, i.e.
// t_rem > 2·F⁻¹(δ) (002 §II, reference §2.7). For Pareto α = 2 and δ = 0.25 it is 1.155·E[X].
func MantriThreshold(d Dist, delta float64) float64 { return 2 * d.Quantile(delta) }

// ESEResource is E[R], the expected machine time of one task under ESE's rule with threshold
// sigma (002 §VI-B, Eqs 30–33, γ = 1), for Pareto copies: the asktime is uniform on [0, x]
// (Definition 2) and a copy is added at the asktime iff the remaining time exceeds σ·E[x]. It
// is the curve of 002 Fig 4 (divided by E[x]) and the "analysis" line of Fig 5(a).
func ESEResource(p Pareto, sigma float64) float64 {
	if !(p.Alpha > 1) {
		return math.Inf(1)
	}
	mu, al := p.Mu, p.Alpha
	a := sigma * p.Mean()
	// (31): ∫₀^a t dF(t), the tasks that never qualify.
	below := 0.0
	if a > mu {
		below = al * math.Pow(mu, al) / (al - 1) * (math.Pow(mu, 1-al) - math.Pow(a, 1-al))
	}
	// (32): ∫_{a∨mu}^∞ dF(t) [ ((t−a)²/2 + 2∫_a^t E[min(v, t_new)] dv)/t + a ].
	g := func(t float64) float64 {
		return ((t-a)*(t-a)/2+2*paretoPartialMeanIntegral(p, a, t))/t + a
	}
	lo := math.Max(a, mu)
	s0 := math.Pow(mu/lo, al)
	// Substitute s = S(t) = s0·w^q: with q = 2α/(α−1) the integrand is smooth (∝ w near 0).
	q := 2 * al / (al - 1)
	f := func(w float64) float64 {
		if w == 0 {
			return 0
		}
		s := s0 * math.Pow(w, q)
		t := mu * math.Pow(s, -1/al)
		return g(t) * s0 * q * math.Pow(w, q-1)
	}
	return below + simpson(f, 0, 1, 4000)
}

// paretoPartialMeanIntegral is ∫_a^b E[min(v, X)] dv for Pareto X (Eq 33 integrated).
func paretoPartialMeanIntegral(p Pareto, a, b float64) float64 {
	if b <= a {
		return 0
	}
	mu, al := p.Mu, p.Alpha
	total := 0.0
	if a < mu { // E[min(v, X)] = v below mu
		hi := math.Min(b, mu)
		total += (hi*hi - a*a) / 2
		a = hi
	}
	if b <= a {
		return total
	}
	c := mu * al / (al - 1)
	k := math.Pow(mu, al) / (al - 1)
	var powInt float64 // ∫_a^b v^{1−α} dv
	if math.Abs(al-2) < 1e-12 {
		powInt = math.Log(b / a)
	} else {
		powInt = (math.Pow(b, 2-al) - math.Pow(a, 2-al)) / (2 - al)
	}
	return total + c*(b-a) - k*powInt
}

// simpson is composite Simpson's rule with n (even) intervals.
func simpson(f func(float64) float64, a, b float64, n int) float64 {
	h := (b - a) / float64(n)
	s := f(a) + f(b)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		s += w * f(a+float64(i)*h)
	}
	return s * h / 3
}

// OmegaU is the offered-load threshold ω^U of 002 §III-B (Eqs 1–5): the largest
// ω = λ·E[m]·E[s]/M at which cloning every task twice still gives a shorter mean task delay
// than no speculation, each machine an M/G/1 queue (Pollaczek–Khinchine). It is capped by the
// stability bound of Theorem 1, E[s]/(2·E[min of 2]) ((2α−1)/(4(α−1)) for Pareto). When
// E[s²] is infinite (Pareto α ≤ 2) the no-speculation delay is infinite and ω^U is that bound
// (reference §2.1 and §6.11). The cutoff rate is λ^U = ω^U·M/(E[m]·E[s]) (Eq 5).
func OmegaU(d Dist) float64 {
	es, es2 := d.MinMean(1), d.MinSecondMoment(1)
	ec, ec2 := d.MinMean(2), d.MinSecondMoment(2)
	if math.IsInf(ec2, 1) || math.IsInf(es, 1) {
		return 0
	}
	bound := math.Min(1, es/(2*ec))
	better := func(omega float64) bool {
		lam := omega / es // per-machine task rate
		wc := 2*lam*ec2/(2*(1-2*lam*ec)) + ec
		if 1-2*lam*ec <= 0 {
			return false
		}
		if math.IsInf(es2, 1) {
			return true
		}
		w := lam*es2/(2*(1-lam*es)) + es
		return wc < w
	}
	const steps = 1000
	lo := 0.0
	for i := 1; i < steps; i++ {
		x := bound * float64(i) / steps
		if !better(x) {
			hi := x
			for range 60 {
				mid := (lo + hi) / 2
				if better(mid) {
					lo = mid
				} else {
					hi = mid
				}
			}
			return lo
		}
		lo = x
	}
	return bound
}
