package sweep

import (
	"math"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/trace"
)

// trialsPET is a PET of task types a, b on machine types x, y, z.
func trialsPET(t *testing.T) *petbuild.PET {
	t.Helper()
	var cells []petbuild.Cell
	for i := range 6 {
		d, err := pmf.New(float64(i+1), 1, []float64{0.5, 0.5})
		if err != nil {
			t.Fatal(err)
		}
		cells = append(cells, petbuild.Cell{PMF: d})
	}
	pet, err := petbuild.New([]string{"a", "b"}, []string{"x", "y", "z"}, "ms", cells)
	if err != nil {
		t.Fatal(err)
	}
	return pet
}

func TestReplayTasksMapsTypesAndColumns(t *testing.T) {
	pet := trialsPET(t)
	nan := math.NaN()
	tr := &trace.Trace{Name: "t.csv", ExecTypes: []string{"z", "x"}, Tasks: []trace.Task{
		{ID: 7, Type: "b", Arrival: 1, Deadline: 9, Exec: []float64{30, 10}},
		{ID: 8, Type: "a", Arrival: 2, Deadline: nan, Exec: []float64{nan, 4}},
	}}
	tasks, err := ReplayTasks(tr, pet)
	if err != nil {
		t.Fatal(err)
	}
	// Columns z, x land on machine types 2 and 0; y, which the trace lacks, is NaN.
	want := []struct {
		id       int64
		ty       int
		arrival  float64
		observed []float64
	}{
		{7, 1, 1, []float64{10, nan, 30}},
		{8, 0, 2, []float64{4, nan, nan}},
	}
	if len(tasks) != len(want) {
		t.Fatalf("%d tasks, want %d", len(tasks), len(want))
	}
	for i, w := range want {
		got := tasks[i]
		if got.ID != w.id || got.Type != w.ty || got.Arrival != w.arrival {
			t.Errorf("task %d: id %d type %d arrival %v, want %d %d %v", i, got.ID, got.Type, got.Arrival, w.id, w.ty, w.arrival)
		}
		for j, v := range w.observed {
			if g := got.Observed[j]; g != v && !(math.IsNaN(g) && math.IsNaN(v)) {
				t.Errorf("task %d: observed[%d] = %v, want %v", i, j, g, v)
			}
		}
	}
	if tasks[0].Deadline != 9 || !math.IsNaN(tasks[1].Deadline) {
		t.Errorf("deadlines %v, %v: want 9, NaN", tasks[0].Deadline, tasks[1].Deadline)
	}
	if tasks2, _ := ReplayTasks(&trace.Trace{Name: "n", Tasks: []trace.Task{{Type: "a"}}}, pet); tasks2[0].Observed != nil {
		t.Error("a trace without exec columns gave observed durations")
	}
}

func TestReplayTasksNamesTheTrace(t *testing.T) {
	pet := trialsPET(t)
	for _, tt := range []struct {
		tr   *trace.Trace
		want string
	}{
		{&trace.Trace{Name: "t.csv", Tasks: []trace.Task{{ID: 3, Type: "c"}}}, `t.csv: task 3 has type "c", which the PET does not have`},
		{&trace.Trace{Name: "u.csv", ExecTypes: []string{"w"}}, "u.csv: column exec_w names a machine type the PET does not have"},
	} {
		_, err := ReplayTasks(tt.tr, pet)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("error %v, want %q", err, tt.want)
		}
	}
}
