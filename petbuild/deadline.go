package petbuild

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/trace"
)

// DeadlineRule parses a deadline rule and gives the per-type means it is applied to. Besides
// trace's rules it accepts best:K, the rule of Smith et al. 2010 §VI: arrival + the mean
// execution time over the K machine types that run the task type fastest. That needs the PET's
// cells, which trace does not see, so best:K is the tight rule on BestMeans(K); every other
// rule is applied to TypeMeans.
func DeadlineRule(s string, pet *PET) (trace.DeadlineRule, trace.TypeMeans, error) {
	if k, ok := strings.CutPrefix(s, "best:"); ok {
		n, err := strconv.Atoi(k)
		if err != nil || n < 1 || n > pet.NumMachineTypes() {
			return trace.DeadlineRule{}, trace.TypeMeans{}, fmt.Errorf("deadline rule %q: want best:K with 1 ≤ K ≤ %d machine types", s, pet.NumMachineTypes())
		}
		rule, err := trace.ParseDeadlineRule("tight")
		return rule, pet.BestMeans(n), err
	}
	rule, err := trace.ParseDeadlineRule(s)
	return rule, pet.TypeMeans(), err
}

// BestMeans gives each task type the mean of its k smallest cell means (1 ≤ k ≤ the number of
// machine types), with Global the mean over types of those.
func (p *PET) BestMeans(k int) trace.TypeMeans {
	per := map[string]float64{}
	for i, name := range p.TaskTypes() {
		means := make([]float64, p.NumMachineTypes())
		for j := range means {
			means[j] = p.Cell(i, j).Mean()
		}
		slices.Sort(means)
		sum := 0.0
		for _, m := range means[:k] {
			sum += m
		}
		per[name] = sum / float64(k)
	}
	return trace.NewTypeMeans(per)
}

// TypeMeans is what the deadline rules need of the PET: each task type's TypeMean, and
// GlobalMean as avg_all.
func (p *PET) TypeMeans() trace.TypeMeans {
	per := map[string]float64{}
	for i, name := range p.TaskTypes() {
		per[name] = p.TypeMean(i)
	}
	m := trace.NewTypeMeans(per)
	m.Global = p.GlobalMean()
	return m
}

// ImplausibleSlack reports whether deadlines whose slacks (deadline − arrival, a sample of a
// trial's tasks) have this median are implausible for the PET: a median slack under a twentieth
// of the PET's mean execution time (GlobalMean) leaves no task a chance, one over a thousand
// times it makes every deadline trivial. Either is what a trace in seconds read as milliseconds
// (or the reverse) looks like. It sorts slacks, and returns the median and the mean it compared;
// no slacks, or a PET whose mean is not positive, are never implausible.
func (p *PET) ImplausibleSlack(slacks []float64) (median, mean float64, implausible bool) {
	if len(slacks) == 0 {
		return 0, 0, false
	}
	slices.Sort(slacks)
	median, mean = slacks[len(slacks)/2], p.GlobalMean()
	return median, mean, mean > 0 && !(median >= mean/20 && median <= mean*1000)
}
