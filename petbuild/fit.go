package petbuild

import (
	"cmp"
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"

	"github.com/hcreplay/hcreplay/internal/natural"
	"github.com/hcreplay/hcreplay/internal/parallel"
	"github.com/hcreplay/hcreplay/pmf"
)

// Sample is one observed execution: the task type, the machine type and how long it ran, in
// the PET's time unit. The CLI turns execution-log records (package trace) into Samples.
type Sample struct {
	TaskType    string
	MachineType string
	Time        float64
}

// DefaultMinSamples is the default minimum number of samples per cell. Thirty is the usual
// rule of thumb below which a histogram says more about the sample than the distribution.
const DefaultMinSamples = 30

// FitOptions configure Fit. The zero value fits with the Freedman–Diaconis rule, at least
// DefaultMinSamples per cell, no filling and no compaction.
type FitOptions struct {
	// TimeUnit of the samples; empty means DefaultTimeUnit.
	TimeUnit string
	// Binning chooses the common step.
	Binning Binning
	// MinSamples per cell; 0 means DefaultMinSamples, and a negative count is an error.
	MinSamples int
	// FillFrom maps a machine type to another whose samples stand in for its thin or empty
	// cells (e.g. a new machine type known to behave like an old one). Filling is one level
	// deep: a donor cell must have enough samples of its own.
	FillFrom map[string]string
	// TaskTypes and MachineTypes, when set, fix the matrix's rows and columns and their order;
	// a sample of any other type is an error. When empty, the types seen in the samples are
	// used, in natural order ("2" before "10").
	TaskTypes, MachineTypes []string
	// Compaction is applied to the fitted matrix (see Compact).
	Compaction Compaction
}

type cellKey struct{ task, machine string }

// cellAcc accumulates one cell: either the samples themselves (when the bin width depends on
// them) or a streaming histogram (when the width is fixed).
type cellAcc struct {
	n        int
	sum      float64 // of the times, for the mean that bounds a chosen step (checkChosenStep)
	mean, m2 float64 // Welford's running mean and sum of squared deviations, for the provenance
	times    times
	hist     hist
}

// note counts a sample in the cell's count, sum and running moments.
func (a *cellAcc) note(t float64) {
	a.n++
	a.sum += t
	d := t - a.mean
	a.mean += d / float64(a.n)
	a.m2 += d * (t - a.mean)
}

// sd is the sample standard deviation of the cell's times; 0 for fewer than two.
func (a *cellAcc) sd() float64 {
	if a.n < 2 {
		return 0
	}
	return math.Sqrt(a.m2 / float64(a.n-1))
}

// Fitter builds a PET from samples added one at a time, so a caller can stream a log of any
// length. With a fixed bin width it keeps one count per occupied bin per cell and never holds
// the samples. With Bins or a Rule the width depends on each cell's quantiles, so it holds
// every sample as a float64: 8 bytes per sample (80 MB for ten million), and while PET sorts
// them, a copy of the largest cell per core.
type Fitter struct {
	opt        FitOptions
	binning    Binning
	minSamples int
	cells      map[cellKey]*cellAcc
	recent     *recentCells // the cells of recent name pairs, by the names' addresses (lookup)
	taskSet    map[string]bool
	machineSet map[string]bool
	added      int
	maxCells   int // maxCells; a field so that a test reaches the limit without a million cells
}

// NewFitter checks the options and returns an empty Fitter.
func NewFitter(opt FitOptions) (*Fitter, error) {
	b, err := opt.Binning.check()
	if err != nil {
		return nil, err
	}
	if opt.MinSamples < 0 {
		return nil, fmt.Errorf("fit: minimum samples per cell %d is negative", opt.MinSamples)
	}
	f := &Fitter{opt: opt, binning: b, minSamples: opt.MinSamples, cells: map[cellKey]*cellAcc{}, maxCells: maxCells}
	if f.minSamples <= 0 {
		f.minSamples = DefaultMinSamples
	}
	if len(opt.TaskTypes) > 0 {
		if f.taskSet, err = nameSet("task", opt.TaskTypes); err != nil {
			return nil, err
		}
	}
	if len(opt.MachineTypes) > 0 {
		if f.machineSet, err = nameSet("machine", opt.MachineTypes); err != nil {
			return nil, err
		}
	}
	if err := opt.Compaction.check(); err != nil {
		return nil, err
	}
	return f, nil
}

func nameSet(kind string, names []string) (map[string]bool, error) {
	if _, err := indexNames(kind, names); err != nil {
		return nil, err
	}
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	return set, nil
}

// Add adds one sample. Errors name the sample by its position (1-based) among those added.
func (f *Fitter) Add(s Sample) error {
	f.added++
	fail := func(format string, args ...any) error {
		return fmt.Errorf("sample %d (%s): %s", f.added, cellName(s.TaskType, s.MachineType), fmt.Sprintf(format, args...))
	}
	switch {
	case !finite(s.Time):
		return fail("time %v is not finite", s.Time)
	case s.Time < 0:
		return fail("time %v is negative", s.Time)
	case s.TaskType == "" || s.MachineType == "":
		return fail("empty task or machine type")
	case f.taskSet != nil && !f.taskSet[s.TaskType]:
		return fail("task type %q is not in the task type list", s.TaskType)
	case f.machineSet != nil && !f.machineSet[s.MachineType]:
		return fail("machine type %q is not in the machine type list", s.MachineType)
	}
	acc := f.lookup(s.TaskType, s.MachineType)
	if acc == nil {
		if len(f.cells) >= f.maxCells {
			return fail("more than %d cells", f.maxCells)
		}
		acc = &cellAcc{}
		f.cells[cellKey{s.TaskType, s.MachineType}] = acc
	}
	acc.note(s.Time)
	if f.binning.needsSamples() {
		acc.times.add(s.Time)
		return nil
	}
	if err := acc.hist.addLinear(s.Time, f.binning.Width); err != nil {
		if errors.Is(err, errSpan) {
			// The grid points at the histogram's ends bound the earlier samples; s is beyond one.
			lo := min(float64(acc.hist.kmin)*f.binning.Width, s.Time)
			hi := max(float64(acc.hist.kmin+len(acc.hist.counts)-1)*f.binning.Width, s.Time)
			return fmt.Errorf("sample %d: %w", f.added, &SpanError{Cell: cellName(s.TaskType, s.MachineType), Min: lo, Max: hi, Step: f.binning.Width})
		}
		return fail("%v", err)
	}
	return nil
}

// Fit fits a PET to a sequence of samples. An iter.Seq cannot report a read error; a caller
// whose source can fail records the error in its iterator and checks it after Fit, or uses a
// Fitter directly.
func Fit(samples iter.Seq[Sample], opt FitOptions) (*PET, error) {
	f, err := NewFitter(opt)
	if err != nil {
		return nil, err
	}
	for s := range samples {
		if err := f.Add(s); err != nil {
			return nil, err
		}
	}
	return f.PET()
}

// FitSlice is Fit over a slice.
func FitSlice(samples []Sample, opt FitOptions) (*PET, error) {
	return Fit(slices.Values(samples), opt)
}

// source is where a cell's histogram comes from: its own accumulator or a donor's.
type source struct {
	acc   *cellAcc
	donor string
}

// PET fits the matrix from the samples added so far: it checks every cell has enough samples
// (filling from other machine types where asked), chooses the common step, builds each cell's
// histogram and applies the compaction.
func (f *Fitter) PET() (*PET, error) {
	if len(f.cells) == 0 {
		return nil, errors.New("fit: no samples")
	}
	tasks, machines := f.types()
	srcs, err := f.sources(tasks, machines)
	if err != nil {
		return nil, err
	}
	step, desc, err := f.step(srcs)
	if err != nil {
		return nil, err
	}
	if err := f.checkChosenStep(srcs, step); err != nil {
		return nil, err
	}
	// Each cell's histogram is its own, built on all cores; the errors are then taken in
	// the cells' order, as one loop would meet them.
	pmfs, errs := make([]pmf.PMF, len(srcs)), make([]error, len(srcs))
	parallel.Each(len(srcs), func() func(int) {
		return func(i int) { pmfs[i], errs[i] = srcs[i].pmf(step) }
	})
	cells := make([]Cell, len(srcs))
	for i, src := range srcs {
		d, err := pmfs[i], errs[i]
		if se := new(SpanError); errors.As(err, &se) {
			se.Cell = cellName(tasks[i/len(machines)], machines[i%len(machines)])
			return nil, fmt.Errorf("fit: %w", se)
		}
		if err != nil {
			return nil, fmt.Errorf("fit: cell %s: %w", cellName(tasks[i/len(machines)], machines[i%len(machines)]), err)
		}
		cells[i] = Cell{PMF: d, Provenance: Provenance{Samples: src.acc.n, Binning: desc, FilledFrom: src.donor,
			SampleMean: src.acc.sum / float64(src.acc.n), SampleSD: src.acc.sd()}}
	}
	p, err := New(tasks, machines, f.opt.TimeUnit, cells)
	if err != nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	return Compact(p, f.opt.Compaction)
}

func (s source) pmf(step float64) (pmf.PMF, error) {
	x := &s.acc.times
	if x.len() == 0 {
		return s.acc.hist.pmf(step)
	}
	if !x.sorted { // ascending, so the histogram only ever grows at its end
		return pmf.PMF{}, errors.New("samples binned before step sorted them (a bug)")
	}
	d, err := linearHistogram(x, step)
	if errors.Is(err, errSpan) {
		return d, &SpanError{Min: x.first(), Max: x.last(), Step: step}
	}
	return d, err
}

// SpanError is a cell whose samples span more bins than a cell may have (maxCellImpulses): the
// bin width that fits them is in the message, for the caller to name its flag.
type SpanError struct {
	Cell           string // `task=T machine=M`; empty when the caller names the cell
	Min, Max, Step float64
}

func (e *SpanError) Error() string {
	cell := ""
	if e.Cell != "" {
		cell = "cell " + e.Cell + ": "
	}
	return fmt.Sprintf("%ssamples from %s to %s span more than %d bins of width %s; use a wider bin: %s or more fits them",
		cell, num(e.Min), num(e.Max), maxCellImpulses, num(e.Step), num(e.MinWidth()))
}

// MinWidth is the narrowest bin width, rounded up to two significant digits, that fits the
// samples in maxCellImpulses bins.
func (e *SpanError) MinWidth() float64 {
	w := (e.Max - e.Min) / (maxCellImpulses - 2)
	if w <= 0 || math.IsInf(w, 0) || math.IsNaN(w) {
		return e.Step * 2
	}
	mag := math.Pow(10, math.Floor(math.Log10(w))-1)
	return math.Ceil(w/mag) * mag
}

// types returns the task and machine type lists: the given ones, or those seen, naturally
// ordered.
func (f *Fitter) types() (tasks, machines []string) {
	tasks, machines = f.opt.TaskTypes, f.opt.MachineTypes
	if len(tasks) > 0 && len(machines) > 0 {
		return tasks, machines
	}
	ts, ms := map[string]bool{}, map[string]bool{}
	for k := range f.cells {
		ts[k.task], ms[k.machine] = true, true
	}
	if len(tasks) == 0 {
		tasks = sortedNames(ts)
	}
	if len(machines) == 0 {
		machines = sortedNames(ms)
	}
	return tasks, machines
}

func sortedNames(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	slices.SortFunc(out, natural.Compare)
	return out
}

// sources decides where each cell's histogram comes from and reports every cell that has too
// few samples and no usable donor.
func (f *Fitter) sources(tasks, machines []string) ([]source, error) {
	for m, d := range f.opt.FillFrom {
		if !slices.Contains(machines, m) || !slices.Contains(machines, d) || m == d {
			return nil, fmt.Errorf("fit: fill-from %s→%s: both must be distinct machine types of the matrix", m, d)
		}
	}
	empty := &cellAcc{}
	srcs := make([]source, 0, len(tasks)*len(machines))
	thin := &ThinCellsError{Min: f.minSamples}
	for _, t := range tasks {
		for _, m := range machines {
			own := cmp.Or(f.cells[cellKey{t, m}], empty)
			if own.n >= f.minSamples {
				srcs = append(srcs, source{acc: own})
				continue
			}
			if d, ok := f.opt.FillFrom[m]; ok {
				if donor := f.cells[cellKey{t, d}]; donor != nil && donor.n >= f.minSamples {
					srcs = append(srcs, source{acc: donor, donor: d})
					continue
				}
			}
			thin.Cells = append(thin.Cells, CellCount{TaskType: t, MachineType: m, Samples: own.n})
		}
	}
	if len(thin.Cells) > 0 {
		return nil, thin
	}
	return srcs, nil
}

// checkChosenStep applies coarseStepError to the steps the user chose: a fixed bin width, and
// the step after a merge. A step a rule derived from the data is left alone, and so is the step
// an impulse cap leads to, which the user asked for by number of impulses instead.
func (f *Fitter) checkChosenStep(srcs []source, step float64) error {
	coarse, what := step, "bin width"
	if f.opt.Compaction.Merge > 1 {
		coarse, what = step*float64(f.opt.Compaction.Merge), fmt.Sprintf("merged step %s × %d =", num(step), f.opt.Compaction.Merge)
	} else if f.binning.Width == 0 {
		return nil
	}
	largest := 0.0
	for _, s := range srcs {
		largest = max(largest, s.acc.sum/float64(s.acc.n))
	}
	if err := coarseStepError(what, coarse, largest); err != nil {
		return fmt.Errorf("fit: %w", err)
	}
	return nil
}

// sortTimes sorts the samples of every cell that is not filled from a donor (whose samples
// are the donor's own cell's), the cells shared among the cores: on a 10-million-row log the
// sorts were an eighth of pet build (issue 50), and each cell's sort is its own, so the
// result does not depend on which goroutine sorts which.
func sortTimes(srcs []source) {
	parallel.Each(len(srcs), func() func(int) {
		s := new(sorter)
		return func(i int) {
			if srcs[i].donor == "" {
				s.sort(&srcs[i].acc.times)
			}
		}
	})
}

// step chooses the common bin width and describes it for the provenance.
func (f *Fitter) step(srcs []source) (float64, string, error) {
	unit := cmp.Or(f.opt.TimeUnit, DefaultTimeUnit)
	if w := f.binning.Width; w > 0 {
		return w, fmt.Sprintf("histogram, fixed bin width %s %s, %s", num(w), unit, linearNote), nil
	}
	sortTimes(srcs)
	var widths []float64
	for _, s := range srcs {
		if s.donor != "" {
			continue // the donor's own cell already proposes its width
		}
		if w := f.binning.widthOf(&s.acc.times); w > 0 && finite(w) {
			widths = append(widths, w)
		}
	}
	if len(widths) == 0 {
		return 0, "", fmt.Errorf("fit: binning %s: no cell has any spread to size bins by; give a bin width", f.binning)
	}
	med := median(widths)
	step := niceWidth(med)
	desc := fmt.Sprintf("histogram, bin width %s %s (%s: median cell width %.4g over %d cells, rounded to 1/2/5×10^k", num(step), unit, f.binning, med, len(widths))
	if capped, why := spreadCap(srcs, step); capped < step {
		step = capped
		desc = fmt.Sprintf("histogram, bin width %s %s (%s: median cell width %.4g over %d cells, %s", num(step), unit, f.binning, med, len(widths), why)
	}
	return step, desc + "), " + linearNote, nil
}

// linearNote describes the placement of samples on the grid, for the provenance.
const linearNote = "linear binning (each sample split between its two nearest grid points, which keeps the cell's mean)"

// maxFitImpulses bounds the impulses the spread cap may give the widest cell: 16,384 keeps a
// convolution of two cells under a few milliseconds, and a matrix whose cells differ by more
// than that in range gets a note of what the coarser step costs instead (pet build).
const maxFitImpulses = 1 << 14

// spreadCap is the step the rule's step is capped at: half the smallest standard deviation of a
// cell's own samples, rounded down to 1, 2 or 5 × 10^k. One common step from the median of the
// cells' widths is coarse for the fast, narrow cells of a matrix that also holds slow ones (a
// 50 ms cell under a 200 ms step is two impulses), and a histogram coarser than its cell's
// spread misplaces the mass that success chances are read from; at half a standard deviation
// linear binning widens a cell's spread by about 2%. The cap is not taken below the step that
// gives the widest cell maxFitImpulses impulses. It returns the step and why, or step itself.
func spreadCap(srcs []source, step float64) (float64, string) {
	minSD, widest := math.Inf(1), 0.0
	for _, s := range srcs {
		if s.donor != "" || s.acc.times.len() < 2 {
			continue
		}
		if sd := s.acc.sd(); sd > 0 {
			minSD = math.Min(minSD, sd)
		}
		widest = math.Max(widest, s.acc.times.last()) // sorted by step()
	}
	if math.IsInf(minSD, 1) {
		return step, ""
	}
	c := niceFloor(minSD / 2)
	if floor := widest / maxFitImpulses; c < floor {
		c = niceCeil(floor)
	}
	if !(c < step) {
		return step, ""
	}
	return c, fmt.Sprintf("capped at %s, half the smallest cell standard deviation %.4g rounded down to 1/2/5×10^k", num(c), minSD)
}
