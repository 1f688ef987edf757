// Package petbuild owns the PET matrix (Probabilistic Execution Time: one execution-time PMF
// per task type × machine type), its three file formats, fitting it from execution samples,
// compacting it, and generating synthetic PETs as the source papers did.
//
// What it does not do: it does not read execution logs (that is package trace; the CLI turns
// trace records into Samples and feeds them to Fit or a Fitter), and it does not plot (that is
// package report). It imports pmf, and trace for time units and arrival traces (the offered
// load of a trace on a PET, load.go), never replay or report.
//
// # The matrix
//
// A PET has task type names (rows), machine type names (columns), a time unit ("ms" unless
// stated) and one pmf.PMF per cell, all on one common step, each cell with its Provenance:
// sample count, binning description, renormalisation deficit, cropped mass, and the donor
// machine type when the cell was filled from another. TypeMean and GlobalMean are avg_i and
// avg_all of the deadline rule (reference/thesis-2018.md Eq 3.7 [IMPL]).
//
// Grid rule. Every cell's origin is a whole number of steps, because the drop-aware completion
// chains of package pmf add a convolution to the predecessor's own impulses. Fitting therefore
// puts every sample on the grid 0, step, 2·step, ... by linear binning: a sample at
// (k + f)·step gives 1 − f of its weight to k·step and f to (k+1)·step, so each cell's PMF
// mean is its samples' mean (a sample on a grid point, as HCW19's 2, 4, 6, ... with step 2,
// stays whole). Until issue 46 each bin's impulse sat at its upper edge, which biased every
// mean upward by half a step on average: +9% for a gamma log of mean 50 ms, +38% for a 613.5 ms
// cell under the common step its slow neighbours chose. Linear binning widens a cell's spread
// instead (by at most a quarter of a step squared in variance), so a rule-derived common step
// is also capped at half the smallest cell standard deviation (spreadCap). Synthesize keeps
// the upper edges of the journal paper's generator (000 §8.1), whose means are the requested
// gamma means plus half a step.
//
// # Files
//
// The format follows the extension: .json (native, versioned, lossless), .parquet (long-form
// task_type, machine_type, time, prob, with the rest in key-value metadata; lossless) and .etc
// (the HCW19 text format; no names, unit, provenance or explicit step). Writers write a
// temporary file in the target's directory and rename it. Readers renormalise cells whose
// mass is not 1 and record the deficit; a deficit beyond ReadOptions.MaxDeficit (default 1%)
// is an error. Where a file does not state the step (.etc, foreign Parquet) it is inferred as
// the greatest common divisor of all times, and every time must be a whole multiple of it.
// Every input error is a *ReadError naming the file, the line or row, the cell, the field and
// the value; no reader panics on bad input. All readers share one check of each cell's grid
// (grid.go): a finite step in [1e-9, 1e15] and times at most 1e15 and 2^30 steps from 0, so
// that a matrix read can be replayed without overflowing pmf's index arithmetic.
//
// # Fitting
//
// Fit (or a Fitter, for streaming) bins samples into histograms with one common step: a fixed
// width, or a per-cell proposal (bin count over the cell's range, or the Freedman–Diaconis,
// Scott or square-root rule) reduced to the median over cells and rounded to 1, 2 or 5 × 10^k,
// then capped at half the smallest cell standard deviation. Each cell's Provenance records its
// samples' mean and standard deviation.
// A fixed width streams in memory proportional to the occupied bins; data-dependent widths
// hold every sample (8 bytes each) because the rules need quantiles. Cells with fewer than
// FitOptions.MinSamples samples are an error listing all of them, unless FillFrom names a
// machine type whose samples may stand in. Compaction (Compact) then crops tails at quantiles,
// merges to a coarser step and caps impulses per cell, keeping the step common.
//
// # Synthetic PETs
//
// Synthesize follows 000 §8.1: a gamma distribution per cell with the requested mean and a
// shape drawn from [1, 20], 500 samples, a histogram. DefaultMeans generates an inconsistently
// heterogeneous means matrix, since the original SPECint means are not ours to ship. All
// randomness comes from a caller's *rand.Rand (math/rand/v2). Sizes are bounded
// (CheckSynthSize) and SynthesizeContext stops when its context is done. A step the user
// chooses, here or as a fit's bin width or merge, must be shorter than the largest cell mean.
package petbuild
