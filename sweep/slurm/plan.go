package slurm

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
	"github.com/hcreplay/hcreplay/sweep"
)

// MinutesPerShard is the replay time --slurm-shards aims at per shard: long enough that a
// task's start (reading the PET and traces) is small beside it, short enough that a failed shard
// costs little to rerun.
const MinutesPerShard = 10

// TasksPerCoreSecond is the replay speed --slurm-shards's estimate assumes, in tasks per
// second per core: measured on a sweep of MM, MSD, PAM and PAMF, unpruned and pruned, on the
// project's machine (docs/scale.md). Slower heuristics only make shards longer than planned.
const TasksPerCoreSecond = 7500

// AbsoluteGrid is the grid as YAML (JSON is YAML; its keys are the grid's), with its paths
// made absolute, so that the copy in DIR reads the files the original does.
func AbsoluteGrid(g *sweep.Grid, base string) ([]byte, error) {
	cp := *g
	cp.PET = sweep.GridPath(base, g.PET)
	cp.Catalog = sweep.GridPath(base, g.Catalog)
	cp.Levels = slices.Clone(g.Levels)
	for i := range cp.Levels {
		cp.Levels[i].Trace = sweep.GridPath(base, cp.Levels[i].Trace)
	}
	b, err := json.MarshalIndent(&cp, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("copy the grid: %w", err)
	}
	return append([]byte("# The grid of a sweep submitted with hcreplay sweep --slurm, its paths absolute.\n"), append(b, '\n')...), nil
}

// CopiedRuns checks that the copy of the grid expands to the runs the grid does (keys, in order)
// and returns them: the shards run the copy.
func CopiedRuns(g *sweep.Grid, copied []byte, in sweep.SweepInputs) ([]sweep.SweepRun, error) {
	trials := map[string]int{}
	for name, lt := range in.Levels {
		trials[name] = len(lt.Trials)
	}
	runs, err := g.Expand(trials)
	if err != nil {
		return nil, sweep.InputError{Err: err}
	}
	cg, err := sweep.ParseGrid(copied, GridFile)
	if err == nil {
		err = cg.Validate()
	}
	if err != nil {
		return nil, fmt.Errorf("internal error: the copy of the grid does not read back: %w", err)
	}
	again, err := cg.Expand(trials)
	if err != nil {
		return nil, fmt.Errorf("internal error: the copy of the grid does not expand: %w", err)
	}
	if len(again) != len(runs) {
		return nil, fmt.Errorf("internal error: the copy of the grid has %d runs, the grid %d", len(again), len(runs))
	}
	for i := range runs {
		if runs[i].Key != again[i].Key {
			return nil, fmt.Errorf("internal error: run %d of the copy of the grid is %s, of the grid %s", i, again[i].Key, runs[i].Key)
		}
	}
	return runs, nil
}

// EstimateShards is enough shards for each to replay about MinutesPerShard minutes on
// cpus cores at TasksPerCoreSecond.
func EstimateShards(runs []sweep.SweepRun, in sweep.SweepInputs, cpus int) int {
	tasks := 0.0
	for _, r := range runs {
		if lt, ok := in.Levels[r.Level]; ok && r.Trial >= 1 && r.Trial <= len(lt.Trials) {
			tasks += float64(len(lt.Trials[r.Trial-1].Tasks))
		}
	}
	seconds := tasks / (TasksPerCoreSecond * float64(max(cpus, 1)))
	n := int(math.Ceil(seconds / (MinutesPerShard * 60)))
	return min(max(n, 1), len(runs))
}

// ShardNumbers are the shards 1…n.
func ShardNumbers(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i + 1
	}
	return s
}

// WriteDir writes the grid's copy, the scripts and the folders of the shards and logs.
func WriteDir(dir string, grid []byte, p *Plan) error {
	for _, d := range []string{filepath.Join(dir, ShardsDir), filepath.Join(dir, LogsDir)} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	files := []struct {
		name string
		text []byte
		mode os.FileMode
	}{
		{GridFile, grid, 0o644},
		{ArrayFile, []byte(p.ArrayScript()), 0o755},
		{MergeFile, []byte(p.MergeScript()), 0o755},
	}
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if err := atomicfile.Write(path, func(w io.Writer) error { _, err := w.Write(f.text); return err }); err != nil {
			return err
		}
		if err := os.Chmod(path, f.mode); err != nil {
			return err
		}
	}
	return nil
}

// WriteState writes the sweep's state.json (StateFile), atomically.
func WriteState(dir string, s *State) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, StateFile), func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	})
}
