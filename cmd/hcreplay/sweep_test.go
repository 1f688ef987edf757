package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep"
)

// sweepFixture writes a tiny PET, three trace files and a grid with a level of files and a
// generated level: 2 heuristics × 2 variants × (2 + trials) trials. It returns the grid's path.
func sweepFixture(t *testing.T, trials int) string {
	t.Helper()
	dir := t.TempDir()
	mustCLI(t, "pet", "synth", "--out", filepath.Join(dir, "pet.json"), "--types", "3", "--machines", "2", "--samples", "200", "--step", "20")
	mustCLI(t, "trace", "gen", "--pet", filepath.Join(dir, "pet.json"), "--out", filepath.Join(dir, "trials"),
		"--trials", "3", "--tasks", "100", "--level", "2k", "--format", "csv", "-q")
	grid := fmt.Sprintf(`# relative paths are relative to this file
pet: pet.json
heuristics: [MM, MCT]
prune: [none, both]
levels:
  - name: 2k
    trace: trials/*.csv
    trials: 2
  - name: gen3k
    trials: %d
    generate: {level: 3k, tasks: 100, seed: 3}
trim: 10
`, trials)
	path := filepath.Join(dir, "grid.yaml")
	writeFile(t, path, grid)
	return path
}

func readRuns(t *testing.T, dir string) []report.RunRow {
	t.Helper()
	rows, err := report.ReadRuns(filepath.Join(dir, report.RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// sameRuns compares rows field by field, except the wall times, the only fields that may
// differ between two sweeps of one grid. Printing makes NaN equal to NaN.
func sameRuns(t *testing.T, what string, got, want []report.RunRow) {
	t.Helper()
	print := func(rows []report.RunRow) []string {
		out := make([]string, len(rows))
		for i, r := range rows {
			out[i] = fmt.Sprintf("%+v", r.WithoutTimes())
		}
		return out
	}
	g, w := print(got), print(want)
	if len(g) != len(w) {
		t.Fatalf("%s: %d rows, want %d", what, len(g), len(w))
	}
	for i := range g {
		if g[i] != w[i] {
			t.Fatalf("%s: row %d differs:\n%s\nwant\n%s", what, i, g[i], w[i])
		}
	}
}

func TestSweepCommand(t *testing.T) {
	grid := sweepFixture(t, 2)
	out := filepath.Join(t.TempDir(), "all")
	code, _, stderr := cli(t, "sweep", grid, "--out", out, "--jobs", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	rows := readRuns(t, out)
	if len(rows) != 16 { // 2 heuristics × 2 variants × (2 + 2) trials
		t.Fatalf("%d rows, want 16", len(rows))
	}
	if !slices.IsSortedFunc(rows, func(a, b report.RunRow) int { return strings.Compare(a.Key, b.Key) }) {
		t.Error("rows are not sorted by key")
	}
	levels := map[string]int{}
	for _, r := range rows {
		levels[r.Level]++
		if r.Scored == 0 || r.Trace == "" || r.LevelRate <= 0 {
			t.Errorf("row %s: %+v", r.Key, r)
		}
	}
	if levels["2k"] != 8 || levels["gen3k"] != 8 {
		t.Errorf("rows per level %v", levels)
	}
	m, err := sweep.ReadManifest(out)
	if err != nil {
		t.Fatal(err)
	}
	// The grid file is recorded relative to the folder, so that the folder can be moved.
	if !m.Complete || m.Runs != 16 || filepath.Join(out, m.GridFile) != grid || filepath.IsAbs(m.GridFile) ||
		m.Seeds.Levels["gen3k"] != 3 || m.Version == "" || m.TimeUnit != "ms" {
		t.Errorf("manifest %+v", m)
	}

	// Same grid, one job: the same rows.
	again := filepath.Join(t.TempDir(), "again")
	mustCLI(t, "sweep", grid, "--out", again, "--jobs", "1", "-q")
	sameRuns(t, "second sweep", readRuns(t, again), rows)

	// Shards 1/2 and 2/2 together are the whole grid.
	var merged []report.RunRow
	for _, s := range []string{"1/2", "2/2"} {
		dir := filepath.Join(t.TempDir(), "shard")
		mustCLI(t, "sweep", grid, "--out", dir, "--shard", s, "-q")
		part := readRuns(t, dir)
		if len(part) != 8 {
			t.Errorf("shard %s: %d rows, want 8", s, len(part))
		}
		merged = append(merged, part...)
	}
	slices.SortFunc(merged, func(a, b report.RunRow) int { return strings.Compare(a.Key, b.Key) })
	sameRuns(t, "shards 1/2 + 2/2", merged, rows)

	// Flags instead of a file give the same runs for the same settings.
	base := filepath.Dir(grid)
	quick := filepath.Join(t.TempDir(), "quick")
	mustCLI(t, "sweep", "--out", quick, "-q", "--pet", filepath.Join(base, "pet.json"), "-H", "MM,MCT", "--prune", "none,both",
		"--trace", "2k="+filepath.Join(base, "trials", "*.csv"), "--trials", "2", "--set", "trim=10")
	var fromFile []report.RunRow
	for _, r := range rows {
		if r.Level == "2k" {
			fromFile = append(fromFile, r)
		}
	}
	sameRuns(t, "quick grid from flags", readRuns(t, quick), fromFile)
}

// TestHelperSweep is not a test: TestSweepResumeAfterKill and TestSweepInterrupt run the test
// binary again with this test selected, to have a sweep in a process they can kill.
func TestHelperSweep(t *testing.T) {
	js := os.Getenv("SWEEP_HELPER_ARGS")
	if js == "" {
		t.Skip("helper process of the sweep interruption tests")
	}
	var args []string
	if err := json.Unmarshal([]byte(js), &args); err != nil {
		t.Fatal(err)
	}
	os.Exit(run(args, os.Stdout, os.Stderr))
}

// startSweep starts `hcreplay sweep args...` in a child process and waits until it has saved
// its first finished runs.
func startSweep(t *testing.T, out string, args ...string) *exec.Cmd {
	t.Helper()
	js, _ := json.Marshal(append([]string{"sweep", "--out", out}, args...))
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperSweep$")
	cmd.Env = append(os.Environ(), "SWEEP_HELPER_ARGS="+string(js))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	partial := filepath.Join(out, sweep.PartialRunsFile)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(time.Millisecond) {
		if _, err := os.Stat(partial); err == nil {
			return cmd
		}
		if _, err := os.Stat(filepath.Join(out, report.RunsFile)); err == nil || time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the sweep finished or stalled before it could be interrupted: %s", stderr.String())
		}
	}
}

func TestSweepResumeAfterKill(t *testing.T) {
	grid := sweepFixture(t, 6)
	want := filepath.Join(t.TempDir(), "want")
	mustCLI(t, "sweep", grid, "--out", want, "-q")
	rows := readRuns(t, want)

	out := filepath.Join(t.TempDir(), "killed")
	cmd := startSweep(t, out, grid, "--jobs", "1", "--checkpoint", "0", "-q")
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if _, err := os.Stat(filepath.Join(out, report.RunsFile)); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the sweep finished before it was killed; give it more runs")
	}
	saved, err := report.ReadRuns(filepath.Join(out, sweep.PartialRunsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(saved) == 0 || len(saved) >= len(rows) {
		t.Fatalf("%d runs saved before the kill, want some of %d", len(saved), len(rows))
	}

	code, _, stderr := cli(t, "sweep", grid, "--out", out)
	if code != exitUsage || !strings.Contains(stderr, "--resume") {
		t.Errorf("a sweep into an unfinished sweep's folder without --resume: exit %d, %s", code, stderr)
	}
	code, _, stderr = cli(t, "sweep", grid, "--out", out, "--resume")
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, fmt.Sprintf("resume: %d of %d runs already done", len(saved), len(rows))) {
		t.Errorf("resume did not report the saved runs:\n%s", stderr)
	}
	sameRuns(t, "killed and resumed", readRuns(t, out), rows)
	left, _ := os.ReadDir(out)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{sweep.ManifestFile, report.RunsFile}) {
		t.Errorf("files left in the folder: %v", names)
	}
}

func TestSweepInterrupt(t *testing.T) {
	grid := sweepFixture(t, 6)
	out := filepath.Join(t.TempDir(), "interrupted")
	cmd := startSweep(t, out, grid, "--jobs", "1", "--checkpoint", "0")
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != exitSignal {
		t.Fatalf("interrupted sweep: %v, want exit %d", err, exitSignal)
	}
	if _, err := report.ReadRuns(filepath.Join(out, sweep.PartialRunsFile)); err != nil {
		t.Errorf("no finished runs saved on Ctrl-C: %v", err)
	}
	m, err := sweep.ReadManifest(out)
	if err != nil || m.Complete || m.Ended == nil || m.Finished == 0 {
		t.Errorf("manifest after Ctrl-C: %+v, %v", m, err)
	}
}

func TestSweepBadInput(t *testing.T) {
	grid := sweepFixture(t, 1)
	base, err := os.ReadFile(grid)
	if err != nil {
		t.Fatal(err)
	}
	write := func(t *testing.T, content string) string {
		path := filepath.Join(filepath.Dir(grid), "bad.yaml")
		writeFile(t, path, content)
		return path
	}
	replace := func(old, new string) string { return strings.Replace(string(base), old, new, 1) }
	seq := func(n int) string { // [1, 2, ..., n]
		s := make([]string, n)
		for i := range s {
			s[i] = fmt.Sprint(i + 1)
		}
		return "[" + strings.Join(s, ", ") + "]"
	}
	tests := []struct {
		name, yaml string
		args       []string
		want       []string
	}{
		{name: "unknown heuristic", yaml: replace("[MM, MCT]", "[MM, Magic]"), want: []string{"bad.yaml:3: heuristics", `"Magic"`}},
		{name: "unknown key", yaml: replace("trim: 10", "trimm: 10"), want: []string{"bad.yaml:12", `unknown key "trimm"`}},
		{name: "level without source", yaml: replace("    trace: trials/*.csv\n", ""), want: []string{"bad.yaml:6: levels[0]", "either trace"}},
		{name: "empty list", yaml: replace("[none, both]", "[]"), want: []string{"bad.yaml:4: prune: empty list"}},
		{name: "missing pet", yaml: replace("pet.json", "nope.json"), want: []string{"bad.yaml:2: pet", "nope.json"}},
		{name: "no trace files", yaml: replace("trials/*.csv", "trials/*.dat"), want: []string{"bad.yaml:7: levels[0].trace", "*.dat"}},
		{name: "too few files", yaml: replace("trials: 2", "trials: 5"), want: []string{"bad.yaml:8: levels[0].trials", "5 trials wanted", "only 3 files"}},
		{name: "bad deadline rule", yaml: replace("seed: 3}", "seed: 3, deadline: soon}"), want: []string{"levels[1].generate.deadline", `"soon"`}},
		{name: "bad flag value", args: []string{"--set", "queue_size=0"}, want: []string{"--set queue_size=0: 0 is below 1"}},
		{name: "bad shard", args: []string{"--shard", "3/2"}, want: []string{"--shard", "3/2"}},
		{name: "unknown flag key", args: []string{"--set", "colour=red"}, want: []string{`unknown grid key "colour"`}},
		{name: "trials without levels", args: []string{"--trials", "3"}, want: []string{"--trials"}},
		{name: "missing grid file", args: []string{"nothing.yaml"}, want: []string{"nothing.yaml"}},
		// 4 × 3000 × 3000 × 3 trials: over a hundred million runs (issue 49: exit 1 before)
		{name: "huge grid", yaml: replace("trim: 10", "trim: "+seq(3000)+"\nseed: "+seq(3000)), want: []string{"more than 840000 runs"}},
		{name: "billion-point grid", args: hugeGrid(), want: []string{"more than 840000 grid points"}}, // issue 49 item 7: exit 2
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"sweep", "--out", filepath.Join(t.TempDir(), "out")}
			if tt.yaml != "" {
				args = append(args, write(t, tt.yaml))
			} else if len(tt.args) == 0 || !strings.HasSuffix(tt.args[0], ".yaml") {
				args = append(args, grid)
			}
			code, _, stderr := cli(t, append(args, tt.args...)...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitUsage, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
}

// TestSweepResumeCorrupt: --resume on a folder whose runs.partial.parquet is not Parquet exits
// 2 naming the file (issue 49: exit 1 before), and leaves the file for the user to look at.
func TestSweepResumeCorrupt(t *testing.T) {
	grid := sweepFixture(t, 1)
	out := filepath.Join(t.TempDir(), "out")
	os.MkdirAll(out, 0o755)
	partial := filepath.Join(out, sweep.PartialRunsFile)
	writeFile(t, partial, "PAR1 this is not a runs file")
	code, _, stderr := cli(t, "sweep", grid, "--out", out, "--resume")
	if code != exitUsage || !strings.Contains(stderr, partial) {
		t.Errorf("exit %d, want %d naming %s; stderr:\n%s", code, exitUsage, partial, stderr)
	}
	if _, err := os.Stat(partial); err != nil {
		t.Errorf("the corrupt file was removed: %v", err)
	}
}

// TestReadOnlyOut: a replay into a folder on a read-only file system exits 2 naming the file
// (issue 49: exit 1 before). Without a read-only mount at hand, EROFS is checked as badPath sees it.
func TestReadOnlyOut(t *testing.T) {
	err := fmt.Errorf("create out/tasks.parquet: %w", syscall.EROFS)
	if !badPath(err) {
		t.Errorf("%v is not bad input", err)
	}
}

// TestSweepSameMapperWarns: a sweep replays once the grid points that are one mapper under two
// labels (PAMF-P is PAM-P once a fairness factor is set; PAMND-D is always PAM-D), under the
// label that comes first, and says so once per pair of labels; options that a mapper does not read
// are not crossed with it (the fairness factor of an unpruned PAM). That the pairs replay alike
// is prune's TestSameKindSameRuns; here the rows are counted by hand: of 4 names × 3 variants × 2
// factors, PAM and MM keep 1 + 2 + 2 points each (none, defer, both), PAMF adds PAMF-P and PAMF-D
// at its own 0.1 (at 0.05 they are PAM's), and PAMND none: 12 points, 24 runs of 48 combinations.
func TestSweepSameMapperWarns(t *testing.T) {
	dir := t.TempDir()
	pet := filepath.Join(dir, "pet.json")
	mustCLI(t, "pet", "synth", "--out", pet, "--types", "3", "--machines", "2", "--samples", "200", "--step", "20")
	out := filepath.Join(dir, "runs")
	code, _, stderr := cli(t, "sweep", "--pet", pet, "-H", "PAM,PAMF,PAMND,MM", "--prune", "none,defer,both",
		"--set", "fairness=0,0.05", "--generate", "3k", "--trials", "2", "--set", "trim=10", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got []string
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "warning: ") {
			a, rest, _ := strings.Cut(strings.TrimPrefix(line, "warning: "), " is ")
			b, _, _ := strings.Cut(rest, " at ")
			got = append(got, a+" is "+b)
		}
	}
	want := []string{"PAMF-P is PAM-P", "PAMF-D is PAM-D", "PAMND-D is PAM-D"} // in the grid's order
	if !slices.Equal(got, want) {
		t.Fatalf("warnings %q, want %q:\n%s", got, want, stderr)
	}
	if !strings.Contains(stderr, "6 grid points, the first level=3k|heuristic=PAM|prune=defer|fairness=0 ") ||
		!strings.Contains(stderr, "48 combinations of options and trials are 24 replays") {
		t.Errorf("PAMND-D is PAM-D at every variant of PAMND and both factors; 24 of 48 run; stderr:\n%s", stderr)
	}
	var rows []string
	for _, r := range readRuns(t, out) {
		if r.Trial == 1 {
			rows = append(rows, fmt.Sprintf("%s@%g", r.Name, r.Fairness))
		}
	}
	slices.Sort(rows)
	wantRows := []string{"MM-D@0", "MM-D@0.05", "MM-P@0", "MM-P@0.05", "MM@0",
		"PAM-D@0", "PAM-D@0.05", "PAM-P@0", "PAM-P@0.05", "PAM@0", "PAMF-D@0.1", "PAMF-P@0.1"}
	if !slices.Equal(rows, wantRows) {
		t.Errorf("grid points %q, want %q", rows, wantRows)
	}
}

// TestSweepResumeWithAnotherPET: a grid whose PET file was rebuilt since its sweep ran names the
// same runs, but they would replay differently: --resume is refused (exit 2), the runs are kept.
func TestSweepResumeWithAnotherPET(t *testing.T) {
	grid := sweepFixture(t, 1)
	out := filepath.Join(t.TempDir(), "runs")
	mustCLI(t, "sweep", grid, "--out", out, "-q")
	before := readRuns(t, out)
	mustCLI(t, "pet", "synth", "--out", filepath.Join(filepath.Dir(grid), "pet.json"), "--types", "3", "--machines", "2",
		"--samples", "200", "--step", "20", "--seed", "2", "--force")
	code, _, stderr := cli(t, "sweep", grid, "--out", out, "--resume")
	if code != exitUsage || !strings.Contains(stderr, "another PET or catalog") {
		t.Errorf("exit %d, want %d and a refusal naming the PET:\n%s", code, exitUsage, stderr)
	}
	sameRuns(t, "runs after the refusal", readRuns(t, out), before)
}

// TestSweepResumeCorruptCheckpoint (issue 49 item 7): a checkpoint that cannot be read is bad
// input, not an internal error: exit 2, naming the file, and the file is left for the user.
func TestSweepResumeCorruptCheckpoint(t *testing.T) {
	grid := sweepFixture(t, 1)
	out := filepath.Join(t.TempDir(), "runs")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	partial := filepath.Join(out, sweep.PartialRunsFile)
	writeFile(t, partial, "not parquet")
	code, _, stderr := cli(t, "sweep", grid, "--out", out, "--resume")
	if code != exitUsage || !strings.Contains(stderr, partial) {
		t.Errorf("exit %d, want %d and a message naming %s:\n%s", code, exitUsage, partial, stderr)
	}
	if b, err := os.ReadFile(partial); err != nil || string(b) != "not parquet" {
		t.Errorf("the checkpoint was changed: %q, %v", b, err)
	}
}

// hugeGrid is --set flags for nine lists of ten values each: 10⁹ grid points.
func hugeGrid() []string {
	var args []string
	for _, key := range []string{"lambda", "drop_threshold", "fairness", "moc_cull", "rho", "kpb_percent", "seed", "queue_size", "trim"} {
		var xs []string
		for v := 1; v <= 10; v++ {
			x := fmt.Sprintf("%g", float64(v)/20) // in [0, 0.5]: valid for each key up to rho, and no degenerate pruning
			if key == "kpb_percent" || key == "seed" || key == "queue_size" || key == "trim" {
				x = fmt.Sprint(v)
			}
			xs = append(xs, x)
		}
		args = append(args, "--set", key+"="+strings.Join(xs, ","))
	}
	return args
}
