package importers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/hcreplay/hcreplay/trace"
)

// Format names a production trace format that Import turns into an
// execution log and an arrival trace. The layouts and the mapping of each are
// documented at the format's file (swf.go, google.go, ...) and summarised in the
// package documentation.
type Format string

// The formats Import reads.
const (
	SWF            Format = "swf"             // Standard Workload Format (Parallel Workloads Archive)
	Google2019     Format = "google2019"      // Google cluster-data 2019 CSV exports
	AlibabaPAI     Format = "alibaba-pai"     // Alibaba cluster-trace-gpu-v2020 pai_task_table
	Alibaba2018    Format = "alibaba2018"     // Alibaba cluster-trace-v2018 batch_task / batch_instance
	AzureFunctions Format = "azure-functions" // Azure Functions 2019 invocations and durations
	AzureLLM       Format = "azure-llm"       // Azure LLM inference 2023
	E2C            Format = "e2c"             // E2C simulator EET matrix and workloads
)

// Formats lists the formats in the order the help text gives them.
func Formats() []Format {
	rs := readers()
	fs := make([]Format, len(rs))
	for i, r := range rs {
		fs[i] = r.format
	}
	return fs
}

// ParseFormat accepts the names of Formats, case-insensitively.
func ParseFormat(s string) (Format, error) {
	f := Format(strings.ToLower(strings.TrimSpace(s)))
	if _, ok := lookup(f); ok {
		return f, nil
	}
	names := make([]string, 0, len(readers()))
	for _, f := range Formats() {
		names = append(names, string(f))
	}
	return "", fmt.Errorf("unknown import format %q (want %s)", s, strings.Join(names, ", "))
}

// Options controls Import.
type Options struct {
	Format Format
	// Unit is the unit of the times written; empty means ms.
	Unit trace.Unit
	// SourceUnit overrides the unit of the source's times (each format has
	// its own: seconds for SWF, Alibaba and E2C, µs for Google, ms for Azure
	// Functions durations). Empty keeps the format's.
	SourceUnit trace.Unit
	// Sample keeps this fraction of the source's units of work (jobs,
	// collections, invocations; see each format), chosen by a hash of the
	// unit's key and Seed, so that the same seed keeps the same units
	// whatever the order of the files. 0 or 1 keeps everything.
	Sample float64
	// Seed drives Sample, the placement of Azure Functions invocations inside
	// their minute and the urgency deadline rule.
	Seed uint64
	// WindowFrom and WindowTo keep only work that arrives in [from, to),
	// measured from the source's time zero (see each format). WindowTo zero
	// means no end.
	WindowFrom, WindowTo time.Duration
	// TaskTypeField and MachineTypeField choose the source field that gives
	// the task type and the machine type; empty means the format's default.
	// Each format lists the fields it accepts.
	TaskTypeField, MachineTypeField string
	// Deadline synthesizes the deadlines the source does not have, from the
	// per-type means of the imported log (NewTypeMeans of the mean over
	// machine types of each cell's mean). nil leaves them empty, for a replay
	// to fill in from its PET with its own --deadline.
	Deadline *trace.DeadlineRule
	// SamplesPerRow bounds the execution-time samples one Azure Functions
	// duration row gives: 0 means 100, at most MaxSamplesPerRow. Other
	// formats ignore it.
	SamplesPerRow int
	// BadSamples is how many examples of each bad-row reason are kept
	// (default 3).
	BadSamples int
	// Progress, when set, is called every million source rows.
	Progress func(rows int64)
}

// MaxSamplesPerRow bounds Options.SamplesPerRow. A duration row has
// seven percentiles, so past a few hundred samples the extra ones only
// repeat the interpolation between them, while each is a log record: ten
// thousand samples of each of the 100,000 rows of a day would be a
// billion-record log.
const MaxSamplesPerRow = 10_000

func (o *Options) check() error {
	if _, err := ParseFormat(string(o.Format)); err != nil {
		return err
	}
	for _, u := range []trace.Unit{o.Unit, o.SourceUnit} {
		if u != "" && !u.Valid() {
			return fmt.Errorf("invalid time unit %q", u)
		}
	}
	if math.IsNaN(o.Sample) || o.Sample < 0 || o.Sample > 1 {
		return fmt.Errorf("sample fraction %v: want a number in (0, 1]", o.Sample)
	}
	if o.SamplesPerRow < 0 || o.SamplesPerRow > MaxSamplesPerRow {
		return fmt.Errorf("samples per duration row %d: want 1 to %d", o.SamplesPerRow, MaxSamplesPerRow)
	}
	if o.WindowFrom < 0 || (o.WindowTo != 0 && o.WindowTo <= o.WindowFrom) {
		return fmt.Errorf("time window %v:%v: want 0 ≤ FROM < TO", o.WindowFrom, o.WindowTo)
	}
	return nil
}

// ParseTimeWindow reads "FROM:TO" as durations from the source's time zero:
// Go durations ("90m", "1h30m") or a number with the suffix d for days, or a
// plain number of seconds. Either side may be empty: ":2h" is the first two
// hours, "1d:" everything after the first day.
func ParseTimeWindow(s string) (from, to time.Duration, err error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok {
		return 0, 0, fmt.Errorf("time window %q: want FROM:TO such as 0:2h or 1d: (empty for no bound)", s)
	}
	if from, err = parseWindowBound(a); err == nil {
		to, err = parseWindowBound(b)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("time window %q: %w", s, err)
	}
	if from < 0 || (to != 0 && to <= from) {
		return 0, 0, fmt.Errorf("time window %q: want 0 ≤ FROM < TO", s)
	}
	return from, to, nil
}

func parseWindowBound(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, nil
	}
	if d, ok := strings.CutSuffix(s, "d"); ok {
		v, err := strconv.ParseFloat(d, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, fmt.Errorf("%q is not a number of days", s)
		}
		return time.Duration(v * 24 * float64(time.Hour)), nil
	}
	if v, err := strconv.ParseFloat(s, 64); err == nil && !math.IsNaN(v) && !math.IsInf(v, 0) {
		return time.Duration(v * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("%q is not a duration", s)
	}
	return d, nil
}

// Result describes what an import read, kept and left out.
type Result struct {
	Format       Format
	Sources      []string
	Unit         trace.Unit // unit of the written times
	Rows         int64      // source data rows read (header and comment lines not counted)
	LogRecords   int64      // execution records written to the log
	Tasks        int        // arrivals written to the trace
	SampledOut   int64      // units of work left out by Sample
	OutOfWindow  int64      // units of work outside the time window
	TaskTypes    []string
	MachineTypes []string
	Cells        int     // (task type, machine type) pairs with at least one record
	ThinCells    int     // of those, cells with fewer than 30 records (pet build's default minimum)
	Offset       float64 // subtracted from every arrival so that the first is at 0
	Span         float64 // last arrival, after the shift
	Deadlines    string  // the rule that set deadlines, or "" when none were set
	Bad          BadRows
	Notes        []string // things the user should know, e.g. "no execution log"
}

// Effect says what a bad row cost.
type Effect string

// The effects of a bad row.
const (
	Skipped    Effect = "skipped"       // nothing of the row was imported
	NoLog      Effect = "no log record" // the arrival was kept, the execution time was not
	NoArrival  Effect = "no arrival"    // the execution time was kept, the arrival was not
	PartlyUsed Effect = "partly used"   // some values of the row were left out
)

// BadReason counts the rows that one problem affected, with a few examples.
type BadReason struct {
	Reason  string
	Effect  Effect
	Rows    int64
	Samples []*trace.InputError // the first ones, naming file, line, column and value
}

// BadRows is the report of rows that were not imported, or not completely,
// by reason in order of first appearance.
type BadRows struct {
	Reasons []*BadReason
	index   map[string]int
	keep    int
}

// Total returns the number of rows reported.
func (b *BadRows) Total() int64 {
	var n int64
	for _, r := range b.Reasons {
		n += r.Rows
	}
	return n
}

// Count returns the rows reported under a reason.
func (b *BadRows) Count(reason string) int64 {
	if i, ok := b.index[reason]; ok {
		return b.Reasons[i].Rows
	}
	return 0
}

func (b *BadRows) add(effect Effect, reason string, e *trace.InputError) {
	if b.index == nil {
		b.index = map[string]int{}
	}
	i, ok := b.index[reason]
	if !ok {
		i = len(b.Reasons)
		b.index[reason] = i
		b.Reasons = append(b.Reasons, &BadReason{Reason: reason, Effect: effect})
	}
	r := b.Reasons[i]
	r.Rows++
	if len(r.Samples) < b.keep && e != nil {
		if e.Msg == "" {
			e.Msg = reason
		}
		r.Samples = append(r.Samples, e)
	}
}

// runImport reads the inputs, sending log records to emit, and returns the
// arrival trace and the report.
func runImport(ctx context.Context, in []importInput, opt Options, emit func(trace.LogRecord) error) (*trace.Trace, *Result, error) {
	if err := opt.check(); err != nil {
		return nil, nil, err
	}
	if len(in) == 0 {
		return nil, nil, errors.New("import: no input files")
	}
	r, _ := lookup(opt.Format) // opt.check has found it
	im := newImporter(ctx, opt, r.unit, emit)
	for _, i := range in {
		im.res.Sources = append(im.res.Sources, i.name)
	}
	if err := r.read(im, in); err != nil {
		return nil, im.res, err
	}
	name := in[0].name
	if len(in) > 1 {
		name += fmt.Sprintf(" (+%d files)", len(in)-1)
	}
	tr, err := im.finish(name)
	return tr, im.res, err
}

// ImportRecords imports the sources into memory: the execution log and the
// arrival trace. It suits small traces and tests; Import streams the log to
// a file.
func ImportRecords(ctx context.Context, srcs []trace.Source, opt Options) ([]trace.LogRecord, *trace.Trace, *Result, error) {
	var logs []trace.LogRecord
	tr, res, err := runImport(ctx, sourceInputs(srcs), opt, func(r trace.LogRecord) error {
		logs = append(logs, r)
		return nil
	})
	return logs, tr, res, err
}

// Import reads the sources in opt.Format and writes the execution log to
// logPath (as it reads) and the arrival trace to tracePath (at the end: it is
// sorted by arrival and its deadlines need the means of the whole log, so it
// is held in memory, about 100 bytes a task; cut large traces with Sample
// and the time window). Both files are written to temporary files and
// renamed into place only when the import succeeds. Bad input comes back
// as an *InputError; rows that cannot be imported are not errors but are
// counted in the result's Bad report.
func Import(ctx context.Context, srcs []trace.Source, logPath, tracePath string, opt Options) (*Result, error) {
	lw, err := trace.CreateLogs(logPath, trace.WriteOptions{Unit: opt.Unit})
	if err != nil {
		return nil, err
	}
	lw.KeepOptionalColumns()
	tr, res, err := runImport(ctx, sourceInputs(srcs), opt, lw.Write)
	if err == nil && res.LogRecords == 0 && len(tr.Tasks) == 0 {
		err = &trace.InputError{File: strings.Join(res.Sources, ", "), Msg: fmt.Sprintf("nothing could be imported as %s (%d rows read, %d bad)", opt.Format, res.Rows, res.Bad.Total())}
	}
	if err != nil {
		lw.Abort()
		return res, err
	}
	if err := trace.WriteTrace(tracePath, tr, trace.WriteOptions{Unit: res.Unit}); err != nil {
		lw.Abort()
		return res, err
	}
	if err := lw.Close(); err != nil {
		return res, err
	}
	return res, nil
}
