package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/trace"
)

// TraceCmd groups the arrival-trace commands (SPEC §7).
type TraceCmd struct {
	Gen     TraceGenCmd     `cmd:"" help:"Generate synthetic arrival trials (constant or spiky) with deadlines from a PET."`
	Convert TraceConvertCmd `cmd:"" help:"Convert a trace between CSV, JSON Lines, Parquet and HCW19 .dat."`
	Stats   TraceStatsCmd   `cmd:"" help:"Tasks per type, arrival rate over time and slack of a trace; --plot draws them."`
	Import  TraceImportCmd  `cmd:"" help:"Import a production trace (SWF, Google 2019, Alibaba, Azure, E2C) as an execution log and an arrival trace."`
}

// TraceGenCmd writes synthetic arrival trials.
type TraceGenCmd struct {
	PET      string  `name:"pet" required:"" type:"existingfile" help:"PET whose task types and means shape the trials and deadlines." placeholder:"PET"`
	Out      string  `required:"" help:"Folder for the trials." placeholder:"DIR"`
	Level    string  `default:"19k" help:"Oversubscription level: tasks per period (19k = 19,000 per --period)."`
	Period   float64 `default:"88200" help:"Period of the level, in time units (88,200 matches the HCW19 trials)."`
	Rate     float64 `help:"Arrival rate in tasks per time unit, instead of --level." placeholder:"R"`
	Tasks    int     `default:"800" help:"Tasks per trial."`
	Trials   int     `default:"30" help:"Number of trials."`
	Pattern  string  `default:"constant" enum:"constant,spiky" help:"Arrival pattern (${enum})."`
	CV       float64 `help:"Coefficient of variation of inter-arrival times (default: variance = 10% of the mean; 1 resembles the HCW19 files)."`
	Deadline string  `default:"prop:1" help:"Deadline rule: tight, prop:ALPHA, urgency, slack:BETA, best:K (prop:1 reproduces the HCW19 deadlines; best:4 is 004's rule)."`
	Seed     uint64  `default:"1" help:"Seed; trial i uses stream i."`
	Format   string  `default:"dat" enum:"dat,csv,jsonl,parquet" help:"File format (${enum})."`
	Prefix   string  `help:"File name prefix (default: the level, e.g. arr19k)." placeholder:"NAME"`
}

func (c *TraceGenCmd) Run(con *Console) error {
	pet, err := loadPET(c.PET)
	if err != nil {
		return err
	}
	rate := c.Rate
	if rate <= 0 {
		if rate, err = trace.LevelRate(c.Level, c.Period); err != nil {
			return badInput(err)
		}
	}
	rule, means, err := deadlineRule(c.Deadline, pet)
	if err != nil {
		return badInput(err)
	}
	if c.Tasks < 1 || c.Trials < 1 {
		return badInput(fmt.Errorf("--tasks and --trials must be positive"))
	}
	cfg := trace.GenConfig{Types: pet.TaskTypes(), Rate: rate, Tasks: c.Tasks, CV: c.CV, Pattern: trace.Pattern(c.Pattern),
		Spiky: trace.DefaultSpiky(), Seed: c.Seed, Unit: trace.Unit(pet.TimeUnit()), Deadline: &rule, Means: means}
	trials, err := trace.GenerateTrials(cfg, c.Trials)
	if err != nil {
		return badInput(err)
	}
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return err
	}
	prefix := c.Prefix
	if prefix == "" {
		prefix = "arr" + strings.ToLower(c.Level)
		if c.Rate > 0 {
			prefix = fmt.Sprintf("rate%g", c.Rate)
		}
	}
	for i, tr := range trials {
		path := filepath.Join(c.Out, fmt.Sprintf("%s_%d.%s", prefix, i+1, c.Format))
		if err := trace.WriteTrace(path, tr, trace.WriteOptions{TypeIndex: pet.TaskTypes()}); err != nil {
			return err
		}
	}
	con.Logf("wrote %d trials of %d tasks to %s (%s_*.%s), %s at %.4g tasks per %s", c.Trials, c.Tasks, c.Out, prefix, c.Format, c.Pattern, rate, pet.TimeUnit())
	return nil
}

// TraceConvertCmd converts one trace.
type TraceConvertCmd struct {
	In       string `arg:"" help:"Trace to read (a file or a zip member)." placeholder:"IN"`
	Out      string `arg:"" help:"Trace to write; the extension picks the format." placeholder:"OUT"`
	PET      string `name:"pet" type:"existingfile" help:"PET whose task type names index the .dat output (default: the names are indexes already)." placeholder:"PET"`
	TimeUnit string `help:"Unit of the input's times when the file does not say (default ms)." placeholder:"UNIT"`
}

func (c *TraceConvertCmd) Run(con *Console) error {
	unit, err := trace.ParseUnit(c.TimeUnit)
	if err != nil {
		return badInput(err)
	}
	traces, err := trace.ReadTraces(c.In, trace.ReadOptions{FileUnit: unit, Unit: unit,
		Warn: func(e *trace.InputError) { con.Logf("warning: %s", e) }})
	if err != nil {
		return badInput(err)
	}
	if len(traces) != 1 {
		return badInput(fmt.Errorf("%s names %d traces; convert one at a time", c.In, len(traces)))
	}
	opt := trace.WriteOptions{}
	if c.PET != "" {
		pet, err := loadPET(c.PET)
		if err != nil {
			return err
		}
		opt.TypeIndex = pet.TaskTypes()
	}
	if err := trace.WriteTrace(c.Out, traces[0], opt); err != nil {
		return badInput(err)
	}
	con.Logf("wrote %s (%d tasks)", c.Out, len(traces[0].Tasks))
	return nil
}

// TraceStatsCmd summarises traces.
type TraceStatsCmd struct {
	Traces   []string `arg:"" help:"Traces (files, globs, zip members)." placeholder:"TRACE"`
	Plot     string   `help:"Draw the arrival rate over time and the slack distribution to FILE (.png, .svg or .pdf)." placeholder:"FILE"`
	Bins     int      `default:"40" help:"Time bins for the arrival rate."`
	TimeUnit string   `help:"Unit of the traces' times when the files do not say (default ms)." placeholder:"UNIT"`
}

func (c *TraceStatsCmd) Run(con *Console) error {
	unit, err := trace.ParseUnit(c.TimeUnit)
	if err != nil {
		return badInput(err)
	}
	var all []*trace.Trace
	for _, spec := range c.Traces {
		trs, err := trace.ReadTraces(spec, trace.ReadOptions{FileUnit: unit, Unit: unit,
			Warn: func(e *trace.InputError) { con.Logf("warning: %s", e) }})
		if err != nil {
			return badInput(err)
		}
		all = append(all, trs...)
	}
	st := report.TraceStatistics(all, c.Bins)
	if err := st.WriteTable(con.Stdout); err != nil {
		return err
	}
	if c.Plot != "" {
		if err := st.Plot(c.Plot); err != nil {
			return err
		}
		con.Logf("wrote %s", c.Plot)
	}
	return nil
}
