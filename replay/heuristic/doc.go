// Package heuristic holds the mapping heuristics of SPEC §5.2, one file each, behind the
// replay.Mapper interface and a registry that the command line and sweeps look names up in.
//
// Each heuristic reads like its paper's pseudo-code and its doc comment cites the section it
// implements. Heuristics see the system only through replay.Event: they never reach into the
// engine, and they never compute probabilities themselves except where the paper defines its own
// measure (MOC's expected on-time count of 004 Algorithm 1) and where Event has no method for
// what they need (a machine's expected free time after its whole queue, for FCFS and OLB, which
// is rebuilt with the engine's own chain).
//
// Shared conventions (SPEC §5.1, reference/thesis-2018.md §3), each a Params field where the
// references disagree:
//   - Phase 1 considers machines with a free slot (thesis §3.1 [IMPL]); Params.Phase1All looks at
//     every machine and skips, for the rest of the event, a task whose machine is full (004 Alg. 2).
//   - Phase 2 of MM, MSD and Sufferage is per machine (000/003); Params.GlobalPhase2 makes it one
//     global pick per round (004 Alg. 2). MMU, MaxMin, EDF and SJF are global as written.
//   - Expected completion is the mean of the drop-aware completion PMF (thesis §3.0 (a));
//     Params.ETC uses the ETC-style sum of mean execution times instead (§3.0 (b)).
//   - Ties: earlier arrival, then lower task ID; lower machine index. Batch() is already in
//     arrival order, so "first found wins" with strict comparisons implements the task rule.
//
// A heuristic made by the registry keeps storage from one mapping event to the next, so that a
// replay's event loop allocates nothing once it has grown (issue 6); like RR's count, that makes
// it a mapper for one replay at a time. Info.New makes a fresh one for each.
//
// What the package does not do: pruning (replay/prune wraps any heuristic), simulation, I/O.
package heuristic
