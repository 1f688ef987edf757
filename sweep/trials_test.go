package sweep

import (
	"errors"
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

func TestGenerateLevel(t *testing.T) {
	pet := trialsPET(t)
	gen := DefaultGenerate()
	gen.Rate, gen.Tasks, gen.Deadline = 0.5, 50, "best:1"
	at := func(key string) string { return "grid.yaml: levels[0]" + key }
	lt, err := GenerateLevel(Level{Name: "g", Generate: gen, Trials: 3}, pet, at)
	if err != nil {
		t.Fatal(err)
	}
	if lt.Rate != 0.5 || len(lt.Trials) != 3 {
		t.Fatalf("rate %v, %d trials: want 0.5, 3", lt.Rate, len(lt.Trials))
	}
	// best:1 is arrival + the fastest cell's mean: 1.5 for a (cells 1..2 on x), 4.5 for b.
	slack := []float64{1.5, 4.5}
	for i, tr := range lt.Trials {
		if want := "trial=" + string(rune('1'+i)); !strings.HasSuffix(tr.Source, want) {
			t.Errorf("trial %d: source %q, want it to end in %s", i+1, tr.Source, want)
		}
		if len(tr.Tasks) != 50 {
			t.Errorf("trial %d: %d tasks, want 50", i+1, len(tr.Tasks))
		}
		for _, task := range tr.Tasks {
			if d := task.Deadline - task.Arrival; math.Abs(d-slack[task.Type]) > 1e-9 {
				t.Errorf("trial %d task %d (type %d): deadline %v after arrival, want %v", i+1, task.ID, task.Type, d, slack[task.Type])
			}
		}
	}
	// Trial t depends only on the settings and t, not on how many trials the level has.
	one, err := GenerateLevel(Level{Name: "g", Generate: gen, Trials: 1}, pet, at)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := one.Trials[0], lt.Trials[0]; a.Source != b.Source || len(a.Tasks) != len(b.Tasks) || a.Tasks[49].Arrival != b.Tasks[49].Arrival || a.Tasks[49].Type != b.Tasks[49].Type {
		t.Error("trial 1 of a 1-trial level differs from trial 1 of a 3-trial level")
	}
	if a, b := lt.Trials[0].Tasks, lt.Trials[1].Tasks; a[0].Arrival == b[0].Arrival && a[49].Arrival == b[49].Arrival {
		t.Error("trials 1 and 2 have the same arrivals")
	}
}

func TestGenerateLevelNamesTheKey(t *testing.T) {
	pet := trialsPET(t)
	at := func(key string) string { return "levels[0]" + key }
	for _, tt := range []struct {
		set  func(*Generate)
		want string
	}{
		{func(g *Generate) { g.Pattern = "wobbly" }, "levels[0].generate.pattern: "},
		{func(g *Generate) { g.Deadline = "best:4" }, "levels[0].generate.deadline: deadline rule \"best:4\": want best:K with 1 ≤ K ≤ 3"},
	} {
		gen := DefaultGenerate()
		gen.Rate = 0.5
		tt.set(gen)
		_, err := GenerateLevel(Level{Name: "g", Generate: gen, Trials: 1}, pet, at)
		var ie InputError
		if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("error %v, want an InputError starting %q", err, tt.want)
		}
	}
}
