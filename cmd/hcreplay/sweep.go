package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/hcreplay/hcreplay/internal/progressbar"
	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep"
	"github.com/hcreplay/hcreplay/sweep/trialset"
)

// SweepCmd replays a grid of heuristics, pruning variants, levels, trials and options, and
// writes one row per run (SPEC §6). The grid, its expansion and the runner are sweep.Grid and
// sweep.Sweep; this file reads the grid's files and wires the flags and the progress bar.
type SweepCmd struct {
	Grid       string        `arg:"" optional:"" help:"Grid file (YAML; see docs/sweep-example.yaml). The flags below set or replace its keys." placeholder:"GRID.yaml"`
	Out        string        `help:"Required. Folder for runs.parquet and manifest.json (and runs.partial.parquet while the sweep runs)." placeholder:"DIR"`
	Jobs       int           `short:"j" help:"Replays at a time (default: the number of CPUs)." placeholder:"N"`
	Resume     bool          `help:"Keep the runs an earlier, interrupted sweep of the same grid and shard finished in DIR and run only the others. A folder of another shard or grid is refused."`
	Shard      string        `help:"Run only shard i of n (1-based): the runs whose position in the grid's order is i-1 modulo n. Give each shard its own --out; report merges them, and refuses while one is missing." placeholder:"i/n"`
	Checkpoint time.Duration `default:"5s" help:"How often finished runs are saved to DIR/runs.partial.parquet (0: after every run). A save of a large sweep that takes more than a tenth of it stretches the wait before the next, so that saving stays about a tenth of the time."`

	PET       string   `name:"pet" help:"PET matrix (grid key pet)." placeholder:"PET"`
	Catalog   string   `help:"Machine catalog (grid key catalog)." placeholder:"FILE"`
	Heuristic []string `short:"H" help:"Heuristics or presets, comma-separated (grid key heuristics)." placeholder:"NAME"`
	Prune     []string `help:"Pruning variants, comma-separated: none, defer, drop, both (grid key prune)." placeholder:"VARIANT"`
	Trace     []string `sep:"none" help:"A level of trace files, NAME=SPEC (a file, a folder of trials, a glob, a zip member or a zip glob); repeat for more. Replaces the grid's levels." placeholder:"NAME=SPEC"`
	Generate  []string `sep:"none" help:"A level of generated trials at an oversubscription label such as 19k; repeat for more. Replaces the grid's levels." placeholder:"LEVEL"`
	Trials    int      `help:"Trials of the --trace levels (the first N files; default all) and --generate levels (default 30)." placeholder:"N"`
	Deadline  string   `help:"Deadline rule of the --trace levels (for files without deadlines) and --generate levels (default prop:1)." placeholder:"RULE"`
	Set       []string `sep:"none" help:"Any other grid key as KEY=V1,V2, e.g. queue_size=4,6 or drop_threshold=0.25,0.5; repeatable." placeholder:"KEY=VALUES"`

	SlurmFlags `embed:""`
}

// Help is the command's long help.
func (c *SweepCmd) Help() string {
	return `A sweep is the cross product of the grid's heuristics, pruning variants, levels (trace sets) and
option lists, times the trials of each level. It runs on --jobs cores and writes DIR/runs.parquet,
one row per run with every option and metric, sorted by the run's key, and DIR/manifest.json.
The same grid gives the same rows whatever --jobs, --shard or --resume did (wall times aside).

Finished runs are saved to DIR/runs.partial.parquet every --checkpoint and on Ctrl-C; --resume
runs only the missing ones and then writes runs.parquet. --shard i/n runs every n-th run from the
i-th, so n machines can share a sweep; each shard needs its own DIR (DIR/manifest.json says which
shard of which grid it holds, and a sweep refuses a DIR of another).

--slurm submits the sweep to a Slurm cluster instead: a job array of --slurm-shards shards and a
merge job that writes DIR/runs.parquet and DIR/report when all have succeeded; --slurm --status
DIR says how far it is, --slurm --resume --out DIR resubmits what failed (README, "Running on a
cluster").

A combination of the lists that replays as another runs once: options a mapper does not read
(the pruning options of an unpruned run) are not crossed with it, and two names of one mapper
(PAMF and PAM-P with fairness 0.1) run under the first. A point whose pruning is degenerate (a
deferring threshold of 1, which defers every task until it expires) is refused.

Examples:

    hcreplay sweep docs/sweep-example.yaml --out runs
    hcreplay sweep --pet pet.json -H MM,PAM --prune none,both --generate 15k --generate 25k --trials 10 --out runs
    hcreplay sweep docs/sweep-example.yaml --out /scratch/runs --slurm --slurm-opt time=01:00:00`
}

func (c *SweepCmd) Run(ctx context.Context, con *Console) error {
	if on, err := c.usesSlurm(); err != nil || on {
		if err != nil {
			return badInput(err)
		}
		return c.runSlurm(ctx, con)
	}
	if c.Out == "" {
		return badInput(errors.New("missing flags: --out=DIR"))
	}
	grid, base, err := c.grid()
	if err != nil {
		return badInput(err)
	}
	var shard sweep.Shard
	if c.Shard != "" {
		if shard, err = sweep.ParseShard(c.Shard); err != nil {
			return badInput(fmt.Errorf("--shard: %w", err))
		}
	}
	if c.Jobs < 0 || c.Checkpoint < 0 {
		return badInput(fmt.Errorf("--jobs and --checkpoint must not be negative"))
	}
	inputs, err := loadSweepInputs(grid, base, con)
	if err != nil {
		return err
	}
	bar := progressbar.New(con.Stderr, con.Quiet)
	sw := &sweep.Sweep{
		Grid: grid, Inputs: inputs, Dir: c.Out, Jobs: c.Jobs, Shard: shard, Resume: c.Resume,
		Version: buildVersion(), GridFile: c.Grid, Checkpoint: c.Checkpoint, Log: con.Logf, Saving: con.Saving,
		InputsDigest: sweep.InputsDigest(sweep.GridPath(base, grid.PET), sweep.GridPath(base, grid.Catalog)),
		Started: func(todo int) {
			con.Logf("sweep: %d runs to do in %s", todo, c.Out)
			bar.StartRuns(todo, "sweep")
		},
		Done: func(report.RunRow) { bar.Inc() },
	}
	st, err := sw.Run(ctx)
	bar.Stop()
	switch {
	case errors.Is(err, sweep.ErrSweepExists), errors.Is(err, sweep.ErrBadRunsFile):
		return badInput(err)
	case err != nil && ctx.Err() != nil:
		con.Logf("%d of %d runs are saved in %s; run the same command with --resume to finish",
			st.Resumed+st.Finished, st.Shard, filepath.Join(c.Out, sweep.PartialRunsFile))
		return err
	case err != nil:
		return err
	}
	con.Logf("wrote %s: %d runs (%d resumed) of %d in the grid, shard %s",
		filepath.Join(c.Out, report.RunsFile), st.Shard, st.Resumed, st.Runs, shard)
	if st.Unscored > 0 {
		con.Logf("warning: in %d of the %d runs just made, a trim of %d tasks or more at each end left none scored: their robustness and fairness are undefined, and the report leaves them out of its means",
			st.Unscored, st.Finished, st.UnscoredTrim)
	}
	return nil
}

// grid reads the grid file, if any, and applies the flags. base is the folder the grid's
// relative paths are relative to (the grid file's); paths from flags are made absolute.
func (c *SweepCmd) grid() (*sweep.Grid, string, error) {
	g, base, err := sweep.ReadGrid(c.Grid)
	if err != nil {
		return nil, "", err
	}
	if err := c.applyFlags(g); err != nil {
		return nil, "", err
	}
	if c.Grid == "" && g.PET == "" {
		return nil, "", errors.New("give a grid file (see docs/sweep-example.yaml) or at least --pet, -H and --trace or --generate")
	}
	return g, base, g.Validate()
}

// applyFlags sets the grid keys the flags give.
func (c *SweepCmd) applyFlags(g *sweep.Grid) error {
	type keyFlag struct{ key, value, flag string }
	var sets []keyFlag
	for _, p := range []keyFlag{{"pet", c.PET, "--pet"}, {"catalog", c.Catalog, "--catalog"}} {
		if p.value != "" {
			abs, err := filepath.Abs(p.value)
			if err != nil {
				return err
			}
			sets = append(sets, keyFlag{p.key, abs, p.flag})
		}
	}
	if len(c.Heuristic) > 0 {
		sets = append(sets, keyFlag{"heuristics", strings.Join(c.Heuristic, ","), "--heuristic"})
	}
	if len(c.Prune) > 0 {
		sets = append(sets, keyFlag{"prune", strings.Join(c.Prune, ","), "--prune"})
	}
	for _, kv := range c.Set {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("--set %s: want KEY=VALUES, e.g. queue_size=4,6", kv)
		}
		sets = append(sets, keyFlag{strings.TrimSpace(k), v, "--set " + kv})
	}
	for _, s := range sets {
		if err := g.Set(s.key, s.value, s.flag); err != nil {
			return err
		}
	}
	return sweep.FlagLevels{Traces: c.Trace, Generate: c.Generate, Trials: c.Trials, Deadline: c.Deadline}.Set(g)
}

// loadSweepInputs reads the grid's PET and catalog and every level's trials once, for all runs
// to share (trialset.LoadInputs). Errors name the grid key that points at the bad file.
func loadSweepInputs(g *sweep.Grid, base string, con *Console) (sweep.SweepInputs, error) {
	pet, err := loadPET(sweep.GridPath(base, g.PET))
	if err != nil {
		return sweep.SweepInputs{}, fmt.Errorf("%s: %w", g.Where("pet"), err)
	}
	machines, err := loadMachines(sweep.GridPath(base, g.Catalog), pet)
	if err != nil {
		return sweep.SweepInputs{}, fmt.Errorf("%s: %w", g.Where("catalog"), err)
	}
	return trialset.LoadInputs(g, base, pet, machines, trialset.Reading{Inflate: con.Inflate, MaxBatch: con.MaxBatch, Logf: con.Logf})
}
