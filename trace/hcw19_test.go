package trace

import (
	"archive/zip"
	"bufio"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// datOracle parses an HCW19 .dat member with nothing but strings.Fields, as
// an independent check of the reader. It returns the tasks in file order.
func datOracle(t *testing.T, zipPath, member string) []Task {
	t.Helper()
	zr, err := zip.OpenReader(zipPath)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	f, err := zr.Open(member)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if !strings.HasPrefix(lines[0], "taskCount=") {
		t.Fatalf("unexpected header %q", lines[0])
	}
	var out []Task
	for i, l := range lines[1:] {
		f := strings.Fields(strings.TrimSuffix(strings.TrimSpace(l), ";"))
		if len(f) != 3 {
			t.Fatalf("line %d: %q", i+2, l)
		}
		a, err1 := strconv.ParseFloat(f[0], 64)
		typ, err2 := strconv.Atoi(f[1])
		d, err3 := strconv.ParseFloat(f[2], 64)
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("line %d: %q", i+2, l)
		}
		out = append(out, Task{ID: int64(i), Type: strconv.Itoa(typ), Arrival: a, Deadline: d})
	}
	return out
}

func sameTasks(t *testing.T, what string, got, want []Task, compareIDs bool) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d tasks, want %d", what, len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Type != w.Type || g.Arrival != w.Arrival || !(g.Deadline == w.Deadline || (math.IsNaN(g.Deadline) && math.IsNaN(w.Deadline))) ||
			(compareIDs && g.ID != w.ID) {
			t.Fatalf("%s: task %d = %+v, want %+v", what, i, g, w)
		}
	}
}

// TestHCW19DatConvertsUnchanged reads one real trial, checks it against the
// oracle, and converts it to every format and back.
func TestHCW19DatConvertsUnchanged(t *testing.T) {
	dir := hcw19Dir(t)
	zipPath := filepath.Join(dir, "constant.zip")
	member := "arr/arr19k_1.dat"
	want := datOracle(t, zipPath, member)
	sort.SliceStable(want, func(i, j int) bool { return want[i].Arrival < want[j].Arrival })

	srcs, err := Expand(zipPath + "#" + member)
	if err != nil || len(srcs) != 1 {
		t.Fatalf("Expand: %v %v", srcs, err)
	}
	var warnings []*InputError
	tr, err := ReadTrace(srcs[0], ReadOptions{Warn: func(e *InputError) { warnings = append(warnings, e) }})
	if err != nil {
		t.Fatal(err)
	}
	sameTasks(t, "dat", tr.Tasks, want, true)
	// The first line of this file is the damaged "99 10 176.42;" (see
	// RepairHCW19FirstArrival), so the reader must have warned once.
	if len(warnings) != 1 || warnings[0].Line != 3 {
		t.Errorf("warnings = %v, want one about line 3", warnings)
	}

	out := t.TempDir()
	for _, name := range []string{"t.csv", "t.parquet", "t.jsonl", "t.csv.zst", "t.jsonl.gz"} {
		p := filepath.Join(out, name)
		if err := WriteTrace(p, tr, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		back, err := ReadTrace(fileSource(p), ReadOptions{Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		sameTasks(t, name, back.Tasks, tr.Tasks, true)
		if back.Unit != Millisecond {
			t.Errorf("%s: unit %q", name, back.Unit)
		}
		// And back to .dat: ids are renumbered, everything else is kept.
		dat := filepath.Join(out, name+".dat")
		if err := WriteTrace(dat, back, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		again, err := ReadTrace(fileSource(dat), ReadOptions{Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		sameTasks(t, name+".dat", again.Tasks, tr.Tasks, false)
	}
}

// etcTypeMeans computes, independently of any PET code, each task type's
// mean over machines of the cell means of an HCW19 .etc file, normalising
// each cell's probabilities as the original generator did.
func etcTypeMeans(t *testing.T, path string) map[string]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type key struct{ m, t int }
	num, den := map[key]float64{}, map[key]float64{}
	var cur key
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case l == "" || strings.HasPrefix(l, "machineCount"):
		case strings.HasPrefix(l, "machine="):
			var m, tt int
			if _, err := fmtSscanf(l, &m, &tt); err != nil {
				t.Fatal(err)
			}
			cur = key{m, tt}
		default:
			fs := strings.Fields(l)
			x, _ := strconv.ParseFloat(fs[0], 64)
			p, _ := strconv.ParseFloat(fs[1], 64)
			num[cur] += x * p
			den[cur] += p
		}
	}
	sums, counts := map[int]float64{}, map[int]int{}
	for k := range num {
		sums[k.t] += num[k] / den[k]
		counts[k.t]++
	}
	out := map[string]float64{}
	for tt, s := range sums {
		out[strconv.Itoa(tt)] = s / float64(counts[tt])
	}
	return out
}

// TestHCW19DeadlinesAreProp1 checks the prop rule against the real files:
// every deadline of every 19k trial is arrival + m_type + 1·m_global, to the
// files' two decimals, once the damaged first line is repaired.
func TestHCW19DeadlinesAreProp1(t *testing.T) {
	dir := hcw19Dir(t)
	means := NewTypeMeans(etcTypeMeans(t, filepath.Join(dir, "classes_2.etc")))
	rule, err := ParseDeadlineRule("prop:1")
	if err != nil {
		t.Fatal(err)
	}
	trs, err := ReadTraces(filepath.Join(dir, "constant.zip")+"#arr/arr19k_*.dat", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(trs) != 30 {
		t.Fatalf("%d trials", len(trs))
	}
	for _, tr := range trs {
		RepairHCW19FirstArrival(tr)
		for _, task := range tr.Tasks {
			d, err := rule.Deadline(task.Type, task.Arrival, means, nil)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(d-task.Deadline) > 0.0051 {
				t.Fatalf("%s task %d: prop:1 gives %.4f, file has %.2f", tr.Name, task.ID, d, task.Deadline)
			}
		}
	}
}

func TestHCW19Repair(t *testing.T) {
	dir := hcw19Dir(t)
	for _, c := range []struct {
		member  string
		arrival float64 // the repaired arrival of task 0
	}{
		{"arr/arr19k_1.dat", 0.99}, // "99 10 176.42;": two bytes lost
		{"arr/arr3k_1.dat", 16.47}, // "6.47 0 191.9;": one byte lost
	} {
		tr, err := ReadTrace(Source{Name: c.member, Path: filepath.Join(dir, "constant.zip"), Member: c.member}, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !RepairHCW19FirstArrival(tr) {
			t.Errorf("%s: not repaired", c.member)
		}
		for _, task := range tr.Tasks {
			if task.ID == 0 && task.Arrival != c.arrival {
				t.Errorf("%s: task 0 arrives at %v, want %v", c.member, task.Arrival, c.arrival)
			}
		}
	}
	// Every published trial: after the repair, arrivals are sorted and all
	// tasks of a type share one slack; the counts are those the doc states.
	for _, c := range []struct {
		spec     string
		repaired int
	}{
		{filepath.Join(dir, "constant.zip") + "#arr/*.dat", 502},
		{filepath.Join(dir, "spiky.zip") + "#spk/*.dat", 102},
	} {
		trs, err := ReadTraces(c.spec, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		repaired := 0
		for _, tr := range trs {
			if RepairHCW19FirstArrival(tr) {
				repaired++
			}
			checkSlackInvariant(t, tr)
			if RepairHCW19FirstArrival(tr) {
				t.Errorf("%s: a second repair changed something", tr.Name)
			}
		}
		if repaired != c.repaired {
			t.Errorf("%s: repaired %d trials, want %d", c.spec, repaired, c.repaired)
		}
	}
}

func checkSlackInvariant(t *testing.T, tr *Trace) {
	t.Helper()
	slack := map[string][2]float64{}
	for i, task := range tr.Tasks {
		if i > 0 && task.Arrival < tr.Tasks[i-1].Arrival {
			t.Errorf("%s: not sorted at %d", tr.Name, i)
		}
		s := task.Deadline - task.Arrival
		r, ok := slack[task.Type]
		if !ok {
			r = [2]float64{s, s}
		}
		slack[task.Type] = [2]float64{min(r[0], s), max(r[1], s)}
	}
	for typ, r := range slack {
		if r[1]-r[0] > 0.011 {
			t.Errorf("%s: type %s slack ranges over %v after repair", tr.Name, typ, r)
		}
	}
}

// TestHCW19SpikyDeadlinesUseShiftedType pins a quirk documented in doc.go:
// the spiky trials' deadlines of type k were computed from PET row k-1
// (row 11 for type 0).
func TestHCW19SpikyDeadlinesUseShiftedType(t *testing.T) {
	dir := hcw19Dir(t)
	perType := etcTypeMeans(t, filepath.Join(dir, "classes_2.etc"))
	global := NewTypeMeans(perType).Global
	tr, err := ReadTrace(Source{Name: "spk", Path: filepath.Join(dir, "spiky.zip"), Member: "spk/spk20k800_1.dat"}, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	RepairHCW19FirstArrival(tr)
	for _, task := range tr.Tasks {
		k, _ := strconv.Atoi(task.Type)
		want := task.Arrival + perType[strconv.Itoa((k+11)%12)] + global
		if math.Abs(want-task.Deadline) > 0.0051 {
			t.Fatalf("task %d type %d: deadline %v, shifted prop:1 gives %.4f", task.ID, k, task.Deadline, want)
		}
	}
}

// TestDefaultPeriodMatchesHCW19 is the evidence for DefaultPeriod: the
// arrival rate of the real 19k trials is within 5% of 19000/DefaultPeriod.
func TestDefaultPeriodMatchesHCW19(t *testing.T) {
	dir := hcw19Dir(t)
	trs, err := ReadTraces(filepath.Join(dir, "constant.zip")+"#arr/arr19k_*.dat", ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, tr := range trs {
		RepairHCW19FirstArrival(tr)
		n := len(tr.Tasks)
		sum += float64(n-1) / (tr.Tasks[n-1].Arrival - tr.Tasks[0].Arrival)
	}
	measured := sum / float64(len(trs))
	want, err := LevelRate("19k", 0)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(measured/want-1) > 0.05 {
		t.Errorf("19k: measured rate %.4f, LevelRate %.4f", measured, want)
	}
	t.Logf("19k: measured %.4f tasks per unit, 19000/%g = %.4f", measured, DefaultPeriod, want)
}

func TestHCW19ExpandNaturalOrder(t *testing.T) {
	dir := hcw19Dir(t)
	srcs, err := Expand(filepath.Join(dir, "spiky.zip") + "#spk/spk20k800_*.dat")
	if err != nil {
		t.Fatal(err)
	}
	if len(srcs) != 30 {
		t.Fatalf("%d sources", len(srcs))
	}
	for i, s := range srcs {
		if want := "spk/spk20k800_" + strconv.Itoa(i+1) + ".dat"; s.Member != want {
			t.Fatalf("source %d is %s, want %s", i, s.Member, want)
		}
	}
}
