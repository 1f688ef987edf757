// Package replay is the discrete-event simulation of machines that replays an arrival trace
// through a mapping heuristic (SPEC §5.1): machines and their bounded FCFS queues, the batch
// queue, mapping events, deadlines under the three drop models, actual durations with common
// random numbers, task outcomes and the run's metrics (SPEC §5.4).
//
// What heuristics and the pruner may know is the Event interface: the batch, the machine queues
// as they stand in the current mapping event (virtual assignments included), and the chances
// (success chance and expected completion of a task appended to a machine, the success chances of
// the tasks already queued). Chances come from an engine behind a small internal interface
// (chancer): the reference engine recomputes every chain from scratch with plain convolutions and
// is the oracle for faster ones.
//
// Bounds: while a machine's queue holds the same tasks, time only lowers their chances and those
// of any task appended (the running task's completion, conditioned on a later elapsed time, is
// stochastically later, and every chain link under evict and none maps a later start to a later
// end). So the fast engine can answer "at most" (Event.SuccessBound: a chance from the machine's
// last chain) and "at least" (Event.QueueFloors: chances from a chain a few steps ahead) without
// a new chain, and callers that only compare with a threshold or a best-so-far decide from them.
// Under pending the property fails and the engine offers no upper bounds. Floors have a second
// source that holds under every drop model: a chain is linear in the running task's conditioned
// completion, so a later conditioning, which drops some of its impulses and renormalises the
// rest, can take from a queued task's chance at most the mass it drops (driftFloors).
//
// Time: one notion of "the same time" for the event loop, the chains and the caches (issue 51).
// Times stay float64 in the trace's unit; two times within pmf.Tolerance(step) (a billionth of
// the PET's step) are the same time. The chains already read times so (a time that close to a
// grid point is that point); the engine reads them so through one helper type, clock, whose
// methods (atOrBefore, before) are the only way the engine compares two times:
// TestTimesCompareThroughClock fails on any comparison of a time in the package's source that
// does not go through clock or say on its line ("exact:") why float order is meant (sorting a
// trace, ordering the event heap). We chose this over integer ticks on a lattice the step
// divides: arrivals and deadlines of real traces (0.01 apart in HCW19, arbitrary in a user's)
// are not on the PET's grid, and ticks fine enough to hold them would round the times the
// outputs report. So: everything within the tolerance of the earliest pending time is one mapping
// event, at the latest of those times, finishes first; a deadline has passed when now is at or
// after it on the clock; a run meets its deadline when it ends at or before it on the clock (as
// its chance counted it). The fast engine's cache of a conditioned chain is valid while now is
// before pmf.PMF.NextAfter, the exact float64 at which conditioning changes. Every decision
// compares rounded values (chances to 12 decimals, times to 1e-9, RoundChance and RoundTime for
// values a heuristic derives itself), so a tie is a tie under every engine. Rounding alone is
// not enough: the engines' unrounded values differ in their last bits, and one that lies that
// close to a rounding boundary rounds apart (an expected completion of 1309.2199999994996 on one
// engine, 1309.2199999995003 on the other, made MM map different tasks on an HCW19 trial). So
// the fast engine rounds a success chance or expected completion of its own only when it lies
// clearly away from a boundary, and otherwise rounds the value the reference engine computes
// for the same state, to the bit (fast.completion): both engines round the same number. The
// chances of queued tasks (Event.QueueChances, which a pruner compares with its thresholds) are
// rounded so too, their skewnesses to 1e-9, with the reference's chain near a boundary
// (fast.queueChances).
//
// Memory: the engine reads the trace one arrival ahead (Config.Source, or Config.Tasks), keeps a
// record only for tasks in the system and reuses the records (and handles) of tasks that left,
// and hands outcomes on as they become final (Options.OnTask), keeping back only the last Trim
// for scoring. A million-task replay runs in tens of megabytes (BenchmarkMillionTasks in
// replay/prune). Replays in a row (a sweep's worker, trial after trial) can pass their storage
// on through a Scratch (Config.Scratch) instead of each growing its own for the collector.
//
// What the package does not do: it does not open files (cmd wires trace and petbuild
// to it), it does not implement heuristics (replay/heuristic) or pruning (replay/prune), and it
// does not aggregate runs (report).
//
// Decisions where the papers leave room, each an Option (defaults from SPEC §5.1):
//   - A mapping event happens at every time at which a task arrives, finishes, or is killed at its
//     deadline; everything that happens at one time (on the clock: see Time) forms one event. Inside an event: expire
//     unmapped tasks whose deadline has passed, drop queued tasks whose deadline has passed
//     (evict and pending), then the mapper, then commit.
//   - A deadline has passed for a task that has not started when now ≥ deadline: a task with a
//     positive duration can no longer finish by it. Unmapped tasks expire under every drop model
//     (004 leaves this open; mapping a task that cannot succeed only wastes a machine).
//   - Under evict, a running task that would miss its deadline is killed at the deadline and the
//     machine is free from then on. The chains, on the PET's grid, free it on the grid points
//     just before and after the deadline, weighted so that the mean is the deadline
//     (pmf.KillShare); Event.FreeFrom bounds from the earlier one (pmf.KillFloor).
//   - Event.Exits reports what left before the event's Map; what leaves during Map and commit
//     (the pruner's drops, queued tasks dropped at their deadline as a machine starts) is
//     reported at the next event, so that the pruner sees its own drops (issue 45).
//   - Event Retract (on the engine's Event, not in the interface) takes back an assignment of
//     the current event as a deferral, for a pruner that defers after the heuristic's choice.
//   - Actual durations come from the trace's observed durations when it has them, otherwise from
//     the truth PET by inversion of the CDF at a uniform number that depends only on (seed, task
//     id, machine type), so every heuristic sees the same world.
package replay
