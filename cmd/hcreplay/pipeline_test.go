package main

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/petbuild"
)

// cli runs the command line and returns the exit status and output.
func cli(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func mustCLI(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errb := cli(t, args...)
	if code != 0 {
		t.Fatalf("hcreplay %s: exit %d\n%s", strings.Join(args, " "), code, errb)
	}
	return out
}

// TestNewUserPipeline runs the commands in the order a new user would: synthesize a PET, look
// at it, convert it, generate trials from it, summarise them, replay them with and without
// pruning.
func TestNewUserPipeline(t *testing.T) {
	dir := t.TempDir()
	pet := filepath.Join(dir, "pet.json")
	mustCLI(t, "pet", "synth", "--out", pet, "--types", "4", "--machines", "3", "--seed", "9")
	show := mustCLI(t, "pet", "show", pet, "--plot", filepath.Join(dir, "pet.png"))
	if strings.Count(show, "\n") < 12 || !strings.Contains(show, "4 task types × 3 machine types") {
		t.Errorf("pet show:\n%s", show)
	}
	for _, f := range []string{"pet.png", "pet-pmfs.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() < 1000 {
			t.Errorf("plot %s: %v", f, err)
		}
	}
	// JSON → .etc → JSON keeps every cell (the .etc names types by index, as these are).
	etc := filepath.Join(dir, "pet.etc")
	back := filepath.Join(dir, "back.json")
	mustCLI(t, "pet", "convert", pet, etc)
	mustCLI(t, "pet", "convert", etc, back)
	a, _ := petbuild.ReadFile(pet, petbuild.ReadOptions{})
	b, _ := petbuild.ReadFile(back, petbuild.ReadOptions{})
	for i := range a.NumTaskTypes() {
		for j := range a.NumMachineTypes() {
			if math.Abs(a.Cell(i, j).Mean()-b.Cell(i, j).Mean()) > 1e-9 {
				t.Fatalf("cell %d,%d: mean %v after .etc round trip, was %v", i, j, b.Cell(i, j).Mean(), a.Cell(i, j).Mean())
			}
		}
	}
	trials := filepath.Join(dir, "trials")
	mustCLI(t, "trace", "gen", "--pet", pet, "--out", trials, "--trials", "2", "--tasks", "300", "--level", "5k", "--format", "csv")
	stats := mustCLI(t, "trace", "stats", filepath.Join(trials, "*.csv"))
	if !strings.Contains(stats, "2 traces, 600 tasks") {
		t.Errorf("trace stats:\n%s", stats)
	}
	for _, prune := range []string{"none", "both"} {
		out := mustCLI(t, "replay", "--pet", pet, "--trace", filepath.Join(trials, "*.csv"), "-H", "PAM", "--prune", prune, "--trim", "20")
		if strings.Count(out, ".csv │ PAM") != 2 { // then the table of means
			t.Errorf("replay --prune %s: want one row per trial:\n%s", prune, out)
		}
	}
	// The folder trace gen wrote reads as its trials, in the glob's order.
	byGlob := jsonRuns(t, "replay", "--pet", pet, "--trace", filepath.Join(trials, "*.csv"), "-H", "MM", "--trim", "20", "--json")
	byFolder := jsonRuns(t, "replay", "--pet", pet, "--trace", trials, "-H", "MM", "--trim", "20", "--json")
	if len(byFolder) != 2 || len(byGlob) != 2 {
		t.Fatalf("replay of the folder: %d runs, of the glob %d; want 2", len(byFolder), len(byGlob))
	}
	for i := range byGlob {
		delete(byGlob[i], "timing")
		delete(byFolder[i], "timing")
		if !reflect.DeepEqual(byGlob[i], byFolder[i]) {
			t.Errorf("trial %d: the folder's run differs from the glob's:\n%v\n%v", i+1, byFolder[i], byGlob[i])
		}
	}
}

// TestPetBuildFromLogs fits a PET to a log with its own column names and checks the means
// against the distributions the log was drawn from.
func TestPetBuildFromLogs(t *testing.T) {
	dir := t.TempDir()
	logPath := filepath.Join(dir, "runs.csv")
	r := rand.New(rand.NewPCG(3, 4))
	means := map[[2]string]float64{{"enc", "cpu"}: 40, {"enc", "gpu"}: 10, {"dec", "cpu"}: 25, {"dec", "gpu"}: 30}
	var b strings.Builder
	b.WriteString("app,node_kind,runtime_s\n")
	for key, m := range means {
		for range 3000 {
			fmt.Fprintf(&b, "%s,%s,%g\n", key[0], key[1], (m*r.ExpFloat64()*0.2+0.8*m)/1000) // seconds
		}
	}
	writeFile(t, logPath, b.String())
	out := filepath.Join(dir, "pet.json")
	mustCLI(t, "pet", "build", logPath, "--out", out, "--binning", "width:0.5", "--time-unit", "s",
		"--col", "task_type=app", "--col", "machine_type=node_kind", "--col", "exec_time=runtime_s")
	p, err := petbuild.ReadFile(out, petbuild.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for key, m := range means {
		i, _ := p.TaskIndex(key[0])
		j, _ := p.MachineIndex(key[1])
		// Samples are 0.8m + 0.2m·Exp(1): mean m (in ms after the unit conversion); linear
		// binning keeps the samples' mean (impulses at bin upper edges, before issue 46, put it
		// half a bin, 0.25, above).
		if got := p.Cell(i, j).Mean(); math.Abs(got-m) > 0.02*m {
			t.Errorf("%v: mean %.3f ms, want %.1f", key, got, m)
		}
	}
}

func TestPetAndTraceBadInput(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.csv")
	writeFile(t, empty, "")
	thin := filepath.Join(dir, "thin.csv")
	writeFile(t, thin, "task_type,machine_type,exec_time\na,m1,5\na,m1,6\n")
	notPET := filepath.Join(dir, "x.json")
	writeFile(t, notPET, `{"hello": 1}`)
	pet := filepath.Join(dir, "pet.json")
	mustCLI(t, "pet", "synth", "--out", pet, "--types", "2", "--machines", "2")
	tr := filepath.Join(dir, "t.csv")
	writeFile(t, tr, "task_type,arrival,deadline\n0,1,50\n")
	// A trace within the readers' bound on times, but too far out for a fine grid (2^50 steps of
	// 1e-6 is 1.13e9): the replay refuses it.
	finePET := filepath.Join(dir, "fine.json")
	writeFile(t, finePET, badGridPET("1e-6", "5"))
	farTrace := filepath.Join(dir, "far.csv")
	writeFile(t, farTrace, "task_type,arrival,deadline\na,1,50\na,2e9,2.1e9\n")
	cases := []badInputCase{
		{[]string{"replay", "--pet", finePET, "--trace", farTrace, "-H", "MM"}, []string{"task 1: arrival 2e+09", "cannot be laid on it"}},
		{[]string{"pet", "build", empty, "--out", filepath.Join(dir, "o.json")}, []string{"empty.csv"}},
		{[]string{"pet", "build", thin, "--out", filepath.Join(dir, "o.json")}, []string{"a", "m1", "2"}},
		{[]string{"pet", "build", thin, "--out", filepath.Join(dir, "o.json"), "--binning", "wide"}, []string{"wide"}},
		{[]string{"pet", "show", notPET}, []string{"x.json"}},
		{[]string{"pet", "convert", pet, filepath.Join(dir, "o.txt")}, []string{"o.txt"}},
		{[]string{"trace", "gen", "--pet", pet, "--out", dir, "--level", "lots"}, []string{"lots"}},
		{[]string{"trace", "gen", "--pet", pet, "--out", dir, "--deadline", "best:9"}, []string{"best:9"}},
		{[]string{"trace", "convert", filepath.Join(dir, "none*.csv"), filepath.Join(dir, "o.csv")}, []string{"none*.csv"}},
		{[]string{"trace", "stats", filepath.Join(dir, "missing.csv")}, []string{"missing.csv"}},
		{[]string{"replay", "--pet", pet, "--trace", tr, "-H", "MM", "--prune", "both", "--toggle", "sometimes"}, []string{"sometimes"}},
		{[]string{"replay", "--pet", pet, "--trace", tr, "-H", "MM", "--defer", "gap:7"}, []string{"gap:7"}},
	}
	checkBadInput(t, cases, nil)
}

// badInputCase is a command line that must exit 2 with a message holding every string of want.
type badInputCase struct {
	args []string
	want []string
}

// checkBadInput runs each case's command line and checks its exit code and message; then, for
// a case that exited 2, the checks of after, when it is not nil.
func checkBadInput(t *testing.T, cases []badInputCase, after func(args []string, stdout, stderr string)) {
	t.Helper()
	for _, c := range cases {
		code, out, errb := cli(t, c.args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s", c.args, code, errb)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(errb, w) {
				t.Errorf("%v: message %q lacks %q", c.args, errb, w)
			}
		}
		if after != nil {
			after(c.args, out, errb)
		}
	}
}

// writeFile writes body to path for a test, failing it when the file cannot be written: a
// fixture that silently failed to appear would turn a test of bad input into one of a missing
// file.
func writeFile(t testing.TB, path, body string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}
