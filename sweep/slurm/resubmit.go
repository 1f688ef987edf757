package slurm

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/report"
)

// NewPlan is the content of the scripts of a sweep in dir of shards shards, run by exe with the
// options opts: each array task runs exe sweep on its shard with --jobs jobs (0: the task's
// CPUs), the given --checkpoint, and the global flags extra (the limits the submitting command
// read its inputs under); the merge job merges the shards and writes their report. Each array
// task resumes its shard's folder, so a task that runs again (requeued, or resubmitted by
// --resume) keeps the runs it had saved.
func NewPlan(dir, exe string, shards int, opts []Opt, jobs int, checkpoint string, extra []string) *Plan {
	j := "{cpus}"
	if jobs > 0 {
		j = strconv.Itoa(jobs)
	}
	rep := []string{exe, "report"}
	for i := 1; i <= shards; i++ {
		rep = append(rep, ShardDir(dir, i))
	}
	rep = append(rep, "--out", filepath.Join(dir, ReportDir), "--force")
	return &Plan{
		Dir: dir, Shards: shards, Opts: opts,
		Shard: append([]string{exe, "sweep", filepath.Join(dir, GridFile), "--out", filepath.Join(dir, ShardsDir, "{shard}"),
			"--shard", "{i}/" + strconv.Itoa(shards), "--resume", "--jobs", j, "--checkpoint", checkpoint}, extra...),
		Merge: []string{
			Command(exe, "sweep", "--slurm-merge", dir),
			Command(rep...),
		},
	}
}

// PrintDryRun writes what a submission of plan would write and run: the grid (its paths made
// absolute), the two scripts, and the sbatch commands.
func PrintDryRun(w io.Writer, grid []byte, plan *Plan) {
	dir := plan.Dir
	fmt.Fprintf(w, "# %s (the grid, its paths made absolute)\n%s\n", filepath.Join(dir, GridFile), grid)
	fmt.Fprintf(w, "# %s\n%s\n", filepath.Join(dir, ArrayFile), plan.ArrayScript())
	fmt.Fprintf(w, "# %s\n%s\n", filepath.Join(dir, MergeFile), plan.MergeScript())
	fmt.Fprintf(w, "# submitted as:\nsbatch --parsable --array=1-%d %s\nsbatch --parsable --dependency=afterok:ARRAY_JOB_ID %s\n",
		plan.Shards, filepath.Join(dir, ArrayFile), filepath.Join(dir, MergeFile))
}

// SubmitRecorded submits the given shards of the sweep in dir and a merge job after them
// (Submit), and records the submission in state, also when only part of it went through, so
// that --status and --resume know the jobs that exist.
func SubmitRecorded(ctx context.Context, dir string, state *State, shards []int) (Submission, error) {
	sub, err := Submit(ctx, dir, shards)
	if sub.Array != "" || sub.Merge != "" {
		state.Submissions = append(state.Submissions, sub)
		if werr := WriteState(dir, state); werr != nil && err == nil {
			err = werr
		}
	}
	return sub, err
}

// PrintSubmitted tells what was submitted for the sweep in dir and how to watch it.
func PrintSubmitted(w io.Writer, dir string, sub Submission) {
	if sub.Array != "" {
		fmt.Fprintf(w, "submitted job array %s (shards %s) and merge job %s (after it)\n", sub.Array, Ranges(sub.Shards), sub.Merge)
	} else {
		fmt.Fprintf(w, "submitted merge job %s\n", sub.Merge)
	}
	fmt.Fprintf(w, "watch:   squeue -j %s\n", strings.Trim(sub.Array+","+sub.Merge, ","))
	fmt.Fprintf(w, "status:  hcreplay sweep --slurm --status %s\n", dir)
	fmt.Fprintf(w, "results: %s and %s, when the merge job has run\n",
		filepath.Join(dir, report.RunsFile), filepath.Join(dir, ReportDir))
}

// Resubmission is what --resume does to a sweep: the shards to submit again, and whether the
// merge job, which waits for failed shards, is to be cancelled first. Nothing is set when every
// shard is complete and the runs are merged.
type Resubmission struct {
	Shards      []int
	CancelMerge bool
	Nothing     bool
}

// Resubmit works out the resubmission of the sweep of status st. It refuses (InputError) while
// a shard still runs or waits, or while the merge job does with no shard to resubmit.
func Resubmit(st *Status) (Resubmission, error) {
	var r Resubmission
	for _, sh := range st.Shards {
		switch {
		case sh.Done:
		case sh.Active:
			return r, inputError(fmt.Errorf("shard %d is still %s (job %s): wait for it, or scancel it, then --resume", sh.N, strings.ToLower(sh.State), sh.Job))
		default:
			r.Shards = append(r.Shards, sh.N)
		}
	}
	if len(r.Shards) == 0 && st.Merged {
		r.Nothing = true
		return r, nil
	}
	if st.MergeActive {
		if st.MergeReason != "DependencyNeverSatisfied" && len(r.Shards) == 0 {
			return r, inputError(fmt.Errorf("the merge job %s is still %s: wait for it", st.MergeJob, strings.ToLower(st.MergeState)))
		}
		r.CancelMerge = true
	}
	return r, nil
}
