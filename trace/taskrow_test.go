package trace

import (
	"slices"
	"strings"
	"testing"
)

// TestTaskRows reads task rows whose every detail was worked out by hand: ids written as big
// integers and as integral floats, errors that quote a time as the file wrote it (in seconds,
// read into ms), a .dat type index past the PET's, and tasks without exec columns.
func TestTaskRows(t *testing.T) {
	seconds := ReadOptions{FileUnit: Second, Unit: Millisecond}
	for _, c := range []struct {
		name, file, text string
		opt              ReadOptions
		ids              []int64 // the tasks' ids, when the file reads
		err              string  // else the end of the error
	}{
		// 2^53 + 1 is no float64: it is read as an integer, exactly.
		{"big id", "a.csv", "task_id,task_type,arrival,deadline\n9007199254740993,x,0,5\n", ReadOptions{}, []int64{9007199254740993}, ""},
		{"integral float ids", "a.csv", "task_id,task_type,arrival,deadline\n17.0,x,0,5\n-3.0,x,1,5\n", ReadOptions{}, []int64{17, -3}, ""},
		// 2^53 as a float is also what 2^53 + 1 written as a float reads as: refused.
		{"float id at 2^53", "a.csv", "task_id,task_type,arrival,deadline\n9007199254740992.0,x,0,5\n", ReadOptions{}, nil, "is not an integer task id"},
		{"fractional id", "a.csv", "task_id,task_type,arrival,deadline\n1.5,x,0,5\n", ReadOptions{}, nil, "is not an integer task id"},
		{"deadline before arrival, in s", "a.csv", "task_type,arrival,deadline\nx,2.5,1\n", seconds, nil, "is before the arrival 2.5"},
		{"type index past the PET's", "a.dat", "taskCount=1;\n1 5 9;\n", ReadOptions{TypeIndex: []string{"p", "q"}}, nil, "which has 2 task types (0 to 1)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr, err := ReadTrace(writeFile(t, t.TempDir(), c.file, []byte(c.text)), c.opt)
			if c.err != "" {
				wantInputError(t, err, c.err)
				if !strings.HasSuffix(err.Error(), c.err) {
					t.Errorf("error %q, want it to end with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, task := range tr.Tasks {
				ids = append(ids, task.ID)
			}
			if !slices.Equal(ids, c.ids) {
				t.Errorf("ids %v, want %v", ids, c.ids)
			}
		})
	}
}

// TestOutOfOrderQuotesTheFile: the warning of an arrival out of order quotes the previous one as
// the file wrote it (3 s), not as read (3000 ms).
func TestOutOfOrderQuotesTheFile(t *testing.T) {
	var told []string
	opt := ReadOptions{FileUnit: Second, Unit: Millisecond, Warn: func(e *InputError) { told = append(told, e.Error()) }}
	if _, err := ReadTrace(writeFile(t, t.TempDir(), "a.csv", []byte("task_type,arrival,deadline\nx,3,9\nx,2,9\n")), opt); err != nil {
		t.Fatal(err)
	}
	if len(told) != 1 || !strings.Contains(told[0], "is earlier than the previous arrival 3 (arrivals out of order)") {
		t.Errorf("told %q, want the previous arrival quoted as 3", told)
	}
}

// TestExecColumns: a trace's exec_<machine_type> columns, its own and those --col maps, come in
// the file's order (ExecTypes), each task's Exec in that order; a trace without any leaves every
// Exec nil.
func TestExecColumns(t *testing.T) {
	dir := t.TempDir()
	text := "task_type,arrival,deadline,exec_b,run_a,exec_c\nx,0,9,1,2,3\n"
	opt := ReadOptions{Columns: map[string]string{"exec_a": "run_a"}}
	tr, err := ReadTrace(writeFile(t, dir, "a.csv", []byte(text)), opt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tr.ExecTypes, []string{"b", "a", "c"}) || !slices.Equal(tr.Tasks[0].Exec, []float64{1, 2, 3}) {
		t.Errorf("exec types %q, task exec %v; want b, a, c in the file's order, 1, 2, 3", tr.ExecTypes, tr.Tasks[0].Exec)
	}
	tr, err = ReadTrace(writeFile(t, dir, "b.csv", []byte("task_type,arrival,deadline\nx,0,9\nx,1,9\n")), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tr.Tasks {
		if task.Exec != nil {
			t.Errorf("task %d: Exec %v, want nil (no exec columns)", task.ID, task.Exec)
		}
	}
}
