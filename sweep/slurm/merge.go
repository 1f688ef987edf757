package slurm

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep"
)

// Merge merges the complete shards of the sweep in dir into dir/runs.parquet: the merge
// job's work. It refuses while a shard is missing or incomplete, and returns the file written,
// its runs and the number of shards.
func Merge(dir, version string) (out string, runs, shards int, err error) {
	state, err := ReadState(dir)
	if err != nil {
		return "", 0, 0, inputError(err)
	}
	var paths, missing []string
	for i := 1; i <= state.Shards; i++ {
		sd := ShardDir(dir, i)
		if m, err := sweep.ReadManifest(sd); err != nil || !m.Complete {
			missing = append(missing, strconv.Itoa(i))
			continue
		}
		paths = append(paths, filepath.Join(sd, report.RunsFile))
	}
	if len(missing) > 0 {
		return "", 0, 0, inputError(fmt.Errorf("%s: shards %s of %d are not complete; hcreplay sweep --slurm --status %s tells why", dir, strings.Join(missing, ", "), state.Shards, dir))
	}
	rows, held, err := sweep.MergeRuns(paths)
	if err != nil {
		return "", 0, 0, err
	}
	if gaps := sweep.MissingRuns(paths, held); len(gaps) > 0 {
		return "", 0, 0, inputError(errors.New(strings.Join(gaps, "; ")))
	}
	unit, err := sweep.RunsTimeUnit(paths)
	if err != nil {
		return "", 0, 0, err
	}
	out = filepath.Join(dir, report.RunsFile)
	if err := atomicfile.Write(out, func(w io.Writer) error {
		return report.WriteRuns(w, rows, report.FileMeta{TimeUnit: unit, Version: version})
	}); err != nil {
		return "", 0, 0, err
	}
	return out, len(rows), state.Shards, nil
}

// inputError marks err as the user's to fix (exit 2), as sweep.InputError does; nil stays nil.
func inputError(err error) error {
	if err == nil {
		return nil
	}
	return sweep.InputError{Err: err}
}
