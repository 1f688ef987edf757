package importers

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hcreplay/hcreplay/trace"
)

// The fixtures below are written in each source's own layout, with its
// comment lines, missing values and known bad rows; the expectations are
// worked out by hand from them (times in the source's unit, expected in ms).

func memInputs(files ...[2]string) []importInput {
	in := make([]importInput, len(files))
	for i, f := range files {
		body := f[1]
		in[i] = importInput{name: f[0], open: func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(body)), nil }}
	}
	return in
}

func importMem(t *testing.T, opt Options, files ...[2]string) ([]trace.LogRecord, *trace.Trace, *Result) {
	t.Helper()
	var logs []trace.LogRecord
	tr, res, err := runImport(context.Background(), memInputs(files...), opt, func(r trace.LogRecord) error {
		logs = append(logs, r)
		return nil
	})
	if err != nil {
		t.Fatalf("import %s: %v", opt.Format, err)
	}
	return logs, tr, res
}

// logKey is a record without ids, for comparing against expectations.
func logKey(r trace.LogRecord) string {
	return fmt.Sprintf("%s|%s|%g", r.TaskType, r.MachineType, r.ExecTime)
}

func wantLogs(t *testing.T, got []trace.LogRecord, want ...string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d log records, want %d: %v", len(got), len(want), got)
	}
	for i, r := range got {
		if k := logKey(r); k != want[i] {
			t.Errorf("log record %d = %s, want %s", i, k, want[i])
		}
	}
}

// wantTasks checks type@arrival of every task (arrivals after the shift).
func wantTasks(t *testing.T, tr *trace.Trace, want ...string) {
	t.Helper()
	var got []string
	for _, k := range tr.Tasks {
		got = append(got, fmt.Sprintf("%s@%g", k.Type, math.Round(k.Arrival*1000)/1000))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("tasks\n got %v\nwant %v", got, want)
	}
}

func wantBad(t *testing.T, res *Result, want map[string]int64) {
	t.Helper()
	for reason, n := range want {
		if got := res.Bad.Count(reason); got != n {
			t.Errorf("bad rows %q = %d, want %d", reason, got, n)
		}
	}
	var total int64
	for _, n := range want {
		total += n
	}
	if res.Bad.Total() != total {
		for _, r := range res.Bad.Reasons {
			t.Logf("reason %q: %d (%s)", r.Reason, r.Rows, r.Effect)
		}
		t.Errorf("%d bad rows in all, want %d", res.Bad.Total(), total)
	}
}

const swfFixture = `; Version: 2.2
; Computer: test cluster
; MaxJobs: 12
; MaxPartitions: 2
; Note: fields are job submit wait run procs cpu mem reqprocs reqtime reqmem status user group exe queue partition preceding think
;
1 0 10 100 4 -1 -1 4 200 -1 1 1 1 7 1 1 -1 -1
2 5 0 50 2 -1 -1 2 100 -1 1 2 1 7 1 2 -1 -1
3 8 2 -1 1 -1 -1 1 100 -1 5 1 1 3 1 1 -1 -1
4 9 1 30 1 -1 -1 1 100 -1 1 1 1 3 1 -1 -1 -1
5 12 0 20 1 -1 -1 1 100 -1 1 1 1 3 1 1 -1 -1
6 -1 0 20 1 -1 -1 1 100 -1 1 1 1 3 1 1 -1 -1
7 15 0 40 1 -1 -1 1 100 -1 1 1 1 -1 1 1 -1 -1

8 16 0 0 1 -1 -1 1 100 -1 1 1 1 7 1 1 -1 -1
9 17 0 10 1 -1 -1 1 100 -1 0 1 1 7 1 1 -1 -1
10 18 0 10 1
11 20 0 abc 1 -1 -1 1 100 -1 1 1 1 3 1 1 -1 -1
12 25	0	30 1 -1 -1 1 100 -1 0 1 1 9 1 2 -1 -1
`

func TestImportSWF(t *testing.T) {
	rule, _ := trace.ParseDeadlineRule("prop:1")
	logs, tr, res := importMem(t, Options{Format: SWF, Deadline: &rule}, [2]string{"t.swf", swfFixture})
	wantLogs(t, logs, "7|1|100000", "7|2|50000", "3|1|20000")
	if logs[0].TaskID != "1" || logs[0].Start != 10000 || logs[0].End != 110000 {
		t.Errorf("first record %+v: want task id 1, start 10000, end 110000", logs[0])
	}
	wantTasks(t, tr, "7@0", "7@5000", "3@8000", "3@9000", "3@12000", "7@16000", "7@17000", "3@20000")
	wantBad(t, res, map[string]int64{
		"job cancelled (status 5)":                1,
		"partition number missing (-1)":           1,
		"submit time missing (-1)":                1,
		"executable number missing (-1)":          1,
		"run time 0 (shorter than half a second)": 1,
		"job failed (status 0)":                   2,
		"wrong number of fields (want 18)":        1,
		"run time not a number":                   1,
		"task type has no execution record in the log (a PET built from it could not replay it)": 1,
	})
	if res.Rows != 12 || res.LogRecords != 3 || res.Tasks != 8 {
		t.Errorf("rows %d, records %d, tasks %d; want 12, 3, 8", res.Rows, res.LogRecords, res.Tasks)
	}
	// Observed durations: the first task ran 100 s on partition 1, the second 50 s on 2.
	if strings.Join(tr.ExecTypes, ",") != "1,2" || tr.Tasks[0].Exec[0] != 100000 || !math.IsNaN(tr.Tasks[0].Exec[1]) ||
		tr.Tasks[1].Exec[1] != 50000 || tr.Tasks[4].Exec[0] != 20000 || !math.IsNaN(tr.Tasks[2].Exec[0]) {
		t.Errorf("exec types %v, exec %v %v %v", tr.ExecTypes, tr.Tasks[0].Exec, tr.Tasks[1].Exec, tr.Tasks[4].Exec)
	}
	// prop:1: m7 = (100000+50000)/2 = 75000, m3 = 20000, global (75000+20000)/2 = 47500.
	if d0, d2 := tr.Tasks[0].Deadline, tr.Tasks[2].Deadline; d0 != 122500 || d2 != 8000+20000+47500 {
		t.Errorf("deadlines %v, %v; want 122500 and 75500", d0, d2)
	}
	if e := res.Bad.Reasons[0].Samples[0]; e.File != "t.swf" || e.Line != 9 || e.Column != "status" || e.Value != "5" {
		t.Errorf("first bad-row sample %+v: want t.swf line 9 column status value 5", e)
	}
}

func TestImportSWFWindowAndFields(t *testing.T) {
	_, tr, res := importMem(t, Options{Format: SWF, WindowFrom: 6 * time.Second, WindowTo: 13 * time.Second},
		[2]string{"t.swf", swfFixture})
	// Jobs 3, 4, 5 arrive in [6 s, 13 s); the trace is shifted to start at job 3.
	wantTasks(t, tr, "3@0", "3@1000", "3@4000")
	if res.OutOfWindow != 6 || res.Offset != 8000 || res.Deadlines != "" || tr.HasDeadlines() {
		t.Errorf("out of window %d, offset %v, deadlines %q; want 6, 8000, none", res.OutOfWindow, res.Offset, res.Deadlines)
	}
	logs, _, _ := importMem(t, Options{Format: SWF, TaskTypeField: "queue", MachineTypeField: "user"}, [2]string{"t.swf", swfFixture})
	// With the queue as task type, job 7 (executable -1) counts too.
	wantLogs(t, logs, "1|1|100000", "1|2|50000", "1|1|30000", "1|1|20000", "1|1|40000")
	if _, _, err := runImport(context.Background(), memInputs([2]string{"t.swf", swfFixture}), Options{Format: SWF, TaskTypeField: "colour"}, func(trace.LogRecord) error { return nil }); err == nil {
		t.Error("an unknown SWF field was accepted")
	}
}

// TestImportSample checks that --sample keeps about the asked fraction of
// jobs, the same ones for the same seed, and other ones for another seed.
func TestImportSample(t *testing.T) {
	var b strings.Builder
	for i := 1; i <= 4000; i++ {
		fmt.Fprintf(&b, "%d %d 0 10 1 -1 -1 1 10 -1 1 1 1 %d 1 1 -1 -1\n", i, i, i%3)
	}
	kept := func(seed uint64) map[float64]bool {
		_, tr, res := importMem(t, Options{Format: SWF, Sample: 0.25, Seed: seed}, [2]string{"big.swf", b.String()})
		if res.SampledOut+int64(res.Tasks) != 4000 {
			t.Errorf("seed %d: %d kept + %d sampled out != 4000", seed, res.Tasks, res.SampledOut)
		}
		m := map[float64]bool{}
		for _, k := range tr.Tasks {
			m[k.Arrival+res.Offset] = true
		}
		return m
	}
	a, again, other := kept(1), kept(1), kept(2)
	// Binomial(4000, 0.25): sd 27; ±150 is more than 5 sd.
	if n := len(a); n < 850 || n > 1150 {
		t.Errorf("kept %d of 4000 jobs, want about 1000", n)
	}
	same := 0
	for k := range a {
		if !again[k] {
			t.Fatal("the same seed kept different jobs")
		}
		if other[k] {
			same++
		}
	}
	if same > len(a)/2 {
		t.Errorf("seeds 1 and 2 share %d of %d jobs; independent samples share about a quarter", same, len(a))
	}
}

const googleMachines = `time,machine_id,type,switch_id,platform_id
0,100,1,s1,PA
0,200,1,s1,PB
5000000,100,3,s1,
`

const googleCollections = `time,type,collection_id,priority,collection_logical_name,user
0,0,1,200,jobA,u1
0,0,2,200,jobB,u1
0,0,3,200,,u2
`

const googleInstances = `time,type,collection_id,instance_index,machine_id,priority
1000000,0,1,0,,200
2000000,3,1,0,100,200
7000000,6,1,0,100,200
1500000,SUBMIT,1,1,,200
2500000,SCHEDULE,1,1,200,200
3000000,EVICT,1,1,200,200
4000000,SCHEDULE,1,1,100,200
6000000,FINISH,1,1,100,200
0,0,2,0,,200
3000000,3,2,0,200,200
9000000,6,2,0,200,200
2000000,0,2,1,,200
2100000,3,2,1,300,200
4100000,6,2,1,300,200
2200000,0,2,2,,200
3000000,6,1,5,100,200
3100000,9,1,0,,200
3200000,42,1,0,,200
3300000,0,3,0,,200
3400000,3,3,0,100,200
3500000,6,3,0,100,200
`

func TestImportGoogle2019(t *testing.T) {
	rule, _ := trace.ParseDeadlineRule("tight")
	// The instance events come first: the importer reads the lookup tables first anyway.
	logs, tr, res := importMem(t, Options{Format: Google2019, Deadline: &rule},
		[2]string{"instance_events.csv", googleInstances}, [2]string{"collection_events.csv", googleCollections},
		[2]string{"machine_events.csv", googleMachines})
	wantLogs(t, logs, "jobA|PA|5000", "jobA|PA|2000", "jobB|PB|6000")
	if r := logs[0]; r.TaskID != "1/0" || r.MachineID != "100" || r.Start != 2000 || r.End != 7000 {
		t.Errorf("first record %+v", r)
	}
	// SUBMITs at 1, 1.5, 2 and 2.2 s; jobB/0 was submitted before the trace and has no arrival.
	wantTasks(t, tr, "jobA@0", "jobA@500", "jobB@1000", "jobB@1200")
	wantBad(t, res, map[string]int64{
		"collection_logical_name missing":                                  1,
		"run ended by EVICT":                                               1,
		"submitted before the trace window (time 0)":                       1,
		"machine has no platform in the machine events":                    1,
		"no FINISH inside the trace (still pending or running at its end)": 1,
		"FINISH without an earlier SCHEDULE":                               1,
		"event type unknown":                                               1,
		"collection not in the collection events":                          1,
	})
	if tr.Tasks[0].Exec[0] != 5000 || tr.Tasks[1].Exec[0] != 2000 || !math.IsNaN(tr.Tasks[2].Exec[0]) {
		t.Errorf("observed durations %v %v %v", tr.Tasks[0].Exec, tr.Tasks[1].Exec, tr.Tasks[2].Exec)
	}
	// tight: m_jobA = 3500 (one cell), m_jobB = 6000.
	if tr.Tasks[0].Deadline != 3500 || tr.Tasks[3].Deadline != 1200+6000 {
		t.Errorf("deadlines %v %v", tr.Tasks[0].Deadline, tr.Tasks[3].Deadline)
	}
	_, _, err := runImport(context.Background(), memInputs([2]string{"i.csv", googleInstances}), Options{Format: Google2019}, func(trace.LogRecord) error { return nil })
	wantInputError(t, err, "collection events")
}

const paiFixture = `j1,worker,1,Terminated,100,160,600,29.3,50,V100
j1,ps,1,Terminated,100,130,600,29.3,,T4
j2,worker,2,Terminated,200,260,600,29.3,100,T4
j3,worker,1,Failed,300,310,600,29.3,100,V100
j4,worker,1,Running,400,,600,29.3,100,V100
j5,ps,1,Terminated,500,490,600,29.3,,T4
j6,ps,1,Terminated,,600,600,29.3,,T4
j7,ps,1,Terminated,700,700,600,29.3,,T4
j8,evaluator,1,Terminated,800,900,600,29.3,100,
j9,worker,1
`

func TestImportAlibabaPAI(t *testing.T) {
	logs, tr, res := importMem(t, Options{Format: AlibabaPAI}, [2]string{"pai_task_table.csv", paiFixture})
	wantLogs(t, logs, "worker|V100|60000", "ps|T4|30000", "worker|T4|60000")
	wantTasks(t, tr, "worker@0", "ps@0", "worker@100000", "worker@200000", "worker@300000", "ps@400000", "ps@600000")
	wantBad(t, res, map[string]int64{
		"status Failed (not Terminated)":        1,
		"status Running (not Terminated)":       1,
		"end_time before start_time":            1,
		"start_time missing":                    1,
		"zero duration (end_time = start_time)": 1,
		"gpu_type missing":                      1,
		"wrong number of fields (want 10)":      1,
		"task type has no execution record in the log (a PET built from it could not replay it)": 1,
	})
	if tr.Tasks[0].JobID != "j1" || logs[0].TaskID != "j1/worker" {
		t.Errorf("job %q, task id %q", tr.Tasks[0].JobID, logs[0].TaskID)
	}
}

const aliMachineMeta = `m1,0,1,A,96,100,USING
m2,0,2,B,64,50,USING
m1,3600,1,A,96,100,USING
`

const aliInstances = `i1,M1,j1,1,Terminated,100,150,m1,1,1,50,60,0.1,0.2
i2,M1,j1,1,Terminated,110,130,m2,1,1,50,60,0.1,0.2
i3,R2_1,j1,12,Terminated,120,200,m1,1,1,50,60,0.1,0.2
i4,M1,j2,1,Terminated,0,50,m1,1,1,50,60,0.1,0.2
i5,M1,j2,1,Terminated,140,0,m1,1,1,50,60,0.1,0.2
i6,M1,j2,1,Terminated,150,145,m1,1,1,50,60,0.1,0.2
i7,M1,j2,12,Terminated,160,160,m1,1,1,50,60,0.1,0.2
i8,M1,j2,1,Failed,170,180,m1,1,1,50,60,0.1,0.2
i9,M1,j3,1,Terminated,180,190,m9,1,1,50,60,0.1,0.2
i10,M1,j3,1,Terminated,190,200,,1,1,50,60,0.1,0.2
`

func TestImportAlibaba2018(t *testing.T) {
	logs, tr, res := importMem(t, Options{Format: Alibaba2018},
		[2]string{"batch_instance.csv", aliInstances}, [2]string{"machine_meta.csv", aliMachineMeta})
	wantLogs(t, logs, "1|c96-m100|50000", "1|c64-m50|20000", "12|c96-m100|80000")
	wantTasks(t, tr, "1@0", "1@10000", "12@20000", "1@40000", "1@50000", "12@60000", "1@70000", "1@80000", "1@90000")
	wantBad(t, res, map[string]int64{
		"start_time 0 (outside the trace span)": 1,
		"end_time 0 (outside the trace span)":   1,
		"end_time before start_time":            1,
		"zero duration (end_time = start_time)": 1,
		"status Failed (not Terminated)":        1,
		"machine not in machine_meta":           1,
		"machine_id missing":                    1,
	})
	if logs[0].TaskID != "j1/M1/i1" || logs[0].MachineID != "m1" {
		t.Errorf("record ids %q %q", logs[0].TaskID, logs[0].MachineID)
	}
	// Without machine_meta every instance runs on the one type "any".
	logs, _, _ = importMem(t, Options{Format: Alibaba2018}, [2]string{"batch_instance.csv", aliInstances})
	if len(logs) != 5 || logs[4].MachineType != "any" {
		t.Errorf("without machine_meta: %v", logs)
	}
	_, _, err := runImport(context.Background(), memInputs([2]string{"b.csv", aliInstances},
		[2]string{"t.csv", "M1,1,j1,1,Terminated,1,2,100,0.5\n"}), Options{Format: Alibaba2018}, func(trace.LogRecord) error { return nil })
	wantInputError(t, err, "not both")
}

// azureInvocations writes a day's invocation file: minute m of function f
// has counts[f][m] invocations (1-based minutes; others 0); a string count
// is written as is.
func azureInvocations(rows [][4]string, counts []map[int]string) string {
	var b strings.Builder
	b.WriteString("HashOwner,HashApp,HashFunction,Trigger")
	for m := 1; m <= 1440; m++ {
		fmt.Fprintf(&b, ",%d", m)
	}
	b.WriteByte('\n')
	for i, r := range rows {
		b.WriteString(strings.Join(r[:], ","))
		for m := 1; m <= 1440; m++ {
			v, ok := counts[i][m]
			if !ok {
				v = "0"
			}
			b.WriteString("," + v)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

const azureDurations = `HashOwner,HashApp,HashFunction,Average,Count,Minimum,Maximum,percentile_Average_0,percentile_Average_1,percentile_Average_25,percentile_Average_50,percentile_Average_75,percentile_Average_99,percentile_Average_100
o1,a1,f1,50,4,10,100,10,12,30,50,70,98,100
o1,a1,f2,5,2,0,10,0,0,2,5,8,10,10
o3,a3,f4,0,3,0,0,0,0,0,0,0,0,0
o4,a4,f5,5,3,1,9,5,4,5,6,7,8,9
`

func TestImportAzureFunctions(t *testing.T) {
	inv := azureInvocations([][4]string{{"o1", "a1", "f1", "http"}, {"o1", "a1", "f2", "timer"}, {"o2", "a2", "f3", "queue"}},
		[]map[int]string{{1: "2", 3: "1"}, {1: "1", 2: "x"}, {1440: "5"}})
	logs, tr, res := importMem(t, Options{Format: AzureFunctions},
		[2]string{"function_durations_percentiles.anon.d01.csv", azureDurations},
		[2]string{"invocations_per_function_md.anon.d01.csv", inv})
	// f1: 4 samples at quantiles 1/8, 3/8, 5/8, 7/8 of the percentile curve; f2: 2 at 1/4, 3/4.
	wantLogs(t, logs, "f1|functions|20.625", "f1|functions|40", "f1|functions|60", fmt.Sprintf("f1|functions|%g", 70+28*0.125/0.24),
		"f2|functions|2", "f2|functions|8")
	wantBad(t, res, map[string]int64{
		"invocation count not a non-negative integer":                                            1,
		"percentiles of 0 ms (those samples left out)":                                           1,
		"percentiles negative or decreasing":                                                     1,
		"task type has no execution record in the log (a PET built from it could not replay it)": 5,
	})
	byType := map[string][]float64{}
	for _, k := range tr.Tasks {
		byType[k.Type] = append(byType[k.Type], k.Arrival+res.Offset)
	}
	f1, f2 := byType["f1"], byType["f2"]
	if len(f1) != 3 || len(f2) != 1 || len(tr.Tasks) != 4 {
		t.Fatalf("arrivals %v", byType)
	}
	inMinute := func(a float64, m int) bool { return a >= float64(m-1)*60000 && a < float64(m)*60000 }
	n1 := 0
	for _, a := range f1 {
		if inMinute(a, 1) {
			n1++
		} else if !inMinute(a, 3) {
			t.Errorf("f1 arrival %v outside minutes 1 and 3", a)
		}
	}
	if n1 != 2 || !inMinute(f2[0], 1) {
		t.Errorf("f1 has %d arrivals in minute 1 (want 2); f2 at %v", n1, f2)
	}
	// Typed by trigger, the durations find their type through the invocation file.
	logs, tr, _ = importMem(t, Options{Format: AzureFunctions, TaskTypeField: "trigger"},
		[2]string{"invocations_per_function_md.anon.d01.csv", inv}, [2]string{"d.anon.d01.csv", azureDurations})
	if logs[0].TaskType != "http" || logs[5].TaskType != "timer" || tr.Tasks[0].Type == "f1" {
		t.Errorf("trigger types: %v", logs)
	}
}

func TestImportAzureFunctionsSampleAndDay(t *testing.T) {
	inv := azureInvocations([][4]string{{"o1", "a1", "f1", "http"}}, []map[int]string{{10: "2000"}})
	durations := "HashOwner,HashApp,HashFunction,Average,Count,Minimum,Maximum,percentile_Average_0,percentile_Average_1,percentile_Average_25,percentile_Average_50,percentile_Average_75,percentile_Average_99,percentile_Average_100\no1,a1,f1,5,1,5,5,5,5,5,5,5,5,5\n"
	_, tr, res := importMem(t, Options{Format: AzureFunctions, Sample: 0.5, Seed: 3},
		[2]string{"invocations_per_function_md.anon.d02.csv", inv}, [2]string{"function_durations_percentiles.anon.d02.csv", durations})
	if n := len(tr.Tasks); n < 850 || n > 1150 || int64(n)+res.SampledOut != 2000 {
		t.Errorf("kept %d of 2000 invocations (sampled out %d), want about 1000", n, res.SampledOut)
	}
	// Day 2, minute 10 starts at (1440 + 9) minutes.
	if start := (1440.0 + 9) * 60000; res.Offset < start || res.Offset+tr.Tasks[len(tr.Tasks)-1].Arrival >= start+60000 {
		t.Errorf("arrivals from %v to %v, want inside day 2 minute 10", res.Offset, res.Offset+res.Span)
	}
}

const llmFixture = `TIMESTAMP,ContextTokens,GeneratedTokens
2023-11-16 18:15:46.6805900,4808,10
2023-11-16 18:15:50.1805900,3180,8
not-a-time,100,1
2023-11-16 18:15:47.0000000,1000,5
`

func TestImportAzureLLM(t *testing.T) {
	rule, _ := trace.ParseDeadlineRule("prop:1")
	logs, tr, res := importMem(t, Options{Format: AzureLLM, Deadline: &rule}, [2]string{"data/AzureLLMInferenceTrace_code.csv", llmFixture})
	if len(logs) != 0 || res.Deadlines != "" || len(res.Notes) != 1 {
		t.Errorf("records %d, deadlines %q, notes %v: the LLM trace has no execution times", len(logs), res.Deadlines, res.Notes)
	}
	wantTasks(t, tr, "code@0", "code@319.41", "code@3500")
	wantBad(t, res, map[string]int64{"TIMESTAMP not a date and time": 1})
	_, tr, _ = importMem(t, Options{Format: AzureLLM, TaskTypeField: "context"}, [2]string{"x.csv", llmFixture})
	wantTasks(t, tr, "ctx8192@0", "ctx1024@319.41", "ctx4096@3500")
	// Timestamps are dates: a source unit given for the trace's other times does not rescale them.
	_, tr, _ = importMem(t, Options{Format: AzureLLM, SourceUnit: trace.Minute}, [2]string{"data/AzureLLMInferenceTrace_code.csv", llmFixture})
	wantTasks(t, tr, "code@0", "code@319.41", "code@3500")
}

const e2cEET = `,m1,m2
T1,1,2
T2,4,-1
`

const e2cWorkload = `task_type,arrival_time,est_m1,est_m2,ext_m1-1,ext_m1-2,ext_m2-1
T1,0.5,1,2,1.1,0.9,2.2
T2,1.0,4,3,4.2,,3.1
T1,abc,1,2,1,1,1
T2,2.0,4,3,0,4.0,3.0
`

func TestImportE2C(t *testing.T) {
	logs, tr, res := importMem(t, Options{Format: E2C}, [2]string{"etc.csv", e2cEET}, [2]string{"workload-0.csv", e2cWorkload})
	wantLogs(t, logs, "T1|m1|1000", "T1|m2|2000", "T2|m1|4000",
		"T1|m1|1100", "T1|m1|900", "T1|m2|2200", "T2|m1|4200", "T2|m2|3100", "T2|m1|4000", "T2|m2|3000")
	wantTasks(t, tr, "T1@0", "T2@500", "T2@1500")
	wantBad(t, res, map[string]int64{
		"execution time not a positive number (cell left out)": 2,
		"arrival_time not a number":                            1,
	})
	// Observed durations: the lowest replica with a value (replica 2 when replica 1 is 0).
	if strings.Join(tr.ExecTypes, ",") != "m1,m2" || tr.Tasks[0].Exec[0] != 1100 || tr.Tasks[2].Exec[0] != 4000 || tr.Tasks[2].Exec[1] != 3000 {
		t.Errorf("exec %v: %v %v", tr.ExecTypes, tr.Tasks[0].Exec, tr.Tasks[2].Exec)
	}
	if logs[4].MachineID != "m1-2" {
		t.Errorf("machine id %q, want m1-2", logs[4].MachineID)
	}
}

// TestImportFiles runs Import on files and reads the results back with the
// package's own readers: the log for pet build, the trace for replay.
func TestImportFiles(t *testing.T) {
	dir := t.TempDir()
	src := writeFile(t, dir, "t.swf", []byte(swfFixture))
	rule, _ := trace.ParseDeadlineRule("tight")
	logPath, tracePath := filepath.Join(dir, "log.csv"), filepath.Join(dir, "trace.parquet")
	res, err := Import(context.Background(), []trace.Source{src}, logPath, tracePath, Options{Format: SWF, Deadline: &rule})
	if err != nil {
		t.Fatal(err)
	}
	logs, err := trace.ReadLogs(logPath, trace.ReadOptions{})
	if err != nil || len(logs) != 3 || logs[2].TaskType != "3" || logs[2].ExecTime != 20000 {
		t.Fatalf("log read back: %v %v", logs, err)
	}
	trs, err := trace.ReadTraces(tracePath, trace.ReadOptions{})
	if err != nil || len(trs[0].Tasks) != res.Tasks || !trs[0].HasDeadlines() {
		t.Fatalf("trace read back: %v", err)
	}
	// Nothing importable is bad input, and leaves no files behind.
	empty := writeFile(t, dir, "e.swf", []byte("; only comments\n"))
	_, err = Import(context.Background(), []trace.Source{empty}, filepath.Join(dir, "l2.csv"), filepath.Join(dir, "t2.csv"), Options{Format: SWF})
	wantInputError(t, err, "nothing could be imported")
	if m, _ := filepath.Glob(filepath.Join(dir, "*2*")); len(m) != 0 {
		t.Errorf("files left behind: %v", m)
	}
}

func TestParseTimeWindow(t *testing.T) {
	for _, c := range []struct {
		in       string
		from, to time.Duration
		bad      bool
	}{
		{in: "0:2h", to: 2 * time.Hour},
		{in: "1d:", from: 24 * time.Hour},
		{in: "3600:7200", from: time.Hour, to: 2 * time.Hour},
		{in: ":90m", to: 90 * time.Minute},
		{in: "2h:1h", bad: true},
		{in: "2h", bad: true},
		{in: "x:1h", bad: true},
	} {
		from, to, err := ParseTimeWindow(c.in)
		if (err != nil) != c.bad || from != c.from || to != c.to {
			t.Errorf("ParseTimeWindow(%q) = %v, %v, %v", c.in, from, to, err)
		}
	}
}

func ExampleImportRecords() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "cluster.swf")
	os.WriteFile(path, []byte("; MaxPartitions: 2\n"+
		"1 0 5 120 4 -1 -1 4 200 -1 1 1 1 3 1 1 -1 -1\n"+
		"2 30 0 60 4 -1 -1 4 200 -1 1 1 1 3 1 2 -1 -1\n"+
		"3 45 0 -1 4 -1 -1 4 200 -1 5 1 1 3 1 2 -1 -1\n"), 0o644)
	logs, tr, res, err := ImportRecords(context.Background(), []trace.Source{{Name: path, Path: path}}, Options{Format: SWF})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range logs {
		fmt.Printf("task type %s on partition %s: %g ms\n", r.TaskType, r.MachineType, r.ExecTime)
	}
	for _, k := range tr.Tasks {
		fmt.Printf("task %d of type %s arrives at %g ms\n", k.ID, k.Type, k.Arrival)
	}
	for _, b := range res.Bad.Reasons {
		fmt.Printf("%d row(s): %s (%s)\n", b.Rows, b.Reason, b.Effect)
	}
	// Output:
	// task type 3 on partition 1: 120000 ms
	// task type 3 on partition 2: 60000 ms
	// task 0 of type 3 arrives at 0 ms
	// task 1 of type 3 arrives at 30000 ms
	// task 2 of type 3 arrives at 45000 ms
	// 1 row(s): job cancelled (status 5) (no log record)
}

// TestImportTimeBound: times beyond MaxSeconds are bad rows, reported
// under their column, and never reach the log or the trace.
func TestImportTimeBound(t *testing.T) {
	job := func(n, submit, wait, run string) string {
		return n + " " + submit + " " + wait + " " + run + " 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n"
	}
	ok := job("1", "0", "0", "10")
	cases := []struct {
		name, row, reason string
		logs, tasks       int
	}{
		{"submit", job("2", "1e300", "0", "10"), "submit time beyond 1e+12 s", 1, 1},
		{"run", job("2", "5", "0", "1e300"), "run time beyond 1e+12 s", 1, 2},
		{"wait", job("2", "5", "1e300", "10"), "wait time beyond 1e+12 s", 1, 2},
		{"run at the bound", job("2", "5", "0", "1e12"), "", 2, 2},
	}
	for _, c := range cases {
		logs, tr, res := importMem(t, Options{Format: SWF}, [2]string{"a.swf", ok + c.row})
		if len(logs) != c.logs || len(tr.Tasks) != c.tasks {
			t.Errorf("%s: %d records and %d tasks, want %d and %d", c.name, len(logs), len(tr.Tasks), c.logs, c.tasks)
		}
		if c.reason != "" && res.Bad.Count(c.reason) != 1 {
			t.Errorf("%s: bad rows %+v lack %q", c.name, res.Bad.Reasons, c.reason)
		}
		for _, x := range tr.Tasks {
			if x.Arrival > 1e15 {
				t.Errorf("%s: arrival %v kept", c.name, x.Arrival)
			}
		}
	}
	// Google's 2^63-1 still means "after the trace", not a bad time.
	if !inTrace(1e17) || inTrace(math.MaxInt64) {
		t.Error("inTrace")
	}
}

// TestImportSamplesPerRowLimit: the option is bounded for every format.
func TestImportSamplesPerRowLimit(t *testing.T) {
	for _, n := range []int{-1, MaxSamplesPerRow + 1, 999999999999} {
		_, _, err := runImport(t.Context(), memInputs([2]string{"a.swf", "1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n"}),
			Options{Format: SWF, SamplesPerRow: n}, func(trace.LogRecord) error { return nil })
		if err == nil || !strings.Contains(err.Error(), "samples per duration row") {
			t.Errorf("SamplesPerRow %d: error %v", n, err)
		}
	}
}
