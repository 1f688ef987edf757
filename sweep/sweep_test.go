package sweep

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/report"
)

// testInputs are a random 3-type, 2-machine PET and two levels of random trials: small enough
// that a run takes milliseconds, loaded enough that pruning drops tasks.
func testInputs() SweepInputs {
	r := rand.New(rand.NewPCG(7, 1))
	pet := replaytest.RandomPET(r, 3, 2, 4, 12)
	levels := map[string]LevelTrials{}
	for _, lv := range []struct {
		name string
		rate float64
	}{{"lo", 0.3}, {"hi", 1}} {
		var trials []Trial
		for i := range 3 {
			trials = append(trials, Trial{Source: fmt.Sprintf("%s#%d", lv.name, i+1), Tasks: replaytest.RandomTasks(r, 120, 3, lv.rate, 5, 25)})
		}
		levels[lv.name] = LevelTrials{Rate: lv.rate, Trials: trials}
	}
	machines := []replay.Machine{{Name: "a", Type: 0, PricePerHour: 1, PowerWatts: 100}, {Name: "b", Type: 1, PricePerHour: 2, PowerWatts: 150}}
	return SweepInputs{PET: pet, Machines: machines, TimeUnitSeconds: 1, Levels: levels}
}

const testGrid = `
pet: unused
heuristics: [MM, MCT]
prune: [none, both]
levels:
  - {name: lo, trace: unused-lo}
  - {name: hi, trace: unused-hi}
trim: 10
defer_at: before # after, the default, prunes no task of this light workload
`

func testSweep(t *testing.T, dir string, jobs int, shard Shard) *Sweep {
	t.Helper()
	return &Sweep{Grid: mustParse(t, testGrid), Inputs: testInputs(), Dir: dir, Jobs: jobs, Shard: shard, Version: "test", Checkpoint: time.Hour}
}

func runSweep(t *testing.T, s *Sweep) []report.RunRow {
	t.Helper()
	if _, err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	rows, err := report.ReadRuns(filepath.Join(s.Dir, report.RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// withoutTimes prints rows without their wall times, the only fields that may differ between
// two runs of one grid. Printing makes NaN equal to NaN.
func withoutTimes(rows []report.RunRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = fmt.Sprintf("%+v", r.WithoutTimes())
	}
	return out
}

func sameRows(t *testing.T, what string, got, want []report.RunRow) {
	t.Helper()
	g, w := withoutTimes(got), withoutTimes(want)
	if len(g) != len(w) {
		t.Fatalf("%s: %d rows, want %d", what, len(g), len(w))
	}
	for i := range g {
		if g[i] != w[i] {
			t.Fatalf("%s: row %d\n%s\nwant\n%s", what, i, g[i], w[i])
		}
	}
}

func TestSweepDeterministic(t *testing.T) {
	one := runSweep(t, testSweep(t, t.TempDir(), 1, Shard{}))
	if len(one) != 24 { // 2 levels × 3 trials × 2 heuristics × 2 variants
		t.Fatalf("%d rows, want 24", len(one))
	}
	if !slices.IsSortedFunc(one, func(a, b report.RunRow) int { return strings.Compare(a.Key, b.Key) }) {
		t.Error("rows are not sorted by key")
	}
	var dropped int32
	for _, r := range one {
		dropped += r.DroppedPruned
		if r.Scored == 0 || r.Trace == "" || r.Name == "" || math.IsNaN(r.LevelRate) {
			t.Errorf("row %s: %+v", r.Key, r)
		}
	}
	if dropped == 0 {
		t.Error("no run pruned a task: the test workload is too light to tell variants apart")
	}
	dir := t.TempDir()
	four := runSweep(t, testSweep(t, dir, 4, Shard{}))
	sameRows(t, "--jobs 4 against --jobs 1", four, one)

	m, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !m.Complete || m.Runs != 24 || m.ShardRuns != 24 || m.Finished != 24 || m.Ended == nil || m.Grid == nil || len(m.Grid.Heuristics) != 2 || m.Seeds.Replay[0] != 1 {
		t.Errorf("manifest %+v", m)
	}
	if _, err := os.Stat(filepath.Join(dir, PartialRunsFile)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the partial file outlived the sweep: %v", err)
	}
	// The folder holds a sweep now: running into it again needs --resume.
	if _, err := testSweep(t, dir, 1, Shard{}).Run(context.Background()); !errors.Is(err, ErrSweepExists) {
		t.Errorf("second sweep into one folder: %v", err)
	}
}

func TestSweepShards(t *testing.T) {
	whole := runSweep(t, testSweep(t, t.TempDir(), 2, Shard{}))
	var merged []report.RunRow
	for i := 1; i <= 3; i++ {
		part := runSweep(t, testSweep(t, t.TempDir(), 2, Shard{Index: i, Count: 3}))
		if len(part) != 8 {
			t.Errorf("shard %d/3 has %d rows, want 8", i, len(part))
		}
		merged = append(merged, part...)
	}
	sortRows(merged)
	sameRows(t, "shards 1/3 + 2/3 + 3/3", merged, whole)
}

// TestSweepInterruptAndResume stops a sweep after a few runs, as Ctrl-C does, and resumes it.
func TestSweepInterruptAndResume(t *testing.T) {
	want := runSweep(t, testSweep(t, t.TempDir(), 2, Shard{}))

	dir := t.TempDir()
	s := testSweep(t, dir, 2, Shard{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var seen int
	s.Done = func(report.RunRow) {
		if seen++; seen == 5 {
			cancel()
		}
	}
	s.Checkpoint = 1 << 62 // only the save on the way out
	// Saving brackets the save: held before the partial file exists, released after.
	var held, released int
	s.Saving = func() func() {
		held++
		if _, err := os.Stat(filepath.Join(dir, PartialRunsFile)); err == nil {
			t.Error("Saving was called after the save")
		}
		return func() {
			released++
			if _, err := os.Stat(filepath.Join(dir, PartialRunsFile)); err != nil {
				t.Errorf("Saving's done was called before the save: %v", err)
			}
		}
	}
	st, err := s.Run(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted sweep: %v", err)
	}
	if held != 1 || released != 1 {
		t.Errorf("Saving held %d times, released %d, want once each", held, released)
	}
	partial, err := report.ReadRuns(filepath.Join(dir, PartialRunsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(partial) < 5 || len(partial) >= 24 || len(partial) != st.Finished {
		t.Fatalf("%d rows saved (stats %+v), want at least the 5 reported and fewer than 24", len(partial), st)
	}
	if _, err := os.Stat(filepath.Join(dir, report.RunsFile)); !errors.Is(err, os.ErrNotExist) {
		t.Error("an interrupted sweep wrote runs.parquet")
	}

	s = testSweep(t, dir, 2, Shard{})
	s.Resume = true
	var logs []string
	s.Log = func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }
	var ran int
	s.Done = func(report.RunRow) { ran++ }
	got := runSweep(t, s)
	if ran != 24-len(partial) {
		t.Errorf("resume ran %d runs, want the %d missing", ran, 24-len(partial))
	}
	sameRows(t, "interrupted and resumed", got, want)
	if !strings.Contains(strings.Join(logs, "\n"), fmt.Sprintf("%d of 24 runs already done", len(partial))) {
		t.Errorf("logs: %q", logs)
	}

	// Resuming a smaller grid would throw away the runs it lacks: refused, nothing deleted.
	s = testSweep(t, dir, 2, Shard{})
	s.Resume, s.Grid.Heuristics = true, List[string]{"MM"}
	if _, err := s.Run(context.Background()); !errors.Is(err, ErrSweepExists) || !strings.Contains(err.Error(), "12 runs that are not runs of this grid") {
		t.Errorf("resuming half the grid: %v", err)
	}
	kept, err := report.ReadRuns(filepath.Join(dir, report.RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	sameRows(t, "after the refused resume", kept, want)
}

// TestSweepResumeRefusesOtherShard (issue 46): shard 2/2 into the folder of shard 1/2 is refused
// without a hint to resume, and refused with --resume too, which used to keep only shard 2's
// runs; shard 1/2's runs are still there after both, and so is its manifest.
func TestSweepResumeRefusesOtherShard(t *testing.T) {
	dir := t.TempDir()
	first := runSweep(t, testSweep(t, dir, 2, Shard{Index: 1, Count: 2}))
	for _, resume := range []bool{false, true} {
		for _, shard := range []Shard{{Index: 2, Count: 2}, {}} {
			s := testSweep(t, dir, 2, shard)
			s.Resume = resume
			var ran int
			s.Done = func(report.RunRow) { ran++ }
			_, err := s.Run(context.Background())
			if !errors.Is(err, ErrSweepExists) || !strings.Contains(err.Error(), "shard 1/2") || strings.Contains(err.Error(), "resume") || ran > 0 {
				t.Errorf("shard %s, resume %v: %d runs, error %v; want a refusal that names shard 1/2 and does not suggest resuming", shard, resume, ran, err)
			}
			rows, err := report.ReadRuns(filepath.Join(dir, report.RunsFile))
			if err != nil {
				t.Fatal(err)
			}
			sameRows(t, "shard 1/2's runs", rows, first)
			if m, err := ReadManifest(dir); err != nil || m.Shard != "1/2" || !m.Complete {
				t.Errorf("manifest after the refusal: %+v, %v", m, err)
			}
		}
	}
	// Its own shard resumes: nothing to do.
	s := testSweep(t, dir, 2, Shard{Index: 1, Count: 2})
	s.Resume = true
	sameRows(t, "shard 1/2 resumed", runSweep(t, s), first)
}

// TestSweepResumeRefusesOtherInputs: the manifest records what identifies the PET and catalog a
// sweep's runs were made with; resuming with other ones would mix runs of two PETs under one grid
// point, so it is refused, with or without --resume, and the runs are kept.
func TestSweepResumeRefusesOtherInputs(t *testing.T) {
	dir := t.TempDir()
	s := testSweep(t, dir, 2, Shard{})
	s.InputsDigest = "sha256:aaaa"
	want := runSweep(t, s)
	for _, resume := range []bool{true, false} {
		s = testSweep(t, dir, 2, Shard{})
		s.InputsDigest, s.Resume = "sha256:bbbb", resume
		if _, err := s.Run(context.Background()); !errors.Is(err, ErrSweepExists) || !strings.Contains(err.Error(), "another PET or catalog") || strings.Contains(err.Error(), "resume") {
			t.Errorf("resume %v with another PET: %v", resume, err)
		}
		rows, err := report.ReadRuns(filepath.Join(dir, report.RunsFile))
		if err != nil {
			t.Fatal(err)
		}
		sameRows(t, "after the refusal", rows, want)
	}
	s = testSweep(t, dir, 2, Shard{})
	s.InputsDigest, s.Resume = "sha256:aaaa", true
	sameRows(t, "resumed with the same inputs", runSweep(t, s), want)
}

// TestSweepResumeRefusesChangedLevel: a level's deadline rule, seed or the grid's time unit are
// in no run's key, but change its trials; resuming after changing one would mix runs of the old
// trials with runs of the new under one grid point, so it is refused and the runs are kept.
func TestSweepResumeRefusesChangedLevel(t *testing.T) {
	dir := t.TempDir()
	want := runSweep(t, testSweep(t, dir, 2, Shard{}))
	for _, change := range []func(*Grid){
		func(g *Grid) { g.Levels[0].Deadline = "tight" },
		func(g *Grid) { g.Levels[1].Seed = 2 },
		func(g *Grid) { g.TimeUnit = "s" },
	} {
		s := testSweep(t, dir, 2, Shard{})
		s.Resume = true
		change(s.Grid)
		if _, err := s.Run(context.Background()); !errors.Is(err, ErrSweepExists) || !strings.Contains(err.Error(), "changed since") {
			t.Errorf("resume after a change: %v", err)
		}
		rows, err := report.ReadRuns(filepath.Join(dir, report.RunsFile))
		if err != nil {
			t.Fatal(err)
		}
		sameRows(t, "after the refusal", rows, want)
	}
}

// TestCheckpointEvery: the wait after a save is the interval, or ten times the save when that is
// longer, so that saves take at most 1/11 of a sweep; 0 (after every run) stays 0.
func TestCheckpointEvery(t *testing.T) {
	for _, c := range []struct {
		interval, took, want time.Duration
	}{
		{5 * time.Second, 100 * time.Millisecond, 5 * time.Second}, // 10,000 rows: the interval
		{5 * time.Second, 2 * time.Second, 20 * time.Second},       // 100,000 rows: 10 × 2 s
		{5 * time.Second, 500 * time.Millisecond, 5 * time.Second}, // exactly a tenth
		{0, 2 * time.Second, 0},                                    // --checkpoint 0: every run
	} {
		if got := checkpointEvery(c.interval, c.took); got != c.want {
			t.Errorf("checkpointEvery(%v, %v) = %v, want %v", c.interval, c.took, got, c.want)
		}
	}
	// Over a 2-hour sweep whose saves grow with its rows (1,000 rows/s, 20 µs a row to save), the
	// saves take about a tenth of the time (a save costs a little more than the one before the
	// wait: rows came in meanwhile); at a fixed 5 s they would take most of it (88%).
	share := func(next func(took time.Duration) time.Duration) float64 {
		const perRow, rate = 20 * time.Microsecond, 1000.0
		var clock, saving time.Duration
		for every := next(0); clock < 2*time.Hour; {
			clock += every
			took := time.Duration(clock.Seconds()*rate) * perRow
			clock, saving = clock+took, saving+took
			every = next(took)
		}
		return saving.Seconds() / clock.Seconds()
	}
	if got := share(func(took time.Duration) time.Duration { return checkpointEvery(5*time.Second, took) }); got > 0.12 {
		t.Errorf("saves took %.1f%% of a 2-hour sweep, want at most 12%%", 100*got)
	}
	if got := share(func(time.Duration) time.Duration { return 5 * time.Second }); got < 0.8 {
		t.Errorf("the model is off: at a fixed 5 s, saves took only %.1f%% of a 2-hour sweep", 100*got)
	}
}

// TestSweepCountsUnscored: the stats count the runs whose trim left no task scored, as their rows
// say (120 tasks: a trim of 100 at each end leaves none, one of 10 leaves 100), and give the
// least such trim.
func TestSweepCountsUnscored(t *testing.T) {
	s := testSweep(t, t.TempDir(), 2, Shard{})
	s.Grid = mustParse(t, strings.Replace(testGrid, "trim: 10", "trim: [10, 100, 200]", 1))
	st, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rows, err := report.ReadRuns(filepath.Join(s.Dir, report.RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	want, trims := 0, map[int32]int{}
	for _, r := range rows {
		if r.Scored == 0 {
			want++
			trims[r.Trim]++
		}
	}
	if want == 0 || trims[10] != 0 || trims[100] == 0 {
		t.Fatalf("the grid is off: %d unscored runs, by trim %v", want, trims)
	}
	if st.Unscored != want || st.UnscoredTrim != 100 {
		t.Errorf("stats: %d unscored, least trim %d; want %d, 100", st.Unscored, st.UnscoredTrim, want)
	}
}
