package main

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"

	"github.com/hcreplay/hcreplay/sweep/slurm"
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
		st, err := slurm.ReadStatus(ctx, c.Status)
		if err != nil {
			return badInput(err)
		}
		st.Print(con.Stdout)
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
	if err := slurm.CheckEmptyDir(dir); err != nil {
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
	prep, err := slurm.Prepare(grid, base, inputs, c.SlurmShards, opts)
	if err != nil {
		return err
	}
	exe, err := slurm.Executable(c.SlurmExe)
	if err != nil {
		return err
	}
	plan := slurm.NewPlan(dir, exe, prep.Shards, opts, c.Jobs, c.Checkpoint.String(),
		slurm.LimitArgs(con.Inflate.MaxBytes, con.Inflate.MaxRatio, con.MaxBatch))
	if c.DryRun {
		slurm.PrintDryRun(con.Stdout, prep.Grid, plan)
		con.Logf("sweep --slurm --dry-run: %d runs in %d shards; nothing written or submitted", len(prep.Runs), prep.Shards)
		return nil
	}
	if _, err := exec.LookPath("sbatch"); err != nil {
		return badInput(slurm.ErrNoSlurm) // before DIR is written, so that the same command works on the cluster
	}
	if err := slurm.WriteDir(dir, prep.Grid, plan); err != nil {
		return err
	}
	con.Logf("sweep --slurm: %d runs in %d shards, in %s", len(prep.Runs), prep.Shards, dir)
	return slurm.SubmitShards(ctx, con.Stdout, dir, &slurm.State{Shards: prep.Shards}, slurm.ShardNumbers(prep.Shards))
}

// slurmResume resubmits the shards that are not complete and the merge job.
func (c *SweepCmd) slurmResume(ctx context.Context, con *Console) error {
	dir, err := filepath.Abs(c.Out)
	if err != nil {
		return badInput(err)
	}
	return slurm.Resume(ctx, con.Stdout, dir, con.Logf)
}

// slurmMerge merges the complete shards of the sweep in dir into dir/runs.parquet: the merge
// job's work (slurm.Merge).
func (c *SweepCmd) slurmMerge(con *Console, dir string) error {
	out, rows, shards, err := slurm.Merge(dir, buildVersion())
	if err != nil {
		return err
	}
	con.Logf("wrote %s: %d runs of %d shards", out, rows, shards)
	return nil
}
