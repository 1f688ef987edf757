package trace

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// The fuzz targets feed arbitrary bytes to each reader, as logs and as
// arrival traces. A reader may reject the input, but only with an
// *InputError and never with a panic; what it accepts must satisfy the
// invariants that the rest of the program relies on.

func fuzzReaders(t *testing.T, name string, data []byte) {
	checkLogInvariants(t, name, data)
	checkTraceInvariants(t, name, data, false)
	checkTraceInvariants(t, name, data, true)
}

func mustBeInputError(t *testing.T, err error) {
	t.Helper()
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v (%T) is not an *InputError", err, err)
	}
	if ie.Error() == "" {
		t.Fatal("empty error message")
	}
}

func finiteOrNaN(v float64) bool { return !math.IsInf(v, 0) }

func checkLogInvariants(t *testing.T, name string, data []byte) {
	lr, err := NewLogReader(name, bytes.NewReader(data), ReadOptions{})
	if err != nil {
		mustBeInputError(t, err)
		return
	}
	defer lr.Close()
	for range 100000 {
		rec, err := lr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			mustBeInputError(t, err)
			if _, err2 := lr.Next(); err2 != io.EOF {
				t.Fatalf("Next after an error returned %v, want io.EOF", err2)
			}
			return
		}
		if rec.TaskType == "" || rec.MachineType == "" || !(rec.ExecTime > 0) || math.IsInf(rec.ExecTime, 0) ||
			!finiteOrNaN(rec.Start) || !finiteOrNaN(rec.End) {
			t.Fatalf("invalid record accepted: %+v", rec)
		}
	}
}

func checkTraceInvariants(t *testing.T, name string, data []byte, strict bool) {
	tr, err := ReadTraceFrom(name, bytes.NewReader(data), ReadOptions{Strict: strict})
	if err != nil {
		mustBeInputError(t, err)
		return
	}
	if len(tr.Tasks) == 0 {
		t.Fatal("an empty trace was accepted")
	}
	ids := map[int64]bool{}
	for i, task := range tr.Tasks {
		if task.Type == "" || math.IsNaN(task.Arrival) || math.IsInf(task.Arrival, 0) ||
			math.IsInf(task.Deadline, 0) || task.Deadline < task.Arrival || ids[task.ID] ||
			(i > 0 && task.Arrival < tr.Tasks[i-1].Arrival) || len(task.Exec) != len(tr.ExecTypes) && task.Exec != nil {
			t.Fatalf("invalid task %d accepted: %+v", i, task)
		}
		ids[task.ID] = true
		for _, v := range task.Exec {
			if !(math.IsNaN(v) || (v > 0 && !math.IsInf(v, 0))) {
				t.Fatalf("invalid exec value in %+v", task)
			}
		}
	}
}

func FuzzReadCSV(f *testing.F) {
	for _, s := range []string{
		"task_type,machine_type,exec_time\na,m,1.5\nb,m,.5\n",
		"# time_unit=s\ntask_id,task_type,machine_type,machine_id,exec_time,start,end\n1,a,m,n1,2,0,2\n",
		"task_type,arrival,deadline,exec_gpu\na,1,5,2\nb,0.5,,\n",
		"task_id,job_id,task_type,arrival\n3,j,a,1\n3,j,a,2\n",
		"task_type,machine_type,start,end\n\"a,b\",m,1,3\n",
		"task_type,machine_type,exec_time\na,m,NaN\n",
		"\ufefftask_type,arrival\r\na,1\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzReaders(t, "fuzz.csv", data) })
}

func FuzzReadJSONL(f *testing.F) {
	for _, s := range []string{
		`{"task_type":"a","machine_type":"m","exec_time":1.5}` + "\n",
		"# time_unit=us\n" + `{"task_type":"a","arrival":1,"deadline":null,"exec_m":3}` + "\n" + `{"task_type":"b","arrival":"2","exec_m":null}`,
		`{"task_type":7,"machine_type":"m","start":1,"end":0}`,
		`{"task_type":"a\u00e9","arrival":1e3}` + "\n\n" + `[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzReaders(t, "fuzz.jsonl", data) })
}

func FuzzReadDat(f *testing.F) {
	for _, s := range []string{
		"taskCount=3;\n.97 1 176.4;\n99 10 176.42;\n1.41 10 176.84;\n",
		"taskCount=1;\n1 0 5\n",
		"taskCount=2;\n1 0 5;\n",
		"taskCount=1;\n1 00 0.5;\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { fuzzReaders(t, "fuzz.dat", data) })
}

func FuzzReadParquet(f *testing.F) {
	dir := f.TempDir()
	logs := []LogRecord{{TaskType: "a", MachineType: "m", ExecTime: 1, TaskID: "1", Start: 0, End: 1}, {TaskType: "b", MachineType: "m", ExecTime: 2, Start: math.NaN(), End: math.NaN()}}
	tr := &Trace{ExecTypes: []string{"m"}, Tasks: []Task{{ID: 1, Type: "a", Arrival: 1, Deadline: 3, Exec: []float64{2}}, {ID: 2, Type: "b", Arrival: 2, Deadline: math.NaN(), Exec: []float64{math.NaN()}}}}
	for i, write := range []func(string) error{
		func(p string) error { return WriteLogs(p, logs, WriteOptions{}) },
		func(p string) error { return WriteTrace(p, tr, WriteOptions{}) },
	} {
		p := filepath.Join(dir, string(rune('a'+i))+".parquet")
		if err := write(p); err != nil {
			f.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("PAR1"))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzReaders(t, "fuzz.parquet", data) })
}
