package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Tests of issue 46's trace and PET items: a trial replays the same whatever format it is in,
// the offered load is what a hand computation gives, and a log in seconds read as milliseconds
// is pointed out.

// writeNamedLog writes an execution log whose task and machine types are names, not indexes,
// with cells of clearly different means, so that a trial whose types were mapped to the wrong
// rows replays differently.
func writeNamedLog(t *testing.T, dir string) string {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 46))
	means := [][]float64{{40, 10, 25}, {8, 60, 30}, {20, 35, 90}}
	tasks := []string{"fft", "sort", "zip"}
	machines := []string{"cpu", "gpu", "arm"}
	var b strings.Builder
	b.WriteString("task_type,machine_type,exec_time\n")
	for i, ty := range tasks {
		for j, m := range machines {
			for range 60 {
				fmt.Fprintf(&b, "%s,%s,%.3f\n", ty, m, means[i][j]*(0.5+r.Float64()))
			}
		}
	}
	path := filepath.Join(dir, "log.csv")
	writeFile(t, path, b.String())
	return path
}

// TestGeneratedTrialReplaysInEveryFormat: a trial trace gen writes replays with the PET that
// made it, in every format trace gen writes, and gives the same run in each (the CSV, which
// keeps the type names, is the oracle for the .dat, which keeps indexes into the PET's types).
func TestGeneratedTrialReplaysInEveryFormat(t *testing.T) {
	dir := t.TempDir()
	pet := filepath.Join(dir, "pet.json")
	mustCLI(t, "pet", "build", writeNamedLog(t, dir), "--out", pet)
	var want map[string]any
	for _, f := range []string{"csv", "dat", "jsonl", "parquet"} {
		out := filepath.Join(dir, f)
		mustCLI(t, "trace", "gen", "--pet", pet, "--out", out, "--trials", "1", "--tasks", "300",
			"--rate", "0.05", "--format", f, "--seed", "5")
		trial := filepath.Join(out, "rate0.05_1."+f)
		runs := jsonRuns(t, "replay", "--pet", pet, "--trace", trial, "-H", "MM", "--trim", "20", "--json")
		if len(runs) != 1 {
			t.Fatalf("%s: %d runs, want 1", f, len(runs))
		}
		got := runs[0]
		delete(got, "trace")
		if want == nil {
			want = got
			if got["tasks"] != 300.0 {
				t.Fatalf("csv: %v tasks, want 300", got["tasks"])
			}
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the run differs from the CSV trial's:\n%v\n%v", f, got, want)
		}
	}
}

// TestDatConversionWarnsOfLostNames: converting a trace with named types to .dat keeps
// indexes into the PET's types, and says so; so does converting a PET with named types to .etc.
func TestDatConversionWarnsOfLostNames(t *testing.T) {
	dir := t.TempDir()
	pet := filepath.Join(dir, "pet.json")
	mustCLI(t, "pet", "build", writeNamedLog(t, dir), "--out", pet)
	tr := filepath.Join(dir, "t.csv")
	writeFile(t, tr, "task_type,arrival,deadline\nsort,1,50\nzip,2,60\nfft,3,70\n")
	code, _, errb := cli(t, "trace", "convert", tr, filepath.Join(dir, "t.dat"), "--pet", pet)
	if code != 0 || !strings.Contains(errb, "warning") || !strings.Contains(errb, "index") {
		t.Errorf("trace convert to .dat: exit %d, want 0 and a warning that names become indexes:\n%s", code, errb)
	}
	// Read back with the PET, the .dat gives the names again, in the CSV's order.
	back := filepath.Join(dir, "back.csv")
	mustCLI(t, "trace", "convert", filepath.Join(dir, "t.dat"), back, "--pet", pet)
	b, err := os.ReadFile(back)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range regexp.MustCompile(`(?m)^\d+,(\w+),`).FindAllStringSubmatch(string(b), -1) {
		got = append(got, m[1])
	}
	if !reflect.DeepEqual(got, []string{"sort", "zip", "fft"}) {
		t.Errorf(".dat read back with the PET: types %v, want sort, zip, fft:\n%s", got, b)
	}
	code, _, errb = cli(t, "pet", "convert", pet, filepath.Join(dir, "pet.etc"))
	if code != 0 || !strings.Contains(errb, "warning") || !strings.Contains(errb, "fft") {
		t.Errorf("pet convert to .etc: exit %d, want 0 and a warning naming the lost type names:\n%s", code, errb)
	}
}

// damagedDat is an HCW19-style trial whose first line lost its leading "0." to the study's
// generator defect: task 0 arrived at 0.99 (its deadline 200.99 = arrival + the slack 200 every
// task of type 0 has), but reads as 99, which is also task 98's arrival.
func damagedDat(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("taskCount=120;\n99 0 200.99;\n")
	for i := 1; i < 120; i++ {
		ty, slack := i%2, 200.0
		if ty == 1 {
			slack = 300
		}
		fmt.Fprintf(&b, "%d %d %g;\n", i, ty, float64(i)+slack)
	}
	path := filepath.Join(dir, "arr_1.dat")
	writeFile(t, path, b.String())
	return path
}

// TestConvertedTrialReplaysTheSame: trace convert reads a trial as replay does (the HCW19
// first-arrival repair included), so the converted trial replays, and trace stats summarises
// it, exactly as the original in every format.
func TestConvertedTrialReplaysTheSame(t *testing.T) {
	dir := t.TempDir()
	pet := filepath.Join(dir, "pet.json")
	mustCLI(t, "pet", "synth", "--out", pet, "--types", "2", "--machines", "2", "--seed", "3")
	dat := damagedDat(t, dir)
	replay := func(tr string) map[string]any {
		runs := jsonRuns(t, "replay", "--pet", pet, "--trace", tr, "-H", "MM", "--trim", "10", "--json")
		delete(runs[0], "trace")
		return runs[0]
	}
	want := replay(dat)
	wantStats := mustCLI(t, "trace", "stats", dat)
	// The warnings: the repair once per set of trials, and not the out-of-order arrival the
	// damage caused and the repair removed.
	second := filepath.Join(dir, "arr_2.dat")
	b, err := os.ReadFile(dat)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, second, string(b))
	_, _, errb := cli(t, "trace", "stats", filepath.Join(dir, "arr_*.dat"))
	if strings.Count(errb, "warning") != 1 || !strings.Contains(errb, "repaired the first task's arrival in 2 of 2 trials") {
		t.Errorf("trace stats of two damaged trials: want one warning of 2 repairs:\n%s", errb)
	}
	// replay and sweep load the trials one at a time, once per mapper: still one warning.
	_, _, errb = cli(t, "replay", "--pet", pet, "--trace", filepath.Join(dir, "arr_*.dat"), "-H", "MM,MCT", "--trim", "10")
	if strings.Count(errb, "repaired") != 1 || !strings.Contains(errb, "in arr_1.dat and in every other of its 2 trials") {
		t.Errorf("replay of two damaged trials through two mappers: want one warning of the repairs:\n%s", errb)
	}
	if _, _, errb = cli(t, "replay", "--pet", pet, "--trace", dat, "-H", "MM", "--trim", "10"); strings.Contains(errb, "out of order") {
		t.Errorf("replay of a repaired trial warns of the order the repair fixed:\n%s", errb)
	}
	for _, f := range []string{"csv", "dat", "jsonl", "parquet"} {
		out := filepath.Join(dir, "conv."+f)
		mustCLI(t, "trace", "convert", dat, out)
		if got := replay(out); !reflect.DeepEqual(got, want) {
			t.Errorf("converted to %s: the run differs from the original's:\n%v\n%v", f, got, want)
		}
		if got := mustCLI(t, "trace", "stats", out); strings.ReplaceAll(got, out, dat) != wantStats {
			t.Errorf("converted to %s: trace stats differ:\n%s\n%s", f, got, wantStats)
		}
	}
}

// writeHandPET writes a PET whose cells are single impulses, so that every mean is known:
// type a takes 10 ms on m1 and 30 on m2, type b 20 and 40.
func writeHandPET(t *testing.T, dir string) string {
	t.Helper()
	cell := func(task, machine string, at float64) string {
		return fmt.Sprintf(`{"task_type":%q,"machine_type":%q,"origin":%g,"probs":[1]}`, task, machine, at)
	}
	body := `{"format":"hcreplay-pet","version":1,"time_unit":"ms","step":10,"task_types":["a","b"],"machine_types":["m1","m2"],"cells":[` +
		strings.Join([]string{cell("a", "m1", 10), cell("a", "m2", 30), cell("b", "m1", 20), cell("b", "m2", 40)}, ",") + `]}`
	path := filepath.Join(dir, "hand.json")
	writeFile(t, path, body)
	return path
}

// loadOf returns the ρ a command printed.
func loadOf(t *testing.T, out string) float64 {
	t.Helper()
	m := regexp.MustCompile(`ρ = ([0-9.e+-]+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no offered load ρ in:\n%s", out)
	}
	x, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestOfferedLoad: trace gen and trace stats print the offered load ρ = arrival rate × mean
// execution time ÷ machines, as computed by hand; --load sets the rate from ρ; a ρ far from any
// study's warns.
func TestOfferedLoad(t *testing.T) {
	dir := t.TempDir()
	pet := writeHandPET(t, dir)
	// Default catalog, one machine per type (2 machines). Types are drawn evenly, so the mean
	// execution time is (10 + 30 + 20 + 40) / 4 = 25 ms: ρ = 0.04 × 25 / 2 = 0.5.
	_, _, errb := cli(t, "trace", "gen", "--pet", pet, "--out", filepath.Join(dir, "g"), "--rate", "0.04", "--trials", "1", "--tasks", "50")
	if rho := loadOf(t, errb); math.Abs(rho-0.5) > 1e-3 {
		t.Errorf("trace gen --rate 0.04: ρ = %v, want 0.5", rho)
	}
	// A catalog of two m1 and one m2: a type's mean is over the 3 machines, a: (2·10 + 30)/3,
	// b: (2·20 + 40)/3, mean (50 + 80)/6 = 21.667 ms; ρ = 0.04 × 21.667 / 3 = 0.28889.
	cat := filepath.Join(dir, "cat.csv")
	writeFile(t, cat, "name,machine_type,count,price_per_hour,power_watts\nx,m1,2,1,100\ny,m2,1,1,100\n")
	_, _, errb = cli(t, "trace", "gen", "--pet", pet, "--catalog", cat, "--out", filepath.Join(dir, "c"), "--rate", "0.04", "--trials", "1", "--tasks", "50")
	if rho := loadOf(t, errb); math.Abs(rho-0.28889) > 1e-4 {
		t.Errorf("trace gen --catalog: ρ = %v, want 0.28889", rho)
	}
	// --load 1.5 on the default catalog: rate = 1.5 × 2 / 25 = 0.12 tasks per ms.
	out := filepath.Join(dir, "l")
	code, _, errb := cli(t, "trace", "gen", "--pet", pet, "--out", out, "--load", "1.5", "--trials", "1", "--tasks", "50")
	if code != 0 || math.Abs(loadOf(t, errb)-1.5) > 1e-3 || !strings.Contains(errb, "0.12 tasks per ms") {
		t.Errorf("trace gen --load 1.5: exit %d, want ρ = 1.5 at 0.12 tasks per ms:\n%s", code, errb)
	}
	// trace stats measures the rate of a trace, (n − 1) / (last − first arrival), and its type
	// mix: 5 tasks over 100 ms, 0.04 per ms; types a, a, a, b, b: mean 0.6·20 + 0.4·30 = 24
	// ms; ρ = 0.04 × 24 / 2 = 0.48.
	tr := filepath.Join(dir, "t.csv")
	writeFile(t, tr, "task_type,arrival,deadline\na,0,500\nb,25,500\na,50,500\nb,75,500\na,100,500\n")
	stats := mustCLI(t, "trace", "stats", tr, "--pet", pet)
	if rho := loadOf(t, stats); math.Abs(rho-0.48) > 1e-3 {
		t.Errorf("trace stats: ρ = %v, want 0.48:\n%s", rho, stats)
	}
	// 19k on this PET offers 19000/88200 × 25 / 2 = 2.69: inside what studies use, no warning;
	// --rate 5 offers 62.5, which no study does: a warning that names --load.
	_, _, errb = cli(t, "trace", "gen", "--pet", pet, "--out", filepath.Join(dir, "k"), "--level", "19k", "--trials", "1", "--tasks", "50")
	if rho := loadOf(t, errb); math.Abs(rho-19000.0/88200*25/2) > 1e-3 || strings.Contains(errb, "warning") {
		t.Errorf("trace gen --level 19k: ρ = %v, want %.4f and no warning:\n%s", rho, 19000.0/88200*25/2, errb)
	}
	_, _, errb = cli(t, "trace", "gen", "--pet", pet, "--out", filepath.Join(dir, "w"), "--rate", "5", "--trials", "1", "--tasks", "50")
	if !strings.Contains(errb, "warning") || !strings.Contains(errb, "--load") {
		t.Errorf("trace gen --rate 5 (ρ = 62.5): want a warning naming --load:\n%s", errb)
	}
	checkBadInput(t, []badInputCase{
		{[]string{"trace", "gen", "--pet", pet, "--out", filepath.Join(dir, "x"), "--load", "0"}, []string{"--load 0"}},
		{[]string{"trace", "gen", "--pet", pet, "--out", filepath.Join(dir, "x"), "--load", "1", "--rate", "1"}, []string{"--load", "--rate"}},
	}, nil)
}

// TestSecondsLogReadAsMilliseconds: a log whose times are seconds, read without --time-unit,
// warns and names the flag; the same log with --time-unit s, or a log in milliseconds, does not.
func TestSecondsLogReadAsMilliseconds(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	b.WriteString("task_type,machine_type,exec_time\n")
	for range 200 {
		fmt.Fprintf(&b, "a,m,%.4f\n", 0.3+0.6*r.Float64()) // 0.3 to 0.9 s
	}
	secs := filepath.Join(dir, "secs.csv")
	writeFile(t, secs, b.String())
	code, _, errb := cli(t, "pet", "build", secs, "--out", filepath.Join(dir, "p1.json"))
	if code != 0 || !strings.Contains(errb, "warning") || !strings.Contains(errb, "--time-unit s") {
		t.Errorf("a log in seconds read as ms: exit %d, want 0 and a warning naming --time-unit s:\n%s", code, errb)
	}
	_, _, errb = cli(t, "pet", "build", secs, "--out", filepath.Join(dir, "p2.json"), "--time-unit", "s")
	if strings.Contains(errb, "warning") {
		t.Errorf("with --time-unit s: a warning:\n%s", errb)
	}
	// A log that says it is in seconds is read in seconds without the flag (it used to be
	// refused: "the file declares time_unit=s but the caller says ms").
	said := filepath.Join(dir, "said.csv")
	writeFile(t, said, "# time_unit=s\n"+b.String())
	if code, _, errb = cli(t, "pet", "build", said, "--out", filepath.Join(dir, "p4.json")); code != 0 || strings.Contains(errb, "warning") {
		t.Errorf("a log that declares time_unit=s: exit %d, want 0 and no warning:\n%s", code, errb)
	}
	ms := filepath.Join(dir, "ms.csv")
	writeFile(t, ms, strings.ReplaceAll(b.String(), ",0.", ",6"))
	if _, _, errb = cli(t, "pet", "build", ms, "--out", filepath.Join(dir, "p3.json")); strings.Contains(errb, "warning") {
		t.Errorf("a log in ms: a warning:\n%s", errb)
	}
}

// TestPetShowSampleMean: pet show sets each fitted cell's sample mean beside the PMF's (equal
// to 0.01 ms by default); a user who asks for a coarse step (--merge) gets a note of what it
// costs, naming the cell, and pet show marks the cell.
func TestPetShowSampleMean(t *testing.T) {
	dir := t.TempDir()
	log := writeNamedLog(t, dir)
	pet := filepath.Join(dir, "pet.json")
	if _, _, errb := cli(t, "pet", "build", log, "--out", pet); strings.Contains(errb, "note") {
		t.Errorf("default fit: a note of bias:\n%s", errb)
	}
	show := mustCLI(t, "pet", "show", pet)
	row := regexp.MustCompile(`(?m)^│ sort\s+│ cpu\s+│\s+([0-9.]+) │\s+([0-9.]+) │`).FindStringSubmatch(show)
	if row == nil || row[1] != row[2] {
		t.Errorf("pet show: want sort×cpu's mean and sample mean, equal:\n%s", show)
	}
	coarse := filepath.Join(dir, "coarse.json")
	_, _, errb := cli(t, "pet", "build", log, "--out", coarse, "--merge", "20")
	if !strings.Contains(errb, "note: step") || !strings.Contains(errb, "sort×cpu") {
		t.Errorf("--merge 20: want a note naming the worst cell (sort×cpu, mean 8 ms):\n%s", errb)
	}
	if show := mustCLI(t, "pet", "show", coarse); !strings.Contains(show, "off the samples'") {
		t.Errorf("pet show of the coarse PET: no cell marked:\n%s", show)
	}
}

// TestFirstContactMessages: a log missing several columns is told all of them at once with the
// --col hint; thin cells name --min-samples (down to the thinnest cell's count) and --fill-from.
func TestFirstContactMessages(t *testing.T) {
	dir := t.TempDir()
	cols := filepath.Join(dir, "cols.csv")
	writeFile(t, cols, "app,node,rt\na,m,5\n")
	thin := filepath.Join(dir, "thin.csv")
	writeFile(t, thin, "task_type,machine_type,exec_time\na,m,5\na,m,6\na,n,6\n")
	empty := filepath.Join(dir, "empty.csv")
	writeFile(t, empty, "task_type,machine_type,exec_time\na,m,5\nb,n,6\n")
	out := filepath.Join(dir, "p.json")
	checkBadInput(t, []badInputCase{
		{[]string{"pet", "build", cols, "--out", out}, []string{"task_type, machine_type, exec_time", "--col FIELD=COLUMN"}},
		{[]string{"pet", "build", thin, "--out", out}, []string{"--min-samples 1", "--fill-from"}},
		{[]string{"pet", "build", empty, "--out", out, "--min-samples", "1"}, []string{"without samples", "--fill-from"}},
	}, nil)
}

// TestDatIndexesOfNumberedTypes: a PET whose task types are numbers other than their positions
// ("1", "2" at 0, 1) reads a .dat's types as positions, as trace gen writes them, so its trial
// replays as the CSV one does, and replay says how it read them.
func TestDatIndexesOfNumberedTypes(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log.csv")
	var b strings.Builder
	b.WriteString("task_type,machine_type,exec_time\n")
	for i := range 40 {
		fmt.Fprintf(&b, "1,m,%d\n2,m,%d\n", 10+i%5, 50+i%7)
	}
	writeFile(t, log, b.String())
	pet := filepath.Join(dir, "pet.json")
	mustCLI(t, "pet", "build", log, "--out", pet)
	var runs []map[string]any
	for _, f := range []string{"csv", "dat"} {
		mustCLI(t, "trace", "gen", "--pet", pet, "--out", filepath.Join(dir, f), "--trials", "1", "--tasks", "200", "--load", "0.9", "--format", f)
		trial := filepath.Join(dir, f, "load0.9_1."+f)
		code, _, errb := cli(t, "replay", "--pet", pet, "--trace", trial, "-H", "MM", "--trim", "10")
		if warned := strings.Contains(errb, "read as indexes"); code != 0 || warned != (f == "dat") {
			t.Errorf("%s: exit %d, warning of the index reading %v, want it for .dat only:\n%s", f, code, warned, errb)
		}
		r := jsonRuns(t, "replay", "--pet", pet, "--trace", trial, "-H", "MM", "--trim", "10", "--json")[0]
		delete(r, "trace")
		runs = append(runs, r)
	}
	if !reflect.DeepEqual(runs[0], runs[1]) {
		t.Errorf("the .dat trial replays differently from the CSV one:\n%v\n%v", runs[1], runs[0])
	}
}

// TestTraceInSecondsWarns: a trace whose times are seconds, replayed with a PET in ms without
// --time-unit, has deadlines a fraction of a millisecond after arrival against task means of
// tens of ms; replay warns, once for a set of trials, and names --time-unit, for a trace
// streamed (in order) and one loaded whole (out of order) alike. With --time-unit s it does not.
func TestTraceInSecondsWarns(t *testing.T) {
	dir := t.TempDir()
	pet := writeHandPET(t, dir) // means 10 to 40 ms, 25 on average
	rows := []string{"task_type,arrival,deadline"}
	for i := range 100 {
		rows = append(rows, fmt.Sprintf("%s,%g,%g", []string{"a", "b"}[i%2], float64(i)/10, float64(i)/10+0.2)) // 0.1 s apart, 0.2 s slack
	}
	writeFile(t, filepath.Join(dir, "s1.csv"), strings.Join(rows, "\n")+"\n")
	rows[5], rows[6] = rows[6], rows[5]
	writeFile(t, filepath.Join(dir, "s2.csv"), strings.Join(rows, "\n")+"\n")
	for _, spec := range []string{"s1.csv", "s2.csv", "s*.csv"} {
		_, _, errb := cli(t, "replay", "--pet", pet, "--trace", filepath.Join(dir, spec), "-H", "MM", "--trim", "5")
		if strings.Count(errb, "median 0.2 ms after arrival") != 1 || !strings.Contains(errb, "--time-unit s") {
			t.Errorf("replay %s of a trace in seconds: want one warning naming --time-unit:\n%s", spec, errb)
		}
	}
	if _, _, errb := cli(t, "replay", "--pet", pet, "--trace", filepath.Join(dir, "s*.csv"), "-H", "MM", "--trim", "5", "--time-unit", "s"); strings.Contains(errb, "--time-unit") {
		t.Errorf("with --time-unit s: a warning:\n%s", errb)
	}
}

// TestDeclaredUnitTakenByEveryReader (issue 49 item 10): a trace that declares time_unit=ns is
// read in nanoseconds by replay, trace stats and trace convert when no --time-unit is given
// (they refused it: "the file declares … but the caller says ms"), and replays to the same counts
// as the trace written in milliseconds (its times × 10⁶, rounded to the nanosecond).
func TestDeclaredUnitTakenByEveryReader(t *testing.T) {
	pet, msPath := genTrace(t, 300)
	nsPath := filepath.Join(filepath.Dir(msPath), "ns.csv")
	mapTimes(t, msPath, nsPath, "# time_unit=ns", func(x float64) string { return fmt.Sprintf("%.0f", x*1e6) })
	if b, _ := os.ReadFile(nsPath); !strings.Contains(string(b), "# time_unit=ns\n") {
		t.Fatalf("trace gen wrote no time_unit line:\n%.200s", b)
	}
	if a, b := replayCounts(t, pet, msPath), replayCounts(t, pet, nsPath); strings.Join(a, "\n") != strings.Join(b, "\n") || len(a) != 6 {
		t.Errorf("the ns trace replays otherwise:\n%s\nwant\n%s", strings.Join(b, "\n"), strings.Join(a, "\n"))
	}
	mustCLI(t, "trace", "stats", nsPath)
	mustCLI(t, "trace", "convert", nsPath, filepath.Join(filepath.Dir(nsPath), "ns.parquet"), "-q")
}
