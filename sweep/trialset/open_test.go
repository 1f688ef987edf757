package trialset

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
)

// TestOpenReadsInTheTimeUnitGiven: a trace whose file does not say its time unit is read in
// the unit Input.Unit gives (here s, against the tiny PET's ms), and in ms without one.
func TestOpenReadsInTheTimeUnitGiven(t *testing.T) {
	pet := tinyPET(t)
	path := replaytest.LongTrace(t, 5, nil) // task 1 arrives at 0.7
	for _, c := range []struct {
		unit string
		want float64
	}{{"", 0.7}, {"ms", 0.7}, {"s", 700}} {
		trials, err := Open(Input{Spec: path, Unit: c.unit}, pet, func(string) {})
		if err != nil {
			t.Fatal(err)
		}
		tasks, err := trials[0].LoadTasks(new(Buffers))
		if err != nil {
			t.Fatal(err)
		}
		if got := tasks[1].Arrival; got != c.want {
			t.Errorf("--time-unit %q: task 1 arrives at %g ms, want %g", c.unit, got, c.want)
		}
	}
}

// TestDatTrialsTell: a set of HCW19 .dat trials against a PET whose types are named by their
// index tells nothing when opened (trace.DatIndexNote has nothing to say), and the repair of the
// first arrival once, naming the set's count when it has several trials and not when it has one.
func TestDatTrialsTell(t *testing.T) {
	pet := tinyPET(t)
	dir := t.TempDir()
	for i := 1; i <= 2; i++ { // slack 100 for type 0, 120 for type 1; the first arrival, 1.45, lost its "1."
		body := "taskCount=5;\n45 0 101.45;\n2 0 102;\n3.1 1 123.1;\n4.2 0 104.2;\n5 1 125;\n"
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("arr_%d.dat", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		spec string
		many bool
	}{{filepath.Join(dir, "arr_1.dat"), false}, {filepath.Join(dir, "arr_*.dat"), true}} {
		var told []string
		trials, err := Open(Input{Spec: c.spec}, pet, func(msg string) { told = append(told, msg) })
		if err != nil {
			t.Fatal(err)
		}
		if len(told) > 0 {
			t.Errorf("%s: opening told %q, want nothing", c.spec, told)
		}
		for _, tr := range trials {
			if _, err := tr.LoadTasks(new(Buffers)); err != nil {
				t.Fatal(err)
			}
		}
		if len(told) != 1 || !strings.Contains(told[0], "repaired the first task's arrival") ||
			strings.Contains(told[0], "every other of its 2 trials") != c.many {
			t.Errorf("%s: told %q, want the repair once, naming the set's 2 trials: %v", c.spec, told, c.many)
		}
	}
}

// TestStreamableNeedsDeadlines: without a deadline rule, a file with a task that has no deadline
// is not streamable (loading it says which task lacks one); with a rule, it is.
func TestStreamableNeedsDeadlines(t *testing.T) {
	pet := tinyPET(t)
	path := replaytest.LongTrace(t, 20, replaytest.RowAt(7, "7,1,4.9,"))
	for _, rule := range []string{"", "prop:1"} {
		trials, err := Open(Input{Spec: path, Deadline: rule}, pet, func(string) {})
		if err != nil {
			t.Fatal(err)
		}
		n, ok, err := trials[0].Streamable(t.Context())
		if err != nil || ok != (rule != "") || (ok && n != 20) {
			t.Errorf("rule %q: streamable %v (%d tasks, %v), want %v", rule, ok, n, err, rule != "")
		}
	}
}
