package main

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hcreplay/hcreplay/internal/outdir"
	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep/trialset"
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
	PET      string   `name:"pet" required:"" type:"existingfile" help:"PET whose task types and means shape the trials and deadlines." placeholder:"PET"`
	Out      string   `required:"" help:"Folder for the trials; or, with --trials 1, a trace file (t.csv, t.dat.gz), whose extension sets the format." placeholder:"DIR"`
	Level    string   `xor:"arrivals" help:"Oversubscription level (default 19k): tasks per --period, HCW19's labels (19k = 19,000 per 88,200 time units, 0.215 tasks per ms, whatever the PET); the offered load it gives on this PET is printed. --load sets a load instead." placeholder:"LEVEL"`
	Period   float64  `default:"88200" help:"Period of the level, in time units (88,200 matches the HCW19 trials)."`
	Rate     *float64 `xor:"arrivals" help:"Arrival rate in tasks per time unit, instead of --level." placeholder:"R"`
	Load     *float64 `xor:"arrivals" help:"Offered load ρ = arrival rate × mean execution time ÷ machines (from the PET and --catalog), instead of --level: 1 keeps the machines just busy, 1.5 oversubscribes them by half." placeholder:"RHO"`
	Catalog  string   `type:"existingfile" help:"Machine catalog (YAML or CSV) for the offered load; default: one machine per PET machine type, as replay uses." placeholder:"FILE"`
	Tasks    int      `default:"800" help:"Tasks per trial."`
	Trials   int      `default:"30" help:"Number of trials (at most 10,000)."`
	Pattern  string   `default:"constant" enum:"constant,spiky" help:"Arrival pattern (${enum})."`
	CV       float64  `help:"Coefficient of variation of inter-arrival times (default: variance = 10% of the mean; 1 resembles the HCW19 files)."`
	Deadline string   `default:"prop:1" help:"Deadline rule: tight, prop:ALPHA, urgency, slack:BETA, best:K (prop:1 reproduces the HCW19 deadlines; best:4 is the rule of Smith et al. 2010)."`
	Seed     uint64   `default:"1" help:"Seed; trial i uses stream i."`
	Format   string   `default:"dat" enum:"dat,csv,jsonl,parquet" help:"File format (${enum})."`
	Prefix   string   `help:"File name prefix (default: the level, e.g. arr19k)." placeholder:"NAME"`
	Force    bool     `help:"Replace the trace files an earlier set left in --out (or the --out file) instead of refusing."`
}

func (c *TraceGenCmd) Run(con *Console) error {
	pet, err := loadPET(c.PET)
	if err != nil {
		return err
	}
	machines, err := loadMachines(c.Catalog, pet)
	if err != nil {
		return err
	}
	mean, err := pet.MeanExec(replay.MachineTypes(machines), nil)
	if err != nil {
		return badInput(fmt.Errorf("--catalog: %w", err))
	}
	spec := petbuild.TrialsSpec{Tasks: c.Tasks, Trials: c.Trials, CV: c.CV, Pattern: c.Pattern, Deadline: c.Deadline, Seed: c.Seed,
		Prefix: c.Prefix, Arrivals: trace.RateSpec{Level: c.Level, Period: c.Period, Rate: c.Rate, Load: c.Load}}
	cfg, prefix, err := spec.Config(pet, mean/float64(len(machines)))
	if err != nil {
		return badInput(err)
	}
	rho := cfg.Rate * mean / float64(len(machines))
	load := petbuild.LoadLine(rho, cfg.Rate, mean, len(machines), pet.TimeUnit())
	file, err := c.oneFile()
	if err != nil {
		return badInput(err)
	}
	// Generate the first trial before making the folder, so that bad
	// settings leave nothing behind; then write each trial as it is made, so
	// that memory holds one trial whatever --trials says.
	first, err := trace.Generate(cfg, 1)
	if err != nil {
		return badInput(err)
	}
	opt := trace.WriteOptions{TypeIndex: pet.TaskTypes()}
	if file {
		err = outdir.ClaimFile("--out", c.Out, c.Force)
	} else {
		err = claimDir(con, "--out", c.Out, c.Force, traceGenResults)
	}
	if err != nil {
		return err
	}
	if file {
		if err := trace.WriteTrace(c.Out, first, opt); err != nil {
			return badInput(err)
		}
		con.Logf("wrote 1 trial of %d tasks to %s, %s; %s", c.Tasks, c.Out, c.Pattern, load)
		c.warnLoad(con, rho)
		return nil
	}
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return badInput(fmt.Errorf("--out: %w", err))
	}
	for t, tr := 1, first; t <= c.Trials; t++ {
		if t > 1 {
			if tr, err = trace.Generate(cfg, t); err != nil {
				return badInput(err)
			}
		}
		path := filepath.Join(c.Out, fmt.Sprintf("%s_%d.%s", prefix, t, c.Format))
		if err := trace.WriteTrace(path, tr, opt); err != nil {
			return badInput(err)
		}
	}
	note := ""
	if c.Format == "dat" {
		note = trace.TypeIndexNote(pet.TaskTypes())
	}
	con.Logf("wrote %d trials of %d tasks to %s (%s_*.%s), %s; %s%s", c.Trials, c.Tasks, c.Out, prefix, c.Format, c.Pattern, load, note)
	c.warnLoad(con, rho)
	return nil
}

// warnLoad warns of a load far from any study's, unless the user asked for it with --load.
func (c *TraceGenCmd) warnLoad(con *Console, rho float64) {
	if w := petbuild.LoadWarning(rho); w != "" && c.Load == nil {
		con.Logf("warning: %s", w)
	}
}

// oneFile reports whether --out names one trace file rather than the folder of the trials: a
// name with a trace format's extension (t.csv, t.dat.gz) that is not a folder already. That
// takes --trials 1, a --format other than the default must agree with the extension, and
// --prefix, which names the files in a folder, is refused rather than ignored; a user who wrote
// t.csv did not mean a folder of that name (which is what it used to make).
func (c *TraceGenCmd) oneFile() (bool, error) {
	if !trace.HasTraceExtension(c.Out) {
		return false, nil
	}
	if fi, err := os.Stat(c.Out); err == nil && fi.IsDir() {
		return false, nil
	}
	if c.Trials != 1 {
		return false, fmt.Errorf("--out %s names a trace file, but --trials %d makes %d of them: give a folder for the trials, or --trials 1 for one file", c.Out, c.Trials, c.Trials)
	}
	if f, _ := trace.NameFormat(c.Out); c.Format != "dat" && string(f) != c.Format {
		return false, fmt.Errorf("--format %s, but --out %s is a %s file: the extension sets the format of one file", c.Format, c.Out, f)
	}
	if c.Prefix != "" {
		return false, fmt.Errorf("--prefix %s names the trials in a folder, but --out %s names the one file itself: drop --prefix, or give a folder", c.Prefix, c.Out)
	}
	return true, nil
}

// writeLoad prints the traces' offered load on the PET and catalog, and warns when it is far
// from any study's.
func (c *TraceStatsCmd) writeLoad(con *Console, traces []*trace.Trace, unit trace.Unit, pet *petbuild.PET) error {
	machines, err := loadMachines(c.Catalog, pet)
	if err != nil {
		return err
	}
	w, err := pet.WriteTraceLoad(con.Stdout, traces, unit, replay.MachineTypes(machines))
	if err != nil {
		return badInput(err)
	}
	if w != "" {
		con.Logf("warning: %s", w)
	}
	return nil
}

// TraceConvertCmd converts one trace.
type TraceConvertCmd struct {
	In       string `arg:"" help:"Trace to read (a file or a zip member)." placeholder:"IN"`
	Out      string `arg:"" help:"Trace to write; the extension picks the format." placeholder:"OUT"`
	PET      string `name:"pet" type:"existingfile" help:"PET whose task types a .dat file indexes, in the input or the output (default: the types are indexes already)." placeholder:"PET"`
	TimeUnit string `help:"Unit of the input's times when the file does not say (default ms)." placeholder:"UNIT"`
	Force    bool   `help:"Overwrite OUT if it exists."`
}

func (c *TraceConvertCmd) Run(con *Console) error {
	unit, err := trialset.FileUnit(c.TimeUnit)
	if err != nil {
		return badInput(err)
	}
	var types []string // the PET's task types, which .dat files index
	if c.PET != "" {
		pet, err := loadPET(c.PET)
		if err != nil {
			return err
		}
		types = pet.TaskTypes()
	}
	warn := func(s string) { con.Logf("warning: %s", s) }
	traces, err := trace.ReadRepairedTraces(c.In, trace.ReadOptions{FileUnit: unit, Unit: cmp.Or(unit, trace.DefaultUnit), TypeIndex: types,
		Warn: func(e *trace.InputError) { warn(e.Error()) }, Inflate: con.Inflate}, warn)
	if err != nil {
		return badInput(err)
	}
	if len(traces) != 1 {
		return badInput(fmt.Errorf("%s names %d traces; convert one at a time", c.In, len(traces)))
	}
	if err := outdir.CheckFolder(c.Out); err != nil {
		return badInput(err)
	}
	if err := outdir.ClaimFile("OUT", c.Out, c.Force); err != nil {
		return err
	}
	if f, _ := trace.NameFormat(c.Out); f == trace.Dat {
		w, err := trace.CheckDatTypes(traces[0], types, c.Out)
		if err != nil {
			return badInput(err)
		}
		if w != "" {
			warn(w)
		}
	}
	if err := trace.WriteTrace(c.Out, traces[0], trace.WriteOptions{TypeIndex: types}); err != nil {
		return badInput(err)
	}
	con.Logf("wrote %s (%d tasks)", c.Out, len(traces[0].Tasks))
	return nil
}

// maxStatsBins bounds trace stats --bins: a plot is a few thousand pixels
// wide and a table of more rows is not read, while each bin costs memory
// (999999999999 bins ran out of it).
const maxStatsBins = 10_000

// TraceStatsCmd summarises traces.
type TraceStatsCmd struct {
	Traces   []string `arg:"" help:"Traces (files, globs, zip members)." placeholder:"TRACE"`
	Plot     string   `help:"Draw the arrival rate over time and the slack distribution to FILE (.png, .svg or .pdf)." placeholder:"FILE"`
	Bins     int      `default:"40" help:"Time bins for the arrival rate (1 to 10,000)."`
	TimeUnit string   `help:"Unit of the traces' times when the files do not say (default ms)." placeholder:"UNIT"`
	PET      string   `name:"pet" type:"existingfile" help:"PET to compute the offered load with (ρ = arrival rate × mean execution time ÷ machines); it also names a .dat file's type indexes." placeholder:"PET"`
	Catalog  string   `type:"existingfile" help:"Machine catalog (YAML or CSV) for the offered load; default: one machine per PET machine type." placeholder:"FILE"`
}

func (c *TraceStatsCmd) Run(con *Console) error {
	unit, err := trialset.FileUnit(c.TimeUnit)
	if err != nil {
		return badInput(err)
	}
	var pet *petbuild.PET
	var types []string
	if c.PET != "" {
		if pet, err = loadPET(c.PET); err != nil {
			return err
		}
		types = pet.TaskTypes()
	} else if c.Catalog != "" {
		return badInput(fmt.Errorf("--catalog %s: the offered load needs the PET too: give --pet", c.Catalog))
	}
	warn := func(s string) { con.Logf("warning: %s", s) }
	var all []*trace.Trace
	for _, spec := range c.Traces {
		trs, err := trace.ReadRepairedTraces(spec, trace.ReadOptions{FileUnit: unit, Unit: cmp.Or(unit, trace.DefaultUnit), TypeIndex: types,
			Warn: func(e *trace.InputError) { warn(e.Error()) }, Inflate: con.Inflate}, warn)
		if err != nil {
			return badInput(err)
		}
		all = append(all, trs...)
	}
	if c.Bins < 1 || c.Bins > maxStatsBins {
		return badInput(fmt.Errorf("--bins %d: want 1 to %d", c.Bins, maxStatsBins))
	}
	if c.Plot != "" {
		if err := outdir.CheckFolder(c.Plot); err != nil {
			return badInput(fmt.Errorf("--plot: %w", err))
		}
	}
	st := report.TraceStatistics(all, c.Bins)
	if err := st.WriteTable(con.Stdout); err != nil {
		return err
	}
	if pet != nil {
		if err := c.writeLoad(con, all, cmp.Or(unit, trace.DefaultUnit), pet); err != nil {
			return err
		}
	}
	if c.Plot != "" {
		if err := st.Plot(c.Plot); err != nil {
			return err
		}
		con.Logf("wrote %s", c.Plot)
	}
	return nil
}
