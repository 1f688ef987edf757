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
	execIndex, err := pet.MachineIndices(tr.ExecTypes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tr.Name, err)
	}
	tasks := make([]replay.Task, len(tr.Tasks))
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
