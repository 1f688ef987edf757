// Package heuristic holds the mapping heuristics of SPEC §5.2, one file each, behind the
// replay.Mapper interface and a registry that the command line and sweeps look names up in.
//
// Each heuristic reads like its paper's pseudo-code and its doc comment cites the section it
// implements. Heuristics see the system only through replay.Event: they never reach into the
// engine, and they never compute probabilities themselves except where the paper defines its own
// measure (MOC's expected on-time count of 004 Algorithm 1).
//
// Shared conventions (SPEC §5.1, reference/thesis-2018.md §3):
//   - Phase 1 considers machines with a free slot (thesis §3.1 [IMPL]).
//   - Expected completion is the mean of the drop-aware completion PMF (thesis §3.0 (a)).
//   - Ties: earlier arrival, then lower task ID; lower machine index. Batch() is already in
//     arrival order, so "first found wins" with strict comparisons implements the task rule.
//
// What the package does not do: pruning (replay/prune wraps any heuristic), simulation, I/O.
package heuristic
