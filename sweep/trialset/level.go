package trialset

import (
	"fmt"
	"math"

	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/sweep"
	"github.com/hcreplay/hcreplay/trace"
)

// LoadLevel reads the first lv.Trials of a sweep level's trace files (all of them when it is
// 0), opened as in says (its Deadline and Seed are the level's), and loads them for the
// sweep's runs. at names a key of the level in the grid file for the messages. The level's
// rate is lv.Rate, else the rate its name gives when it is a level label (19k), else NaN.
func LoadLevel(lv sweep.Level, in Input, pet *petbuild.PET, at func(key string) string, warn func(string)) (sweep.LevelTrials, error) {
	in.Deadline, in.Seed = lv.Deadline, lv.Seed
	ts, err := Open(in, pet, warn)
	if err != nil {
		return sweep.LevelTrials{}, fmt.Errorf("%s: %w", at(".trace"), err)
	}
	n := len(ts)
	if lv.Trials > n {
		return sweep.LevelTrials{}, bad(fmt.Errorf("%s: %d trials wanted, but %s names only %d files", at(".trials"), lv.Trials, lv.Trace, n))
	}
	if lv.Trials > 0 {
		n = lv.Trials
	}
	lt := sweep.LevelTrials{Rate: lv.Rate, Trials: make([]sweep.Trial, n)}
	var buf Buffers // the traces are not kept: each is read into the storage of the one before
	for i, t := range ts[:n] {
		tasks, err := t.LoadTasks(&buf)
		if err != nil {
			return sweep.LevelTrials{}, fmt.Errorf("%s: %w", at(".trace"), err)
		}
		lt.Trials[i] = sweep.Trial{Source: t.Name(), Tasks: tasks}
	}
	if lt.Rate == 0 {
		// A name like 19k is the level's label; other names say nothing about the rate.
		if lt.Rate, err = trace.LevelRate(lv.Name, 0); err != nil {
			lt.Rate = math.NaN()
		}
	}
	return lt, nil
}
