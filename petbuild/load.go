package petbuild

import (
	"fmt"
	"io"
	"math"

	"github.com/hcreplay/hcreplay/trace"
)

// The offered load of a workload on a system: the utilisation ρ = λ × E[x] ÷ m, with λ the
// arrival rate, m the number of machines and E[x] the mean execution time of an arriving task
// on a machine drawn at random from them: the mean over the task type mix of each type's mean
// over the m machines. ρ is the share of the machines' time the tasks would take if they were
// spread over the machines evenly; a mapper that prefers fast machines needs less, so ρ
// somewhat above 1 can still be served. It is what the level labels (19k, 34k) do not say: they
// are HCW19's arrival rates, and the same label offers a different load on another PET.

// Bounds of the offered loads the source studies replay, measured on the HCW19 PET
// (classes_2.etc, 8 machines, one per type) with trace stats --pet over the 30 published trials
// of each level: constant.zip's 3k offers ρ = 0.39, 19k 2.49, 35k 4.66 (trace gen's 3k and
// 35k: 0.40 and 4.70), and the spiky levels lie inside (10k 1.39, 30k 4.16). A load ten times
// below the lowest leaves the machines idle (every heuristic meets almost every deadline), one
// ten times above the highest swamps them (every heuristic misses almost every deadline):
// neither compares heuristics, and both are what a level label gives on a PET in another unit
// or of another speed than HCW19's.
const (
	StudyLoadLow  = 0.39
	StudyLoadHigh = 4.7
	studyFar      = 10
)

// FarFromStudies reports whether the offered load rho is more than ten times below
// StudyLoadLow or above StudyLoadHigh, where no heuristic can be told from another.
func FarFromStudies(rho float64) bool {
	return !(rho >= StudyLoadLow/studyFar && rho <= StudyLoadHigh*studyFar)
}

// LoadLine says what load a rate offers: "offered load ρ = 0.5 (0.04 tasks per ms × mean
// execution time 25 ms ÷ 2 machines)".
func LoadLine(rho, rate, mean float64, machines int, unit string) string {
	return fmt.Sprintf("offered load ρ = %.4g (%.4g tasks per %s × mean execution time %.4g %s ÷ %d machines)",
		rho, rate, unit, mean, unit, machines)
}

// LoadWarning is a warning when ρ is far outside what the source studies replay
// (FarFromStudies), naming the trace gen flag that sets the load; empty otherwise.
func LoadWarning(rho float64) string {
	if !FarFromStudies(rho) {
		return ""
	}
	what := "the machines would idle and every heuristic meet almost every deadline"
	if rho > StudyLoadHigh {
		what = "the machines are swamped and every heuristic misses almost every deadline"
	}
	return fmt.Sprintf("offered load ρ = %.3g is far outside the %.2g to %.2g of the HCW19 trials, so %s: "+
		"a level label (19k) is HCW19's arrival rate whatever the PET's speed and unit; trace gen --load RHO sets the rate from ρ",
		rho, StudyLoadLow, StudyLoadHigh, what)
}

// MeanExec is E[x] of the offered load on machines of the given machine types (indexes into
// the PET's, one entry per machine): the mean over task types, weighted by weights (nil:
// evenly), of each type's mean execution time over the machines. It fails when there are no
// machines or a weighted type is not one of the PET's.
func (p *PET) MeanExec(machineTypes []int, weights map[string]float64) (float64, error) {
	if len(machineTypes) == 0 {
		return 0, fmt.Errorf("the catalog has no machines")
	}
	typeMean := func(i int) float64 {
		sum := 0.0
		for _, m := range machineTypes {
			sum += p.Cell(i, m).Mean()
		}
		return sum / float64(len(machineTypes))
	}
	if weights == nil {
		sum := 0.0
		for i := range p.NumTaskTypes() {
			sum += typeMean(i)
		}
		return sum / float64(p.NumTaskTypes()), nil
	}
	sum, total := 0.0, 0.0
	for name, w := range weights {
		i, ok := p.TaskIndex(name)
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

// TraceLoad is the offered load of traces read in unit on machines of the given machine types:
// per trace, its rate (n − 1) / (last − first arrival) times the mean execution time of its
// own type mix (MeanExec, converted to unit), over the machines; rho, rate and mean are the
// means over traces. A trace of fewer than two tasks or no span has no rate and is left out;
// when none has one, all three are NaN.
func (p *PET) TraceLoad(traces []*trace.Trace, unit trace.Unit, machineTypes []int) (rho, rate, mean float64, err error) {
	petUnit, err := trace.ParseUnit(p.TimeUnit())
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
		m, err := p.MeanExec(machineTypes, mix)
		if err != nil {
			return 0, 0, 0, fmt.Errorf("%s: %w", tr.Name, err)
		}
		m *= petUnit.Factor(unit)
		r := float64(k-1) / (tr.Tasks[k-1].Arrival - tr.Tasks[0].Arrival)
		rho += r * m / float64(len(machineTypes))
		rate += r
		mean += m
		n++
	}
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN(), nil
	}
	return rho / float64(n), rate / float64(n), mean / float64(n), nil
}

// WriteTraceLoad writes to w the offered load of traces read in unit on machines of the given
// machine types, one entry per machine (TraceLoad), with how it was computed, and returns
// LoadWarning's warning for it. Its error is TraceLoad's: like the table before it, the line is
// for a terminal.
func (p *PET) WriteTraceLoad(w io.Writer, traces []*trace.Trace, unit trace.Unit, machineTypes []int) (warning string, err error) {
	rho, rate, mean, err := p.TraceLoad(traces, unit, machineTypes)
	if err != nil {
		return "", err
	}
	if math.IsNaN(rho) {
		fmt.Fprintln(w, "offered load: no trace has two arrivals apart, so no rate")
		return "", nil
	}
	what := ""
	if len(traces) > 1 {
		what = fmt.Sprintf(", mean of %d traces", len(traces))
	}
	fmt.Fprintf(w, "%s; rate = (tasks − 1) / (last − first arrival), the mean over the trace's task types%s\n",
		LoadLine(rho, rate, mean, len(machineTypes), string(unit)), what)
	return LoadWarning(rho), nil
}
