package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
	"github.com/hcreplay/hcreplay/internal/slurm"
	"github.com/hcreplay/hcreplay/report"
)

// SlurmFlags are sweep's flags for running on a Slurm cluster (README, "Running on a cluster"):
// a job array of shards and a merge job after it, built on Slurm's arrays and dependencies.
// They are command-line only: sbatch hands the environment to the jobs, where an
// HCREPLAY_SLURM would make every shard submit again, and an HCREPLAY_SLURM_SHARDS be refused.
type SlurmFlags struct {
	Slurm       bool     `env:"-" help:"Submit the sweep to Slurm instead of running it: a job array, one task per shard into DIR/shards/NNN, and a merge job after it (afterok) that writes DIR/runs.parquet and DIR/report. With --resume --out DIR: resubmit the shards not complete, and the merge."`
	SlurmShards int      `env:"-" help:"Shards of a --slurm sweep (default: enough for about 10 minutes of replay each, estimated from the grid's tasks)." placeholder:"N"`
	SlurmOpt    []string `env:"-" sep:"none" help:"An #SBATCH option of both jobs, NAME=VALUE: partition=short, account=proj, time=01:00:00, mem=8G, cpus-per-task=8 (each shard's --jobs is then $SLURM_CPUS_PER_TASK); repeatable." placeholder:"NAME=VALUE"`
	SlurmExe    string   `env:"-" help:"The hcreplay the jobs run (default: the absolute path of this one); it must be at that path on every node." placeholder:"PATH"`
	DryRun      bool     `env:"-" help:"With --slurm: print the scripts and the sbatch commands; write and submit nothing."`
	Status      string   `env:"-" help:"With --slurm: say which shards of the sweep in DIR are done, waiting, running or failed, and what the merge job does." placeholder:"DIR"`
	SlurmMerge  string   `env:"-" hidden:"" help:"Merge the shards of the --slurm sweep in DIR into DIR/runs.parquet (what the merge job runs)." placeholder:"DIR"`
}

// slurmMinutesPerShard is the replay time --slurm-shards aims at per shard: long enough that a
// task's start (reading the PET and traces) is small beside it, short enough that a failed shard
// costs little to rerun.
const slurmMinutesPerShard = 10

// slurmTasksPerCoreSecond is the replay speed --slurm-shards's estimate assumes, in tasks per
// second per core: measured on a sweep of MM, MSD, PAM and PAMF, unpruned and pruned, on the
// project's machine (docs/scale.md). Slower heuristics only make shards longer than planned.
const slurmTasksPerCoreSecond = 7500

// usesSlurm says whether a Slurm flag was given, and refuses Slurm flags without --slurm.
func (f *SlurmFlags) usesSlurm() (bool, error) {
	if f.Slurm || f.SlurmMerge != "" {
		return true, nil
	}
	if f.SlurmShards != 0 || len(f.SlurmOpt) > 0 || f.SlurmExe != "" || f.DryRun || f.Status != "" {
		return false, errors.New("--slurm-shards, --slurm-opt, --slurm-exe, --dry-run and --status go with --slurm")
	}
	return false, nil
}

// runSlurm is sweep --slurm: submit, --status, --resume, or the merge job's merge.
func (c *SweepCmd) runSlurm(ctx context.Context, con *Console) error {
	switch {
	case c.SlurmMerge != "":
		return c.slurmMerge(con, c.SlurmMerge)
	case c.Status != "":
		st, err := slurmStatus(ctx, c.Status)
		if err != nil {
			return badInput(err)
		}
		st.print(con.Stdout)
		return nil
	case c.Shard != "":
		return badInput(errors.New("--shard and --slurm: --slurm makes the shards itself (--slurm-shards N)"))
	case c.Out == "":
		return badInput(errors.New("--slurm needs --out DIR, the folder of the sweep's shards, logs and results"))
	case c.Resume:
		if c.Grid != "" {
			return badInput(fmt.Errorf("--slurm --resume resubmits the grid the sweep in %s was submitted with (%s); leave out %s", c.Out, filepath.Join(c.Out, slurm.GridFile), c.Grid))
		}
		return c.slurmResume(ctx, con)
	}
	return c.slurmSubmit(ctx, con)
}

// slurmSubmit writes DIR's grid and scripts and submits the array and the merge job.
func (c *SweepCmd) slurmSubmit(ctx context.Context, con *Console) error {
	var opts []slurm.Opt
	for _, s := range c.SlurmOpt {
		o, err := slurm.ParseOpt(s)
		if err != nil {
			return badInput(err)
		}
		opts = append(opts, o)
	}
	if c.SlurmShards < 0 || c.Jobs < 0 {
		return badInput(errors.New("--slurm-shards and --jobs must not be negative"))
	}
	dir, err := filepath.Abs(c.Out)
	if err != nil {
		return badInput(err)
	}
	if err := emptyDir(dir); err != nil {
		return badInput(err)
	}
	grid, base, err := c.grid()
	if err != nil {
		return badInput(err)
	}
	inputs, err := loadSweepInputs(grid, base, con) // every file must open before anything is submitted
	if err != nil {
		return err
	}
	copied, err := absoluteGrid(grid, base)
	if err != nil {
		return err
	}
	runs, err := copiedRuns(grid, copied, inputs)
	if err != nil {
		return err
	}
	shards := c.SlurmShards
	if shards == 0 {
		shards = estimateShards(runs, inputs, slurm.CPUsPerTask(opts))
	}
	if shards > len(runs) {
		return badInput(fmt.Errorf("--slurm-shards %d: the grid has only %d runs; give at most %d", shards, len(runs), len(runs)))
	}
	exe, err := c.exe()
	if err != nil {
		return err
	}
	plan := slurmPlan(dir, exe, shards, opts, c.Jobs, c.Checkpoint.String(), readLimits(con))
	if c.DryRun {
		fmt.Fprintf(con.Stdout, "# %s (the grid, its paths made absolute)\n%s\n", filepath.Join(dir, slurm.GridFile), copied)
		fmt.Fprintf(con.Stdout, "# %s\n%s\n", filepath.Join(dir, slurm.ArrayFile), plan.ArrayScript())
		fmt.Fprintf(con.Stdout, "# %s\n%s\n", filepath.Join(dir, slurm.MergeFile), plan.MergeScript())
		fmt.Fprintf(con.Stdout, "# submitted as:\nsbatch --parsable --array=1-%d %s\nsbatch --parsable --dependency=afterok:ARRAY_JOB_ID %s\n",
			shards, filepath.Join(dir, slurm.ArrayFile), filepath.Join(dir, slurm.MergeFile))
		con.Logf("sweep --slurm --dry-run: %d runs in %d shards; nothing written or submitted", len(runs), shards)
		return nil
	}
	if _, err := exec.LookPath("sbatch"); err != nil {
		return badInput(slurm.ErrNoSlurm) // before DIR is written, so that the same command works on the cluster
	}
	if err := writeSlurmDir(dir, copied, plan); err != nil {
		return err
	}
	con.Logf("sweep --slurm: %d runs in %d shards, in %s", len(runs), shards, dir)
	sub, err := submitShards(ctx, dir, shardNumbers(shards))
	state := &slurm.State{Shards: shards}
	if sub.Array != "" {
		state.Submissions = append(state.Submissions, sub)
		if werr := writeState(dir, state); werr != nil && err == nil {
			err = werr
		}
	}
	if err != nil {
		return submitError(err)
	}
	printSubmitted(con, dir, sub)
	return nil
}

// submitError marks "no sbatch" as the user's to fix (exit 2).
func submitError(err error) error {
	if errors.Is(err, slurm.ErrNoSlurm) {
		return badInput(err)
	}
	return err
}

func printSubmitted(con *Console, dir string, sub slurm.Submission) {
	if sub.Array != "" {
		fmt.Fprintf(con.Stdout, "submitted job array %s (shards %s) and merge job %s (after it)\n", sub.Array, slurm.Ranges(sub.Shards), sub.Merge)
	} else {
		fmt.Fprintf(con.Stdout, "submitted merge job %s\n", sub.Merge)
	}
	fmt.Fprintf(con.Stdout, "watch:   squeue -j %s\n", strings.Trim(sub.Array+","+sub.Merge, ","))
	fmt.Fprintf(con.Stdout, "status:  hcreplay sweep --slurm --status %s\n", dir)
	fmt.Fprintf(con.Stdout, "results: %s and %s, when the merge job has run\n",
		filepath.Join(dir, report.RunsFile), filepath.Join(dir, slurm.ReportDir))
}

// submitShards submits the array tasks of shards (none: only the merge job) and the merge job
// after them. The returned submission holds the ids of what was submitted, also on an error.
func submitShards(ctx context.Context, dir string, shards []int) (slurm.Submission, error) {
	sub := slurm.Submission{Shards: shards}
	var after []string
	if len(shards) > 0 {
		id, err := slurm.Sbatch(ctx, filepath.Join(dir, slurm.ArrayFile), "--array="+slurm.Ranges(shards))
		if err != nil {
			return sub, err
		}
		sub.Array = id
		after = append(after, "--dependency=afterok:"+id)
	}
	id, err := slurm.Sbatch(ctx, filepath.Join(dir, slurm.MergeFile), after...)
	if err != nil {
		return sub, fmt.Errorf("%w; the shards were submitted as job %s: hcreplay sweep --slurm --resume --out %s submits the merge again", err, sub.Array, dir)
	}
	sub.Merge = id
	return sub, nil
}

// slurmPlan is the scripts' content. Each array task resumes its shard's folder, so a task
// that runs again (requeued, or resubmitted by --resume) keeps the runs it had saved.
func slurmPlan(dir, exe string, shards int, opts []slurm.Opt, jobs int, checkpoint string, limits []string) *slurm.Plan {
	j := "{cpus}"
	if jobs > 0 {
		j = strconv.Itoa(jobs)
	}
	report := []string{exe, "report"}
	for i := 1; i <= shards; i++ {
		report = append(report, slurm.ShardDir(dir, i))
	}
	report = append(report, "--out", filepath.Join(dir, slurm.ReportDir), "--force")
	return &slurm.Plan{
		Dir: dir, Shards: shards, Opts: opts,
		Shard: append([]string{exe, "sweep", filepath.Join(dir, slurm.GridFile), "--out", filepath.Join(dir, slurm.ShardsDir, "{shard}"),
			"--shard", "{i}/" + strconv.Itoa(shards), "--resume", "--jobs", j, "--checkpoint", checkpoint}, limits...),
		Merge: []string{
			slurm.Command(exe, "sweep", "--slurm-merge", dir),
			slurm.Command(report...),
		},
	}
}

// readLimits are the global flags of the limits on what an input may hold, as this command
// got them: the shards read the same files under the same limits, or a trace this command
// checked could be refused in every array task.
func readLimits(con *Console) []string {
	bytes, ratio, batch := strconv.FormatInt(con.Inflate.MaxBytes, 10), strconv.FormatFloat(con.Inflate.MaxRatio, 'g', -1, 64), strconv.Itoa(con.MaxBatch)
	if con.Inflate.MaxBytes < 0 {
		bytes = "0" // no limit
	}
	if con.Inflate.MaxRatio < 0 {
		ratio = "0"
	}
	if con.MaxBatch < 0 {
		batch = "0"
	}
	return []string{"--max-inflate", bytes, "--max-inflate-ratio", ratio, "--max-batch", batch}
}

// exe is the hcreplay the jobs run: --slurm-exe, or this one.
func (c *SweepCmd) exe() (string, error) {
	exe := c.SlurmExe
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
		return "", badInput(fmt.Errorf("--slurm-exe %s: %w", exe, err))
	}
	if st, err := os.Stat(abs); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
		return "", badInput(fmt.Errorf("--slurm-exe %s: not an executable file", abs))
	}
	return abs, nil
}

// emptyDir refuses a folder that holds anything: a --slurm sweep's files would mix with it.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, slurm.StateFile)); err == nil {
		return fmt.Errorf("%s holds a sweep submitted with --slurm: hcreplay sweep --slurm --status %s tells how far it is, --slurm --resume --out %s resubmits what failed; or give another --out", dir, dir, dir)
	}
	return fmt.Errorf("--out %s is not empty: a --slurm sweep needs a folder of its own", dir)
}

// absoluteGrid is the grid as YAML (JSON is YAML; its keys are the grid's), with its paths
// made absolute, so that the copy in DIR reads the files the original does.
func absoluteGrid(g *report.Grid, base string) ([]byte, error) {
	cp := *g
	cp.PET = gridPath(base, g.PET)
	cp.Catalog = gridPath(base, g.Catalog)
	cp.Levels = slices.Clone(g.Levels)
	for i := range cp.Levels {
		cp.Levels[i].Trace = gridPath(base, cp.Levels[i].Trace)
	}
	b, err := json.MarshalIndent(&cp, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("copy the grid: %w", err)
	}
	return append([]byte("# The grid of a sweep submitted with hcreplay sweep --slurm, its paths absolute.\n"), append(b, '\n')...), nil
}

// copiedRuns checks that the copy of the grid expands to the runs the grid does (keys, in order)
// and returns them: the shards run the copy.
func copiedRuns(g *report.Grid, copied []byte, in report.SweepInputs) ([]report.SweepRun, error) {
	trials := map[string]int{}
	for name, lt := range in.Levels {
		trials[name] = len(lt.Trials)
	}
	runs, err := g.Expand(trials)
	if err != nil {
		return nil, badInput(err)
	}
	cg, err := report.ParseGrid(copied, slurm.GridFile)
	if err == nil {
		err = cg.Validate()
	}
	if err != nil {
		return nil, fmt.Errorf("internal error: the copy of the grid does not read back: %w", err)
	}
	again, err := cg.Expand(trials)
	if err != nil {
		return nil, fmt.Errorf("internal error: the copy of the grid does not expand: %w", err)
	}
	if len(again) != len(runs) {
		return nil, fmt.Errorf("internal error: the copy of the grid has %d runs, the grid %d", len(again), len(runs))
	}
	for i := range runs {
		if runs[i].Key != again[i].Key {
			return nil, fmt.Errorf("internal error: run %d of the copy of the grid is %s, of the grid %s", i, again[i].Key, runs[i].Key)
		}
	}
	return runs, nil
}

// estimateShards is enough shards for each to replay about slurmMinutesPerShard minutes on
// cpus cores at slurmTasksPerCoreSecond.
func estimateShards(runs []report.SweepRun, in report.SweepInputs, cpus int) int {
	tasks := 0.0
	for _, r := range runs {
		if lt, ok := in.Levels[r.Level]; ok && r.Trial >= 1 && r.Trial <= len(lt.Trials) {
			tasks += float64(len(lt.Trials[r.Trial-1].Tasks))
		}
	}
	seconds := tasks / (slurmTasksPerCoreSecond * float64(max(cpus, 1)))
	n := int(math.Ceil(seconds / (slurmMinutesPerShard * 60)))
	return min(max(n, 1), len(runs))
}

func shardNumbers(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i + 1
	}
	return s
}

// writeSlurmDir writes the grid's copy, the scripts and the folders of the shards and logs.
func writeSlurmDir(dir string, grid []byte, p *slurm.Plan) error {
	for _, d := range []string{filepath.Join(dir, slurm.ShardsDir), filepath.Join(dir, slurm.LogsDir)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	files := []struct {
		name string
		text []byte
		mode os.FileMode
	}{
		{slurm.GridFile, grid, 0o644},
		{slurm.ArrayFile, []byte(p.ArrayScript()), 0o755},
		{slurm.MergeFile, []byte(p.MergeScript()), 0o755},
	}
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if err := atomicfile.Write(path, func(w io.Writer) error { _, err := w.Write(f.text); return err }); err != nil {
			return err
		}
		if err := os.Chmod(path, f.mode); err != nil {
			return err
		}
	}
	return nil
}

func writeState(dir string, s *slurm.State) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, slurm.StateFile), func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	})
}

// slurmResume resubmits the shards that are not complete and the merge job.
func (c *SweepCmd) slurmResume(ctx context.Context, con *Console) error {
	dir, err := filepath.Abs(c.Out)
	if err != nil {
		return badInput(err)
	}
	st, err := slurmStatus(ctx, dir)
	if err != nil {
		return badInput(err)
	}
	var todo []int
	for _, sh := range st.shards {
		switch {
		case sh.done:
		case sh.active:
			return badInput(fmt.Errorf("shard %d is still %s (job %s): wait for it, or scancel it, then --resume", sh.n, strings.ToLower(sh.state), sh.job))
		default:
			todo = append(todo, sh.n)
		}
	}
	if len(todo) == 0 && st.merged {
		fmt.Fprintf(con.Stdout, "nothing to resume: every shard is complete and %s is written\n", filepath.Join(dir, report.RunsFile))
		return nil
	}
	if st.mergeActive {
		if st.mergeReason != "DependencyNeverSatisfied" && len(todo) == 0 {
			return badInput(fmt.Errorf("the merge job %s is still %s: wait for it", st.mergeJob, strings.ToLower(st.mergeState)))
		}
		if err := slurm.Scancel(ctx, st.mergeJob); err != nil {
			return err
		}
		con.Logf("cancelled the merge job %s, which waited for the failed shards", st.mergeJob)
	}
	sub, err := submitShards(ctx, dir, todo)
	state := st.state
	if sub.Array != "" || sub.Merge != "" {
		state.Submissions = append(state.Submissions, sub)
		if werr := writeState(dir, state); werr != nil && err == nil {
			err = werr
		}
	}
	if err != nil {
		return submitError(err)
	}
	printSubmitted(con, dir, sub)
	return nil
}

// slurmMerge merges the complete shards of the sweep in dir into dir/runs.parquet: the merge
// job's work. It refuses while a shard is missing or incomplete.
func (c *SweepCmd) slurmMerge(con *Console, dir string) error {
	state, err := slurm.ReadState(dir)
	if err != nil {
		return badInput(err)
	}
	var paths, missing []string
	for i := 1; i <= state.Shards; i++ {
		sd := slurm.ShardDir(dir, i)
		if m, err := report.ReadManifest(sd); err != nil || !m.Complete {
			missing = append(missing, strconv.Itoa(i))
			continue
		}
		paths = append(paths, filepath.Join(sd, report.RunsFile))
	}
	if len(missing) > 0 {
		return badInput(fmt.Errorf("%s: shards %s of %d are not complete; hcreplay sweep --slurm --status %s tells why", dir, strings.Join(missing, ", "), state.Shards, dir))
	}
	rows, held, err := mergeRuns(paths)
	if err != nil {
		return err
	}
	if gaps := report.MissingRuns(paths, held); len(gaps) > 0 {
		return badInput(errors.New(strings.Join(gaps, "; ")))
	}
	unit, err := runsTimeUnit(paths)
	if err != nil {
		return err
	}
	out := filepath.Join(dir, report.RunsFile)
	if err := atomicfile.Write(out, func(w io.Writer) error {
		return report.WriteRuns(w, rows, report.FileMeta{TimeUnit: unit, Version: buildVersion()})
	}); err != nil {
		return err
	}
	con.Logf("wrote %s: %d runs of %d shards", out, len(rows), state.Shards)
	return nil
}

// shardStatus is one shard of a --slurm sweep as --status tells it.
type shardStatus struct {
	n      int
	job    string // the array task of its latest submission: 12_3
	done   bool   // its manifest says complete
	active bool   // pending or running
	state  string // DONE, PENDING, RUNNING, FAILED, CANCELLED, ..., or NOT RUN
	reason string
	runs   string // "4/10 runs", from the manifest or the partial file
	log    string // the log file, when there is one
}

// sweepStatus is a --slurm sweep as --status tells it.
type sweepStatus struct {
	dir         string
	state       *slurm.State
	shards      []shardStatus
	mergeJob    string
	mergeState  string
	mergeReason string
	mergeActive bool
	merged      bool // DIR/runs.parquet exists
}

// slurmStatus reads the shards' manifests and asks squeue and sacct about the jobs.
func slurmStatus(ctx context.Context, dir string) (*sweepStatus, error) {
	state, err := slurm.ReadState(dir)
	if err != nil {
		return nil, err
	}
	st := &sweepStatus{dir: dir, state: state}
	var ids []string
	for _, sub := range state.Submissions {
		ids = append(ids, strings.Trim(sub.Array+","+sub.Merge, ","))
	}
	jobs := slurm.Queue(ctx, ids)
	for i := 1; i <= state.Shards; i++ {
		sh := shardStatus{n: i, job: state.Last(i), state: "NOT RUN"}
		if j, ok := jobs[sh.job]; ok {
			sh.state, sh.reason, sh.active = j.State, j.Reason, slurm.Active(j.State)
		}
		sd := slurm.ShardDir(dir, i)
		if m, err := report.ReadManifest(sd); err == nil {
			sh.runs = fmt.Sprintf("%d/%d runs", m.Resumed+m.Finished, m.ShardRuns)
			if m.Complete {
				sh.done, sh.active, sh.state = true, false, "DONE"
			}
		}
		if _, err := os.Stat(slurm.ShardLog(dir, i)); err == nil {
			sh.log = slurm.ShardLog(dir, i)
		}
		if !sh.done && !sh.active && sh.state == "NOT RUN" && sh.log != "" {
			sh.state = "FAILED" // ended without a complete shard; sacct (if on) says how
		}
		st.shards = append(st.shards, sh)
	}
	if n := len(state.Submissions); n > 0 {
		st.mergeJob = state.Submissions[n-1].Merge
		if j, ok := jobs[st.mergeJob]; ok {
			st.mergeState, st.mergeReason, st.mergeActive = j.State, j.Reason, slurm.Active(j.State)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, report.RunsFile)); err == nil {
		st.merged = true
	}
	return st, nil
}

// print writes the status, a line per shard, and what to do about failed ones.
func (st *sweepStatus) print(w io.Writer) {
	counts := map[string]int{}
	var failed []shardStatus
	for _, sh := range st.shards {
		counts[sh.state]++
		line := fmt.Sprintf("shard %03d  %-10s", sh.n, sh.state)
		if sh.job != "" {
			line += "  job " + sh.job
		}
		if sh.runs != "" {
			line += "  " + sh.runs
		}
		if sh.reason != "" && sh.reason != "None" {
			line += "  (" + sh.reason + ")"
		}
		if !sh.done && !sh.active {
			failed = append(failed, sh)
			if sh.log != "" {
				line += "  log " + sh.log
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
	fmt.Fprintf(w, "shards: %d, %s\n", len(st.shards), strings.Join(parts, ", "))
	for _, sh := range failed {
		if sh.log != "" {
			fmt.Fprintf(w, "shard %d failed (%s): its log %s ends:\n%s", sh.n, sh.state, sh.log, tail(sh.log, 5))
		}
	}
	switch {
	case st.mergeActive && st.mergeReason == "DependencyNeverSatisfied":
		fmt.Fprintf(w, "merge: job %s is pending and will never start: a shard failed (it waits for all of them, afterok)\n", st.mergeJob)
	case st.mergeActive:
		fmt.Fprintf(w, "merge: job %s %s (%s)\n", st.mergeJob, strings.ToLower(st.mergeState), st.mergeReason)
	case st.merged:
		fmt.Fprintf(w, "merge: done: %s, report in %s\n", filepath.Join(st.dir, report.RunsFile), filepath.Join(st.dir, slurm.ReportDir))
	case st.mergeJob != "":
		fmt.Fprintf(w, "merge: job %s ended without %s (%s); its log: %s\n", st.mergeJob, report.RunsFile, orUnknown(st.mergeState), slurm.MergeLog(st.dir))
	}
	if len(failed) > 0 || (!st.merged && !st.mergeActive) {
		fmt.Fprintf(w, "fix the cause, then: hcreplay sweep --slurm --resume --out %s (reruns only the shards not complete, each from its checkpoint, and the merge)\n", st.dir)
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
