// Package pmf implements discrete probability mass functions of time: the algebra that PET
// matrices, completion-time chains and success chances are built from.
//
// A PMF is a set of impulses on a uniform grid, origin + k·step for k = 0..n-1, with dense
// probabilities. Every value returned by this package satisfies three invariants: every
// probability is ≥ 0, the total mass is 1 within 1e-9, and neither end of the slice holds a zero
// impulse. Values are immutable: operations return new PMFs and never modify their operands, so a
// PET cell can be shared freely.
//
// Grids. Two PMFs with the same step live on the same lattice when their origins differ by a
// whole number of steps. Convolution works for any origins (the result's origin is the sum), but
// the drop-aware completion chains add the convolution to the predecessor's own impulses, which
// requires the execution-time PMF's origin to be a whole number of steps; petbuild guarantees
// this by placing histogram impulses at bin upper edges k·step. PMFs whose steps differ are
// rebinned to the coarser step when one is a whole multiple of the other; anything else is an
// error, never a panic.
//
// Completion chains. The three drop models of the conference paper (seed 003, Eqs 2–5) are
// implemented in the mass-conserving form of reference/thesis-2018.md §2 (Eq 3.4 [IMPL]): a task
// whose predecessor finishes at or after its deadline never starts (pending and evict), and under
// evict a task still running at its deadline is killed there. The deadline is generally not a
// grid point; the mass of killed tasks is split between the grid points just before and just
// after the deadline, weighted so that the machine frees at the deadline on average (KillShare;
// a deadline on a grid point keeps it all). Every place that reasons about a kill's free time
// reads the split there: both chain builders, AppendStatsTable's mean, AppendMeanBound and
// KillFloor. What stays approximate: in each outcome the task behind a kill sees its machine free
// on one of the two grid points, not at the deadline itself, so it may start (and be killed) at
// the point before a deadline of its own that lies within the same step, where in truth it
// would never start; and a running task conditioned on a time past the point before its
// deadline (PMF.Condition) keeps only the share after it, so its kill goes wholly to that point,
// up to a step late.
//
// Arithmetic. The convolutions the fast engine's links make (the *Into functions) give the
// textbook loop's results to the bit: every impulse receives the same products, rounded the same
// way, added in the same order. On amd64 an assembly kernel computes them 64 impulses at a time
// with AVX-512, or 32 with AVX2 (kernel_amd64.s), whichever the processor has; the purego build
// tag, or another architecture, leaves the Go form.
//
// What the package does not do: it knows nothing of tasks, machines, queues or files. Callers
// pass deadlines and times as plain float64 in the trace's time unit.
package pmf
