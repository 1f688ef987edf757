package main

import (
	"fmt"
	"math"
	"strings"

	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/trace"
)

// The offered load of a workload on a system: the utilisation ρ = λ × E[x] ÷ m, with λ the
// arrival rate, m the number of machines in the catalog and E[x] the mean execution time of an
// arriving task on a machine drawn at random from the catalog: the mean over the task type mix
// of each type's mean over the m machines. ρ is the share of the machines' time the tasks
// would take if they were spread over the machines evenly; a mapper that prefers fast
// machines needs less, so ρ somewhat above 1 can still be served. It is what the level labels
// (19k, 34k) do not say: they are HCW19's arrival rates, and the same label offers a different
// load on another PET.

// Bounds of the offered loads the source studies replay, measured on the HCW19 PET
// (classes_2.etc, 8 machines, one per type) with trace stats --pet over the 30 published trials
// of each level: constant.zip's 3k offers ρ = 0.39, 19k 2.49, 35k 4.66 (trace gen's 3k and
// 35k: 0.40 and 4.70), and the spiky levels lie inside (10k 1.39, 30k 4.16). A load ten times
// below the lowest leaves the machines idle (every heuristic meets almost every deadline), one
// ten times above the highest swamps them (every heuristic misses almost every deadline):
// neither compares heuristics, and both are what a level label gives on a PET in another unit
// or of another speed than HCW19's.
const (
	studyLoadLow  = 0.39
	studyLoadHigh = 4.7
	farFactor     = 10
)

// meanExec is E[x] of the offered load: the mean over task types, weighted by weights (nil:
// evenly), of each type's mean execution time over the machines. It fails when a weighted type
// is not one of the PET's.
func meanExec(pet *petbuild.PET, machines []replay.Machine, weights map[string]float64) (float64, error) {
	if len(machines) == 0 {
		return 0, fmt.Errorf("the catalog has no machines")
	}
	typeMean := func(i int) float64 {
		sum := 0.0
		for _, m := range machines {
			sum += pet.Cell(i, m.Type).Mean()
		}
		return sum / float64(len(machines))
	}
	if weights == nil {
		sum := 0.0
		for i := range pet.NumTaskTypes() {
			sum += typeMean(i)
		}
		return sum / float64(pet.NumTaskTypes()), nil
	}
	sum, total := 0.0, 0.0
	for name, w := range weights {
		i, ok := pet.TaskIndex(name)
		if !ok {
			return 0, fmt.Errorf("task type %q is not a task type of the PET", name)
		}
		sum += w * typeMean(i)
		total += w
	}
	if total == 0 {
		return 0, fmt.Errorf("no tasks")
	}
	return sum / total, nil
}

// loadLine says what load a rate offers: "offered load ρ = 0.5 (0.04 tasks per ms × mean
// execution time 25 ms ÷ 2 machines)".
func loadLine(rho, rate, mean float64, machines int, unit string) string {
	return fmt.Sprintf("offered load ρ = %.4g (%.4g tasks per %s × mean execution time %.4g %s ÷ %d machines)",
		rho, rate, unit, mean, unit, machines)
}

// loadWarning is a warning when ρ is far outside what the source studies replay, naming the
// flags that set the load; empty otherwise.
func loadWarning(rho float64) string {
	if rho >= studyLoadLow/farFactor && rho <= studyLoadHigh*farFactor {
		return ""
	}
	what := "the machines would idle and every heuristic meet almost every deadline"
	if rho > studyLoadHigh {
		what = "the machines are swamped and every heuristic misses almost every deadline"
	}
	return fmt.Sprintf("offered load ρ = %.3g is far outside the %.2g to %.2g of the HCW19 trials, so %s: "+
		"a level label (19k) is HCW19's arrival rate whatever the PET's speed and unit; trace gen --load RHO sets the rate from ρ",
		rho, studyLoadLow, studyLoadHigh, what)
}

// traceLoad is the offered load of traces read in unit: per trace, its rate (n − 1) / (last −
// first arrival) times the mean execution time of its own type mix, over the machines; the
// mean over traces. A trace of fewer than two tasks or no span has no rate and is left out.
func traceLoad(traces []*trace.Trace, unit trace.Unit, pet *petbuild.PET, machines []replay.Machine) (rho, rate, mean float64, err error) {
	petUnit, err := trace.ParseUnit(pet.TimeUnit())
	if err != nil {
		return 0, 0, 0, fmt.Errorf("PET time unit: %w", err)
	}
	n := 0
	for _, tr := range traces {
		k := len(tr.Tasks)
		if k < 2 || !(tr.Tasks[k-1].Arrival > tr.Tasks[0].Arrival) {
			continue
		}
		mix := map[string]float64{}
		for _, t := range tr.Tasks {
			mix[t.Type]++
		}
		m, err := meanExec(pet, machines, mix)
		if err != nil {
			return 0, 0, 0, fmt.Errorf("%s: %w", tr.Name, err)
		}
		m *= petUnit.Factor(unit)
		r := float64(k-1) / (tr.Tasks[k-1].Arrival - tr.Tasks[0].Arrival)
		rho += r * m / float64(len(machines))
		rate += r
		mean += m
		n++
	}
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN(), nil
	}
	return rho / float64(n), rate / float64(n), mean / float64(n), nil
}

// typeIndexNote says how a .dat trial names its types, for trace gen's summary line: empty
// when the PET's types are named by their indexes already.
func typeIndexNote(types []string) string {
	for i, n := range types {
		if n != fmt.Sprint(i) {
			return "; .dat keeps task types as indexes into the PET's (" + strings.TrimSpace(indexList(types)) + ")"
		}
	}
	return ""
}
