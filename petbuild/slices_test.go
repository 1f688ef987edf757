package petbuild

// The binning rules on a plain slice of sorted samples, as the tests give them; the Fitter
// asks them of its blocks (sortedSamples).

func (b Binning) cellWidth(x []float64) float64 { return b.widthOf(floats(x)) }

func quantile(x []float64, p float64) float64 { return quantileOf(floats(x), p) }

func sampleSD(x []float64) float64 { return sampleSDOf(floats(x)) }
