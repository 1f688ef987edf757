package slurm

import (
	"context"
	"errors"
	"fmt"
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
	"github.com/hcreplay/hcreplay/sweep"
)

const mergeGrid = `
pet: unused
heuristics: [MM, MCT]
prune: [none, both]
levels:
  - {name: lo, trace: unused-lo}
trim: 5
`

// mergeInputs are a random 3-type, 2-machine PET and one level of two short trials.
func mergeInputs() sweep.SweepInputs {
	r := rand.New(rand.NewPCG(3, 9))
	pet := replaytest.RandomPET(r, 3, 2, 4, 12)
	var trials []sweep.Trial
	for i := range 2 {
		trials = append(trials, sweep.Trial{Source: fmt.Sprintf("lo#%d", i+1), Tasks: replaytest.RandomTasks(r, 60, 3, 0.5, 5, 25)})
	}
	machines := []replay.Machine{{Name: "a", Type: 0}, {Name: "b", Type: 1}}
	return sweep.SweepInputs{PET: pet, Machines: machines, TimeUnitSeconds: 1, TimeUnit: "ms",
		Levels: map[string]sweep.LevelTrials{"lo": {Rate: 0.5, Trials: trials}}}
}

func runInto(t *testing.T, dir string, shard sweep.Shard) {
	t.Helper()
	g, err := sweep.ParseGrid([]byte(mergeGrid), "grid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := &sweep.Sweep{Grid: g, Inputs: mergeInputs(), Dir: dir, Jobs: 1, Shard: shard, Version: "test", Checkpoint: time.Hour}
	if _, err := s.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func printed(rows []report.RunRow) []string {
	var out []string
	for _, r := range rows {
		out = append(out, fmt.Sprintf("%+v", r.WithoutTimes()))
	}
	return out
}

// TestMerge: the merge job's merge of three complete shards gives the rows of the same grid run
// whole, in key order; with a shard's runs.parquet missing it refuses, as the user's to fix.
func TestMerge(t *testing.T) {
	whole := t.TempDir()
	runInto(t, whole, sweep.Shard{})
	want, err := report.ReadRuns(filepath.Join(whole, report.RunsFile))
	if err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	const n = 3
	for i := 1; i <= n; i++ {
		runInto(t, ShardDir(dir, i), sweep.Shard{Index: i, Count: n})
	}
	if err := WriteState(dir, &State{Shards: n}); err != nil {
		t.Fatal(err)
	}
	out, runs, shards, err := Merge(dir, "v9")
	if err != nil {
		t.Fatal(err)
	}
	if out != filepath.Join(dir, report.RunsFile) || runs != len(want) || shards != n {
		t.Errorf("Merge = %s, %d runs, %d shards; want %s, %d, %d", out, runs, shards, filepath.Join(dir, report.RunsFile), len(want), n)
	}
	got, err := report.ReadRuns(out)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(printed(got), printed(want)) {
		t.Errorf("merged rows differ from the whole grid's:\n%s\nwant\n%s", strings.Join(printed(got), "\n"), strings.Join(printed(want), "\n"))
	}
	if m, err := report.ReadRunsMeta(out); err != nil || m.TimeUnit != "ms" || m.Version != "v9" {
		t.Errorf("merged file's meta = %+v, %v; want ms, v9", m, err)
	}

	if err := os.Remove(filepath.Join(ShardDir(dir, 2), sweep.ManifestFile)); err != nil {
		t.Fatal(err)
	}
	_, _, _, err = Merge(dir, "v9")
	if err == nil || !errors.As(err, new(sweep.InputError)) || !strings.Contains(err.Error(), "shards 2 of 3 are not complete") {
		t.Errorf("a shard without its manifest: %v, want an InputError naming shard 2", err)
	}
}
