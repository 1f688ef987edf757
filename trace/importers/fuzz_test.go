package importers

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/trace"
)

// The importers' fuzz targets: any bytes may be rejected, but only with an
// error (never a panic), and whatever is accepted must be valid records and
// a valid trace, whose times are within MaxSeconds (execution times) or
// twice it (arrivals, which are shifted to start at 0). Multi-file formats get their files from one input split at
// "\n===\n". The seeds are the unit tests' fixtures.

func fuzzImport(f *testing.F, format Format, names []string, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		parts := strings.SplitN(string(data), "\n===\n", len(names))
		files := make([][2]string, len(parts))
		for i, p := range parts {
			files[i] = [2]string{names[i], p}
		}
		rule, _ := trace.ParseDeadlineRule("prop:1")
		const maxMs = trace.MaxSeconds * 1000 // the default output unit is ms
		var logs int64
		tr, res, err := runImport(context.Background(), memInputs(files...), Options{Format: format, Deadline: &rule},
			func(r trace.LogRecord) error {
				if r.TaskType == "" || r.MachineType == "" || !(r.ExecTime > 0 && r.ExecTime <= maxMs) {
					t.Fatalf("invalid record %+v", r)
				}
				logs++
				return nil
			})
		if err != nil {
			var ie *trace.InputError
			if !errors.As(err, &ie) || err.Error() == "" {
				t.Fatalf("error %v (%T) is not an *InputError", err, err)
			}
			return
		}
		if err := tr.Check(); err != nil {
			t.Fatalf("invalid trace: %v", err)
		}
		if res.LogRecords != logs || res.Tasks != len(tr.Tasks) {
			t.Fatalf("result counts %d records %d tasks, saw %d and %d", res.LogRecords, res.Tasks, logs, len(tr.Tasks))
		}
		for i, k := range tr.Tasks {
			if k.ID != int64(i) || !(k.Arrival >= 0 && k.Arrival <= 2*maxMs) || (i > 0 && k.Arrival < tr.Tasks[i-1].Arrival) {
				t.Fatalf("task %d: %+v", i, k)
			}
		}
	})
}

func join(files ...string) string { return strings.Join(files, "\n===\n") }

func FuzzImportSWF(f *testing.F) {
	fuzzImport(f, SWF, []string{"f.swf"}, swfFixture, "1 0 0 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1\n", ";\n\n",
		"1 1e308 0 1e308 1 1 1 1 1 1 1 1 1 1 1 1 1 1\n2 1 0 1e305 1 1 1 1 1 1 1 1 1 1 1 1 1 1\n")
}

func FuzzImportGoogle(f *testing.F) {
	fuzzImport(f, Google2019, []string{"m.csv", "c.csv", "i.csv"}, join(googleMachines, googleCollections, googleInstances),
		join("machine_id,platform_id\n1,P\n", "collection_id,collection_name\n1,a\n", "time,type,collection_id,instance_index,machine_id\n1,0,1,0,\n2,3,1,0,1\n3,6,1,0,1\n"))
}

func FuzzImportAlibabaPAI(f *testing.F) {
	fuzzImport(f, AlibabaPAI, []string{"pai.csv"}, paiFixture, strings.Join(paiTaskFields, ",")+"\n"+"j,w,1,Terminated,1,2,1,1,1,T4\n")
}

func FuzzImportAlibaba2018(f *testing.F) {
	fuzzImport(f, Alibaba2018, []string{"instance.csv", "meta.csv"}, join(aliInstances, aliMachineMeta),
		"M1,1,j1,1,Terminated,1,2,100,0.5\nM2,1,j1,1,Terminated,0,0,100,0.5\n")
}

func FuzzImportAzureFunctions(f *testing.F) {
	inv := azureInvocations([][4]string{{"o", "a", "f1", "http"}}, []map[int]string{{1: "3", 1440: "1"}})
	fuzzImport(f, AzureFunctions, []string{"inv.d01.csv", "dur.d01.csv"}, join(inv, azureDurations),
		join("HashOwner,HashApp,HashFunction,Trigger,1,2\no,a,f1,http,1,2\n", azureDurations))
}

func FuzzImportAzureLLM(f *testing.F) {
	fuzzImport(f, AzureLLM, []string{"AzureLLMInferenceTrace_conv.csv"}, llmFixture, "TIMESTAMP\n2023-11-16T18:15:46Z\n")
}

func FuzzImportE2C(f *testing.F) {
	fuzzImport(f, E2C, []string{"etc.csv", "workload.csv"}, join(e2cEET, e2cWorkload), "task_type_id,arrival_time,ext_a\n1,0,1\n")
}
