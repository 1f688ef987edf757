package petbuild

import (
	"fmt"

	"github.com/hcreplay/hcreplay/trace"
)

// MaxGenTotalTasks bounds the tasks of a set of generated trials (trials × tasks): a billion
// tasks are about 40 GB of files and a quarter of an hour of generation, far beyond any study
// (the papers replay 30 trials of 800), so a larger product is a typo.
const MaxGenTotalTasks = 1_000_000_000

// TrialsSpec is a set of generated trials as trace gen's flags give it; the errors name the
// flags. The PET gives the task types, their means, the time unit and the deadlines' rule.
type TrialsSpec struct {
	Tasks, Trials int
	Arrivals      trace.RateSpec
	CV            float64
	Pattern       string
	Deadline      string // a rule of DeadlineRule
	Seed          uint64
	Prefix        string // of the file names; "" for the rate's own (RateSpec.Arrivals)
}

// Config checks the set and returns the generator's settings and the file-name prefix;
// perRate is the offered load of a rate of one task per time unit on the machines.
func (s TrialsSpec) Config(pet *PET, perRate float64) (trace.GenConfig, string, error) {
	if s.Tasks < 1 || s.Tasks > trace.MaxGenTasks {
		return trace.GenConfig{}, "", fmt.Errorf("--tasks %d: want 1 to %d", s.Tasks, trace.MaxGenTasks)
	}
	if s.Trials < 1 || s.Trials > trace.MaxGenTrials || s.Trials > MaxGenTotalTasks/s.Tasks {
		return trace.GenConfig{}, "", fmt.Errorf("--trials %d: want 1 to %d, and at most %d tasks in all (--trials × --tasks)",
			s.Trials, trace.MaxGenTrials, MaxGenTotalTasks)
	}
	rate, prefix, err := s.Arrivals.Arrivals(perRate)
	if err != nil {
		return trace.GenConfig{}, "", err
	}
	if s.Prefix != "" {
		prefix = s.Prefix
	}
	if err := trace.CheckTrialPrefix(prefix); err != nil {
		return trace.GenConfig{}, "", fmt.Errorf("--prefix: %w", err)
	}
	rule, means, err := DeadlineRule(s.Deadline, pet)
	if err != nil {
		return trace.GenConfig{}, "", fmt.Errorf("--deadline: %w", err)
	}
	cfg := trace.GenConfig{Types: pet.TaskTypes(), Rate: rate, Tasks: s.Tasks, CV: s.CV, Pattern: trace.Pattern(s.Pattern),
		Spiky: trace.DefaultSpiky(), Seed: s.Seed, Unit: trace.Unit(pet.TimeUnit()), Deadline: &rule, Means: means}
	return cfg, prefix, nil
}
