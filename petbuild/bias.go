package petbuild

import "math"

// BiasTolerance is how far a fitted cell's mean may be from its samples' (relatively) before
// pet show and pet build point it out: issue 46 asks fitted PETs to match within 1%. A cell's
// standard deviation may be ten times as far off, since linear binning widens every cell's
// spread by up to a quarter of a step squared in variance.
const BiasTolerance = 0.01

// MeanBias is the cell's PMF mean relative to its samples' mean, minus 1; 0 when the sample
// mean is unknown (a synthetic or read PET without sample statistics).
func (s Summary) MeanBias() float64 {
	if !(s.SampleMean > 0) {
		return 0
	}
	return s.Mean/s.SampleMean - 1
}

// Bias is what a fitted PET's step and compaction cost: the cell whose mean is furthest from
// its samples' and the cell whose spread is furthest from theirs, relatively.
type Bias struct {
	Mean       Summary // the cell of the largest |MeanBias|
	MeanBias   float64 // its MeanBias; 0 when no cell has a sample mean
	Spread     Summary // the cell of the largest |StdDev / SampleSD − 1|
	SpreadBias float64 // that ratio minus 1; 0 when no cell has a sample standard deviation
}

// Bias finds the cells furthest from their samples (Bias); the first of equals wins.
func (p *PET) Bias() Bias {
	var b Bias
	for _, s := range p.Summaries() {
		if m := s.MeanBias(); math.Abs(m) > math.Abs(b.MeanBias) {
			b.MeanBias, b.Mean = m, s
		}
		if s.SampleSD > 0 {
			if sd := s.StdDev/s.SampleSD - 1; math.Abs(sd) > math.Abs(b.SpreadBias) {
				b.SpreadBias, b.Spread = sd, s
			}
		}
	}
	return b
}

// MeanOff reports whether some cell's mean is further than BiasTolerance from its samples'.
func (b Bias) MeanOff() bool { return math.Abs(b.MeanBias) > BiasTolerance }

// SpreadOff reports whether some cell's standard deviation is further than ten times
// BiasTolerance from its samples'.
func (b Bias) SpreadOff() bool { return math.Abs(b.SpreadBias) > 10*BiasTolerance }
