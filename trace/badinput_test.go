package trace

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
)

// parquetBytes writes rows with parquet-go's own struct writer, the way a
// foreign program would.
func parquetBytes[T any](t *testing.T, rows []T) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := parquet.NewGenericWriter[T](&buf)
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type pqTypesOnly struct {
	TaskType    string `parquet:"task_type"`
	MachineType string `parquet:"machine_type"`
}

type pqStringExec struct {
	TaskType    string `parquet:"task_type"`
	MachineType string `parquet:"machine_type"`
	ExecTime    string `parquet:"exec_time"`
}

type pqOptionalExec struct {
	TaskType    string   `parquet:"task_type"`
	MachineType string   `parquet:"machine_type"`
	ExecTime    *float64 `parquet:"exec_time,optional"`
}

func fp(v float64) *float64 { return &v }

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	goodParquet := parquetBytes(t, []pqOptionalExec{{"a", "m", fp(1)}, {"a", "m", fp(2)}, {"b", "m", fp(3)}})

	type kind int
	const (
		logs kind = iota
		tasks
	)
	cases := []struct {
		name    string
		file    string
		content []byte
		kind    kind
		opt     ReadOptions
		pieces  []string // all must appear in the message
	}{
		// Missing required columns.
		{"csv missing exec_time", "a.csv", []byte("task_type,machine_type\na,m\n"), logs, ReadOptions{},
			[]string{"a.csv line 1 column exec_time", "missing required column"}},
		{"csv missing mapped column", "b.csv", []byte("app,machine_type,exec_time\na,m,1\n"), logs,
			ReadOptions{Columns: map[string]string{"task_type": "application"}},
			[]string{"b.csv line 1 column application (task_type)", "missing required column"}},
		{"csv missing every column, told at once", "a2.csv", []byte("app,node,rt\na,m,1\n"), logs, ReadOptions{},
			[]string{"a2.csv line 1 column task_type, machine_type, exec_time (or start and end)", "missing required columns", "--col FIELD=COLUMN"}},
		{"tasks missing arrival", "c.csv", []byte("# time_unit=ms\ntask_type,deadline\na,3\n"), tasks, ReadOptions{},
			[]string{"c.csv line 2 column arrival", "missing required column"}},
		{"jsonl missing value", "d.jsonl", []byte(`{"task_type":"a","machine_type":"m","exec_time":1}` + "\n" + `{"task_type":"a","exec_time":2}` + "\n"), logs, ReadOptions{},
			[]string{"d.jsonl line 2 column machine_type", "missing value"}},
		{"parquet missing column", "e.parquet", parquetBytes(t, []pqTypesOnly{{"a", "m"}}), logs, ReadOptions{},
			[]string{"e.parquet column exec_time", "missing required column"}},

		// Non-numeric, NaN and Inf values.
		{"csv not a number", "f.csv", []byte("task_type,machine_type,exec_time\na,m,1\na,m,abc\n"), logs, ReadOptions{},
			[]string{`read ` + filepath.Join(dir, "f.csv") + ` line 3 column exec_time: value "abc" is not a number`}},
		{"csv NaN", "g.csv", []byte("task_type,machine_type,exec_time\na,m,NaN\n"), logs, ReadOptions{},
			[]string{"g.csv line 2 column exec_time", `value "NaN"`, "not a finite number"}},
		{"csv Inf", "h.csv", []byte("task_type,arrival\na,1\na,+Inf\n"), tasks, ReadOptions{},
			[]string{"h.csv line 3 column arrival", `value "+Inf"`, "not a finite number"}},
		{"csv overflow", "h2.csv", []byte("task_type,arrival\na,1e999\n"), tasks, ReadOptions{},
			[]string{"h2.csv line 2 column arrival", `value "1e999"`, "not a finite number"}},
		{"jsonl not a number", "i.jsonl", []byte(`{"task_type":"a","arrival":true}` + "\n"), tasks, ReadOptions{},
			[]string{"i.jsonl line 1 column arrival", `value "true"`, "not a number"}},
		{"parquet not a number", "j.parquet", parquetBytes(t, []pqStringExec{{"a", "m", "1"}, {"a", "m", "2"}, {"a", "m", "abc"}}), logs, ReadOptions{},
			[]string{"j.parquet row 3 column exec_time", `value "abc"`, "not a number"}},
		{"parquet NaN", "k.parquet", parquetBytes(t, []pqOptionalExec{{"a", "m", fp(1)}, {"a", "m", fp(math.NaN())}}), logs, ReadOptions{},
			[]string{"k.parquet row 2 column exec_time", `value "NaN"`, "not a finite number"}},
		{"parquet null", "l.parquet", parquetBytes(t, []pqOptionalExec{{"a", "m", fp(1)}, {"a", "m", nil}}), logs, ReadOptions{},
			[]string{"l.parquet row 2 column exec_time", "missing value"}},

		// Times past MaxSeconds (1e12 s; 1e15 in ms, the unit returned here): corrupt values.
		{"csv huge arrival", "ha.csv", []byte("task_type,arrival\na,1e300\n"), tasks, ReadOptions{},
			[]string{"ha.csv line 2 column arrival", `value "1e300"`, "beyond 1e+12 s"}},
		{"csv huge negative arrival", "hb.csv", []byte("task_type,arrival\na,-2e15\n"), tasks, ReadOptions{},
			[]string{"hb.csv line 2 column arrival", `value "-2e15"`, "beyond 1e+12 s"}},
		{"dat huge deadline", "hc.dat", []byte("taskCount=1;\n1 0 1e16;\n"), tasks, ReadOptions{},
			[]string{"hc.dat line 2 column deadline", `value "1e16"`, "beyond 1e+12 s"}},
		{"jsonl huge exec column", "hd.jsonl", []byte(`{"task_type":"a","arrival":1,"exec_gpu":3e15}` + "\n"), tasks, ReadOptions{},
			[]string{"hd.jsonl line 1 column exec_gpu", `value "3e15"`, "beyond 1e+12 s"}},
		{"parquet huge exec", "he.parquet", parquetBytes(t, []pqOptionalExec{{"a", "m", fp(1)}, {"a", "m", fp(5e15)}}), logs, ReadOptions{},
			[]string{"he.parquet row 2 column exec_time", "beyond 1e+12 s"}},
		{"seconds past the bound in ms", "hf.csv", []byte("# time_unit=s\ntask_type,machine_type,start,end\na,m,1,2e12\n"), logs, ReadOptions{},
			[]string{"hf.csv line 3 column end", `value "2e12"`, "beyond 1e+12 s"}},

		// Negative or zero execution times.
		{"csv zero exec", "m.csv", []byte("task_type,machine_type,exec_time\na,m,0\n"), logs, ReadOptions{},
			[]string{"m.csv line 2 column exec_time", `value "0"`, "not a positive execution time"}},
		{"csv negative exec", "n.csv", []byte("task_type,machine_type,exec_time\na,m,-3.5\n"), logs, ReadOptions{},
			[]string{"n.csv line 2 column exec_time", `value "-3.5"`, "not a positive execution time"}},
		{"derived negative exec", "o.csv", []byte("task_type,machine_type,start,end\na,m,10,4\n"), logs, ReadOptions{},
			[]string{"o.csv line 2 column end - start (exec_time)", `value "4"`, "end - start = -6"}},
		{"parquet negative exec", "p.parquet", parquetBytes(t, []pqOptionalExec{{"a", "m", fp(-1)}}), logs, ReadOptions{},
			[]string{"p.parquet row 1 column exec_time", `value "-1"`, "not a positive execution time"}},
		{"trace exec column zero", "q.csv", []byte("task_type,arrival,exec_gpu\na,1,0\n"), tasks, ReadOptions{},
			[]string{"q.csv line 2 column exec_gpu", `value "0"`, "not a positive execution time"}},

		// Deadlines before arrivals.
		{"deadline before arrival", "r.csv", []byte("task_type,arrival,deadline\na,1,5\na,10,9.5\n"), tasks, ReadOptions{},
			[]string{"r.csv line 3 column deadline", `value "9.5"`, "before the arrival 10"}},
		{"dat deadline before arrival", "s.dat", []byte("taskCount=2;\n1 0 5;\n.5 3 .2;\n"), tasks, ReadOptions{},
			[]string{"s.dat line 3 column deadline", `value ".2"`, "before the arrival 0.5"}},

		// Arrivals out of order, strict.
		{"out of order strict", "t.csv", []byte("task_type,arrival\na,1\na,3\na,2\n"), tasks, ReadOptions{Strict: true},
			[]string{"t.csv line 4 column arrival", `value "2"`, "earlier than the previous arrival 3"}},

		// Unknown task or machine types.
		{"unknown task type", "u.csv", []byte("task_type,machine_type,exec_time\na,m,1\nzz,m,1\n"), logs,
			ReadOptions{KnownTaskTypes: []string{"a", "b"}},
			[]string{"u.csv line 3 column task_type", `value "zz"`, "not a task type of the PET (known: a, b)"}},
		{"unknown machine type", "v.parquet", goodParquet, logs, ReadOptions{KnownMachineTypes: []string{"gpu"}},
			[]string{"v.parquet row 1 column machine_type", `value "m"`, "not a machine type of the PET"}},
		{"unknown exec machine", "w.csv", []byte("task_type,arrival,exec_tpu\na,1,2\n"), tasks, ReadOptions{KnownMachineTypes: []string{"gpu"}},
			[]string{"w.csv line 1 column exec_tpu", `machine type "tpu" is not a machine type of the PET`}},
		{"unknown dat type", "x.dat", []byte("taskCount=1;\n1 12 5;\n"), tasks, ReadOptions{KnownTaskTypes: []string{"0", "1"}},
			[]string{"x.dat line 2 column task_type", `value "12"`, "not a task type of the PET"}},

		// Empty files.
		{"empty csv", "y.csv", nil, logs, ReadOptions{}, []string{"y.csv line 1", "empty file"}},
		{"header only csv", "z.csv", []byte("task_type,machine_type,exec_time\n"), logs, ReadOptions{}, []string{"z.csv", "empty file: no records"}},
		{"empty jsonl", "aa.jsonl", []byte("\n\n"), tasks, ReadOptions{}, []string{"aa.jsonl", "empty file"}},
		{"empty dat", "ab.dat", nil, tasks, ReadOptions{}, []string{"ab.dat line 1", "empty file"}},
		{"empty parquet", "ac.parquet", parquetBytes(t, []pqOptionalExec{}), logs, ReadOptions{}, []string{"ac.parquet", "empty file"}},
		{"zero-byte parquet", "ad.parquet", nil, logs, ReadOptions{}, []string{"ad.parquet", "not a Parquet file"}},

		// Truncated and non-Parquet files.
		{"truncated parquet", "ae.parquet", goodParquet[:len(goodParquet)-9], logs, ReadOptions{}, []string{"ae.parquet", "not a Parquet file, or a truncated one"}},
		{"csv named parquet", "af.parquet", []byte("task_type,machine_type,exec_time\na,m,1\n"), logs, ReadOptions{}, []string{"af.parquet", "not a Parquet file"}},
		{"truncated dat", "ag.dat", []byte("taskCount=3;\n1 0 5;\n2 1 6;\n"), tasks, ReadOptions{}, []string{"ag.dat line 3", "taskCount=3 but the file has 2 tasks"}},
		{"dat without header", "ah.dat", []byte("1 0 5;\n"), tasks, ReadOptions{}, []string{"ah.dat line 1", `value "1 0 5;"`, "taskCount"}},
		{"dat bad line", "ai.dat", []byte("taskCount=1;\n1 0;\n"), tasks, ReadOptions{}, []string{"ai.dat line 2", `value "1 0;"`, "arrival taskType deadline"}},
		{"dat type not index", "aj.dat", []byte("taskCount=1;\n1 x 5;\n"), tasks, ReadOptions{}, []string{"aj.dat line 2 column task_type", `value "x"`, "not a task type index"}},

		// Structural problems of text formats.
		{"csv ragged row", "ak.csv", []byte("task_type,machine_type,exec_time\na,m,1\na,m\n"), logs, ReadOptions{}, []string{"ak.csv line 3", "wrong number of fields (the header has 3)"}},
		{"csv bad quote", "al.csv", []byte("task_type,machine_type,exec_time\n\"a,m,1\n"), logs, ReadOptions{}, []string{"al.csv line 2", "quote"}},
		{"jsonl invalid", "am.jsonl", []byte(`{"task_type":"a","arrival":1}` + "\n" + `{"task_type":"a",` + "\n"), tasks, ReadOptions{}, []string{"am.jsonl line 2", "invalid JSON"}},
		{"jsonl not object", "an.jsonl", []byte(`[1,2]` + "\n"), tasks, ReadOptions{}, []string{"an.jsonl line 1", "not a JSON object"}},
		{"duplicate task id", "ao.csv", []byte("task_id,task_type,arrival\n1,a,1\n2,a,2\n1,a,3\n"), tasks, ReadOptions{}, []string{"ao.csv line 4 column task_id", `value "1"`, "duplicate task id"}},
		{"non-integer task id", "ap.csv", []byte("task_id,task_type,arrival\nt1,a,1\n"), tasks, ReadOptions{}, []string{"ap.csv line 2 column task_id", `value "t1"`, "not an integer task id"}},
		{"unit conflict", "aq.csv", []byte("# time_unit=s\ntask_type,arrival\na,1\n"), tasks, ReadOptions{FileUnit: Millisecond}, []string{"aq.csv line 2 column time_unit", "declares time_unit=s"}},
		{"bad unit comment", "ar.csv", []byte("# time_unit=fortnight\ntask_type,arrival\na,1\n"), tasks, ReadOptions{}, []string{"ar.csv line 1 column time_unit", "fortnight"}},
		{"unknown extension", "as.txt", []byte("x"), tasks, ReadOptions{}, []string{"as.txt", "unknown format"}},
		{"missing file", "no/such.csv", nil, tasks, ReadOptions{}, []string{"such.csv", "cannot open"}},
		{"dat as log", "at.dat", []byte("taskCount=1;\n1 0 5;\n"), logs, ReadOptions{}, []string{"at.dat", "arrival trace, not an execution log"}},
		{"unknown mapped field", "au.csv", []byte("task_type,arrival\na,1\n"), tasks, ReadOptions{Columns: map[string]string{"colour": "x"}}, []string{"au.csv", `unknown field "colour"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, c.file)
			if !strings.HasPrefix(c.file, "no/") {
				if err := os.WriteFile(p, c.content, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			var err error
			if c.kind == logs {
				_, err = ReadLogs(p, c.opt)
			} else {
				_, err = ReadTrace(fileSource(p), c.opt)
			}
			wantInputError(t, err, c.pieces...)
			t.Log(err)
		})
	}
}

// TestOutOfOrderWarns: without Strict, arrivals out of order are sorted
// stably and reported once through the warning callback.
func TestOutOfOrderWarns(t *testing.T) {
	src := writeFile(t, t.TempDir(), "w.csv", []byte("task_type,arrival\na,1\nb,3\nc,2\nd,2\ne,0.5\n"))
	var warnings []*InputError
	tr, err := ReadTrace(src, ReadOptions{Warn: func(e *InputError) { warnings = append(warnings, e) }})
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, task := range tr.Tasks {
		order = append(order, task.Type)
	}
	if got := strings.Join(order, ""); got != "eacdb" {
		t.Errorf("order %s, want eacdb (stable)", got)
	}
	if len(warnings) != 1 {
		t.Fatalf("%d warnings, want 1", len(warnings))
	}
	w := warnings[0]
	if w.Line != 4 || w.Column != "arrival" || w.Value != "2" || !strings.Contains(w.Error(), "2 of 5 tasks were out of order") {
		t.Errorf("warning %q", w.Error())
	}
	// IDs are the file's row indexes, whatever the order.
	if tr.Tasks[0].ID != 4 || tr.Tasks[4].ID != 1 {
		t.Errorf("ids %d..%d, want 4..1", tr.Tasks[0].ID, tr.Tasks[4].ID)
	}
}

// TestDuplicateIDsAnyOrder checks collect's duplicate task ids against a brute-force search for
// the first task whose id an earlier task has, on id sequences that rise, fall, repeat at once
// or long after: collect keeps no set while the ids rise, so every way of leaving the rise
// must still find the duplicate, on the same line, and nothing where there is none.
func TestDuplicateIDsAnyOrder(t *testing.T) {
	firstRepeat := func(ids []int) int { // index of the first id seen before; -1 if none
		for i := range ids {
			for j := range i {
				if ids[j] == ids[i] {
					return i
				}
			}
		}
		return -1
	}
	cases := [][]int{
		{1, 2, 3}, {3, 2, 1}, {1, 1}, {1, 2, 3, 2}, {1, 2, 3, 1}, {5, 6, 7, 4, 8, 6},
		{2, 1, 3, 4, 5, 2}, {1, 3, 2, 4, 4}, {10, 20, 15, 16, 17, 18, 19, 20},
	}
	rng := rand.New(rand.NewPCG(5, 9))
	for range 300 {
		ids := make([]int, 1+rng.IntN(12))
		for i := range ids {
			ids[i] = rng.IntN(15)
		}
		cases = append(cases, ids)
	}
	for _, ids := range cases {
		var csv strings.Builder
		csv.WriteString("task_id,task_type,arrival\n")
		for i, id := range ids {
			fmt.Fprintf(&csv, "%d,a,%d\n", id, i)
		}
		tr, err := ReadTraceFrom("ids.csv", strings.NewReader(csv.String()), ReadOptions{})
		want := firstRepeat(ids)
		if want < 0 {
			if err != nil || len(tr.Tasks) != len(ids) {
				t.Fatalf("ids %v: no duplicate, but %v (%d tasks read)", ids, err, len(tr.Tasks))
			}
			continue
		}
		line := fmt.Sprintf("ids.csv line %d column task_id", want+2)
		if err == nil || !strings.Contains(err.Error(), "duplicate task id") || !strings.Contains(err.Error(), line) {
			t.Fatalf("ids %v: want a duplicate task id at %q, got %v", ids, line, err)
		}
	}
}
