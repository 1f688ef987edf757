// Package speculate is speculative execution for job traces (seed 002, Xu & Lau, "Optimization
// for Speculative Execution of Multiple Jobs in a MapReduce-like Cluster"; SPEC §8): jobs are
// bags of independent tasks, a task may run as several i.i.d. copies, it finishes when its
// first copy does (the others are killed), and a job finishes with its last task. It owns the
// job workloads (job_id groups of an arrival trace, or the paper's synthetic Poisson/Pareto
// workload), the task-time distributions the strategies reason with (a PET cell, a mixture of
// cells for the cluster-average machine, or a Pareto fit of the tail), the strategies none, SCA,
// SDA, ESE, Mantri and the load-threshold switch between the light and heavy regimes, the
// analysis they rest on (P2, σ*, ω^U, ESE's resource curve), and the run metrics (flowtime,
// resource, cost, energy, wasted work, copies, overhead).
//
// Each strategy lives in its own file whose doc comment cites the section it implements and
// the choices made where the paper is silent (reference/speculative-execution.md §6). Common
// semantics (reference §3.0): machines are single-slot; copies go to random idle machines; a
// copy's duration is drawn from its task's class on the machine's type with common random
// numbers keyed by (seed, job, task, copy), so every strategy sees the same draws; remaining
// times are the oracle ones (the paper's analysis assumes them); decisions happen at every
// arrival and completion unless Options.Slot sets a slot length; runs drain (every job
// finishes) and report the jobs still unfinished at the end of the arrival window.
//
// It does not read files (the command line loads PETs and traces), draw figures (report does)
// or take part in the deadline replay of package replay, whose machine type it borrows for
// prices and power.
package speculate
