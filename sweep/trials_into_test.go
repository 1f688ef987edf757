package sweep

import (
	"reflect"
	"testing"

	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/trace"
)

// TestReplayTasksInto: the tasks ReplayTasks makes, in dst's storage when it holds them all,
// whatever dst held before (its observed durations too), and in new storage otherwise.
func TestReplayTasksInto(t *testing.T) {
	pet := trialsPET(t)
	tr := &trace.Trace{Name: "t", ExecTypes: []string{"z", "x", "y"}, Tasks: []trace.Task{
		{ID: 1, Type: "b", Arrival: 0, Deadline: 9},
		{ID: 2, Type: "a", Arrival: 1, Deadline: 8, Exec: []float64{3, 4, 5}},
	}}
	want, err := ReplayTasks(tr, pet)
	if err != nil {
		t.Fatal(err)
	}
	stale := replay.Task{ID: 7, Type: 1, Arrival: 5, Deadline: 6, Observed: []float64{1}}
	for _, c := range []struct {
		name  string
		dst   []replay.Task
		reuse bool
	}{
		{"room for 2, stale", []replay.Task{stale, stale}, true},
		{"room for 8, 1 held", append(make([]replay.Task, 0, 8), stale), true},
		{"room for 1", []replay.Task{stale}, false},
	} {
		got, err := ReplayTasksInto(c.dst, tr, pet)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, want %+v", c.name, got, want)
		}
		if reused := &got[0] == &c.dst[:1][0]; reused != c.reuse {
			t.Errorf("%s: in dst's storage: %v, want %v", c.name, reused, c.reuse)
		}
	}
	if got, _ := ReplayTasksInto(nil, &trace.Trace{Name: "empty"}, pet); got == nil {
		t.Error("no tasks and no storage lent: nil, want an empty slice as ReplayTasks has always given")
	}
}
