package main

import (
	"io/fs"
	"path/filepath"

	"github.com/hcreplay/hcreplay/internal/outdir"
	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/trace"
)

// Every command that writes results follows internal/outdir's rule: no overwriting earlier
// results without --force. sweep follows its own form of the rule: --resume continues an earlier
// sweep of the same grid. claimDir is outdir.ClaimDir writing its notes to the console.

func claimDir(con *Console, flag, dir string, force bool, results outdir.Results) error {
	return outdir.ClaimDir(flag, dir, force, results, con.Logf)
}

// The results of each command that writes a folder, for claimDir.
var (
	// trace gen: trace files named as trials (NAME_N.EXT: arr19k_3.csv), an earlier set's; not a
	// PET or a log kept beside them.
	traceGenResults = outdir.NamesLike(func(_ string, e fs.DirEntry) bool { return !e.IsDir() && trace.IsTrialFile(e.Name()) })
	// replay --out: a run's files, and the subfolders that hold runs (one per mapper, per trial).
	replayResults = outdir.NamesLike(func(dir string, e fs.DirEntry) bool {
		return e.IsDir() && report.IsReplayOutput(filepath.Join(dir, e.Name()))
	},
		"summary.json", "timing.json", "tasks.parquet", "tasks.csv", "reliability.csv")
	// speculate --out: the summaries and the jobs of each run.
	speculateResults = outdir.NamesLike(nil, "summaries.json", "jobs-*.csv")
	// trace import: the log and the trace.
	importResults = outdir.NamesLike(nil, "log.csv", "log.jsonl", "log.parquet", "trace.csv", "trace.jsonl", "trace.parquet")
)

// reportResults are an earlier report's files (its pages, tables and figures), in a folder that
// holds its index.html or index.md: figures of other names are the report's only there.
func reportResults(dir string) ([]string, error) {
	pages, err := outdir.NamesLike(nil, "index.html", "index.md")(dir)
	if err != nil || len(pages) == 0 {
		return nil, err
	}
	return outdir.NamesLike(nil, "index.html", "index.md", "summary.md", "summary.csv", "summary.tex", "aggregate.csv", "calibration.csv", "*.svg", "*.png", "*.pdf")(dir)
}
