package petbuild

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
)

// SynthOptions configure Synthesize. The zero value reproduces the setup of 000 §8.1 on a
// generated 12 × 8 means matrix.
type SynthOptions struct {
	// Means is the task types × machine types matrix of mean execution times. Nil means
	// DefaultMeans(r, 12, 8).
	Means [][]float64
	// TaskTypes and MachineTypes name the rows and columns; nil means "0", "1", ...
	TaskTypes, MachineTypes []string
	// Samples per cell; 0 means 500 (000 §8.1).
	Samples int
	// ShapeMin and ShapeMax bound the gamma shape; both 0 means [1, 20] (000 §8.1). The papers
	// do not say whether the shape is an integer; it is drawn real-valued, uniformly.
	ShapeMin, ShapeMax float64
	// Step is the bin width; 0 means 2, the step of the HCW19 PETs (classes_2.etc). The thesis
	// leaves the bin width open (reference/thesis-2018.md §4 [IMPL]: integer time-unit bins).
	Step float64
	// TimeUnit; empty means DefaultTimeUnit.
	TimeUnit string
}

// Synthetic is a generated PET with the parameters that generated it.
type Synthetic struct {
	PET    *PET
	Means  [][]float64 // the requested means
	Shapes [][]float64 // the gamma shape drawn for each cell
}

// Limits on a synthetic PET, checked before anything is drawn. The paper's setup draws 500
// samples in each of 96 cells, about 50,000 in all.
const (
	// MaxSynthSamples bounds the samples per cell: a cell's samples are held and sorted, 8
	// bytes each, so 10,000,000 of them take 80 MB.
	MaxSynthSamples = 10_000_000
	// MaxSynthDraws bounds the samples drawn over the whole matrix (cells × samples per cell):
	// at about three million a second (a gamma draw and its share of the sort, on one core),
	// 20,000,000 take some seven seconds.
	MaxSynthDraws = 20_000_000
)

// CheckSynthSize reports whether a tasks × machines matrix with samples per cell is within
// the limits: at most maxCells cells (a PET's own limit; each count alone is held to it first,
// so the product cannot overflow), MaxSynthSamples per cell and MaxSynthDraws in all. A
// caller that builds the means with DefaultMeans checks first, since that allocates the
// matrix.
func CheckSynthSize(tasks, machines, samples int) error {
	switch {
	case tasks < 1 || machines < 1 || samples < 1:
		return fmt.Errorf("synth: %d task types × %d machine types with %d samples a cell: all must be positive", tasks, machines, samples)
	case tasks > maxCells:
		return fmt.Errorf("synth: %d task types exceed the limit of %d cells", tasks, maxCells)
	case machines > maxCells:
		return fmt.Errorf("synth: %d machine types exceed the limit of %d cells", machines, maxCells)
	case tasks*machines > maxCells:
		return fmt.Errorf("synth: %d task types × %d machine types = %d cells exceed the limit of %d", tasks, machines, tasks*machines, maxCells)
	case samples > MaxSynthSamples:
		return fmt.Errorf("synth: %d samples a cell exceed the limit of %d (each cell's samples are held and sorted)", samples, MaxSynthSamples)
	case tasks*machines*samples > MaxSynthDraws:
		return fmt.Errorf("synth: %d cells × %d samples = %d draws exceed the limit of %d (about seven seconds of drawing)",
			tasks*machines, samples, tasks*machines*samples, MaxSynthDraws)
	}
	return nil
}

// Synthesize is SynthesizeContext without cancellation.
func Synthesize(r *rand.Rand, opt SynthOptions) (Synthetic, error) {
	return SynthesizeContext(context.Background(), r, opt)
}

// SynthesizeContext generates a PET as 000 §8.1 describes: for each cell, in row-major order, a shape
// k is drawn uniformly from [ShapeMin, ShapeMax], Samples execution times are drawn from the
// gamma distribution with that shape and the cell's mean (scale = mean/k, i.e. rate k/mean),
// and their histogram (bins ((j−1)·Step, j·Step], impulses at upper edges) is the cell's PMF.
// All randomness comes from r, so the same seed gives the same PET. It checks ctx before each
// cell and returns ctx.Err() once it is done.
func SynthesizeContext(ctx context.Context, r *rand.Rand, opt SynthOptions) (Synthetic, error) {
	if r == nil {
		return Synthetic{}, errors.New("synth: nil random source (pass rand.New(rand.NewPCG(seed, stream)))")
	}
	opt, err := opt.withDefaults(r)
	if err != nil {
		return Synthetic{}, err
	}
	shapes := make([][]float64, len(opt.Means))
	cells := make([]Cell, 0, len(opt.Means)*len(opt.MachineTypes))
	times := make([]float64, opt.Samples)
	for t, row := range opt.Means {
		shapes[t] = make([]float64, len(row))
		for m, mean := range row {
			shape := opt.ShapeMin + (opt.ShapeMax-opt.ShapeMin)*r.Float64()
			shapes[t][m] = shape
			g := distuv.Gamma{Alpha: shape, Beta: shape / mean, Src: r}
			if err := draw(ctx, g, times); err != nil {
				return Synthetic{}, err
			}
			slices.Sort(times) // the histogram then only grows at its end
			d, err := histogram(times, opt.Step)
			if err != nil {
				return Synthetic{}, fmt.Errorf("synth: cell %s: %w", cellName(opt.TaskTypes[t], opt.MachineTypes[m]), err)
			}
			cells = append(cells, Cell{PMF: d, Provenance: Provenance{
				Samples: opt.Samples,
				Binning: fmt.Sprintf("synthetic: gamma mean %.6g shape %.4g, %d samples, bin width %s, impulses at bin upper edges",
					mean, shape, opt.Samples, num(opt.Step)),
			}})
		}
	}
	p, err := New(opt.TaskTypes, opt.MachineTypes, opt.TimeUnit, cells)
	if err != nil {
		return Synthetic{}, fmt.Errorf("synth: %w", err)
	}
	return Synthetic{PET: p, Means: opt.Means, Shapes: shapes}, nil
}

// drawCheckEvery is how many draws pass between checks of the context: about a hundredth of
// a second of drawing, so that an interrupted synthesis stops promptly at a negligible cost.
const drawCheckEvery = 1 << 16

// draw fills times with draws from g, giving up with ctx.Err() once ctx is done.
func draw(ctx context.Context, g distuv.Gamma, times []float64) error {
	for i := range times {
		if i%drawCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		times[i] = g.Rand()
	}
	return nil
}

func (o SynthOptions) withDefaults(r *rand.Rand) (SynthOptions, error) {
	if o.Means == nil {
		o.Means = DefaultMeans(r, 12, 8)
	}
	if len(o.Means) == 0 || len(o.Means[0]) == 0 {
		return o, errors.New("synth: empty means matrix")
	}
	for t, row := range o.Means {
		if len(row) != len(o.Means[0]) {
			return o, fmt.Errorf("synth: means row %d has %d entries, want %d", t, len(row), len(o.Means[0]))
		}
		for m, x := range row {
			if !(x > 0) || !finite(x) {
				return o, fmt.Errorf("synth: mean[%d][%d] = %v is not a positive number", t, m, x)
			}
		}
	}
	if o.TaskTypes == nil {
		o.TaskTypes = indexNamesList(len(o.Means))
	}
	if o.MachineTypes == nil {
		o.MachineTypes = indexNamesList(len(o.Means[0]))
	}
	if len(o.TaskTypes) != len(o.Means) || len(o.MachineTypes) != len(o.Means[0]) {
		return o, fmt.Errorf("synth: %d×%d type names for a %d×%d means matrix", len(o.TaskTypes), len(o.MachineTypes), len(o.Means), len(o.Means[0]))
	}
	o.Samples = cmp.Or(o.Samples, 500)
	if o.ShapeMin == 0 && o.ShapeMax == 0 {
		o.ShapeMin, o.ShapeMax = 1, 20
	}
	o.Step = cmp.Or(o.Step, 2)
	switch {
	case o.Samples < 1:
		return o, fmt.Errorf("synth: samples per cell %d must be positive", o.Samples)
	case !(o.ShapeMin > 0 && o.ShapeMax >= o.ShapeMin) || !finite(o.ShapeMax):
		return o, fmt.Errorf("synth: shape range [%v, %v] must be positive and ordered", o.ShapeMin, o.ShapeMax)
	}
	if err := checkStep(o.Step); err != nil {
		return o, fmt.Errorf("synth: %w", err)
	}
	if err := CheckSynthSize(len(o.Means), len(o.Means[0]), o.Samples); err != nil {
		return o, err
	}
	largest := 0.0
	for _, row := range o.Means {
		largest = max(largest, slices.Max(row))
	}
	if err := coarseStepError("step", o.Step, largest); err != nil {
		return o, fmt.Errorf("synth: %w", err)
	}
	return o, nil
}

// DefaultMeans generates a plausible inconsistently heterogeneous means matrix, since the
// SPECint means behind HCW19 (classes_2.etc) are not ours to embed. The construction:
//
//   - each task type gets a base mean b_t ~ U[50, 200] ms, the range 000 §8.2 gives for the
//     per-type mean execution time;
//   - each machine type gets a time factor s_m, log-uniform in [1/2, 2] (the consistent part:
//     some machines are simply faster than others for every type);
//   - each cell gets an affinity a_tm, log-uniform in [1/3, 3] (the inconsistent part: a
//     machine that is fast for one type can be slow for another, as in classes_2.etc where
//     type 7 takes about 274 on machine 2 and 39 on machine 5);
//   - mean_tm = b_t · w_tm / avg_m(w_t·), with w_tm = s_m · a_tm, so the mean over machines
//     of each row is exactly b_t and the deadline rule's avg_i stays in [50, 200].
//
// Cell means thus spread about 6× either side of the row mean at the extremes, and machine
// rankings differ between types.
func DefaultMeans(r *rand.Rand, tasks, machines int) [][]float64 {
	factor := make([]float64, machines)
	for m := range factor {
		factor[m] = logUniform(r, 0.5, 2)
	}
	means := make([][]float64, tasks)
	for t := range means {
		base := 50 + 150*r.Float64()
		row := make([]float64, machines)
		sum := 0.0
		for m := range row {
			row[m] = factor[m] * logUniform(r, 1.0/3, 3)
			sum += row[m]
		}
		for m := range row {
			row[m] *= base * float64(machines) / sum
		}
		means[t] = row
	}
	return means
}

// logUniform draws a number whose logarithm is uniform on [log lo, log hi]: x and lo·hi/x are
// equally likely, and the median is the geometric mean √(lo·hi).
func logUniform(r *rand.Rand, lo, hi float64) float64 {
	return math.Exp(math.Log(lo) + (math.Log(hi)-math.Log(lo))*r.Float64())
}
