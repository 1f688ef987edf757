package sweep

import (
	"fmt"
	"math"

	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/trace"
)

// ReplayTasks turns a parsed trace into the engine's tasks: it maps the trace's type names to
// the PET's indices, and its observed-duration columns to the PET's machine types. Errors name
// the trace.
func ReplayTasks(tr *trace.Trace, pet *petbuild.PET) ([]replay.Task, error) {
	return ReplayTasksInto(nil, tr, pet)
}

// ReplayTasksInto is ReplayTasks with the tasks in dst's storage when it holds them all (its
// length is ignored).
func ReplayTasksInto(dst []replay.Task, tr *trace.Trace, pet *petbuild.PET) ([]replay.Task, error) {
	execIndex, err := pet.MachineIndices(tr.ExecTypes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tr.Name, err)
	}
	var tasks []replay.Task
	if dst == nil || cap(dst) < len(tr.Tasks) {
		tasks = make([]replay.Task, len(tr.Tasks))
	} else {
		tasks = dst[:len(tr.Tasks)]
	}
	for i, t := range tr.Tasks {
		if tasks[i], err = ReplayTask(t, pet, execIndex); err != nil {
			return nil, fmt.Errorf("%s: %w", tr.Name, err)
		}
	}
	return tasks, nil
}

// ReplayTask converts one task, for readers that stream a trace; execIndex maps the trace's exec
// columns to PET machine types (pet.MachineIndices(tr.ExecTypes)). A machine type the trace has
// no column for gets an observed duration of NaN.
func ReplayTask(t trace.Task, pet *petbuild.PET, execIndex []int) (replay.Task, error) {
	ty, ok := pet.TaskIndex(t.Type)
	if !ok {
		return replay.Task{}, fmt.Errorf("task %d has type %q, which the PET does not have", t.ID, t.Type)
	}
	rt := replay.Task{ID: t.ID, Type: ty, Arrival: t.Arrival, Deadline: t.Deadline}
	if t.Exec != nil {
		obs := make([]float64, pet.NumMachineTypes())
		for j := range obs {
			obs[j] = math.NaN()
		}
		for k, v := range t.Exec {
			obs[execIndex[k]] = v
		}
		rt.Observed = obs
	}
	return rt, nil
}

// GenerateLevel makes a generated level's synthetic trials (lv.Generate must be set): lv.Trials
// traces from trace.Generate, deadlines by the level's rule on the PET's means
// (petbuild.DeadlineRule). Trial t depends only on the settings and t. at names a grid key
// (".generate.pattern") in messages; a bad setting is an InputError.
func GenerateLevel(lv Level, pet *petbuild.PET, at func(string) string) (LevelTrials, error) {
	gen := lv.Generate
	rate, err := gen.GenRate()
	if err != nil {
		return LevelTrials{}, InputError{fmt.Errorf("%s: %w", at(".generate"), err)}
	}
	pattern, shape, err := trace.ParsePattern(gen.Pattern)
	if err != nil {
		return LevelTrials{}, InputError{fmt.Errorf("%s: %w", at(".generate.pattern"), err)}
	}
	rule, means, err := petbuild.DeadlineRule(gen.Deadline, pet)
	if err != nil {
		return LevelTrials{}, InputError{fmt.Errorf("%s: %w", at(".generate.deadline"), err)}
	}
	cfg := trace.GenConfig{Types: pet.TaskTypes(), Rate: rate, Tasks: gen.Tasks, CV: gen.CV, Pattern: pattern, Spiky: shape,
		Seed: gen.Seed, Unit: trace.Unit(pet.TimeUnit()), Deadline: &rule, Means: means}
	lt := LevelTrials{Rate: rate, Trials: make([]Trial, lv.Trials)}
	for t := 1; t <= lv.Trials; t++ {
		tr, err := trace.Generate(cfg, t)
		if err != nil {
			return LevelTrials{}, InputError{fmt.Errorf("%s: %w", at(".generate"), err)}
		}
		tasks, err := ReplayTasks(tr, pet)
		if err != nil {
			return LevelTrials{}, err
		}
		source := fmt.Sprintf("generate rate=%g pattern=%s tasks=%d cv=%g deadline=%s seed=%d trial=%d",
			rate, gen.Pattern, gen.Tasks, gen.CV, gen.Deadline, gen.Seed, t)
		lt.Trials[t-1] = Trial{Source: source, Tasks: tasks}
	}
	return lt, nil
}
