package trace

import (
	"math"
	"slices"

	"github.com/hcreplay/hcreplay/internal/natural"
)

// LogRecord is one observed execution from an execution-time log (SPEC §4.1):
// a task of TaskType ran on a machine of MachineType for ExecTime time units.
type LogRecord struct {
	TaskType    string
	MachineType string
	ExecTime    float64 // > 0, in the reader's output unit
	TaskID      string  // "" when the file has no task_id
	MachineID   string  // "" when the file has no machine_id
	Start       float64 // NaN when the file has no start
	End         float64 // NaN when the file has no end
}

// Task is one arriving task of an arrival trace (SPEC §4.2).
type Task struct {
	// ID is the task_id column (an integer) when the file has one, and the
	// 0-based record index otherwise. The replay derives a task's random
	// durations from it, so it must be unique within a trace.
	ID       int64
	Type     string
	Arrival  float64
	Deadline float64 // NaN when the trace has no deadline for this task
	JobID    string  // "" when the file has no job_id (only the speculative mode uses it)
	// Exec holds observed durations, one per entry of Trace.ExecTypes (the
	// file's exec_<machine_type> columns), NaN where a cell is empty. It is nil
	// when the file has no such columns.
	Exec []float64
}

// HasDeadline reports whether the task carries a deadline.
func (t Task) HasDeadline() bool { return !math.IsNaN(t.Deadline) }

// Trace is a whole arrival trace in memory, sorted by arrival (stable, so
// simultaneous arrivals keep their file order).
type Trace struct {
	Name      string   // the source it came from, for messages
	Unit      Unit     // the unit of every time value in Tasks
	ExecTypes []string // machine types of the Task.Exec columns, in file order
	Tasks     []Task
}

// Types returns the distinct task types of the trace in natural order
// ("2" before "10").
func (tr *Trace) Types() []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range tr.Tasks {
		if !seen[t.Type] {
			seen[t.Type] = true
			out = append(out, t.Type)
		}
	}
	slices.SortFunc(out, natural.Compare)
	return out
}

// HasDeadlines reports whether every task has a deadline.
func (tr *Trace) HasDeadlines() bool {
	for _, t := range tr.Tasks {
		if !t.HasDeadline() {
			return false
		}
	}
	return true
}
