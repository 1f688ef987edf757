package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraceImportReplay imports a small trace of every format through the command line, fits a
// PET to the imported log and replays the imported arrivals with it: the whole path a user takes
// from a production trace to a what-if replay. The expected task counts come from the fixtures.
func TestTraceImportReplay(t *testing.T) {
	inv := "HashOwner,HashApp,HashFunction,Trigger"
	row := "o,a,f1,http"
	for m := 1; m <= 1440; m++ {
		inv += fmt.Sprintf(",%d", m)
		row += map[bool]string{true: ",3", false: ",0"}[m == 2]
	}
	cases := []struct {
		from  string
		files map[string]string
		tasks float64
		bad   string // a reason the summary must list
		args  []string
	}{
		{from: "swf", tasks: 5, bad: "job cancelled (status 5)", files: map[string]string{"a.swf": "; MaxPartitions: 2\n" +
			"1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n2 3 0 20 1 -1 -1 1 10 -1 1 1 1 1 1 2 -1 -1\n" +
			"3 6 0 30 1 -1 -1 1 10 -1 1 1 1 2 1 1 -1 -1\n4 9 0 40 1 -1 -1 1 10 -1 1 1 1 2 1 2 -1 -1\n" +
			"5 12 0 -1 1 -1 -1 1 10 -1 5 1 1 2 1 2 -1 -1\n"}},
		{from: "google2019", tasks: 4, bad: "run ended by EVICT", files: map[string]string{
			"machine_events.csv":    "time,machine_id,type,platform_id\n0,1,1,PA\n0,2,1,PB\n",
			"collection_events.csv": "time,type,collection_id,collection_logical_name\n0,0,10,x\n0,0,20,y\n",
			"instance_events.csv": "time,type,collection_id,instance_index,machine_id\n" +
				"1000000,0,10,0,\n1000000,3,10,0,1\n3000000,6,10,0,1\n2000000,0,10,1,\n2000000,3,10,1,2\n2500000,4,10,1,2\n" +
				"2600000,3,10,1,2\n5000000,6,10,1,2\n3000000,0,20,0,\n3000000,3,20,0,1\n4000000,6,20,0,1\n" +
				"4000000,0,20,1,\n4000000,3,20,1,2\n8000000,6,20,1,2\n"}},
		{from: "alibaba-pai", tasks: 5, bad: "status Failed (not Terminated)", files: map[string]string{"pai_task_table.csv": "" +
			"j1,worker,1,Terminated,10,70,600,29,100,T4\nj2,worker,1,Terminated,20,50,600,29,100,V100\n" +
			"j3,ps,1,Terminated,30,40,600,29,,T4\nj4,ps,1,Terminated,40,45,600,29,,V100\nj5,ps,1,Failed,50,60,600,29,,V100\n"}},
		{from: "alibaba2018", tasks: 4, bad: "end_time before start_time", files: map[string]string{"batch_task.csv": "" +
			"M1,1,j1,1,Terminated,10,20,100,0.5\nR2_1,1,j1,2,Terminated,20,50,100,0.5\nM1,1,j2,1,Terminated,30,35,100,0.5\n" +
			"M1,1,j3,2,Terminated,40,30,100,0.5\nM1,1,j4,2,Terminated,0,0,100,0.5\n"}},
		{from: "azure-functions", tasks: 3, bad: "percentiles negative or decreasing", files: map[string]string{
			"invocations_per_function_md.anon.d01.csv": inv + "\n" + row + "\n",
			"function_durations_percentiles.anon.d01.csv": "HashOwner,HashApp,HashFunction,Average,Count,Minimum,Maximum," +
				"percentile_Average_0,percentile_Average_1,percentile_Average_25,percentile_Average_50,percentile_Average_75,percentile_Average_99,percentile_Average_100\n" +
				"o,a,f1,50,20,10,100,10,12,30,50,70,98,100\no,a,f9,5,3,9,1,9,8,7,6,5,4,3\n"}},
		{from: "e2c", tasks: 3, bad: "arrival_time not a number", files: map[string]string{"workload-1.csv": "" +
			"task_type,arrival_time,est_m1,est_m2,ext_m1-1,ext_m2-1\nT1,0,1,2,1.5,2.5\nT2,0.5,3,1,3.5,1.5\nT2,1,3,1,2.5,1.2\nT1,x,1,1,1,1\n"}},
	}
	for _, c := range cases {
		t.Run(c.from, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"trace", "import", "--from", c.from, "--out", filepath.Join(dir, "out")}
			for name, body := range c.files {
				p := filepath.Join(dir, name)
				writeFile(t, p, body)
				args = append(args, p)
			}
			summary := mustCLI(t, args...)
			if !strings.Contains(summary, c.bad) || summaryValue(summary, "tasks (arrivals)") != fmt.Sprint(c.tasks) {
				t.Errorf("summary lacks %q or %g tasks:\n%s", c.bad, c.tasks, summary)
			}
			replayImported(t, filepath.Join(dir, "out"), c.tasks)
		})
	}
}

// replayImported fits a PET to DIR/log.csv and replays DIR/trace.csv, checking the task count.
func replayImported(t *testing.T, dir string, tasks float64, extra ...string) {
	t.Helper()
	pet := filepath.Join(dir, "pet.json")
	mustCLI(t, "pet", "build", filepath.Join(dir, "log.csv"), "--out", pet, "--min-samples", "1", "--binning", "width:10")
	out := mustCLI(t, append([]string{"replay", "--pet", pet, "--trace", filepath.Join(dir, "trace.csv"), "-H", "MM", "--trim", "0", "--json"}, extra...)...)
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("replay --json: %v\n%s", err, out)
	}
	if got["tasks"] != tasks || got["scored"] != tasks {
		t.Errorf("replay: %v tasks, %v scored; want %g", got["tasks"], got["scored"], tasks)
	}
}

// TestTraceImportLLM imports the arrival-only LLM trace and replays it with a PET built from a
// separate log of its task type, synthesizing deadlines at replay time.
func TestTraceImportLLM(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "AzureLLMInferenceTrace_code.csv")
	writeFile(t, src, "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.6805900,4808,10\n"+
		"2023-11-16 18:15:47.1000000,100,3\n2023-11-16 18:15:49.0000000,200,3\n")
	out := filepath.Join(dir, "out")
	summary := mustCLI(t, "trace", "import", "--from", "azure-llm", src, "--out", out)
	if !strings.Contains(summary, "no execution times") {
		t.Errorf("summary lacks the note on missing execution times:\n%s", summary)
	}
	writeFile(t, filepath.Join(out, "log.csv"), "task_type,machine_type,exec_time\ncode,gpu,300\ncode,gpu,500\ncode,cpu,900\n")
	replayImported(t, out, 3, "--deadline", "prop:1")
}

// TestTraceImportBadInput: unreadable or unrecognisable input and bad flags exit 2 with a message.
func TestTraceImportBadInput(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.csv")
	writeFile(t, junk, "a,b\n1,2\n")
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--from", "google2019", junk}, "not a Google 2019"},
		{[]string{"--from", "swf", junk}, "nothing could be imported"},
		{[]string{"--from", "swf", filepath.Join(dir, "missing.swf")}, "missing.swf"},
		{[]string{"--from", "swf", "--sample", "0", junk}, "--sample"},
		{[]string{"--from", "swf", "--time-window", "2h:1h", junk}, "--time-window"},
		{[]string{"--from", "swf", "--task-type", "colour", junk}, "colour"},
	} {
		code, _, errText := cli(t, append([]string{"trace", "import", "--out", filepath.Join(dir, "o")}, c.args...)...)
		if code != 2 || !strings.Contains(errText, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errText, c.msg)
		}
	}
}

// summaryValue returns the value of a row of the import summary table.
func summaryValue(summary, row string) string {
	for _, line := range strings.Split(summary, "\n") {
		if _, rest, ok := strings.Cut(line, row); ok {
			return strings.Trim(rest, " │|")
		}
	}
	return ""
}
