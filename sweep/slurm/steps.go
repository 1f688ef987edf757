package slurm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep"
)

// Prepared is a sweep ready to submit: the grid copied with absolute paths, its runs and the
// number of shards.
type Prepared struct {
	Grid   []byte
	Runs   []sweep.SweepRun
	Shards int
}

// Prepare copies grid g (its relative paths relative to base) for the cluster and checks it
// expands to the same runs over inputs; shards 0 estimates the number of shards from the runs
// and the opts' CPUs per task. More shards than runs is an InputError naming --slurm-shards.
func Prepare(g *sweep.Grid, base string, inputs sweep.SweepInputs, shards int, opts []Opt) (*Prepared, error) {
	copied, err := AbsoluteGrid(g, base)
	if err != nil {
		return nil, err
	}
	runs, err := CopiedRuns(g, copied, inputs)
	if err != nil {
		return nil, err
	}
	if shards == 0 {
		shards = EstimateShards(runs, inputs, CPUsPerTask(opts))
	}
	if shards > len(runs) {
		return nil, inputError(fmt.Errorf("--slurm-shards %d: the grid has only %d runs; give at most %d", shards, len(runs), len(runs)))
	}
	return &Prepared{Grid: copied, Runs: runs, Shards: shards}, nil
}

// SubmitShards submits the given shards of the sweep in dir and a merge job after them, records
// the submission in state (SubmitRecorded) and writes to w how to watch them. No sbatch is an
// InputError.
func SubmitShards(ctx context.Context, w io.Writer, dir string, state *State, shards []int) error {
	sub, err := SubmitRecorded(ctx, dir, state, shards)
	if errors.Is(err, ErrNoSlurm) {
		return inputError(err)
	}
	if err != nil {
		return err
	}
	PrintSubmitted(w, dir, sub)
	return nil
}

// Resume resubmits the shards of the sweep in dir that are not complete, and the merge job
// (Resubmit), cancelling first a merge job that waits for failed shards; logf hears of that.
// It writes to w what it submitted, or that there is nothing to resume.
func Resume(ctx context.Context, w io.Writer, dir string, logf func(format string, args ...any)) error {
	st, err := ReadStatus(ctx, dir)
	if err != nil {
		return inputError(err)
	}
	r, err := Resubmit(st)
	if err != nil {
		return err
	}
	if r.Nothing {
		fmt.Fprintf(w, "nothing to resume: every shard is complete and %s is written\n", filepath.Join(dir, report.RunsFile))
		return nil
	}
	if r.CancelMerge {
		if err := Scancel(ctx, st.MergeJob); err != nil {
			return err
		}
		logf("cancelled the merge job %s, which waited for the failed shards", st.MergeJob)
	}
	return SubmitShards(ctx, w, dir, st.State, r.Shards)
}

// Executable is the absolute path of the hcreplay the jobs run: given (--slurm-exe), or else
// this process's own, its symbolic links resolved. One that is not an executable file is an
// InputError.
func Executable(given string) (string, error) {
	exe := given
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return "", fmt.Errorf("the path of this hcreplay: %w; give it with --slurm-exe", err)
		}
		if resolved, err := filepath.EvalSymlinks(exe); err == nil {
			exe = resolved
		}
	}
	abs, err := filepath.Abs(exe)
	if err != nil {
		return "", inputError(fmt.Errorf("--slurm-exe %s: %w", exe, err))
	}
	if st, err := os.Stat(abs); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
		return "", inputError(fmt.Errorf("--slurm-exe %s: not an executable file", abs))
	}
	return abs, nil
}

// LimitArgs are the global flags of the limits on what an input may hold, as the submitting
// command got them (a negative value: no limit), for the jobs' command lines: the shards read
// the same files under the same limits, or a trace the submission checked could be refused in
// every array task.
func LimitArgs(maxInflate int64, maxRatio float64, maxBatch int) []string {
	bytes, ratio, batch := strconv.FormatInt(maxInflate, 10), strconv.FormatFloat(maxRatio, 'g', -1, 64), strconv.Itoa(maxBatch)
	if maxInflate < 0 {
		bytes = "0" // no limit
	}
	if maxRatio < 0 {
		ratio = "0"
	}
	if maxBatch < 0 {
		batch = "0"
	}
	return []string{"--max-inflate", bytes, "--max-inflate-ratio", ratio, "--max-batch", batch}
}
