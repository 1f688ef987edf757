package trace

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// awkward names exercise quoting and escaping in every format.
var awkward = []string{"plain", "with,comma", `with "quotes"`, "héllo wörld", "#hash", " lead", "trail ", "tab\there", "12", "new\nline", "a\\b", "<&>"}

func randName(rng *rand.Rand) string {
	if rng.IntN(3) == 0 {
		return awkward[rng.IntN(len(awkward))]
	}
	return "t" + strconv.Itoa(rng.IntN(20))
}

// randFloat returns positive values over many magnitudes, including ones
// whose shortest decimal form is long.
func randFloat(rng *rand.Rand) float64 {
	return math.Exp(rng.Float64()*30-10) * (1 + rng.Float64())
}

func randLogs(rng *rand.Rand, n int) []LogRecord {
	withID, withMachine, withTimes := rng.IntN(2) == 0, rng.IntN(2) == 0, rng.IntN(2) == 0
	out := make([]LogRecord, n)
	for i := range out {
		r := LogRecord{TaskType: randName(rng), MachineType: randName(rng), ExecTime: randFloat(rng), Start: math.NaN(), End: math.NaN()}
		if withID {
			r.TaskID = "id-" + strconv.Itoa(i)
		}
		if withMachine && rng.IntN(5) > 0 { // sometimes empty: an optional cell
			r.MachineID = randName(rng)
		}
		if withTimes {
			r.Start = rng.Float64() * 1e6
			r.End = r.Start + r.ExecTime
		}
		out[i] = r
	}
	return out
}

func sameLogs(t *testing.T, what string, got, want []LogRecord) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d records, want %d", what, len(got), len(want))
	}
	eq := func(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }
	for i := range want {
		g, w := got[i], want[i]
		// Leading/trailing spaces are not significant in names: readers trim them.
		if g.TaskType != strings.TrimSpace(w.TaskType) || g.MachineType != strings.TrimSpace(w.MachineType) ||
			g.TaskID != w.TaskID || g.MachineID != strings.TrimSpace(w.MachineID) ||
			g.ExecTime != w.ExecTime || !eq(g.Start, w.Start) || !eq(g.End, w.End) {
			t.Fatalf("%s: record %d = %+v, want %+v", what, i, g, w)
		}
	}
}

var allExts = []string{"csv", "jsonl", "parquet", "csv.gz", "csv.zst", "jsonl.gz", "ndjson"}

func TestLogRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 1))
		recs := randLogs(rng, 1+rng.IntN(3000))
		for _, ext := range allExts {
			p := filepath.Join(dir, "logs"+strconv.FormatUint(seed, 10)+"."+ext)
			if err := WriteLogs(p, recs, WriteOptions{RowGroupRows: 700}); err != nil {
				t.Fatal(err)
			}
			got, err := ReadLogs(p, ReadOptions{})
			if err != nil {
				t.Fatalf("%s: %v", ext, err)
			}
			sameLogs(t, ext, got, recs)
		}
	}
}

func randTrace(rng *rand.Rand, n int) *Trace {
	tr := &Trace{Unit: Second}
	if rng.IntN(2) == 0 {
		tr.ExecTypes = []string{"m0", "m,1", "gpu"}
	}
	withDeadline, withJob := rng.IntN(2) == 0, rng.IntN(2) == 0
	at := 0.0
	for i := range n {
		at += randFloat(rng) / 1e3
		task := Task{ID: int64(i*7 + 3), Type: randName(rng), Arrival: at, Deadline: math.NaN()}
		task.Type = strings.TrimSpace(task.Type)
		if withDeadline && rng.IntN(4) > 0 {
			task.Deadline = at + randFloat(rng)
		}
		if withJob {
			task.JobID = "job" + strconv.Itoa(i/3)
		}
		if tr.ExecTypes != nil {
			task.Exec = make([]float64, len(tr.ExecTypes))
			for j := range task.Exec {
				task.Exec[j] = randFloat(rng)
				if rng.IntN(5) == 0 {
					task.Exec[j] = math.NaN()
				}
			}
		}
		tr.Tasks = append(tr.Tasks, task)
	}
	return tr
}

func TestTraceRoundTrip(t *testing.T) {
	dir := t.TempDir()
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 2))
		tr := randTrace(rng, 1+rng.IntN(2000))
		for _, ext := range allExts {
			p := filepath.Join(dir, "trace"+strconv.FormatUint(seed, 10)+"."+ext)
			if err := WriteTrace(p, tr, WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			got, err := ReadTrace(fileSource(p), ReadOptions{Unit: Second, Strict: true})
			if err != nil {
				t.Fatalf("%s: %v", ext, err)
			}
			sameTasks(t, ext, got.Tasks, tr.Tasks, true)
			if strings.Join(got.ExecTypes, "|") != strings.Join(tr.ExecTypes, "|") {
				t.Fatalf("%s: exec types %q, want %q", ext, got.ExecTypes, tr.ExecTypes)
			}
			for i := range tr.Tasks {
				g, w := got.Tasks[i], tr.Tasks[i]
				if g.JobID != w.JobID || len(g.Exec) != len(w.Exec) {
					t.Fatalf("%s: task %d = %+v, want %+v", ext, i, g, w)
				}
				for j := range w.Exec {
					if g.Exec[j] != w.Exec[j] && !(math.IsNaN(g.Exec[j]) && math.IsNaN(w.Exec[j])) {
						t.Fatalf("%s: task %d exec %d = %v, want %v", ext, i, j, g.Exec[j], w.Exec[j])
					}
				}
			}
		}
	}
}

// TestUnitConversion: a file in seconds read in ms and in minutes.
func TestUnitConversion(t *testing.T) {
	dir := t.TempDir()
	recs := []LogRecord{{TaskType: "a", MachineType: "m", ExecTime: 1.5, Start: 10, End: 11.5}}
	for _, ext := range []string{"csv", "jsonl", "parquet"} {
		p := filepath.Join(dir, "s."+ext)
		if err := WriteLogs(p, recs, WriteOptions{Unit: Second}); err != nil {
			t.Fatal(err)
		}
		got, err := ReadLogs(p, ReadOptions{}) // default output unit: ms
		if err != nil {
			t.Fatal(err)
		}
		if got[0].ExecTime != 1500 || got[0].Start != 10000 || got[0].End != 11500 {
			t.Errorf("%s: %+v, want 1500 ms from 10000 to 11500", ext, got[0])
		}
		got, err = ReadLogs(p, ReadOptions{Unit: Minute})
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got[0].ExecTime-0.025) > 1e-15 {
			t.Errorf("%s: %v min, want 0.025", ext, got[0].ExecTime)
		}
	}
	// A file without a declaration is in FileUnit.
	src := writeFile(t, dir, "bare.csv", []byte("task_type,machine_type,exec_time\na,m,2\n"))
	lr, err := OpenLogs(src, ReadOptions{FileUnit: Microsecond, Unit: Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	defer lr.Close()
	if r, err := lr.Next(); err != nil || r.ExecTime != 2000 {
		t.Errorf("2 us = %v ns (%v), want 2000", r.ExecTime, err)
	}
	for _, c := range []struct {
		in   string
		want Unit
	}{{"", Millisecond}, {"µs", Microsecond}, {"sec", Second}, {"hours", Hour}, {"MIN", Minute}} {
		if u, err := ParseUnit(c.in); err != nil || u != c.want {
			t.Errorf("ParseUnit(%q) = %q, %v", c.in, u, err)
		}
	}
	if _, err := ParseUnit("fortnight"); err == nil {
		t.Error("ParseUnit accepted fortnight")
	}
}

// TestColumnMappingAndDerivedExec reads a foreign log: columns named
// differently, no exec_time, start and end given.
func TestColumnMappingAndDerivedExec(t *testing.T) {
	dir := t.TempDir()
	src := writeFile(t, dir, "foreign.csv", []byte("app,node_kind,t0,t1,extra\nresnet,gpu,100,130.5,x\nbert,cpu,5,9,y\n"))
	cols, err := ParseColumnMap([]string{"task_type=app", "machine_type = node_kind", "start=t0", "end=t1"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadLogs(src.Path, ReadOptions{Columns: cols, FileUnit: Second, Unit: Second})
	if err != nil {
		t.Fatal(err)
	}
	want := []LogRecord{
		{TaskType: "resnet", MachineType: "gpu", ExecTime: 30.5, Start: 100, End: 130.5},
		{TaskType: "bert", MachineType: "cpu", ExecTime: 4, Start: 5, End: 9},
	}
	sameLogs(t, "mapped", got, want)
	for _, bad := range [][]string{{"task_type"}, {"=x"}, {"a=b", "a=c"}} {
		if _, err := ParseColumnMap(bad); err == nil {
			t.Errorf("ParseColumnMap(%q) accepted", bad)
		}
	}
}

// TestParquetForeignTypes reads a Parquet file written by another program's
// conventions: integer task types, float32 times, a millisecond timestamp
// column and no time_unit metadata.
func TestParquetForeignTypes(t *testing.T) {
	type row struct {
		Type    int32     `parquet:"task_type"`
		Machine string    `parquet:"machine_type"`
		Start   time.Time `parquet:"start,timestamp(millisecond)"`
		End     time.Time `parquet:"end,timestamp(millisecond)"`
		Exec    float32   `parquet:"exec_time"`
	}
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	rows := []row{
		{7, "m1", base, base.Add(1500 * time.Millisecond), 1.5},
		{8, "m2", base.Add(time.Second), base.Add(3 * time.Second), 2},
	}
	p := filepath.Join(t.TempDir(), "foreign.parquet")
	if err := parquet.WriteFile(p, rows); err != nil {
		t.Fatal(err)
	}
	got, err := ReadLogs(p, ReadOptions{FileUnit: Second})
	if err != nil {
		t.Fatal(err)
	}
	if got[0].TaskType != "7" || got[0].ExecTime != 1500 || got[1].TaskType != "8" || got[1].ExecTime != 2000 {
		t.Errorf("got %+v", got)
	}
	// The timestamp columns carry their own unit (ms), whatever FileUnit says.
	if want := float64(base.UnixMilli()); got[0].Start != want || got[0].End != want+1500 {
		t.Errorf("start/end %v %v, want %v and +1500", got[0].Start, got[0].End, want)
	}
	// Without exec_time, the duration comes from the timestamps.
	got, err = ReadLogs(p, ReadOptions{Columns: map[string]string{"exec_time": "no_such"}})
	if err == nil {
		t.Fatalf("a mapped exec_time column that does not exist was accepted: %v", got)
	}
	wantInputError(t, err, "no_such (exec_time)", "missing required column")
}

// TestStreamingAPIs checks Next, All and the multi-source EachLog.
func TestStreamingAPIs(t *testing.T) {
	dir := t.TempDir()
	recs := randLogs(rand.New(rand.NewPCG(9, 9)), 500)
	for i := range 3 {
		if err := WriteLogs(filepath.Join(dir, "part"+strconv.Itoa(i+1)+".csv"), recs[i*100:(i+1)*100], WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	var got []LogRecord
	if err := EachLog(filepath.Join(dir, "part*.csv"), ReadOptions{}, func(r LogRecord) error {
		got = append(got, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	sameLogs(t, "EachLog", got, recs[:300])

	lr, err := OpenLogs(fileSource(filepath.Join(dir, "part2.csv")), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer lr.Close()
	got = got[:0]
	for r, err := range lr.All() {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r)
	}
	sameLogs(t, "All", got, recs[100:200])

	// A streaming writer fixes its columns with the first record.
	w, err := CreateLogs(filepath.Join(dir, "stream.csv"), WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(LogRecord{TaskType: "a", MachineType: "m", ExecTime: 1, Start: math.NaN(), End: math.NaN()}); err != nil {
		t.Fatal(err)
	}
	if err := w.Write(LogRecord{TaskType: "a", MachineType: "m", ExecTime: 1, TaskID: "x", Start: math.NaN(), End: math.NaN()}); err == nil {
		t.Error("a record with a column the first lacked was accepted")
	}
	if err := w.Close(); err == nil {
		t.Error("Close after a failed write succeeded")
	}
	if _, err := os.Stat(filepath.Join(dir, "stream.csv")); !os.IsNotExist(err) {
		t.Error("a failed write left its file in place")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// TestJSONLShapes reads records that leave the fast path (nested values,
// escaped keys, odd spacing) and checks they read like plain ones.
func TestJSONLShapes(t *testing.T) {
	lines := []string{
		`{"task_type":"a","machine_type":"m","exec_time":1}`,
		`{ "task_type" : "b" , "machine_type":"m" ,"exec_time": 2.5e0 , "meta": {"x": [1, {"y": "}"}]} }`,
		`{"task_\u0074ype":"c","machine_type":"m","exec_time":3,"note":"a \"quoted\" \\ value"}`,
		`{"task_type":"d\u00e9","machine_type":"m","exec_time":"4","task_id":null,"flag":true}`,
		"\t{\"task_type\":\"e\",\"machine_type\":\"m\",\"exec_time\":5}\r",
	}
	src := writeFile(t, t.TempDir(), "shapes.jsonl", []byte(strings.Join(lines, "\n")))
	got, err := ReadLogs(src.Path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a", "b", "c", "dé", "e"}
	if len(got) != len(want) {
		t.Fatalf("%d records", len(got))
	}
	for i, r := range got {
		if r.TaskType != want[i] || r.ExecTime != []float64{1, 2.5, 3, 4, 5}[i] {
			t.Errorf("record %d: %+v", i, r)
		}
	}
}

// TestJSONLLateColumn: a column of ours that appears only after the first
// record is an error, not silently dropped; a late null is harmless.
func TestJSONLLateColumn(t *testing.T) {
	dir := t.TempDir()
	src := writeFile(t, dir, "late.jsonl", []byte(`{"task_type":"a","arrival":1}`+"\n"+`{"task_type":"a","arrival":2,"other":5,"deadline":null}`+"\n"+`{"task_type":"a","arrival":3,"deadline":9}`+"\n"))
	_, err := ReadTrace(src, ReadOptions{})
	wantInputError(t, err, "late.jsonl line 3 column deadline", "not in the first record")
}

// TestParquetDecimal: an integer DECIMAL column is scaled, not read raw.
func TestParquetDecimal(t *testing.T) {
	type row struct {
		Type    string `parquet:"task_type"`
		Machine string `parquet:"machine_type"`
		Exec    int64  `parquet:"exec_time,decimal(3:18)"`
	}
	p := filepath.Join(t.TempDir(), "dec.parquet")
	if err := parquet.WriteFile(p, []row{{"a", "m", 12345}}); err != nil {
		t.Fatal(err)
	}
	got, err := ReadLogs(p, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got[0].ExecTime-12.345) > 1e-12 {
		t.Errorf("exec_time %v, want 12.345", got[0].ExecTime)
	}
}
