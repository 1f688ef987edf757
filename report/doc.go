// Package report turns replays into what people read. It runs sweeps (a grid of heuristics ×
// pruning variants × trace sets × options, expanded in a fixed order, run on all cores,
// resumable and shardable, one RunRow per run in runs.parquet), aggregates runs over trials
// (means, 95% Student-t intervals, paired differences against a baseline), and renders tables
// (terminal, Markdown, CSV, LaTeX), figures (gonum plot: PNG, SVG, PDF) and a self-contained
// index.html and index.md.
//
// It does not read PET or trace files (the command line loads them and hands over the parsed
// values), and it does not decide anything about scheduling: the replay and its heuristics do.
package report
