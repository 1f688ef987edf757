package pmf

import (
	"errors"
	"fmt"
	"math"
)

// MassTolerance is how far from 1 the total mass of a PMF may be.
const MassTolerance = 1e-9

// gridEps is the tolerance, in units of one step, used when a time is compared with grid
// points: a time within gridEps·step of a grid point counts as that point. Without it,
// 176.4 − 2·3 would fall just below or above a grid point depending on rounding.
const gridEps = 1e-9

// Tolerance is gridEps in time units for a grid of the given step: how far apart two times may
// be and still be the same time to the chains (a time that close to a grid point is that point).
// The replay engine's event loop and deadline checks use it too, so that the loop, the chains
// and the caches share one notion of "the same time".
func Tolerance(step float64) float64 { return gridEps * step }

// ErrInvalid is wrapped by every error that reports a malformed PMF or a bad argument.
var ErrInvalid = errors.New("invalid pmf")

// PMF is a discrete probability mass function on the grid origin + k·step. The zero value is
// not a valid PMF; build one with New, FromWeights or Impulse.
type PMF struct {
	origin float64
	step   float64
	p      []float64
}

// New returns the PMF with probabilities p at times origin + k·step. The probabilities must be
// finite, non-negative and sum to 1 within MassTolerance; zero impulses at either end are
// trimmed. New copies p.
func New(origin, step float64, p []float64) (PMF, error) {
	sum, err := checkWeights(origin, step, p)
	if err != nil {
		return PMF{}, err
	}
	if math.Abs(sum-1) > MassTolerance {
		return PMF{}, fmt.Errorf("%w: total mass %.12g, want 1 (use FromWeights to normalise)", ErrInvalid, sum)
	}
	return trimmed(origin, step, append([]float64(nil), p...)), nil
}

// FromWeights normalises non-negative weights w into a PMF and reports the deficit 1 − Σw, so
// a caller can tell a histogram whose tails were cut off (HCW19 cells sum to 0.996–0.999) from
// one that is broken. A negative deficit means the weights summed to more than 1.
func FromWeights(origin, step float64, w []float64) (d PMF, deficit float64, err error) {
	return FromWeightsInto(new(Buffer), origin, step, w)
}

// Impulse returns the PMF with all its mass at time t, on a grid of the given step.
func Impulse(t, step float64) PMF {
	checkImpulse(t, step)
	return PMF{origin: t, step: step, p: []float64{1}}
}

func checkImpulse(t, step float64) {
	if !(step > 0) || math.IsInf(step, 0) || math.IsNaN(t) || math.IsInf(t, 0) {
		panic(fmt.Sprintf("pmf.Impulse(%v, %v): time must be finite and step positive", t, step))
	}
}

func checkWeights(origin, step float64, w []float64) (float64, error) {
	switch {
	case math.IsNaN(origin) || math.IsInf(origin, 0):
		return 0, fmt.Errorf("%w: origin %v is not finite", ErrInvalid, origin)
	case math.IsNaN(step) || math.IsInf(step, 0) || step <= 0:
		return 0, fmt.Errorf("%w: step %v is not a positive finite number", ErrInvalid, step)
	case len(w) == 0:
		return 0, fmt.Errorf("%w: no impulses", ErrInvalid)
	case math.IsInf(origin+float64(len(w)-1)*step, 0):
		return 0, fmt.Errorf("%w: grid from %g with step %g overflows", ErrInvalid, origin, step)
	}
	sum := 0.0
	for i, x := range w {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%w: probability %v at index %d is not finite", ErrInvalid, x, i)
		}
		if x < 0 {
			return 0, fmt.Errorf("%w: negative probability %v at index %d", ErrInvalid, x, i)
		}
		sum += x
	}
	if !(sum > 0) || math.IsInf(sum, 0) {
		return 0, fmt.Errorf("%w: total mass %v is not positive and finite", ErrInvalid, sum)
	}
	return sum, nil
}

// trimmed drops zero impulses at both ends of p, adjusting the origin; p is owned by the result.
func trimmed(origin, step float64, p []float64) PMF { return trimmedFrom(origin, step, p, 0) }

// trimmedFrom is trimmed for a p known to be zero below index from.
func trimmedFrom(origin, step float64, p []float64, from int) PMF {
	lo, hi := min(from, len(p)), len(p)
	for lo < hi && p[lo] == 0 {
		lo++
	}
	for hi > lo && p[hi-1] == 0 {
		hi--
	}
	if lo == hi {
		// Only reachable through internal arithmetic underflow; keep a valid PMF.
		return PMF{origin: origin, step: step, p: []float64{1}}
	}
	return PMF{origin: origin + float64(lo)*step, step: step, p: p[lo:hi:hi]}
}

// Origin is the time of the first impulse.
func (d PMF) Origin() float64 { return d.origin }

// Step is the grid spacing.
func (d PMF) Step() float64 { return d.step }

// Len is the number of impulses, zeros inside the support included.
func (d PMF) Len() int { return len(d.p) }

// Time is the time of impulse k.
func (d PMF) Time(k int) float64 { return d.origin + float64(k)*d.step }

// Prob is the probability of impulse k.
func (d PMF) Prob(k int) float64 { return d.p[k] }

// Probs returns a copy of the probabilities.
func (d PMF) Probs() []float64 { return append([]float64(nil), d.p...) }

// Min is the earliest time with positive probability.
func (d PMF) Min() float64 { return d.origin }

// Max is the latest time with positive probability.
func (d PMF) Max() float64 { return d.Time(len(d.p) - 1) }

// Mass is the total probability; 1 within MassTolerance for every valid PMF.
func (d PMF) Mass() float64 {
	s := 0.0
	for _, x := range d.p {
		s += x
	}
	return s
}

// Check verifies the package invariants. Tests call it after every operation.
func (d PMF) Check() error {
	if _, err := checkWeights(d.origin, d.step, d.p); err != nil {
		return err
	}
	if m := d.Mass(); math.Abs(m-1) > MassTolerance {
		return fmt.Errorf("%w: total mass %.15g", ErrInvalid, m)
	}
	if d.p[0] == 0 || d.p[len(d.p)-1] == 0 {
		return fmt.Errorf("%w: zero impulse at an end", ErrInvalid)
	}
	return nil
}

// Mean is the expected time.
func (d PMF) Mean() float64 {
	// Computed as origin + step·E[k] so that a large origin does not cost precision.
	s := 0.0
	for k, x := range d.p {
		s += float64(k) * x
	}
	return d.origin + d.step*s
}

// Variance is the second central moment.
func (d PMF) Variance() float64 {
	m := (d.Mean() - d.origin) / d.step
	s := 0.0
	for k, x := range d.p {
		dk := float64(k) - m
		s += x * dk * dk
	}
	return s * d.step * d.step
}

// StdDev is the square root of the variance.
func (d PMF) StdDev() float64 { return math.Sqrt(d.Variance()) }

// Skewness is the weighted third standardised moment m₃/σ³ (reference/thesis-2018.md Eq 6.b
// [IMPL]: the sample-size correction of the printed formula has no meaning for a PMF). A
// single impulse has skewness 0.
func (d PMF) Skewness() float64 {
	m := (d.Mean() - d.origin) / d.step
	m2, m3 := 0.0, 0.0
	for k, x := range d.p {
		dk := float64(k) - m
		m2 += x * dk * dk
		m3 += x * dk * dk * dk
	}
	if m2 <= 0 {
		return 0
	}
	return m3 / math.Pow(m2, 1.5)
}

// BoundedSkewness is the skewness clamped to [-1, 1], as 003 Eq 6 defines s: |S| ≥ 1 already
// counts as highly skewed, and the bound keeps the dropping-threshold adjustment in range.
func (d PMF) BoundedSkewness() float64 {
	return math.Max(-1, math.Min(1, d.Skewness()))
}

// lastAtOrBefore is the largest index k with Time(k) ≤ t (within gridEps). It is negative when
// t is before the first impulse and may exceed Len()-1.
func (d PMF) lastAtOrBefore(t float64) int {
	return lastIndexAtOrBefore(d.origin, d.step, t)
}

func lastIndexAtOrBefore(origin, step, t float64) int {
	return indexAtOrBefore(gridPos(origin, step, t))
}

// gridPos is t's position on the grid origin + k·step, in steps: what the index functions
// round, computed once where several of them read the same time.
func gridPos(origin, step, t float64) float64 { return (t - origin) / step }

// indexAtOrBefore is lastIndexAtOrBefore at grid position x (gridPos).
func indexAtOrBefore(x float64) int { return clampIndex(math.Floor(x + gridEps)) }

// indexBefore is lastIndexBefore at grid position x (gridPos).
func indexBefore(x float64) int { return clampIndex(math.Ceil(x-gridEps) - 1) }

// lastBefore is the largest index k with Time(k) < t (strictly, beyond gridEps); like
// lastAtOrBefore it may lie outside [0, Len()).
func (d PMF) lastBefore(t float64) int {
	return lastIndexBefore(d.origin, d.step, t)
}

func lastIndexBefore(origin, step, t float64) int {
	return indexBefore(gridPos(origin, step, t))
}

// clampIndex converts a grid index to int, saturating far outside any PMF's support so that a
// deadline of 1e300 cannot overflow the index arithmetic.
func clampIndex(x float64) int {
	switch {
	case x < math.MinInt32:
		return math.MinInt32
	case x > math.MaxInt32:
		return math.MaxInt32
	}
	return int(x)
}

// sumTo is the total probability of impulses 0..k.
func (d PMF) sumTo(k int) float64 {
	if k < 0 {
		return 0
	}
	if k >= len(d.p)-1 {
		return 1
	}
	s := 0.0
	for _, x := range d.p[:k+1] {
		s += x
	}
	return s
}

// CDF is P(X ≤ t).
func (d PMF) CDF(t float64) float64 { return d.sumTo(d.lastAtOrBefore(t)) }

// CDFStrict is P(X < t).
func (d PMF) CDFStrict(t float64) float64 { return d.sumTo(d.lastBefore(t)) }

// Success is the chance that the time is at or before the deadline, P(X ≤ δ), or strictly
// before it, P(X < δ), when strict is set (SPEC §5.1 --strict).
func (d PMF) Success(deadline float64, strict bool) float64 {
	if strict {
		return d.CDFStrict(deadline)
	}
	return d.CDF(deadline)
}

// Quantile is the smallest grid time t with P(X ≤ t) ≥ q, for q in [0, 1]. It is the inverse
// CDF that sampling uses.
func (d PMF) Quantile(q float64) float64 {
	if math.IsNaN(q) {
		return math.NaN()
	}
	s := 0.0
	for k, x := range d.p {
		s += x
		if s >= q {
			return d.Time(k)
		}
	}
	return d.Max()
}

// Shift returns the PMF moved later by t: the completion time of a task that starts at t.
func (d PMF) Shift(t float64) PMF {
	return PMF{origin: d.origin + t, step: d.step, p: d.p}
}

// StartsAfter reports whether every outcome of d is after t, so that d.Condition(t) is d itself.
func (d PMF) StartsAfter(t float64) bool { return d.lastAtOrBefore(t) < 0 }

// Condition returns the distribution of X given X > t: the completion time of a task that is
// still running at time t. When no mass lies after t (the task has overrun everything its PMF
// allows), the result is an impulse on the first grid point after t, the earliest time the task
// could still finish on this grid.
func (d PMF) Condition(t float64) PMF { return d.ConditionInto(new(Buffer), t) }

// ConditionWeights says how Condition(t) weighs d's impulses: it keeps those after t, of total
// mass kept, each divided by norm (1 when it keeps every impulse as it is). ok is false when it
// keeps none and returns an impulse past the support instead. A chain built on Condition(t) is
// then a mixture of chains built on single impulses of d, which is what a bound on how the
// chain's chances move with t rests on.
func (d PMF) ConditionWeights(t float64) (kept, norm float64, ok bool) {
	k := d.lastAtOrBefore(t) + 1
	if k >= len(d.p) {
		return 0, 0, false
	}
	k = max(k, 0)
	for _, x := range d.p[k:] {
		kept += x
	}
	if k == 0 {
		return kept, 1, true
	}
	return kept, kept, kept > 0
}

// NextAfter returns the earliest time after t at which conditioning changes: Condition(u) is
// Condition(t) for every u in [t, NextAfter(t)), and differs from it at NextAfter(t). Conditioning
// cuts whole impulses (and, past the support, moves to the next grid point), and it counts a time
// within the grid tolerance below a grid point as that point; so NextAfter is the first grid point
// after t less that tolerance, to the exact float64 at which Condition's index changes, and a
// cache of a conditioned PMF built at t stays valid exactly while now < NextAfter(t). (The first
// grid point itself would leave a window of a billionth of a step in which the cache is stale:
// issue 51, a head started at 284.96000000000004 and an arrival at 326.96.)
func (d PMF) NextAfter(t float64) float64 {
	k := max(d.lastAtOrBefore(t), -1) // every time before the support conditions alike
	u := d.Time(k+1) - gridEps*d.step
	// Step to the exact float64 where lastAtOrBefore passes k: it is monotone in u, and the
	// rounding of the line above puts u within a few ulps of it.
	for d.lastAtOrBefore(u) > k {
		u = math.Nextafter(u, math.Inf(-1))
	}
	for d.lastAtOrBefore(u) <= k {
		u = math.Nextafter(u, math.Inf(1))
	}
	return u
}

// String prints a short summary, for debugging and examples.
func (d PMF) String() string {
	return fmt.Sprintf("PMF{%d impulses from %g step %g, mean %.4g}", len(d.p), d.origin, d.step, d.Mean())
}

// searchCum returns the first index whose cumulative probability reaches u (the last when none
// does): sort.SearchFloat64s's search over a table's entries.
func searchCum(cum []cumPair, u float64) int {
	lo, hi := 0, len(cum)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if !(cum[h].p >= u) {
			lo = h + 1
		} else {
			hi = h
		}
	}
	return min(lo, len(cum)-1)
}
