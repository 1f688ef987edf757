package trace

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/zstd"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
)

// WriteOptions controls how logs and traces are written.
//
// Every file records its time unit: CSV and JSON Lines files start with the
// comment line "# time_unit=ms" (the readers here skip it and honour it;
// pandas reads such CSV with comment="#"), Parquet files carry the key-value
// metadata entry time_unit=ms. The HCW19 .dat layout has no place for it and
// is the one exception; it is read in ReadOptions.FileUnit.
//
// Files are written to a temporary file in the target directory and renamed
// into place on success, so a failed or interrupted write never leaves a
// half-written file under the target name. A ".gz" or ".zst" suffix on a text
// format compresses the output.
type WriteOptions struct {
	// Format overrides the format the file name implies.
	Format Format
	// Unit is the unit the values are in, recorded in the file. Empty means
	// the trace's own unit for WriteTrace, and ms for logs.
	Unit Unit
	// TypeIndex lists task type names in index order, for .dat output, whose
	// task types are integer indexes. When nil, type names must already be
	// indexes ("0", "1", ...).
	TypeIndex []string
	// RowGroupRows bounds the rows per Parquet row group (the writer holds a
	// row group in memory). Zero means 65536.
	RowGroupRows int64
}

const defaultRowGroupRows = 1 << 16

// column describes one output column.
type column struct {
	name     string
	kind     cellKind
	optional bool
	dict     bool // dictionary-encode (names that repeat)
}

type cellKind uint8

const (
	textCell cellKind = iota
	numberCell
	intCell
)

// cell is one output value; a null cell is written as empty / absent / null.
type cell struct {
	s    string
	f    float64
	i    int64
	null bool
}

// rowWriter writes rows of cells in one format.
type rowWriter interface {
	header(cols []column, unit Unit) error
	row(cells []cell) error
	finish() error
}

// output is a file being written: the temporary file, an optional
// compressor and the format's row writer.
type output struct {
	path   string
	tmp    *atomicfile.File
	buf    *bufio.Writer
	comp   io.WriteCloser // nil when not compressed
	w      io.Writer      // where the format writes: comp, or buf
	rw     rowWriter
	failed bool
}

// createOutput opens the temporary file for path, with the compression its
// name asks for, and returns it with the format to write.
func createOutput(path string, opt WriteOptions) (*output, Format, error) {
	f, comp, err := splitExt(path)
	if opt.Format != "" {
		f, err = ParseFormat(string(opt.Format))
	}
	if err == nil && f == Parquet && comp != noCompression {
		err = fmt.Errorf("a Parquet file compresses internally; do not name it .%s", comp)
	}
	if err != nil {
		return nil, "", fmt.Errorf("write %s: %w", path, err)
	}
	tmp, err := atomicfile.Create(path)
	if err != nil {
		return nil, "", err
	}
	o := &output{path: path, tmp: tmp, rw: nopRowWriter{}}
	o.buf = bufio.NewWriterSize(tmp, 256<<10)
	o.w = o.buf
	switch comp {
	case gzipped:
		o.comp = gzip.NewWriter(o.buf)
		o.w = o.comp
	case zstded:
		zw, err := zstd.NewWriter(o.buf)
		if err != nil {
			o.abort()
			return nil, "", fmt.Errorf("write %s: %w", path, err)
		}
		o.comp, o.w = zw, zw
	}
	return o, f, nil
}

// createRowOutput is createOutput with the row writer of a tabular format.
func createRowOutput(path string, opt WriteOptions) (*output, error) {
	o, f, err := createOutput(path, opt)
	if err != nil {
		return nil, err
	}
	switch f {
	case CSV:
		o.rw = newCSVWriter(o.w)
	case JSONL:
		o.rw = newJSONLWriter(o.w)
	case Parquet:
		rows := opt.RowGroupRows
		if rows <= 0 {
			rows = defaultRowGroupRows
		}
		o.rw = &parquetWriter{w: o.w, rowGroupRows: rows}
	default:
		o.abort()
		return nil, fmt.Errorf("write %s: the %s format cannot hold this data", path, f)
	}
	return o, nil
}

// commit flushes everything and renames the temporary file into place.
func (o *output) commit() error {
	if o.failed {
		o.abort()
		return fmt.Errorf("write %s: an earlier write failed", o.path)
	}
	err := o.rw.finish()
	if err == nil && o.comp != nil {
		err = o.comp.Close()
	}
	if err == nil {
		err = o.buf.Flush()
	}
	if err != nil {
		o.tmp.Abort()
		return fmt.Errorf("write %s: %w", o.path, err)
	}
	return o.tmp.Commit()
}

// abort removes the temporary file.
func (o *output) abort() {
	o.failed = true
	if o.tmp != nil {
		o.tmp.Abort()
		o.tmp = nil
	}
}

func (o *output) fail(err error) error {
	o.failed = true
	return fmt.Errorf("write %s: %w", o.path, err)
}

// LogWriter writes an execution log record by record. The optional columns
// (task_id, machine_id, start, end) are those the first record has, unless
// WriteLogs chose them from all records; a later record with a value in a
// column that was left out is an error rather than silently dropped.
type LogWriter struct {
	out     *output
	unit    Unit
	cols    []column
	cells   []cell
	started bool
	has     logOptional
}

type logOptional struct{ taskID, machineID, start, end bool }

func (h *logOptional) add(r LogRecord) {
	h.taskID = h.taskID || r.TaskID != ""
	h.machineID = h.machineID || r.MachineID != ""
	h.start = h.start || !math.IsNaN(r.Start)
	h.end = h.end || !math.IsNaN(r.End)
}

// CreateLogs starts writing an execution log at path. Call Close to commit
// it, or Abort to discard it.
func CreateLogs(path string, opt WriteOptions) (*LogWriter, error) {
	if opt.Unit != "" && !opt.Unit.Valid() {
		return nil, fmt.Errorf("write %s: invalid unit %q", path, opt.Unit)
	}
	out, err := createRowOutput(path, opt)
	if err != nil {
		return nil, err
	}
	return &LogWriter{out: out, unit: opt.Unit.orDefault()}, nil
}

func (w *LogWriter) begin() error {
	w.started = true
	w.cols = w.cols[:0]
	if w.has.taskID {
		w.cols = append(w.cols, column{name: "task_id", kind: textCell})
	}
	w.cols = append(w.cols, column{name: "task_type", kind: textCell, dict: true},
		column{name: "machine_type", kind: textCell, dict: true})
	if w.has.machineID {
		w.cols = append(w.cols, column{name: "machine_id", kind: textCell, optional: true, dict: true})
	}
	w.cols = append(w.cols, column{name: "exec_time", kind: numberCell})
	if w.has.start {
		w.cols = append(w.cols, column{name: "start", kind: numberCell, optional: true})
	}
	if w.has.end {
		w.cols = append(w.cols, column{name: "end", kind: numberCell, optional: true})
	}
	w.cells = make([]cell, len(w.cols))
	if err := w.out.rw.header(w.cols, w.unit); err != nil {
		return w.out.fail(err)
	}
	return nil
}

// KeepOptionalColumns writes every optional column (task_id, machine_id,
// start, end), whatever the first record has, so that a log whose first
// records lack a start still records the others'. Call it before Write.
func (w *LogWriter) KeepOptionalColumns() {
	w.has = logOptional{taskID: true, machineID: true, start: true, end: true}
}

// Write appends one record.
func (w *LogWriter) Write(r LogRecord) error {
	if w.out.failed {
		return fmt.Errorf("write %s: an earlier write failed", w.out.path)
	}
	if r.TaskType == "" || r.MachineType == "" || !(r.ExecTime > 0) || math.IsInf(r.ExecTime, 0) {
		return w.out.fail(fmt.Errorf("invalid log record %+v: needs task and machine types and a positive finite exec_time", r))
	}
	if !w.started {
		if !w.has.taskID && !w.has.machineID && !w.has.start && !w.has.end {
			w.has.add(r)
		}
		if err := w.begin(); err != nil {
			return err
		}
	}
	var extra logOptional
	extra.add(r)
	if (extra.taskID && !w.has.taskID) || (extra.machineID && !w.has.machineID) ||
		(extra.start && !w.has.start) || (extra.end && !w.has.end) {
		return w.out.fail(errors.New("a record has an optional field (task_id, machine_id, start or end) that the first record lacked; the columns are fixed by the first record (WriteLogs chooses them from all records)"))
	}
	c := w.cells[:0]
	if w.has.taskID {
		c = append(c, cell{s: r.TaskID, null: r.TaskID == ""})
	}
	c = append(c, cell{s: r.TaskType}, cell{s: r.MachineType})
	if w.has.machineID {
		c = append(c, cell{s: r.MachineID, null: r.MachineID == ""})
	}
	c = append(c, cell{f: r.ExecTime})
	if w.has.start {
		c = append(c, cell{f: r.Start, null: math.IsNaN(r.Start)})
	}
	if w.has.end {
		c = append(c, cell{f: r.End, null: math.IsNaN(r.End)})
	}
	if err := w.out.rw.row(c); err != nil {
		return w.out.fail(err)
	}
	return nil
}

// Close finishes the file and moves it into place.
func (w *LogWriter) Close() error {
	if !w.started && !w.out.failed {
		if err := w.begin(); err != nil {
			return err
		}
	}
	return w.out.commit()
}

// Abort discards the file.
func (w *LogWriter) Abort() { w.out.abort() }

// WriteLogs writes a whole execution log, with the optional columns that any
// record uses.
func WriteLogs(path string, recs []LogRecord, opt WriteOptions) error {
	w, err := CreateLogs(path, opt)
	if err != nil {
		return err
	}
	for _, r := range recs {
		w.has.add(r)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Close()
}

// WriteTrace writes an arrival trace. CSV, JSON Lines and Parquet hold every
// field: task_id, job_id (when any task has one), task_type, arrival,
// deadline (when any task has one) and exec_<machine_type>. The HCW19 .dat
// layout holds arrival, type index and deadline only: every task needs a
// deadline, and task ids and observed durations are not kept (a reader
// numbers the tasks 0, 1, ... again).
func WriteTrace(path string, tr *Trace, opt WriteOptions) error {
	if opt.Unit == "" {
		opt.Unit = tr.Unit.orDefault()
	}
	if !opt.Unit.Valid() {
		return fmt.Errorf("write %s: invalid unit %q", path, opt.Unit)
	}
	if err := checkTrace(tr); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	f, err := formatOf(path, opt.Format)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if f == Dat {
		return writeDat(path, tr, opt)
	}
	out, err := createRowOutput(path, opt)
	if err != nil {
		return err
	}
	if err := writeTaskRows(out.rw, tr, opt.Unit); err != nil {
		out.abort()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return out.commit()
}

// Check reports the first reason WriteTrace would refuse the trace: a task
// without a type, an arrival that is not finite, a deadline before its
// arrival, exec types that are empty or repeated or that a task's observed
// durations do not match.
func (tr *Trace) Check() error { return checkTrace(tr) }

func checkTrace(tr *Trace) error {
	seen := map[string]bool{}
	for _, m := range tr.ExecTypes {
		if m == "" || seen[m] {
			return fmt.Errorf("exec types %q: names must be non-empty and distinct", tr.ExecTypes)
		}
		seen[m] = true
	}
	for i, t := range tr.Tasks {
		switch {
		case t.Type == "":
			return fmt.Errorf("task %d (id %d) has no type", i, t.ID)
		case math.IsNaN(t.Arrival) || math.IsInf(t.Arrival, 0):
			return fmt.Errorf("task %d (id %d) has arrival %v", i, t.ID, t.Arrival)
		case math.IsInf(t.Deadline, 0) || t.Deadline < t.Arrival:
			return fmt.Errorf("task %d (id %d) has deadline %v before its arrival %v", i, t.ID, t.Deadline, t.Arrival)
		case t.Exec != nil && len(t.Exec) != len(tr.ExecTypes):
			return fmt.Errorf("task %d (id %d) has %d exec values for %d exec types", i, t.ID, len(t.Exec), len(tr.ExecTypes))
		}
	}
	return nil
}

func writeTaskRows(rw rowWriter, tr *Trace, unit Unit) error {
	hasJob, hasDeadline := false, false
	for _, t := range tr.Tasks {
		hasJob = hasJob || t.JobID != ""
		hasDeadline = hasDeadline || t.HasDeadline()
	}
	cols := []column{{name: "task_id", kind: intCell}}
	if hasJob {
		cols = append(cols, column{name: "job_id", kind: textCell, optional: true})
	}
	cols = append(cols, column{name: "task_type", kind: textCell, dict: true}, column{name: "arrival", kind: numberCell})
	if hasDeadline {
		cols = append(cols, column{name: "deadline", kind: numberCell, optional: true})
	}
	for _, m := range tr.ExecTypes {
		cols = append(cols, column{name: execPrefix + m, kind: numberCell, optional: true})
	}
	if err := rw.header(cols, unit); err != nil {
		return err
	}
	cells := make([]cell, 0, len(cols))
	for _, t := range tr.Tasks {
		c := append(cells[:0], cell{i: t.ID})
		if hasJob {
			c = append(c, cell{s: t.JobID, null: t.JobID == ""})
		}
		c = append(c, cell{s: t.Type}, cell{f: t.Arrival})
		if hasDeadline {
			c = append(c, cell{f: t.Deadline, null: !t.HasDeadline()})
		}
		for i := range tr.ExecTypes {
			v := math.NaN()
			if t.Exec != nil {
				v = t.Exec[i]
			}
			c = append(c, cell{f: v, null: math.IsNaN(v)})
		}
		if err := rw.row(c); err != nil {
			return err
		}
	}
	return nil
}

// writeDat writes the HCW19 layout. It checks every task first, so that a
// bad one leaves no file, then streams the lines: a trial of MaxGenTasks
// tasks would take half a gigabyte as one buffer.
func writeDat(path string, tr *Trace, opt WriteOptions) error {
	index := map[string]int{}
	for i, n := range opt.TypeIndex {
		index[n] = i
	}
	for _, t := range tr.Tasks {
		if err := checkDatTask(t, index, opt.TypeIndex != nil); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	o, _, err := createOutput(path, WriteOptions{Format: Dat})
	if err != nil {
		return err
	}
	b := fmt.Appendf(nil, "taskCount=%d;\n", len(tr.Tasks))
	for _, t := range tr.Tasks {
		b = strconv.AppendFloat(b, t.Arrival, 'f', -1, 64)
		b = append(b, ' ')
		if opt.TypeIndex != nil {
			b = strconv.AppendInt(b, int64(index[t.Type]), 10)
		} else {
			b = append(b, t.Type...)
		}
		b = append(b, ' ')
		b = strconv.AppendFloat(b, t.Deadline, 'f', -1, 64)
		b = append(b, ";\n"...)
		if _, err := o.w.Write(b); err != nil {
			o.abort()
			return fmt.Errorf("write %s: %w", path, err)
		}
		b = b[:0]
	}
	if _, err := o.w.Write(b); err != nil { // a trace without tasks: the header
		o.abort()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return o.commit()
}

// checkDatTask tells why a task cannot be a line of the .dat layout.
func checkDatTask(t Task, index map[string]int, indexed bool) error {
	if !t.HasDeadline() {
		return fmt.Errorf("task %d has no deadline, which the .dat layout requires (synthesize deadlines first)", t.ID)
	}
	if _, ok := index[t.Type]; indexed && !ok {
		return fmt.Errorf("task type %q is not in the type index", t.Type)
	}
	if !indexed && !isIndex(t.Type) {
		return fmt.Errorf("task type %q is not an integer index; give WriteOptions.TypeIndex", t.Type)
	}
	return nil
}

// nopRowWriter stands in when the caller writes the bytes itself.
type nopRowWriter struct{}

func (nopRowWriter) header([]column, Unit) error { return nil }
func (nopRowWriter) row([]cell) error            { return nil }
func (nopRowWriter) finish() error               { return nil }
