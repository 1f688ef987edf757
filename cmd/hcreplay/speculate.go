package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hcreplay/hcreplay/internal/outdir"
	"github.com/hcreplay/hcreplay/replay/speculate"
	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/trace"
)

// SpeculateCmd replays job traces through speculative-execution strategies (SPEC §8, seed 002).
type SpeculateCmd struct {
	Strategy []string `short:"s" default:"none,SCA,SDA,ESE,Mantri" help:"Strategies: none, SCA, SDA, ESE, Mantri, auto (light: SCA or SDA, heavy: ESE)." placeholder:"NAME"`

	Trace    string `help:"Arrival trace (file, glob or zip member) whose job_id column groups tasks into jobs; a task without one is a job of its own. Needs --pet. Without it: the paper's synthetic workload." placeholder:"TRACE"`
	PET      string `name:"pet" type:"existingfile" help:"PET whose cells are the task times, by task type and machine type (with --trace)." placeholder:"PET"`
	Catalog  string `type:"existingfile" help:"Machine catalog (YAML or CSV) with --pet; default: --per-type machines of each PET machine type." placeholder:"FILE"`
	PerType  int    `default:"1" help:"With --pet and no --catalog: machines of each PET machine type."`
	Dist     string `default:"pet" enum:"pet,pareto" help:"Task times with --pet (${enum}): the PET cells, or a Pareto fit of each cell's tail (Hill estimator, mean kept)."`
	TimeUnit string `help:"Unit of the trace's times when the file does not say (default ms)." placeholder:"UNIT"`

	Rate     float64 `default:"6" help:"Synthetic: job arrivals per time unit (Poisson)."`
	Horizon  float64 `default:"1500" help:"Synthetic: arrival window, in time units."`
	Machines int     `default:"3000" help:"Synthetic: identical machines."`
	Tasks    string  `default:"1:100" help:"Synthetic: tasks per job, uniform on MIN:MAX."`
	Mean     string  `default:"1:4" help:"Synthetic: mean task time of a job, uniform on MIN:MAX."`
	Alpha    float64 `default:"2" help:"Synthetic: Pareto tail order α of task times (> 1)."`
	Unit     float64 `default:"1" help:"Synthetic: seconds per time unit, for cost and energy."`

	Seed  uint64 `default:"1" help:"Seed for arrivals, durations (common random numbers) and placement."`
	Seeds int    `default:"1" help:"Replications: seeds Seed, Seed+1, ... (new synthetic arrivals and durations each)."`

	Gamma          float64 `default:"0.01" help:"Resource units per unit of machine time (γ)."`
	MaxCopies      int     `name:"max-copies" default:"8" help:"Most copies of one task (r)."`
	Sigma          float64 `default:"0" help:"SDA and ESE straggler threshold in units of E[x]; 0: σ* of each job's distribution (1.707 for Pareto α=2)."`
	Detect         float64 `default:"0.1" help:"SDA: fraction of a task's work done when it is judged (s)."`
	RetryDetection bool    `help:"SDA: back a detected straggler up later when no machine was idle at detection."`
	Delta          float64 `default:"0.25" help:"Mantri: duplicate when P(t_rem > 2·t_new) > δ."`
	Eta            float64 `default:"0.1" help:"ESE: small-job test m < η·N/|χ|."`
	Xi             float64 `default:"1" help:"ESE: small-job test E[x] < ξ."`
	Slot           float64 `default:"0" help:"Decision slot length; 0: decide at every arrival and completion."`
	Window         int     `default:"200" help:"auto: job arrivals the load estimate looks back over."`
	Light          string  `default:"SCA" enum:"SCA,SDA" help:"auto: the light-regime strategy (${enum})."`

	JSON  bool   `help:"Print each run's summary and timing as one JSON object per line."`
	Out   string `help:"Write summaries.json and one jobs-WORKLOAD-STRATEGY-SEED.csv per run here (WORKLOAD: synthetic, or the trace file's name without extension)." placeholder:"DIR"`
	Force bool   `help:"Replace the files an earlier run left in --out instead of refusing."`
}

// Help is the command's long help.
func (c *SpeculateCmd) Help() string {
	return `Replays jobs (bags of independent tasks; a job finishes with its last task, a task with its
first copy) through the speculative-execution strategies of Xu & Lau (2015): none, SCA
(cloning by problem P2, solved exactly), SDA (one backup when the remaining time exceeds σ*·E[x]),
ESE (backups first, then smallest jobs, small-job cloning), Mantri (backup when
P(t_rem > 2·t_new) > δ) and auto (SCA or SDA below the cutoff load ω^U, ESE above). Prints
flowtime (mean, p50/p80/p90/p99), resource (γ × machine time, killed copies included), wasted
work, extra copies, backups that won and decision overhead.

Examples:

    hcreplay speculate --rate 6                       the paper's light workload (M=3000, α=2)
    hcreplay speculate --rate 40 -s ESE -s Mantri      the heavy one (over capacity: ω=1.68)
    hcreplay speculate --trace jobs.csv --pet pet.json --per-type 20 --dist pareto`
}

func (c *SpeculateCmd) Run(ctx context.Context, con *Console) error {
	strategies, opt, err := c.options()
	if err != nil {
		return badInput(err)
	}
	workloads, err := c.workloads(con)
	if err != nil {
		return err
	}
	if c.Out != "" {
		if err := claimDir(con, "--out", c.Out, c.Force, speculateResults); err != nil {
			return err
		}
	}
	var all []report.SpeculateRun
	for _, wl := range workloads {
		if err := wl.Generate(); err != nil { // one at a time (Replication.Synthetic)
			return badInput(err)
		}
		for _, st := range strategies {
			o := opt
			o.Strategy, o.Seed, o.TimeUnitSeconds, o.Horizon = st, wl.Seed, wl.UnitSeconds, wl.Horizon
			con.Logf("speculate: %s, %s (%d jobs on %d machines)", wl.Name, st, len(wl.Workload.Jobs), len(wl.Machines))
			res, err := speculate.Run(ctx, wl.Workload, wl.Machines, o)
			if errors.As(err, new(*speculate.RangeError)) {
				return badInput(fmt.Errorf("%s, %s: %w", wl.Name, st, err))
			}
			if err != nil {
				return err
			}
			run := report.SpeculateRun{Workload: wl.Name, Summary: res.Summary, Timing: res.Timing,
				TimeUnit: wl.TimeUnit, Tool: report.Tool, ToolVersion: buildVersion()}
			if c.JSON {
				if err := json.NewEncoder(con.Stdout).Encode(run); err != nil {
					return err
				}
			}
			if c.Out != "" {
				meta := report.FileMeta{TimeUnit: wl.TimeUnit, Version: buildVersion()}
				if err := report.WriteJobs(filepath.Join(c.Out, fmt.Sprintf("jobs-%s-%s-%d.csv", wl.Label, st, wl.Seed)), res.Jobs, meta); err != nil {
					return err
				}
			}
			all = append(all, run)
		}
	}
	if c.Out != "" {
		if err := outdir.WriteJSON(filepath.Join(c.Out, "summaries.json"), all); err != nil {
			return err
		}
	}
	if c.JSON {
		return nil
	}
	return report.SpeculateTable(con.Stdout, all)
}

func (c *SpeculateCmd) options() ([]speculate.Strategy, speculate.Options, error) {
	opt := speculate.DefaultOptions()
	var strategies []speculate.Strategy
	for _, s := range c.Strategy {
		for _, name := range strings.Split(s, ",") {
			st, err := speculate.ParseStrategy(strings.TrimSpace(name))
			if err != nil {
				return nil, opt, fmt.Errorf("--strategy: %w", err)
			}
			strategies = append(strategies, st)
		}
	}
	if len(strategies) == 0 {
		return nil, opt, errors.New("--strategy: no strategy given: want one or more of none, SCA, SDA, ESE, Mantri, auto")
	}
	light, err := speculate.ParseStrategy(c.Light)
	if err != nil {
		return nil, opt, err
	}
	opt.Gamma, opt.MaxCopies, opt.Sigma, opt.Detect, opt.RetryDetection = c.Gamma, c.MaxCopies, c.Sigma, c.Detect, c.RetryDetection
	opt.Delta, opt.Eta, opt.Xi, opt.Slot, opt.Window, opt.Light = c.Delta, c.Eta, c.Xi, c.Slot, c.Window, light
	if c.Seeds < 1 || c.Seeds > speculate.MaxSeeds {
		return nil, opt, fmt.Errorf("--seeds %d: want 1..%d", c.Seeds, speculate.MaxSeeds)
	}
	return strategies, opt, opt.Validate()
}

func (c *SpeculateCmd) workloads(con *Console) ([]speculate.Replication, error) {
	if err := c.misplaced(); err != nil {
		return nil, badInput(err)
	}
	if c.Trace != "" {
		return c.traceWorkloads(con)
	}
	set := speculate.SyntheticSet{Rate: c.Rate, Horizon: c.Horizon, Alpha: c.Alpha, Machines: c.Machines,
		Tasks: c.Tasks, Mean: c.Mean, UnitSeconds: c.Unit, Seed: c.Seed, Seeds: c.Seeds}
	reps, err := set.Replications()
	return reps, badInput(err)
}

// misplaced reports the flags of the other workload set away from their defaults: those of a
// trace without --trace, or those of the synthetic workload with it. Either would be ignored,
// and a user who sets --per-type 20 or --rate 9 expects it to count. The defaults compared with
// are the struct tags' (kong marks a flag set by its default as set, so it cannot tell);
// TestSpeculateMisplacedFlags fails when the two drift apart.
func (c *SpeculateCmd) misplaced() error {
	traceFlags := []struct {
		name string
		set  bool
	}{{"--pet", c.PET != ""}, {"--catalog", c.Catalog != ""}, {"--per-type", c.PerType != 1}, {"--dist", c.Dist != "pet"}, {"--time-unit", c.TimeUnit != ""}}
	synthFlags := []struct {
		name string
		set  bool
	}{{"--rate", c.Rate != 6}, {"--horizon", c.Horizon != 1500}, {"--machines", c.Machines != 3000}, {"--tasks", c.Tasks != "1:100"},
		{"--mean", c.Mean != "1:4"}, {"--alpha", c.Alpha != 2}, {"--unit", c.Unit != 1}}
	if c.Trace == "" {
		for _, f := range traceFlags {
			if f.set {
				return fmt.Errorf("%s goes with --trace; the synthetic workload runs on --machines identical machines", f.name)
			}
		}
		return nil
	}
	for _, f := range synthFlags {
		if f.set {
			return fmt.Errorf("%s sets the synthetic workload, which --trace replaces (its jobs, the PET's times, the catalog's machines)", f.name)
		}
	}
	return nil
}

func (c *SpeculateCmd) traceWorkloads(con *Console) ([]speculate.Replication, error) {
	if c.PET == "" {
		return nil, badInput(errors.New("--trace needs --pet: the task times come from its cells"))
	}
	if c.PerType < 1 || c.PerType > 100000 {
		return nil, badInput(fmt.Errorf("--per-type %d: want 1..100000", c.PerType))
	}
	pet, err := loadPET(c.PET)
	if err != nil {
		return nil, err
	}
	machines, err := loadMachines(c.Catalog, pet)
	if err != nil {
		return nil, err
	}
	if c.Catalog == "" && c.PerType > 1 {
		machines = speculate.Replicate(machines, c.PerType)
	}
	if len(machines) > speculate.MaxMachines {
		return nil, badInput(fmt.Errorf("%d machines (--per-type %d or --catalog): want at most %d", len(machines), c.PerType, speculate.MaxMachines))
	}
	petUnit, err := trace.ParseUnit(pet.TimeUnit())
	if err != nil {
		return nil, badInput(fmt.Errorf("PET time unit: %w", err))
	}
	fileUnit, err := trace.ParseUnit(c.TimeUnit)
	if err != nil {
		return nil, badInput(err)
	}
	traces, err := trace.ReadTraces(c.Trace, trace.ReadOptions{FileUnit: fileUnit, Unit: petUnit,
		KnownTaskTypes: pet.TaskTypes(), KnownMachineTypes: pet.MachineTypes(),
		Warn: func(e *trace.InputError) { con.Logf("warning: %s", e.Error()) }, Inflate: con.Inflate})
	if err != nil {
		return nil, badInput(err)
	}
	reps, err := speculate.TraceReplications(traces, pet, machines, speculate.DistMode(c.Dist), c.Seed, c.Seeds, con.Logf)
	return reps, badInput(err)
}
