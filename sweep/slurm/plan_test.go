package slurm

import (
	"testing"

	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/sweep"
)

// TestEstimateShards checks --slurm-shards's default on hand-worked cases: tasks ÷ (tasks/s per
// core × cores × 600 s), rounded up, at least 1.
func TestEstimateShards(t *testing.T) {
	trial := func(tasks int) sweep.Trial { return sweep.Trial{Tasks: make([]replay.Task, tasks)} }
	in := sweep.SweepInputs{Levels: map[string]sweep.LevelTrials{"a": {Trials: []sweep.Trial{trial(3_000_000), trial(1_500_000)}}}}
	runs := func(n int) []sweep.SweepRun {
		rs := make([]sweep.SweepRun, n)
		for i := range rs {
			rs[i] = sweep.SweepRun{Level: "a", Trial: 1 + i%2}
		}
		return rs
	}
	// A shard replays 7,500 tasks/s × 600 s = 4.5 million tasks per core; a pair of runs has 4.5
	// million tasks.
	if TasksPerCoreSecond != 7500 || MinutesPerShard != 10 {
		t.Fatal("the cases below assume 7,500 tasks/s per core and 10-minute shards")
	}
	for _, c := range []struct {
		runs, cpus, want int
	}{{4, 1, 2}, {4, 4, 1}, {6, 2, 2}, {40, 2, 10}, {40, 3, 7}, {3, 1, 2}} {
		if got := EstimateShards(runs(c.runs), in, c.cpus); got != c.want {
			t.Errorf("%d runs on %d CPUs: %d shards, want %d", c.runs, c.cpus, got, c.want)
		}
	}
	if got := EstimateShards(runs(2), sweep.SweepInputs{Levels: map[string]sweep.LevelTrials{"a": {Trials: []sweep.Trial{trial(10), trial(10)}}}}, 1); got != 1 {
		t.Errorf("a tiny grid: %d shards, want 1", got)
	}
}
