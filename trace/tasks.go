package trace

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
)

// execPrefix starts the columns of observed durations in arrival traces:
// exec_<machine_type>.
const execPrefix = "exec_"

var taskFields = []string{"task_type", "arrival", "deadline", "task_id", "job_id"}

// TaskReader streams the tasks of one arrival trace in file order. It does
// not reorder: with Strict it fails at the first arrival earlier than its
// predecessor; otherwise it passes such tasks through and counts them, and
// ReadTrace sorts them and warns.
type TaskReader struct {
	r                   *reader
	taskType, arrival   binding
	deadline, id, jobID binding
	exec                []binding
	execTypes           []string
	knownTask           map[string]bool
	typeIndex           []string // ReadOptions.TypeIndex, for a .dat file; nil otherwise
	prevArrival         float64
	outOfOrder          int
	firstOutOfOrder     *InputError
	lastLine            int
	lastRow             int64
}

// OpenTasks opens one arrival trace. Close it when done.
func OpenTasks(src Source, opt ReadOptions) (*TaskReader, error) {
	t, c, err := openTable(src, opt.Format, opt.Inflate)
	if err != nil {
		return nil, err
	}
	tr, err := newTaskReader(t, c, opt)
	if err != nil {
		t.close()
		c.Close()
		return nil, err
	}
	return tr, nil
}

// NewTaskReader reads an arrival trace from r. The name is used for messages
// and, unless opt.Format is set, for the format.
func NewTaskReader(name string, r io.Reader, opt ReadOptions) (*TaskReader, error) {
	t, err := readerTable(name, r, opt.Format, opt.Inflate)
	if err != nil {
		return nil, err
	}
	tr, err := newTaskReader(t, nil, opt)
	if err != nil {
		t.close()
		return nil, err
	}
	return tr, nil
}

func newTaskReader(t table, c io.Closer, opt ReadOptions) (*TaskReader, error) {
	r, err := newReader(t, c, opt, taskFields)
	if err != nil {
		return nil, err
	}
	tr := &TaskReader{r: r, knownTask: knownSet(opt.KnownTaskTypes), prevArrival: math.Inf(-1)}
	if _, dat := t.(*datTable); dat {
		tr.typeIndex = opt.TypeIndex
	}
	if err := tr.bind(); err != nil {
		return nil, err
	}
	r.start()
	return tr, nil
}

func (tr *TaskReader) bind() error {
	r := tr.r
	var err error
	if tr.taskType, err = r.bind("task_type", true); err != nil {
		return err
	}
	if tr.arrival, err = r.bindTime("arrival", true); err != nil {
		return err
	}
	if tr.deadline, err = r.bindTime("deadline", false); err != nil {
		return err
	}
	if tr.id, err = r.bind("task_id", false); err != nil {
		return err
	}
	if tr.jobID, err = r.bind("job_id", false); err != nil {
		return err
	}
	if err := tr.bindExec(); err != nil {
		return err
	}
	return r.missingErr()
}

// bindExec finds the exec_<machine_type> columns: those the mapping names
// and those the file has under the standard prefix.
func (tr *TaskReader) bindExec() error {
	r := tr.r
	known := knownSet(r.opt.KnownMachineTypes)
	var fields []string
	for k := range r.mapping {
		if strings.HasPrefix(k, execPrefix) {
			fields = append(fields, k)
		}
	}
	mappedCols := map[string]bool{}
	for _, v := range r.mapping {
		mappedCols[v] = true
	}
	for _, c := range r.t.columns() {
		if strings.HasPrefix(c, execPrefix) && !mappedCols[c] && !slices.Contains(fields, c) {
			fields = append(fields, c)
		}
	}
	cols := r.t.columns()
	slices.SortStableFunc(fields, func(a, b string) int { // file order
		return slices.Index(cols, mapped(r.mapping, a)) - slices.Index(cols, mapped(r.mapping, b))
	})
	for _, f := range fields {
		mt := strings.TrimPrefix(f, execPrefix)
		if mt == "" {
			return r.headerErr(f, "an exec_ column must name a machine type (exec_<machine_type>)")
		}
		b, err := r.bindTime(f, true)
		if err != nil {
			return err
		}
		if known != nil && !known[mt] {
			return r.headerErr(b.label, fmt.Sprintf("machine type %q is not a machine type of the PET (known: %s)",
				mt, clip(strings.Join(sortedKeys(known), ", "), 200)))
		}
		tr.exec = append(tr.exec, b)
		tr.execTypes = append(tr.execTypes, mt)
	}
	return nil
}

func mapped(m map[string]string, field string) string {
	if v, ok := m[field]; ok {
		return v
	}
	return field
}

// ExecTypes returns the machine types of the exec_<machine_type> columns, in
// the order of Task.Exec.
func (tr *TaskReader) ExecTypes() []string { return tr.execTypes }

// Unit returns the unit of the returned times.
func (tr *TaskReader) Unit() Unit { return tr.r.opt.Unit.orDefault() }

// Next returns the next task in file order, or io.EOF after the last. Any
// other error is final.
func (tr *TaskReader) Next() (Task, error) {
	if err := tr.r.advance(); err != nil {
		return Task{}, err
	}
	t, err := tr.task()
	if err != nil {
		tr.r.atEOF = true
	}
	return t, err
}

func (tr *TaskReader) task() (Task, error) {
	r := tr.r
	t := Task{ID: r.n - 1}
	var err error
	if t.Type, err = r.text(tr.taskType, true); err != nil {
		return t, err
	}
	if tr.typeIndex != nil {
		k, _ := strconv.Atoi(t.Type) // the .dat reader passes only integer indexes
		if k >= len(tr.typeIndex) {
			return t, r.errAt(tr.taskType, true, fmt.Sprintf("is not a task type index of the PET, which has %d task types (0 to %d)",
				len(tr.typeIndex), len(tr.typeIndex)-1))
		}
		t.Type = tr.typeIndex[k]
	}
	if err = r.checkKnown(tr.taskType, t.Type, tr.knownTask, "task type"); err != nil {
		return t, err
	}
	if t.Arrival, err = r.number(tr.arrival, true); err != nil {
		return t, err
	}
	if t.Deadline, err = r.number(tr.deadline, false); err != nil {
		return t, err
	}
	if t.Deadline < t.Arrival { // false for NaN
		return t, r.errAt(tr.deadline, true, "is before the arrival "+formatFloat(t.Arrival/tr.arrival.scale))
	}
	if tr.id.present() {
		if t.ID, err = tr.taskID(); err != nil {
			return t, err
		}
	}
	if t.JobID, err = r.text(tr.jobID, false); err != nil {
		return t, err
	}
	if len(tr.exec) > 0 {
		t.Exec = make([]float64, len(tr.exec))
		for i, b := range tr.exec {
			v, err := r.number(b, false)
			if err != nil {
				return t, err
			}
			if v <= 0 { // NaN (empty cell) is allowed: the replay samples
				return t, r.errAt(b, true, "is not a positive execution time")
			}
			t.Exec[i] = v
		}
	}
	return t, tr.checkOrder(t)
}

// taskID reads task_id as an integer; integral floats ("17.0") are accepted.
func (tr *TaskReader) taskID() (int64, error) {
	r := tr.r
	s, st := r.t.text(tr.id.col)
	if st == cellOK {
		if id, err := strconv.ParseInt(s, 10, 64); err == nil {
			return id, nil
		}
	}
	v, st := r.t.number(tr.id.col)
	if st == cellOK && v == math.Trunc(v) && math.Abs(v) < 1<<53 {
		return int64(v), nil
	}
	if st == cellAbsent {
		return 0, r.errAt(tr.id, false, "missing value (a task_id column must be filled in every row)")
	}
	return 0, r.errAt(tr.id, true, "is not an integer task id")
}

func (tr *TaskReader) checkOrder(t Task) error {
	line, row := tr.r.t.where()
	if t.Arrival < tr.prevArrival {
		e := tr.r.errAt(tr.arrival, true, "is earlier than the previous arrival "+
			formatFloat(tr.prevArrival/tr.arrival.scale)+" (arrivals out of order)")
		if tr.r.opt.Strict {
			return e
		}
		tr.outOfOrder++
		if tr.firstOutOfOrder == nil {
			tr.firstOutOfOrder = e
		}
	}
	tr.prevArrival = t.Arrival
	tr.lastLine, tr.lastRow = line, row
	return nil
}

// Position returns the line (text formats) or row (Parquet) of the task
// Next returned last.
func (tr *TaskReader) Position() (line int, row int64) { return tr.lastLine, tr.lastRow }

// OutOfOrder returns how many tasks arrived earlier than their predecessor in
// file order, and the error describing the first of them (nil if none).
func (tr *TaskReader) OutOfOrder() (int, *InputError) { return tr.outOfOrder, tr.firstOutOfOrder }

// All iterates over the remaining tasks; see LogReader.All.
func (tr *TaskReader) All() iter.Seq2[Task, error] {
	return func(yield func(Task, error) bool) {
		for {
			t, err := tr.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if !yield(t, err) || err != nil {
				return
			}
		}
	}
}

// Close releases the file.
func (tr *TaskReader) Close() error { return tr.r.close() }

// ReadTrace reads a whole arrival trace. It checks that task ids are unique,
// and sorts tasks by arrival (stably, so ties keep file order) when the file
// is not sorted: with a warning through opt.Warn, or as an error with
// opt.Strict.
func ReadTrace(src Source, opt ReadOptions) (*Trace, error) {
	return readTrace(src, opt, nil)
}

// readTrace is ReadTrace with the tasks in into's storage when it is large enough (its length
// is ignored).
func readTrace(src Source, opt ReadOptions, into []Task) (*Trace, error) {
	tr, err := OpenTasks(src, opt)
	if err != nil {
		return nil, err
	}
	defer tr.Close()
	return collect(src.Name, tr, opt, into)
}

// ReadTraceFrom is ReadTrace on an io.Reader.
func ReadTraceFrom(name string, r io.Reader, opt ReadOptions) (*Trace, error) {
	tr, err := NewTaskReader(name, r, opt)
	if err != nil {
		return nil, err
	}
	defer tr.Close()
	return collect(name, tr, opt, nil)
}

// declarer is a table that knows how many records its file declares: a .dat file's taskCount.
type declarer interface{ declaredRows() int }

// presizeLimit is the most tasks collect allocates for on a file's word (declarer), so that a
// header that claims a billion tasks costs no more than this before the records bear it out.
const presizeLimit = 1 << 12

func collect(name string, tr *TaskReader, opt ReadOptions, into []Task) (*Trace, error) {
	out := &Trace{Name: name, Unit: tr.Unit(), ExecTypes: tr.ExecTypes()}
	n := 0
	if d, ok := tr.r.t.(declarer); ok {
		n = min(max(d.declaredRows(), 0), presizeLimit)
	}
	// Grown one append at a time, the tasks and the set of their ids took a third of collect's
	// time on an HCW19 trial of 800 tasks (perf, 30 trials from the zip).
	out.Tasks = into[:0]
	if into == nil || cap(into) < n {
		out.Tasks = make([]Task, 0, n)
	}
	// The ids seen, kept from the first that is not above all before it: while they rise, as a
	// generator writes them, none can repeat, and the set was a seventh of what reading a trial
	// allocated (BenchmarkReadTracesZip).
	var seen map[int64]bool
	for {
		t, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if k := len(out.Tasks); seen == nil && k > 0 && t.ID <= out.Tasks[k-1].ID {
			seen = make(map[int64]bool, max(n, k))
			for _, u := range out.Tasks {
				seen[u.ID] = true
			}
		}
		if seen != nil {
			if seen[t.ID] {
				return nil, tr.r.errAt(tr.id, true, "is a duplicate task id")
			}
			seen[t.ID] = true
		}
		out.Tasks = append(out.Tasks, t)
	}
	if n, first := tr.OutOfOrder(); n > 0 {
		first.Msg += fmt.Sprintf("; %d of %d tasks were out of order and were sorted stably by arrival", n, len(out.Tasks))
		opt.Warn.warn(first)
		slices.SortStableFunc(out.Tasks, func(a, b Task) int { return cmpFloat(a.Arrival, b.Arrival) })
	}
	return out, nil
}

// ReadTraces reads every source the spec expands to (for example all trials
// of a level: "constant.zip#arr/arr19k_*.dat"), one Trace each, in natural
// order.
func ReadTraces(spec string, opt ReadOptions) ([]*Trace, error) {
	srcs, err := Expand(spec)
	if err != nil {
		return nil, err
	}
	out := make([]*Trace, 0, len(srcs))
	for _, src := range srcs {
		t, err := ReadTrace(src, opt)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
