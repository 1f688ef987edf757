package petbuild

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/pmf"
)

// Rule is a bin-width rule applied to each cell's samples.
type Rule int

const (
	RuleFreedmanDiaconis Rule = iota + 1 // 2·IQR·n^(−1/3): robust to the long tails of execution times
	RuleScott                            // 3.49·σ·n^(−1/3): optimal for normal data
	RuleSqrt                             // range / ⌈√n⌉: the spreadsheet default
)

func (r Rule) String() string {
	switch r {
	case RuleFreedmanDiaconis:
		return "fd"
	case RuleScott:
		return "scott"
	case RuleSqrt:
		return "sqrt"
	}
	return fmt.Sprintf("Rule(%d)", int(r))
}

// Binning says how wide the histogram bins are. Set exactly one field; the zero value means
// RuleFreedmanDiaconis.
//
// All cells of a PET share one step (SPEC §3). With Width that step is given. With Bins or a
// Rule, each cell with enough samples proposes a width (its observed range / Bins, or the
// rule's width), the median of those proposals is taken (robust to a few odd cells), and it is
// rounded to the nearest "nice" number 1, 2 or 5 × 10^k in log scale, so that the grid is easy
// to read and stable under small changes of the data.
type Binning struct {
	Width float64 // fixed bin width in the time unit
	Bins  int     // bins per cell over the cell's observed range
	Rule  Rule    // a bin-width rule
}

// ParseBinning parses the CLI form: "fd" (or "freedman-diaconis"), "scott", "sqrt",
// "width:W" or "bins:N".
func ParseBinning(s string) (Binning, error) {
	key, val, hasVal := strings.Cut(strings.ToLower(strings.TrimSpace(s)), ":")
	switch {
	case !hasVal && (key == "fd" || key == "freedman-diaconis"):
		return Binning{Rule: RuleFreedmanDiaconis}, nil
	case !hasVal && key == "scott":
		return Binning{Rule: RuleScott}, nil
	case !hasVal && key == "sqrt":
		return Binning{Rule: RuleSqrt}, nil
	case hasVal && key == "width":
		w, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return Binning{}, fmt.Errorf("binning %q: width must be a positive number", s)
		}
		if err := checkStep(w); err != nil {
			return Binning{}, fmt.Errorf("binning %q: width %s %s", s, val, err.msg)
		}
		return Binning{Width: w}, nil
	case hasVal && key == "bins":
		n, err := strconv.Atoi(val)
		if err != nil || n < 1 {
			return Binning{}, fmt.Errorf("binning %q: bins must be a positive integer", s)
		}
		return Binning{Bins: n}, nil
	}
	return Binning{}, fmt.Errorf("binning %q: want fd, scott, sqrt, width:W or bins:N", s)
}

func (b Binning) String() string {
	switch {
	case b.Width > 0:
		return "width:" + num(b.Width)
	case b.Bins > 0:
		return "bins:" + strconv.Itoa(b.Bins)
	case b.Rule != 0:
		return b.Rule.String()
	}
	return RuleFreedmanDiaconis.String()
}

func (b Binning) check() (Binning, error) {
	set := 0
	if b.Width != 0 {
		set++
		if err := checkStep(b.Width); err != nil {
			return b, fmt.Errorf("bin width %s %s", num(b.Width), err.msg)
		}
	}
	if b.Bins != 0 {
		set++
		if b.Bins < 0 {
			return b, fmt.Errorf("bin count %d must be positive", b.Bins)
		}
	}
	if b.Rule != 0 {
		set++
		if b.Rule < RuleFreedmanDiaconis || b.Rule > RuleSqrt {
			return b, fmt.Errorf("unknown binning rule %d", int(b.Rule))
		}
	}
	switch set {
	case 0:
		return Binning{Rule: RuleFreedmanDiaconis}, nil
	case 1:
		return b, nil
	}
	return b, errors.New("binning: set only one of width, bins and rule")
}

// needsSamples reports whether the width depends on the data, so samples must be held.
func (b Binning) needsSamples() bool { return b.Width == 0 }

// sortedSamples is a cell's samples in ascending order: a slice (floats), or the blocks a
// Fitter keeps them in (times).
type sortedSamples interface {
	len() int
	at(i int) float64
}

type floats []float64

func (x floats) len() int         { return len(x) }
func (x floats) at(i int) float64 { return x[i] }

// widthOf is the bin width the binning proposes for one cell's samples, sorted ascending; 0
// when the samples have no spread.
func (b Binning) widthOf(x sortedSamples) float64 {
	n := float64(x.len())
	if x.len() < 2 {
		return 0
	}
	switch {
	case b.Bins > 0:
		return (x.at(x.len()-1) - x.at(0)) / float64(b.Bins)
	case b.Rule == RuleScott:
		return 3.49 * sampleSDOf(x) * math.Cbrt(1/n)
	case b.Rule == RuleSqrt:
		return (x.at(x.len()-1) - x.at(0)) / math.Ceil(math.Sqrt(n))
	}
	return 2 * (quantileOf(x, 0.75) - quantileOf(x, 0.25)) * math.Cbrt(1/n)
}

// quantileOf is the linearly interpolated sample quantile of sorted x (type 7, as R's default).
func quantileOf(x sortedSamples, p float64) float64 {
	h := p * float64(x.len()-1)
	lo := int(math.Floor(h))
	if lo >= x.len()-1 {
		return x.at(x.len() - 1)
	}
	return x.at(lo) + (h-float64(lo))*(x.at(lo+1)-x.at(lo))
}

// sampleSDOf is the sample standard deviation of x (n − 1 in the denominator).
func sampleSDOf(x sortedSamples) float64 {
	mean := 0.0
	for i := range x.len() {
		mean += x.at(i)
	}
	mean /= float64(x.len())
	ss := 0.0
	for i := range x.len() {
		ss += (x.at(i) - mean) * (x.at(i) - mean)
	}
	return math.Sqrt(ss / float64(x.len()-1))
}

func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// niceWidth rounds w > 0 to the nearest of 1, 2, 5 × 10^k in log scale (the cut points are the
// geometric means √2, √10, √50). The result is parsed from its decimal form, so 0.2 is the
// float64 nearest to 0.2 rather than 2 × 0.1.
func niceWidth(w float64) float64 {
	e := math.Floor(math.Log10(w))
	f := w / math.Pow(10, e)
	m := 10
	switch {
	case f < math.Sqrt2:
		m = 1
	case f < math.Sqrt(10):
		m = 2
	case f < math.Sqrt(50):
		m = 5
	}
	return niceNumber(m, e, w)
}

// niceNumber is m × 10^e parsed from its decimal form, or w when that fails.
func niceNumber(m int, e, w float64) float64 {
	x, err := strconv.ParseFloat(fmt.Sprintf("%de%d", m, int(e)), 64)
	if err != nil || !(x > 0) {
		return w
	}
	return x
}

// niceFloor rounds w > 0 down to the nearest of 1, 2, 5 × 10^k.
func niceFloor(w float64) float64 {
	e := math.Floor(math.Log10(w))
	f := w / math.Pow(10, e)
	m := 1
	switch {
	case f >= 5:
		m = 5
	case f >= 2:
		m = 2
	}
	return niceNumber(m, e, w)
}

// niceCeil rounds w > 0 up to the nearest of 1, 2, 5 × 10^k.
func niceCeil(w float64) float64 {
	c := niceFloor(w)
	for _, m := range []float64{2, 2.5, 2} { // 1 → 2 → 5 → 10
		if c >= w {
			break
		}
		c = niceFloor(c * m * 1.0000001)
	}
	return c
}

// binIndex is the bin of time t for Synthesize (Fit uses linearIndex): bins are ((k−1)·step, k·step] for k ≥ 1, and each bin's
// impulse sits at its upper edge k·step. The upper edge is conservative (a task in the bin has
// finished by then), keeps every origin a whole number of steps (the pmf grid rule) and matches
// HCW19, whose times are 2, 4, 6, ... with step 2. A time of 0 goes to bin 1. The 1e-9 guard
// keeps a time like 1.1 with step 0.1 (1.1/0.1 = 11.000000000000002) in bin 11.
func binIndex(t, step float64) (int, error) {
	x := math.Ceil(t/step - 1e-9)
	if x > maxBinIndex {
		return 0, fmt.Errorf("time %g is more than %d bins of width %g from 0", t, maxBinIndex, step)
	}
	return max(1, int(x)), nil
}

// linearIndex places time t between the grid points k·step and (k+1)·step for linear binning:
// it returns k and the share f of the sample that goes to k+1 (1−f goes to k), so that the
// sample's contribution to the mean, (1−f)·k·step + f·(k+1)·step, is t itself. A time within
// 1e-9 steps of a grid point goes to that point whole, so data already on the grid (HCW19's 2,
// 4, 6, ... with step 2) keeps its impulses.
func linearIndex(t, step float64) (int, float64, error) {
	x := t / step
	if x > maxBinIndex {
		return 0, 0, fmt.Errorf("time %g is more than %d bins of width %g from 0", t, maxBinIndex, step)
	}
	if r := math.Round(x); math.Abs(x-r) < 1e-9 {
		return int(r), 0, nil
	}
	k := math.Floor(x)
	return int(k), x - k, nil
}

// addLinear adds one sample at time t by linear binning (linearIndex).
func (h *hist) addLinear(t, step float64) error {
	k, f, err := linearIndex(t, step)
	if err != nil {
		return err
	}
	if f == 0 {
		return h.addWeight(k, 1)
	}
	if err := h.addWeight(k, 1-f); err != nil {
		return err
	}
	return h.addWeight(k+1, f)
}

// linearHistogram bins the times on the grid of step by linear binning and normalises the
// weights into a PMF whose mean is the times' mean (up to rounding).
func linearHistogram(x *times, step float64) (pmf.PMF, error) {
	var h hist
	for _, b := range x.blocks {
		for _, t := range b {
			if err := h.addLinear(t, step); err != nil {
				return pmf.PMF{}, err
			}
		}
	}
	return h.pmf(step)
}

// maxBinIndex keeps bin indices far from integer overflow; a cell still has to fit within
// maxCellImpulses bins.
const maxBinIndex = 1 << 50

// hist is a streaming histogram on the bins of binIndex: counts[i] is the count of bin kmin+i.
type hist struct {
	kmin   int
	counts []float64
}

func (h *hist) add(k int) error { return h.addWeight(k, 1) }

// addWeight adds weight w to bin k.
func (h *hist) addWeight(k int, w float64) error {
	switch {
	case len(h.counts) == 0:
		h.kmin, h.counts = k, []float64{0}
	case k < h.kmin:
		if h.kmin-k+len(h.counts) > maxCellImpulses {
			return errSpan
		}
		h.counts = append(make([]float64, h.kmin-k), h.counts...)
		h.kmin = k
	case k >= h.kmin+len(h.counts):
		if k-h.kmin+1 > maxCellImpulses {
			return errSpan
		}
		h.counts = append(h.counts, make([]float64, k-h.kmin+1-len(h.counts))...)
	}
	h.counts[k-h.kmin] += w
	return nil
}

var errSpan = fmt.Errorf("the samples span more than %d bins; use a wider bin", maxCellImpulses)

func (h *hist) pmf(step float64) (pmf.PMF, error) {
	d, _, err := pmf.FromWeights(float64(h.kmin)*step, step, h.counts)
	return d, err
}

// histogram bins the times on the grid of step, impulses at bin upper edges, and normalises the
// counts into a PMF: the journal paper's synthetic PETs (Synthesize).
func histogram(times []float64, step float64) (pmf.PMF, error) {
	var h hist
	for _, t := range times {
		k, err := binIndex(t, step)
		if err != nil {
			return pmf.PMF{}, err
		}
		if err := h.add(k); err != nil {
			return pmf.PMF{}, err
		}
	}
	return h.pmf(step)
}
