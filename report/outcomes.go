package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"
	"sync"

	"github.com/parquet-go/parquet-go"

	"github.com/hcreplay/hcreplay/replay"
)

// TaskRow is one task outcome as written to tasks.parquet and tasks.csv. Times are in the
// trace's unit; values that do not apply (never mapped, never started, no prediction) are NaN
// here, NULL in Parquet and an empty field in CSV.
type TaskRow struct {
	TaskID    int64   `parquet:"task_id"`
	TaskType  string  `parquet:"task_type,dict"`
	Arrival   float64 `parquet:"arrival"`
	Deadline  float64 `parquet:"deadline"`
	Status    string  `parquet:"status,dict"`
	Machine   string  `parquet:"machine,dict"`
	MapTime   float64 `parquet:"map_time"`
	Start     float64 `parquet:"start"`
	End       float64 `parquet:"end"`
	Predicted float64 `parquet:"predicted_success"`
	Deferred  int32   `parquet:"deferred"`
	Scored    bool    `parquet:"scored"`
}

// TaskRowOf converts an outcome; typeNames and machines name the indices it holds.
func TaskRowOf(o replay.Outcome, typeNames []string, machines []replay.Machine) TaskRow {
	row := TaskRow{
		TaskID: o.Task.ID, Arrival: o.Task.Arrival, Deadline: o.Task.Deadline,
		Status: o.Status.String(), MapTime: o.MapTime, Start: o.Start, End: o.End,
		Predicted: o.Predicted, Deferred: int32(o.Deferred), Scored: o.Scored,
	}
	if o.Task.Type < len(typeNames) {
		row.TaskType = typeNames[o.Task.Type]
	}
	if o.Machine >= 0 && o.Machine < len(machines) {
		row.Machine = machines[o.Machine].Name
	}
	return row
}

// TaskWriter streams task rows to Parquet and, optionally, CSV.
type TaskWriter struct {
	pq  *nullableWriter[TaskRow]
	csv *csv.Writer
	buf []TaskRow
}

// tasksSchema is tasks.parquet's: TaskRow's columns, its times and chances optional. It is
// built at first use: built at start-up, this schema and runsSchema took a millisecond and 1,100
// allocations of every command (GODEBUG=inittrace=1).
var tasksSchema = sync.OnceValue(newNullable[TaskRow])

// NewTaskWriter writes Parquet to pq and, when csvOut is not nil, CSV to csvOut; both record
// meta (Parquet in its key-value metadata, CSV in a first comment line).
func NewTaskWriter(pq io.Writer, csvOut io.Writer, meta FileMeta) (*TaskWriter, error) {
	w := &TaskWriter{pq: tasksSchema().writer(pq, append(meta.options(), parquet.MaxRowsPerRowGroup(64*1024))...)}
	if csvOut != nil {
		w.csv = csv.NewWriter(csvOut)
		if _, err := io.WriteString(csvOut, meta.CSVComment()); err != nil {
			return nil, err
		}
		if err := w.csv.Write([]string{"task_id", "task_type", "arrival", "deadline", "status", "machine",
			"map_time", "start", "end", "predicted_success", "deferred", "scored"}); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// Write adds one row.
func (w *TaskWriter) Write(row TaskRow) error {
	w.buf = append(w.buf, row)
	if len(w.buf) >= 4096 {
		if err := w.flushRows(); err != nil {
			return err
		}
	}
	if w.csv != nil {
		return w.csv.Write([]string{strconv.FormatInt(row.TaskID, 10), row.TaskType, num(row.Arrival), num(row.Deadline),
			row.Status, row.Machine, num(row.MapTime), num(row.Start), num(row.End), num(row.Predicted),
			strconv.Itoa(int(row.Deferred)), strconv.FormatBool(row.Scored)})
	}
	return nil
}

func (w *TaskWriter) flushRows() error {
	if _, err := w.pq.Write(w.buf); err != nil {
		return fmt.Errorf("write task rows: %w", err)
	}
	w.buf = w.buf[:0]
	return nil
}

// ReadTasks reads a tasks.parquet written by TaskWriter, a NULL as NaN.
func ReadTasks(r io.ReaderAt, size int64) ([]TaskRow, error) {
	pf, err := parquet.OpenFile(r, size)
	if err != nil {
		return nil, err
	}
	return tasksSchema().read(pf)
}

// Close flushes everything; the Parquet footer is written here.
func (w *TaskWriter) Close() error {
	if err := w.flushRows(); err != nil {
		return err
	}
	if err := w.pq.Close(); err != nil {
		return err
	}
	if w.csv != nil {
		w.csv.Flush()
		return w.csv.Error()
	}
	return nil
}

func num(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}
