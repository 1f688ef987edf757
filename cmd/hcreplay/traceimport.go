package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hcreplay/hcreplay/trace"
	"github.com/hcreplay/hcreplay/trace/importers"
)

// TraceImportCmd turns a production trace into an execution log and an arrival trace (issue 9).
type TraceImportCmd struct {
	In          []string `arg:"" help:"Source files (globs and zip members work); all in the --from format." placeholder:"IN"`
	From        string   `required:"" enum:"swf,google2019,alibaba-pai,alibaba2018,azure-functions,azure-llm,e2c" help:"Source format (${enum})."`
	Out         string   `required:"" help:"Folder for log.EXT, trace.EXT and bad-rows.csv." placeholder:"DIR"`
	Format      string   `default:"csv" enum:"csv,jsonl,parquet" help:"Format of the log and the trace (${enum})."`
	Sample      float64  `default:"1" help:"Keep this fraction of jobs (collections, invocations, rows; see --help), chosen by --seed."`
	Seed        uint64   `default:"1" help:"Seed of --sample, of the Azure Functions arrival placement and of the urgency deadline rule."`
	TimeWindow  string   `help:"Keep only work that arrives in FROM:TO from the source's time zero, e.g. 0:2h, 1d:2d, 3600:7200 (seconds)." placeholder:"FROM:TO"`
	Deadline    string   `default:"prop:1" help:"Deadline rule for the arrivals, from the imported log's per-type means: tight, prop:ALPHA, slack:BETA, urgency, or none."`
	TaskType    string   `help:"Source field that gives the task type (default: the format's; see --help)." placeholder:"FIELD"`
	MachineType string   `help:"Source field that gives the machine type (default: the format's; see --help)." placeholder:"FIELD"`
	SourceUnit  string   `help:"Unit of the source's times, when not the format's own (E2C: s)." placeholder:"UNIT"`
	TimeUnit    string   `default:"ms" help:"Unit of the times written."`
	Samples     *int     `help:"azure-functions only: execution-time samples per duration row, 1 to 10,000 (default 100)." placeholder:"N"`
	Force       bool     `help:"Replace the log, trace and bad rows an earlier import left in --out instead of refusing."`
}

// Help is the command's long help: the importers' own (importers.Help).
func (c *TraceImportCmd) Help() string { return importers.Help }

func (c *TraceImportCmd) Run(ctx context.Context, con *Console) error {
	opt, err := importers.Settings{From: c.From, Sample: c.Sample, Seed: c.Seed, TaskType: c.TaskType, MachineType: c.MachineType,
		SourceUnit: c.SourceUnit, TimeUnit: c.TimeUnit, TimeWindow: c.TimeWindow, Deadline: c.Deadline, Samples: c.Samples}.Options()
	if err != nil {
		return badInput(err)
	}
	var srcs []trace.Source
	for _, spec := range c.In {
		s, err := trace.Expand(spec)
		if err != nil {
			return badInput(err)
		}
		srcs = append(srcs, s...)
	}
	if err := claimDir(con, "--out", c.Out, c.Force, importResults); err != nil {
		return err
	}
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return badInput(fmt.Errorf("--out: %w", err))
	}
	opt.Progress = func(rows int64) { con.Logf("read %d rows", rows) }
	logPath, tracePath := filepath.Join(c.Out, "log."+c.Format), filepath.Join(c.Out, "trace."+c.Format)
	res, err := importers.Import(ctx, srcs, logPath, tracePath, opt)
	if res != nil {
		if werr := res.WriteSummary(con.Stdout); werr != nil && err == nil {
			err = werr
		}
		if werr := res.Bad.WriteCSV(filepath.Join(c.Out, "bad-rows.csv")); werr != nil && err == nil {
			err = werr
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return err
		}
		return badInput(err)
	}
	con.Logf("wrote %s (%d records), %s (%d tasks) and %s", logPath, res.LogRecords, tracePath, res.Tasks, filepath.Join(c.Out, "bad-rows.csv"))
	return nil
}
