// Package report turns replays into what people read. It owns runs.parquet's row (RunRow, one
// per run of a sweep) and reads and writes the file; package sweep, which runs the sweeps, writes
// it through WriteRuns, and report never imports sweep. It aggregates runs over trials
// (means, 95% Student-t intervals, paired differences against a baseline), and renders tables
// (terminal, Markdown, CSV, LaTeX), figures (gonum plot: PNG, SVG, PDF) and a self-contained
// index.html and index.md.
//
// It does not run sweeps (package sweep does), does not read PET or trace files (the command
// line loads them and hands over the parsed values), and it does not decide anything about
// scheduling: the replay and its heuristics do.
package report
