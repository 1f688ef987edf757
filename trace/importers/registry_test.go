package importers

import (
	"slices"
	"strings"
	"testing"
)

// TestFormats: every format the package lists has a row here and imports its
// fixture into a trace with arrivals (and a log, when the source has
// execution times); a format added to readers without a row here fails.
// The task counts are those the format's own test works out by hand.
func TestFormats(t *testing.T) {
	inv := azureInvocations([][4]string{{"o1", "a1", "f1", "http"}}, []map[int]string{{1: "2"}})
	cases := []struct {
		format Format
		files  [][2]string
		tasks  int
		logs   bool
	}{
		{SWF, [][2]string{{"t.swf", swfFixture}}, 0, true},
		{Google2019, [][2]string{{"instance_events.csv", googleInstances}, {"collection_events.csv", googleCollections}, {"machine_events.csv", googleMachines}}, 0, true},
		{AlibabaPAI, [][2]string{{"pai_task_table.csv", paiFixture}}, 0, true},
		{Alibaba2018, [][2]string{{"batch_instance.csv", aliInstances}, {"machine_meta.csv", aliMachineMeta}}, 9, true},
		{AzureFunctions, [][2]string{{"function_durations_percentiles.anon.d01.csv", azureDurations}, {"invocations_per_function_md.anon.d01.csv", inv}}, 2, true},
		{AzureLLM, [][2]string{{"data/AzureLLMInferenceTrace_code.csv", llmFixture}}, 0, false},
		{E2C, [][2]string{{"etc.csv", e2cEET}, {"workload-0.csv", e2cWorkload}}, 0, true},
	}
	var listed []Format
	for _, c := range cases {
		listed = append(listed, c.format)
		logs, tr, res := importMem(t, Options{Format: c.format}, c.files...)
		if len(tr.Tasks) == 0 || (c.tasks > 0 && len(tr.Tasks) != c.tasks) {
			t.Errorf("%s: %d tasks, want %d (or some, for 0)", c.format, len(tr.Tasks), c.tasks)
		}
		if c.logs != (len(logs) > 0) || res.Format != c.format {
			t.Errorf("%s: %d log records (want some: %v), result format %s", c.format, len(logs), c.logs, res.Format)
		}
		for _, s := range []string{string(c.format), strings.ToUpper(string(c.format)), " " + string(c.format) + " "} {
			if f, err := ParseFormat(s); f != c.format || err != nil {
				t.Errorf("ParseFormat(%q) = %q, %v", s, f, err)
			}
		}
	}
	if !slices.Equal(listed, Formats()) {
		t.Errorf("the table has %v, Formats() %v (same order)", listed, Formats())
	}
	_, err := ParseFormat("swf2")
	if err == nil {
		t.Fatal("ParseFormat(swf2) accepted")
	}
	for _, f := range Formats() {
		if !strings.Contains(err.Error(), string(f)) {
			t.Errorf("error %q does not list %s", err, f)
		}
	}
}
