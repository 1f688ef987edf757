package pmf

import "math/rand/v2"

// Sample draws one time from d by inversion of the CDF, with the caller's generator, so that a
// seeded run is reproducible. It costs O(Len); use a Sampler to draw many times.
func (d PMF) Sample(r *rand.Rand) float64 { return d.Quantile(r.Float64()) }

// Sampler draws from one PMF in O(log Len) per draw.
type Sampler struct {
	d   PMF
	cum []cumPair
}

// NewSampler precomputes the cumulative probabilities of d.
func NewSampler(d PMF) Sampler { return Sampler{d: d, cum: d.CDFTable().cum} }

// NewSamplerTable is NewSampler with d's table given (t = d.CDFTable()), for a caller that
// keeps it anyway; a table of another length is not d's, and is rebuilt.
func NewSamplerTable(d PMF, t CDFTable) Sampler {
	if len(t.cum) != len(d.p) {
		return NewSampler(d)
	}
	return Sampler{d: d, cum: t.cum}
}

// Sample draws one time using r.
func (s Sampler) Sample(r *rand.Rand) float64 { return s.At(r.Float64()) }

// At returns the time whose cumulative probability first reaches u in [0, 1): the inverse CDF.
// Replay draws u from a hash of (seed, task, machine type) to give every heuristic the same
// durations (common random numbers).
func (s Sampler) At(u float64) float64 { return s.d.Time(searchCum(s.cum, u)) }
