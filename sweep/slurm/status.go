package slurm

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep"
)

// ShardStatus is one shard of a --slurm sweep as --status tells it.
type ShardStatus struct {
	N      int
	Job    string // the array task of its latest submission: 12_3
	Done   bool   // its manifest says complete
	Active bool   // pending or running
	State  string // DONE, PENDING, RUNNING, FAILED, CANCELLED, ..., or NOT RUN
	Reason string
	Runs   string // "4/10 runs", from the manifest or the partial file
	Log    string // the log file, when there is one
}

// Status is a --slurm sweep as --status tells it.
type Status struct {
	Dir         string
	State       *State
	Shards      []ShardStatus
	MergeJob    string
	MergeState  string
	MergeReason string
	MergeActive bool
	Merged      bool // DIR/runs.parquet exists
}

// ReadStatus reads the shards' manifests and asks squeue and sacct about the jobs.
func ReadStatus(ctx context.Context, dir string) (*Status, error) {
	state, err := ReadState(dir)
	if err != nil {
		return nil, err
	}
	st := &Status{Dir: dir, State: state}
	var ids []string
	for _, sub := range state.Submissions {
		ids = append(ids, strings.Trim(sub.Array+","+sub.Merge, ","))
	}
	jobs := Queue(ctx, ids)
	for i := 1; i <= state.Shards; i++ {
		sh := ShardStatus{N: i, Job: state.Last(i), State: "NOT RUN"}
		if j, ok := jobs[sh.Job]; ok {
			sh.State, sh.Reason, sh.Active = j.State, j.Reason, Active(j.State)
		}
		sd := ShardDir(dir, i)
		if m, err := sweep.ReadManifest(sd); err == nil {
			sh.Runs = fmt.Sprintf("%d/%d runs", m.Resumed+m.Finished, m.ShardRuns)
			if m.Complete {
				sh.Done, sh.Active, sh.State = true, false, "DONE"
			}
		}
		if _, err := os.Stat(ShardLog(dir, i)); err == nil {
			sh.Log = ShardLog(dir, i)
		}
		if !sh.Done && !sh.Active && sh.State == "NOT RUN" && sh.Log != "" {
			sh.State = "FAILED" // ended without a complete shard; sacct (if on) says how
		}
		st.Shards = append(st.Shards, sh)
	}
	if n := len(state.Submissions); n > 0 {
		st.MergeJob = state.Submissions[n-1].Merge
		if j, ok := jobs[st.MergeJob]; ok {
			st.MergeState, st.MergeReason, st.MergeActive = j.State, j.Reason, Active(j.State)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, report.RunsFile)); err == nil {
		st.Merged = true
	}
	return st, nil
}

// Print writes the status, a line per shard, and what to do about failed ones.
func (st *Status) Print(w io.Writer) {
	counts := map[string]int{}
	var failed []ShardStatus
	for _, sh := range st.Shards {
		counts[sh.State]++
		line := fmt.Sprintf("shard %03d  %-10s", sh.N, sh.State)
		if sh.Job != "" {
			line += "  job " + sh.Job
		}
		if sh.Runs != "" {
			line += "  " + sh.Runs
		}
		if sh.Reason != "" && sh.Reason != "None" {
			line += "  (" + sh.Reason + ")"
		}
		if !sh.Done && !sh.Active {
			failed = append(failed, sh)
			if sh.Log != "" {
				line += "  log " + sh.Log
			}
		}
		fmt.Fprintln(w, line)
	}
	var parts []string
	for _, s := range []string{"DONE", "RUNNING", "PENDING"} {
		if counts[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s], strings.ToLower(s)))
		}
	}
	if len(failed) > 0 {
		parts = append(parts, fmt.Sprintf("%d failed or not run", len(failed)))
	}
	fmt.Fprintf(w, "shards: %d, %s\n", len(st.Shards), strings.Join(parts, ", "))
	for _, sh := range failed {
		if sh.Log != "" {
			fmt.Fprintf(w, "shard %d failed (%s): its log %s ends:\n%s", sh.N, sh.State, sh.Log, tail(sh.Log, 5))
		}
	}
	switch {
	case st.MergeActive && st.MergeReason == "DependencyNeverSatisfied":
		fmt.Fprintf(w, "merge: job %s is pending and will never start: a shard failed (it waits for all of them, afterok)\n", st.MergeJob)
	case st.MergeActive:
		fmt.Fprintf(w, "merge: job %s %s (%s)\n", st.MergeJob, strings.ToLower(st.MergeState), st.MergeReason)
	case st.Merged:
		fmt.Fprintf(w, "merge: done: %s, report in %s\n", filepath.Join(st.Dir, report.RunsFile), filepath.Join(st.Dir, ReportDir))
	case st.MergeJob != "":
		fmt.Fprintf(w, "merge: job %s ended without %s (%s); its log: %s\n", st.MergeJob, report.RunsFile, orUnknown(st.MergeState), MergeLog(st.Dir))
	}
	if len(failed) > 0 || (!st.Merged && !st.MergeActive) {
		fmt.Fprintf(w, "fix the cause, then: hcreplay sweep --slurm --resume --out %s (reruns only the shards not complete, each from its checkpoint, and the merge)\n", st.Dir)
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "no longer in squeue"
	}
	return strings.ToLower(s)
}

// tail is the last n lines of a file, indented.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "    (" + err.Error() + ")\n"
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "    " + strings.Join(lines, "\n    ") + "\n"
}
