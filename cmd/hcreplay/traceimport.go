package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
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

// Help is the command's long help.
func (c *TraceImportCmd) Help() string {
	return `Reads a production trace and writes DIR/log.csv (an execution log for 'pet build'), DIR/trace.csv
(an arrival trace for 'replay') and DIR/bad-rows.csv, then prints a summary and the rows it could
not use, by reason. Rows are never dropped silently: each bad row is counted under its reason with
up to three examples naming file, line, column and value.

Formats and what they give (task type TT, machine type MT, execution time ET, arrival):

  swf              Parallel Workloads Archive: TT executable number, MT partition number,
                   ET run time of completed jobs, arrival submit time. --task-type and
                   --machine-type take any SWF field (job submit wait run procs cpu memory
                   req_procs req_time req_memory status user group executable queue partition
                   preceding think), e.g. --task-type queue when executables are -1.
  google2019       CSV exports of instance events, collection events and machine events (any
                   order): TT collection_logical_name, MT platform_id, ET FINISH - SCHEDULE,
                   arrival the instance's SUBMIT; sample by collection.
  alibaba-pai      GPU-2020 pai_task_table: TT task_name, MT gpu_type, ET end - start of
                   Terminated tasks, arrival start_time; sample by job.
  alibaba2018      v2018 batch_instance (or batch_task) and optionally machine_meta: TT task_type,
                   MT the machine's cpu_num and mem_size ("any" without machine_meta), ET end -
                   start of Terminated rows; end before start and zero times are reported.
  azure-functions  2019 invocations_per_function and function_durations_percentiles files:
                   one arrival per invocation (uniform in its minute), a PET from the duration
                   percentiles; TT the function (--task-type app, owner or trigger), MT "functions";
                   --sample thins invocations.
  azure-llm        LLM inference 2023 CSV: one arrival per TIMESTAMP; TT "code" or "conv" from
                   the file name (--task-type context: token-size classes). No execution times:
                   replay it with a PET of those types.
  e2c              E2C EET matrix (one record per cell) and workload CSVs (ext_<machine>-<r>
                   columns become records and observed durations; est_ columns are ignored).

Deadlines are synthesized with --deadline from the per-type means of the imported log; arrivals
whose task type has no execution record are left out (reported), since a PET built from the log
could not replay them. The trace starts at 0 (the first kept arrival). The arrival trace is held
in memory until it is sorted: cut large traces with --sample and --time-window.

Examples:

    hcreplay trace import --from swf KTH-SP2-1996-2.1-cln.swf.gz --out kth --time-window 0:7d
    hcreplay trace import --from google2019 instance_events.csv collection_events.csv machine_events.csv --out g --sample 0.1
    hcreplay pet build kth/log.csv --out kth/pet.json --min-samples 5
    hcreplay replay --pet kth/pet.json --trace kth/trace.csv -H MM`
}

func (c *TraceImportCmd) Run(ctx context.Context, con *Console) error {
	opt, err := c.options()
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
		if werr := writeImportSummary(con.Stdout, res); werr != nil && err == nil {
			err = werr
		}
		if werr := writeBadRows(filepath.Join(c.Out, "bad-rows.csv"), res); werr != nil && err == nil {
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

func (c *TraceImportCmd) options() (importers.Options, error) {
	opt := importers.Options{Format: importers.Format(c.From), Sample: c.Sample, Seed: c.Seed,
		TaskTypeField: c.TaskType, MachineTypeField: c.MachineType}
	var err error
	if opt.SamplesPerRow, err = c.samplesPerRow(); err != nil {
		return opt, err
	}
	if opt.Unit, err = trace.ParseUnit(c.TimeUnit); err != nil {
		return opt, err
	}
	if c.SourceUnit != "" {
		if opt.SourceUnit, err = trace.ParseUnit(c.SourceUnit); err != nil {
			return opt, err
		}
	}
	if c.Sample <= 0 || c.Sample > 1 {
		return opt, fmt.Errorf("--sample %v: want a fraction in (0, 1]", c.Sample)
	}
	if c.TimeWindow != "" {
		if opt.WindowFrom, opt.WindowTo, err = importers.ParseTimeWindow(c.TimeWindow); err != nil {
			return opt, fmt.Errorf("--time-window: %w", err)
		}
	}
	if !strings.EqualFold(c.Deadline, "none") && c.Deadline != "" {
		rule, err := trace.ParseDeadlineRule(c.Deadline)
		if err != nil {
			return opt, fmt.Errorf("--deadline: %w", err)
		}
		opt.Deadline = &rule
	}
	return opt, nil
}

// samplesPerRow checks --samples. Only azure-functions has duration rows to
// sample; given with another format it would change nothing, which a user
// who typed it would not expect, so it is refused rather than ignored.
func (c *TraceImportCmd) samplesPerRow() (int, error) {
	if c.Samples == nil {
		return 0, nil
	}
	if importers.Format(c.From) != importers.AzureFunctions {
		return 0, fmt.Errorf("--samples applies only to --from %s, not %s", importers.AzureFunctions, c.From)
	}
	if n := *c.Samples; n < 1 || n > importers.MaxSamplesPerRow {
		return 0, fmt.Errorf("--samples %d: want 1 to %d execution-time samples per duration row", n, importers.MaxSamplesPerRow)
	}
	return *c.Samples, nil
}

// writeImportSummary prints what was imported and the bad rows by reason.
func writeImportSummary(w io.Writer, res *importers.Result) error {
	t := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithAlignment(tw.Alignment{tw.AlignLeft, tw.AlignRight}))
	t.Header("import "+string(res.Format), "")
	deadlines := res.Deadlines
	if deadlines == "" {
		deadlines = "none (give --deadline to replay)"
	}
	rows := [][2]string{
		{"files", strconv.Itoa(len(res.Sources))},
		{"rows read", strconv.FormatInt(res.Rows, 10)},
		{"log records", strconv.FormatInt(res.LogRecords, 10)},
		{"tasks (arrivals)", strconv.Itoa(res.Tasks)},
		{"task types", strconv.Itoa(len(res.TaskTypes))},
		{"machine types", strings.Join(clipList(res.MachineTypes, 8), " ")},
		{"cells with records (under 30)", fmt.Sprintf("%d (%d)", res.Cells, res.ThinCells)},
		{"arrival span", fmt.Sprintf("%.6g %s", res.Span, res.Unit)},
		{"left out by --sample", strconv.FormatInt(res.SampledOut, 10)},
		{"outside --time-window", strconv.FormatInt(res.OutOfWindow, 10)},
		{"bad rows", strconv.FormatInt(res.Bad.Total(), 10)},
		{"deadlines", deadlines},
	}
	for _, r := range rows {
		if err := t.Append(r[0], r[1]); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if len(res.Bad.Reasons) == 0 {
		return nil
	}
	b := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithAlignment(tw.Alignment{tw.AlignLeft, tw.AlignLeft, tw.AlignRight, tw.AlignLeft}))
	b.Header("bad rows: reason", "effect", "rows", "first example")
	for _, r := range res.Bad.Reasons {
		example := ""
		if len(r.Samples) > 0 {
			example = clipText(r.Samples[0].Error(), 100)
		}
		if err := b.Append(r.Reason, string(r.Effect), strconv.FormatInt(r.Rows, 10), example); err != nil {
			return err
		}
	}
	return b.Render()
}

func clipList(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(s[:n:n], fmt.Sprintf("… (%d in all)", len(s)))
}

func clipText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// writeBadRows writes every kept example of every reason: reason, effect, rows, file, line,
// column, value, message.
func writeBadRows(path string, res *importers.Result) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		cw := csv.NewWriter(w)
		cw.Write([]string{"reason", "effect", "rows", "file", "line", "column", "value", "message"})
		for _, r := range res.Bad.Reasons {
			for _, e := range r.Samples {
				value := ""
				if e.HasValue {
					value = e.Value
				}
				cw.Write([]string{r.Reason, string(r.Effect), strconv.FormatInt(r.Rows, 10), e.File, strconv.Itoa(e.Line), e.Column, value, e.Error()})
			}
		}
		cw.Flush()
		return cw.Error()
	})
}
