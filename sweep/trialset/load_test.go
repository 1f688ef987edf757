package trialset

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/trace"
)

// fresh is trial tr's replay tasks loaded with storage of their own, which nothing has used
// before: what a load with storage lent must give.
func fresh(t *testing.T, tr Trial) []replay.Task {
	t.Helper()
	tasks, err := tr.LoadTasks(new(Buffers))
	if err != nil {
		t.Fatal(err)
	}
	return tasks
}

// TestLoadTasksReusesStorage: trials loaded one after another with one Buffers give, each, the
// replay tasks a load on fresh storage gives, and a trial's tasks stay as they were once the next
// is loaded; the trace's storage is that of the load before whenever it is large enough. The
// trials come long, then short (the storage holds tasks of the longer one past the shorter's
// end), out of order (sorted in the storage), and as an HCW19 .dat file whose first arrival is
// repaired (re-sorted in it).
func TestLoadTasksReusesStorage(t *testing.T) {
	pet := tinyPET(t)
	dat := filepath.Join(t.TempDir(), "arr_1.dat")
	// Slack 100 for type 0 and 120 for type 1; the first arrival, 1.45, lost its "1.".
	if err := os.WriteFile(dat, []byte("taskCount=5;\n45 0 101.45;\n2 0 102;\n3.1 1 123.1;\n4.2 0 104.2;\n5 1 125;\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outOfOrder := replaytest.LongTrace(t, 40, func(i int, row string) string {
		switch i {
		case 3:
			return "3,1,3.5,9.5"
		case 4:
			return "4,0,2.0,8.0"
		}
		return row
	})
	paths := []string{replaytest.LongTrace(t, 60, nil), replaytest.LongTrace(t, 10, nil), outOfOrder, dat, replaytest.LongTrace(t, 50, nil)}
	var buf Buffers
	var first *trace.Task
	var slack *float64
	var earlier [][]replay.Task
	for i, path := range paths {
		tr := openTrial(t, pet, path)
		want := fresh(t, tr)
		got, err := tr.LoadTasks(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if path == dat && (len(got) != 5 || got[0].Arrival != 1.45 || got[0].ID != 0) {
			t.Errorf("the .dat trial's first task is %+v, want task 0 arriving at 1.45, repaired", got[0])
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("trial %d (%s): LoadTasks gave\n%v\nwant, on fresh storage,\n%v", i, path, got, want)
		}
		if cap(buf.tasks) < 60 || cap(buf.slacks) < 60 {
			t.Fatalf("trial %d: the storage kept holds %d tasks and %d slacks, want the first trial's 60", i, cap(buf.tasks), cap(buf.slacks))
		}
		if i == 0 {
			first, slack = &buf.tasks[:1][0], &buf.slacks[:1][0]
		} else if first != &buf.tasks[:1][0] || slack != &buf.slacks[:1][0] {
			t.Errorf("trial %d: read into new storage, though the first trial's is large enough", i)
		}
		earlier = append(earlier, got)
		for k, tasks := range earlier[:i] {
			if again := fresh(t, openTrial(t, pet, paths[k])); !reflect.DeepEqual(tasks, again) {
				t.Errorf("trial %d's tasks changed once trial %d was loaded", k, i)
			}
		}
	}
}

// TestOpenTakesListing: Open opens the sources of a listing made ahead (Input.Listed), not its
// spec's again, and refuses a spec whose listing failed with the error listing it gives.
func TestOpenTakesListing(t *testing.T) {
	pet := tinyPET(t)
	a, b := replaytest.LongTrace(t, 5, nil), replaytest.LongTrace(t, 7, nil)
	trials, err := Open(Input{Spec: a, Listed: Expand(b)}, pet, func(string) {})
	if err != nil || len(trials) != 1 || trials[0].Name() != b {
		t.Errorf("Open of %s listed as %s: %d trials (%v), want %s's", a, b, len(trials), err, b)
	}
	missing := filepath.Join(t.TempDir(), "none-*.csv")
	_, want := Open(Input{Spec: missing}, pet, func(string) {})
	_, got := Open(Input{Spec: missing, Listed: Expand(missing)}, pet, func(string) {})
	if want == nil || got == nil || got.Error() != want.Error() {
		t.Errorf("a glob that matches nothing, listed ahead: %v, want %v", got, want)
	}
}

// TestLoadWarnsOfImplausibleSlack: loading a trial warns when the median slack (deadline −
// arrival) of its first 1,000 tasks with a deadline is implausible for the PET, whose mean
// execution time is a few time units (petbuild.PET.ImplausibleSlack: under a twentieth of it, or
// over a thousand times it), and only then, however late the tasks arrive.
func TestLoadWarnsOfImplausibleSlack(t *testing.T) {
	pet := tinyPET(t)
	if m := pet.GlobalMean(); m < 1 || m > 10 {
		t.Fatalf("the tiny PET's mean execution time is %g: the cases below assume a few units", m)
	}
	slack := func(n int, at func(i int) float64, s func(i int) float64) string {
		return replaytest.LongTrace(t, n, func(i int, _ string) string {
			return fmt.Sprintf("%d,%d,%s,%s", i, i%2, ftoa(at(i)), ftoa(at(i)+s(i)))
		})
	}
	early := func(i int) float64 { return 0.7 * float64(i) }
	late := func(i int) float64 { return 10000 + 0.7*float64(i) }
	for _, c := range []struct {
		name string
		path string
		warn bool
	}{
		{"slack 6", slack(50, early, func(int) float64 { return 6 }), false},
		{"slack 6, arriving late", slack(50, late, func(int) float64 { return 6 }), false},
		{"slack 6000", slack(50, early, func(int) float64 { return 6000 }), true},
		{"slack 0.01", slack(50, early, func(int) float64 { return 0.01 }), true},
		// The first 1,000 tasks: 500 with slack 0.01 and 500 with 10, median 10; those after,
		// all 0.01, would have made it 0.01.
		{"median of the first 1000", slack(1010, early, func(i int) float64 {
			if i >= 500 && i < 1000 {
				return 10
			}
			return 0.01
		}), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var told []string
			trials, err := Open(Input{Spec: c.path}, pet, func(msg string) { told = append(told, msg) })
			if err != nil {
				t.Fatal(err)
			}
			if _, err := trials[0].LoadTasks(new(Buffers)); err != nil {
				t.Fatal(err)
			}
			if warned := len(told) == 1 && strings.Contains(told[0], "another time unit"); warned != c.warn || len(told) > 1 {
				t.Errorf("told %q; want a warning of the time unit: %v", told, c.warn)
			}
		})
	}
}

// TestLoadTasksIntoReusesReplayStorage: LoadTasksInto gives the replay tasks of a load on fresh
// storage, in the storage
// of the load before when it holds them all (longest trial first), and LoadTasks with the same
// buffers leaves that storage alone: its tasks are the caller's.
func TestLoadTasksIntoReusesReplayStorage(t *testing.T) {
	pet := tinyPET(t)
	paths := []string{replaytest.LongTrace(t, 60, nil), replaytest.LongTrace(t, 10, nil), replaytest.LongTrace(t, 50, nil)}
	var buf Buffers
	var first *replay.Task
	for i, path := range paths {
		tr := openTrial(t, pet, path)
		want := fresh(t, tr)
		got, err := tr.LoadTasksInto(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("trial %d: LoadTasksInto gave\n%v\nwant, on fresh storage,\n%v", i, got, want)
		}
		if i == 0 {
			first = &got[0]
		} else if &got[0] != first {
			t.Errorf("trial %d: replay tasks in new storage, though the first trial's holds them", i)
		}
		kept, err := tr.LoadTasks(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if &kept[0] == first || !reflect.DeepEqual(kept, want) {
			t.Errorf("trial %d: LoadTasks gave tasks in the lent storage, or other tasks than on fresh storage", i)
		}
	}
}
