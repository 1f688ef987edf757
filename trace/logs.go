package trace

import (
	"errors"
	"io"
	"iter"
	"math"
	"runtime"
	"slices"
	"strconv"
)

// The fields of an execution log record, as named in files (SPEC §4.1).
var logFields = []string{"task_type", "machine_type", "exec_time", "task_id", "machine_id", "start", "end"}

// LogReader streams the records of one execution log. It holds one record at
// a time, so a log of any length is read in constant memory.
type LogReader struct {
	r                           *reader
	taskType, machineType, exec binding
	taskID, machineID           binding
	start, end                  binding
	derived                     bool // exec_time = end - start
	knownTask, knownMachine     map[string]bool
}

// OpenLogs opens one execution log. Close it when done.
func OpenLogs(src Source, opt ReadOptions) (*LogReader, error) {
	t, c, err := openTable(src, opt.Format, opt.Inflate)
	if err != nil {
		return nil, err
	}
	lr, err := newLogReader(t, c, opt)
	if err != nil {
		t.close()
		c.Close()
		return nil, err
	}
	return lr, nil
}

// NewLogReader reads an execution log from r. The name is used for messages
// and, unless opt.Format is set, for the format.
func NewLogReader(name string, r io.Reader, opt ReadOptions) (*LogReader, error) {
	t, err := readerTable(name, r, opt.Format, opt.Inflate)
	if err != nil {
		return nil, err
	}
	lr, err := newLogReader(t, nil, opt)
	if err != nil {
		t.close()
		return nil, err
	}
	return lr, nil
}

func newLogReader(t table, c io.Closer, opt ReadOptions) (*LogReader, error) {
	if _, ok := t.(*datTable); ok {
		return nil, &InputError{File: t.name(), Msg: "an HCW19 .dat file is an arrival trace, not an execution log"}
	}
	r, err := newReader(t, c, opt, logFields)
	if err != nil {
		return nil, err
	}
	lr := &LogReader{r: r, knownTask: knownSet(opt.KnownTaskTypes), knownMachine: knownSet(opt.KnownMachineTypes)}
	if err := lr.bind(); err != nil {
		return nil, err
	}
	r.start()
	return lr, nil
}

func (lr *LogReader) bind() error {
	r := lr.r
	var err error
	if lr.taskType, err = r.bind("task_type", true); err != nil {
		return err
	}
	if lr.machineType, err = r.bind("machine_type", true); err != nil {
		return err
	}
	if lr.taskID, err = r.bind("task_id", false); err != nil {
		return err
	}
	if lr.machineID, err = r.bind("machine_id", false); err != nil {
		return err
	}
	if r.opt.SkipIDs {
		// Not read at all: on a columnar file, projecting a column of unique ids costs
		// decoding every page of it for nothing.
		r.unuse(lr.taskID.col)
		r.unuse(lr.machineID.col)
		lr.taskID.col, lr.machineID.col = -1, -1
	}
	if lr.start, err = r.bindTime("start", false); err != nil {
		return err
	}
	if lr.end, err = r.bindTime("end", false); err != nil {
		return err
	}
	if lr.exec, err = r.bindTime("exec_time", false); err != nil {
		return err
	}
	if !lr.exec.present() {
		if !lr.start.present() || !lr.end.present() {
			if !slices.Contains(r.missing, lr.exec.label) {
				r.missing = append(r.missing, lr.exec.label+" (or start and end)")
			}
			return r.missingErr()
		}
		lr.derived = true
		lr.exec.label = "end - start (exec_time)"
	}
	return r.missingErr()
}

// Unit returns the unit of the returned times.
func (lr *LogReader) Unit() Unit { return lr.r.opt.Unit.orDefault() }

// Derived reports whether exec_time is computed as end - start.
func (lr *LogReader) Derived() bool { return lr.derived }

// Next returns the next record, or io.EOF after the last. Any other error is
// final: the reader stops at the first bad record.
func (lr *LogReader) Next() (LogRecord, error) {
	if err := lr.r.advance(); err != nil {
		return LogRecord{}, err
	}
	rec, err := lr.record()
	if err != nil {
		lr.r.atEOF = true
	}
	return rec, err
}

func (lr *LogReader) record() (LogRecord, error) {
	if rec, ok := lr.quick(); ok {
		return rec, nil
	}
	return lr.check()
}

// quick reads the current record the way check does when every cell is plainly good: text
// present where required and a known type, numbers present where required and within the
// limit, a positive execution time. It reports false on anything else, for check to read the
// record again and say what is wrong. Without check's error building and bindings passed by
// value it is cheaper per record (issue 50: on the 10M-row Parquet bench log, 1.98 -> 1.17 CPU s
// for the whole read, on a loaded machine).
func (lr *LogReader) quick() (LogRecord, bool) {
	t := lr.r.t
	var rec LogRecord
	var ok bool
	if rec.TaskType, ok = quickText(t, &lr.taskType, true); !ok || !knownName(lr.knownTask, rec.TaskType) {
		return rec, false
	}
	if rec.MachineType, ok = quickText(t, &lr.machineType, true); !ok || !knownName(lr.knownMachine, rec.MachineType) {
		return rec, false
	}
	if rec.TaskID, ok = quickText(t, &lr.taskID, false); !ok {
		return rec, false
	}
	if rec.MachineID, ok = quickText(t, &lr.machineID, false); !ok {
		return rec, false
	}
	if rec.Start, ok = quickNumber(t, &lr.start, lr.derived); !ok {
		return rec, false
	}
	if rec.End, ok = quickNumber(t, &lr.end, lr.derived); !ok {
		return rec, false
	}
	if lr.derived {
		rec.ExecTime = rec.End - rec.Start
		return rec, rec.ExecTime > 0 && !math.IsInf(rec.ExecTime, 0)
	}
	rec.ExecTime, ok = quickNumber(t, &lr.exec, true)
	return rec, ok && rec.ExecTime > 0
}

// quickText is reader.text when it gives no error; false when it would.
func quickText(t table, b *binding, required bool) (string, bool) {
	if b.col < 0 {
		return "", true
	}
	s, st := t.text(b.col)
	return s, st == cellOK || (st == cellAbsent && !required)
}

// quickNumber is reader.number when it gives no error; false when it would.
func quickNumber(t table, b *binding, required bool) (float64, bool) {
	if b.col < 0 {
		return math.NaN(), true
	}
	v, st := t.number(b.col)
	switch st {
	case cellOK:
		return v * b.scale, !(b.limit > 0 && math.Abs(v*b.scale) > b.limit)
	case cellAbsent:
		return math.NaN(), !required
	}
	return 0, false
}

func knownName(known map[string]bool, name string) bool { return known == nil || known[name] }

// check reads the current record and says what is wrong with it, if anything.
func (lr *LogReader) check() (LogRecord, error) {
	r := lr.r
	var rec LogRecord
	var err error
	if rec.TaskType, err = r.text(lr.taskType, true); err != nil {
		return rec, err
	}
	if err = r.checkKnown(lr.taskType, rec.TaskType, lr.knownTask, "task type"); err != nil {
		return rec, err
	}
	if rec.MachineType, err = r.text(lr.machineType, true); err != nil {
		return rec, err
	}
	if err = r.checkKnown(lr.machineType, rec.MachineType, lr.knownMachine, "machine type"); err != nil {
		return rec, err
	}
	if rec.TaskID, err = r.text(lr.taskID, false); err != nil {
		return rec, err
	}
	if rec.MachineID, err = r.text(lr.machineID, false); err != nil {
		return rec, err
	}
	if rec.Start, err = r.number(lr.start, lr.derived); err != nil {
		return rec, err
	}
	if rec.End, err = r.number(lr.end, lr.derived); err != nil {
		return rec, err
	}
	if lr.derived {
		rec.ExecTime = rec.End - rec.Start
		if !(rec.ExecTime > 0) || math.IsInf(rec.ExecTime, 0) {
			e := r.errAt(lr.end, true, "gives end - start = "+strconv.FormatFloat(rec.ExecTime, 'g', -1, 64)+": the execution time must be positive")
			e.Column = lr.exec.label
			return rec, e
		}
		return rec, nil
	}
	if rec.ExecTime, err = r.number(lr.exec, true); err != nil {
		return rec, err
	}
	if !(rec.ExecTime > 0) {
		return rec, r.errAt(lr.exec, true, "is not a positive execution time")
	}
	return rec, nil
}

// All iterates over the remaining records. Iteration stops after the first
// error, which is yielded with a zero record; io.EOF is not yielded.
func (lr *LogReader) All() iter.Seq2[LogRecord, error] {
	return func(yield func(LogRecord, error) bool) {
		for {
			rec, err := lr.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if !yield(rec, err) || err != nil {
				return
			}
		}
	}
}

// Close releases the file.
func (lr *LogReader) Close() error { return lr.r.close() }

// EachLog streams every record of every source the spec expands to (see
// Expand), in order, to fn. It stops at the first error, from a reader or
// from fn.
func EachLog(spec string, opt ReadOptions, fn func(LogRecord) error) error {
	srcs, err := Expand(spec)
	if err != nil {
		return err
	}
	for _, src := range srcs {
		if err := eachLogOf(src, opt, fn); err != nil {
			return err
		}
	}
	return nil
}

func eachLogOf(src Source, opt ReadOptions, fn func(LogRecord) error) error {
	lr, err := OpenLogs(src, opt)
	if err != nil {
		return err
	}
	defer lr.Close()
	return lr.each(fn, runtime.GOMAXPROCS(0))
}

// ReadLogs reads every record of every source the spec expands to into
// memory. Use EachLog or OpenLogs for logs that do not fit.
func ReadLogs(spec string, opt ReadOptions) ([]LogRecord, error) {
	var out []LogRecord
	err := EachLog(spec, opt, func(rec LogRecord) error {
		out = append(out, rec)
		return nil
	})
	return out, err
}
