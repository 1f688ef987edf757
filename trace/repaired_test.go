package trace

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// damagedDat is a .dat trial with the HCW19 defect made by hand: task 0 arrived at 0.99 with
// deadline 176.42 (slack 175.43, as every task of type 0), but its line lost "0." and reads 99.
const damagedDat = "taskCount=3;\n99 0 176.42;\n5 0 180.43;\n7 0 182.43;\n"

func writeTrialFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadRepaired(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name, text string
		repaired   bool
		first      float64 // arrival of the first task after reading
		warnings   int
	}{
		// Repaired: 0.99 comes first, and the out-of-order warning the defect caused is gone.
		{"a.dat", damagedDat, true, 0.99, 0},
		// The same rows as CSV are not an HCW19 trial: read as written, with the warning.
		{"b.csv", "arrival,task_type,deadline\n99,0,176.42\n5,0,180.43\n7,0,182.43\n", false, 5, 1},
		// An undamaged .dat is left alone.
		{"c.dat", "taskCount=2;\n.99 0 176.42;\n5 0 180.43;\n", false, 0.99, 0},
	} {
		path := writeTrialFile(t, dir, tt.name, tt.text)
		var warned []string
		opt := ReadOptions{TypeIndex: []string{"0"}, Warn: func(e *InputError) { warned = append(warned, e.Error()) }}
		tr, repaired, err := ReadRepaired(Source{Name: tt.name, Path: path}, opt)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if repaired != tt.repaired || tr.Tasks[0].Arrival != tt.first || len(warned) != tt.warnings {
			t.Errorf("%s: repaired %v, first arrival %v, warnings %q; want %v, %v, %d", tt.name, repaired, tr.Tasks[0].Arrival, warned, tt.repaired, tt.first, tt.warnings)
		}
	}
}

func TestReadRepairedTracesTellsOnce(t *testing.T) {
	dir := t.TempDir()
	writeTrialFile(t, dir, "x1.dat", damagedDat)
	writeTrialFile(t, dir, "x2.dat", damagedDat)
	writeTrialFile(t, dir, "x3.dat", "taskCount=1;\n.99 0 176.42;\n")
	var warned []string
	trs, err := ReadRepairedTraces(filepath.Join(dir, "*.dat"), ReadOptions{TypeIndex: []string{"0"}}, func(s string) { warned = append(warned, s) })
	if err != nil {
		t.Fatal(err)
	}
	if len(trs) != 3 || len(warned) != 1 || !strings.Contains(warned[0], "repaired the first task's arrival in 2 of 3 trials") {
		t.Errorf("%d traces, warnings %q: want 3 traces and one warning naming 2 of 3 trials", len(trs), warned)
	}
}

func TestDatIndexNote(t *testing.T) {
	for _, tt := range []struct {
		types []string
		want  string // "" for no note, else a part of it
	}{
		{[]string{"0", "1", "2"}, ""},               // numbers at their own positions: one reading
		{[]string{"a", "b"}, ""},                    // names: a .dat index can only be a position
		{[]string{"1", "2"}, `type "1" at index 0`}, // .dat "1" is type "2" here
		{[]string{"a", "7"}, `type "7" at index 1`},
		{[]string{"5"}, `(0 is "5", 1 is "5", ...)`}, // one type: no second to name
	} {
		got := DatIndexNote(tt.types)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%q: note %q, want one containing %q", tt.types, got, tt.want)
		}
	}
}

// TestReadRepairedIntoReuses: ReadRepairedInto gives what ReadRepaired gives, repaired and
// re-sorted, in the storage it is lent when that holds the file's declared task count (here
// exactly 3, and 64 with other tasks in it), and in new storage when it holds fewer.
func TestReadRepairedIntoReuses(t *testing.T) {
	src := Source{Name: "a.dat", Path: writeTrialFile(t, t.TempDir(), "a.dat", damagedDat)}
	opt := ReadOptions{TypeIndex: []string{"0"}}
	want, repaired, err := ReadRepaired(src, opt)
	if err != nil || !repaired {
		t.Fatalf("ReadRepaired: repaired %v, %v", repaired, err)
	}
	stale := Task{ID: 42, Type: "stale", Arrival: 1, Deadline: 2}
	for _, c := range []struct {
		name  string
		into  []Task
		reuse bool
	}{
		{"room for exactly 3", make([]Task, 0, 3), true},
		{"room for 64, 2 held", append(make([]Task, 0, 64), stale, stale), true},
		{"room for 2", append(make([]Task, 0, 2), stale), false},
	} {
		got, fixed, err := ReadRepairedInto(src, opt, c.into)
		if err != nil || !fixed {
			t.Fatalf("%s: repaired %v, %v", c.name, fixed, err)
		}
		if !reflect.DeepEqual(got.Tasks, want.Tasks) {
			t.Errorf("%s: tasks %+v, want %+v", c.name, got.Tasks, want.Tasks)
		}
		if reused := &got.Tasks[0] == &c.into[:1][0]; reused != c.reuse {
			t.Errorf("%s: read into the storage lent: %v, want %v", c.name, reused, c.reuse)
		}
	}
}
