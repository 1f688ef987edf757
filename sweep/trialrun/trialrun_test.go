package trialrun

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
	"github.com/hcreplay/hcreplay/replay/prune"
	"github.com/hcreplay/hcreplay/sweep/trialset"
)

// tinyTrial writes a two-type, two-machine PET in .etc form and a CSV trace of n tasks, and
// returns the PET, its default machines, the trial and its loaded tasks.
func tinyTrial(t *testing.T, n int) (*petbuild.PET, []replay.Machine, trialset.Trial, []replay.Task) {
	t.Helper()
	dir := t.TempDir()
	petPath, trPath := filepath.Join(dir, "tiny.etc"), filepath.Join(dir, "trace.csv")
	etc := "machineCount=2;taskCount=2;\n" +
		"machine=0;task=0;\n2\t0.5\n4\t0.5\n" + "machine=1;task=0;\n4\t1\n" +
		"machine=0;task=1;\n6\t1\n" + "machine=1;task=1;\n2\t0.25\n4\t0.75\n"
	var b strings.Builder
	b.WriteString("task_type,arrival,deadline\n")
	for i := range n {
		at := float64(i) * 1.5
		fmt.Fprintf(&b, "%d,%g,%g\n", i%2, at, at+9)
	}
	for path, text := range map[string]string{petPath: etc, trPath: b.String()} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pet, err := petbuild.ReadFile(petPath, petbuild.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	trials, err := trialset.Open(trialset.Input{Spec: trPath}, pet, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	if len(trials) != 1 {
		t.Fatalf("%s: %d trials, want 1", trPath, len(trials))
	}
	tasks, err := trials[0].LoadTasks(new(trialset.Buffers))
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != n {
		t.Fatalf("loaded %d tasks, want %d", len(tasks), n)
	}
	return pet, replay.DefaultCatalog(pet.MachineTypes()), trials[0], tasks
}

// TestReplayOneCounts: the replay's progress counter hears of every task's outcome once, with
// and without an output folder (replayOne hands outcomes on in two ways).
func TestReplayOneCounts(t *testing.T) {
	pet, machines, _, tasks := tinyTrial(t, 40)
	r := &Runner{}
	for _, dir := range []string{"", t.TempDir()} {
		mapper, err := prune.New("MM", heuristic.DefaultParams(), prune.Config{})
		if err != nil {
			t.Fatal(err)
		}
		cfg := replay.Config{PET: pet, Machines: machines, Tasks: tasks, Options: replay.DefaultOptions()}
		calls := 0
		if _, err := r.replayOne(t.Context(), mapper, cfg, pet, "t.csv", dir, func() { calls++ }, nil); err != nil {
			t.Fatal(err)
		}
		if calls != len(tasks) {
			t.Errorf("out %q: %d calls for %d tasks", dir, calls, len(tasks))
		}
	}
}

// TestReplayOneAccept: replayOne asks accept once, after the replay's last outcome, and when
// accept refuses, returns its error and keeps nothing, not even the output folder it made (a
// streamed replay of a file the checking pass refuses, replayStreamed); when it agrees, the
// files are written.
func TestReplayOneAccept(t *testing.T) {
	pet, machines, _, tasks := tinyTrial(t, 40)
	refuse := errors.New("refused")
	for _, keep := range []bool{false, true} {
		for _, dir := range []string{"", filepath.Join(t.TempDir(), "run")} {
			mapper, err := prune.New("MM", heuristic.DefaultParams(), prune.Config{})
			if err != nil {
				t.Fatal(err)
			}
			cfg := replay.Config{PET: pet, Machines: machines, Tasks: tasks, Options: replay.DefaultOptions()}
			calls, asked := 0, 0
			accept := func() error {
				if asked++; calls != len(tasks) {
					t.Errorf("accept asked after %d of %d outcomes", calls, len(tasks))
				}
				if keep {
					return nil
				}
				return refuse
			}
			r := &Runner{CSV: true}
			res, err := r.replayOne(t.Context(), mapper, cfg, pet, "t.csv", dir, func() { calls++ }, accept)
			if asked != 1 {
				t.Errorf("keep %v, out %q: accept asked %d times, want once", keep, dir, asked)
			}
			if keep != (err == nil && res != nil) || !keep && !errors.Is(err, refuse) {
				t.Errorf("keep %v, out %q: result %v, error %v", keep, dir, res != nil, err)
			}
			if dir == "" {
				continue
			}
			entries, err := os.ReadDir(dir)
			if !keep && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the output folder, which replayOne made, is there after a refusal (%v)", err)
			}
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			want := []string{"reliability.csv", "summary.json", "tasks.csv", "tasks.parquet", "timing.json"}
			if !keep {
				want = nil
			}
			if !slices.Equal(names, want) {
				t.Errorf("keep %v: the output folder holds %q, want %q", keep, names, want)
			}
		}
	}
}

// TestMakeDirsTakeTurns makes run folders from many goroutines at once, as trials replayed at
// once do, under a parent none has made yet, and undoes every other one as a replay that fails
// does: every folder kept must exist, none may fail to be made, and the undone must be gone.
// Without Runner.dirs, an undo removed the shared parent while another trial was making its
// folder inside it.
func TestMakeDirsTakeTurns(t *testing.T) {
	var r Runner
	for round := range 30 {
		base := filepath.Join(t.TempDir(), "out", "MM")
		var wg sync.WaitGroup
		errs := make([]error, 8)
		for i := range errs {
			wg.Go(func() {
				undo, err := r.makeDirs(filepath.Join(base, fmt.Sprintf("trial-%03d", i)))
				if err == nil && i%2 == 1 {
					undo()
				}
				errs[i] = err
			})
		}
		wg.Wait()
		for i, err := range errs {
			dir := filepath.Join(base, fmt.Sprintf("trial-%03d", i))
			_, serr := os.Stat(dir)
			switch {
			case err != nil:
				t.Fatalf("round %d: making %s: %v", round, dir, err)
			case i%2 == 0 && serr != nil:
				t.Fatalf("round %d: %s, kept, is gone: %v", round, dir, serr)
			case i%2 == 1 && serr == nil:
				t.Fatalf("round %d: %s, undone, is still there", round, dir)
			}
		}
	}
}

// TestMakeDirsUndoesWhatItMade: undo removes every folder makeDirs made, parents included (a
// replay that fails leaves no empty --out behind), and nothing that was there before or that
// holds a file.
func TestMakeDirsUndoesWhatItMade(t *testing.T) {
	var r Runner
	base := t.TempDir()
	undo, err := r.makeDirs(filepath.Join(base, "out", "MM", "trial-001"))
	if err != nil {
		t.Fatal(err)
	}
	undo()
	if _, err := os.Stat(filepath.Join(base, "out")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("undo left %s: %v", filepath.Join(base, "out"), err)
	}
	if _, err := os.Stat(base); err != nil {
		t.Fatalf("undo removed %s, which was there before: %v", base, err)
	}
	undo, err = r.makeDirs(filepath.Join(base, "out", "MM", "trial-002"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "out", "MM", "kept"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	undo()
	if _, err := os.Stat(filepath.Join(base, "out", "MM", "trial-002")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("undo left the run's own folder: %v", err)
	}
	if _, err := os.Stat(filepath.Join(base, "out", "MM", "kept")); err != nil {
		t.Fatalf("undo removed a folder holding a file: %v", err)
	}
}
