// Package sweep runs grids of replays (SPEC §6): it parses and validates a grid (heuristics ×
// pruning variants × trace sets × options), expands it in a fixed order with a stable key per
// run, leaves out the combinations that replay as another (an option the mapper does not read,
// two names of one mapper), and runs the rest on all cores, with checkpoints, --resume, shards
// and a manifest, writing one report.RunRow per run to runs.parquet.
//
// It does not aggregate or render runs: package report does, and owns the row type and the
// runs.parquet format that both read and write, so that report reads runs without importing
// the runner. It does not read PET or trace files either: the command line loads them and hands
// over the parsed values (Inputs), which sweep turns into a level's trials (ReplayTasks,
// GenerateLevel).
package sweep
