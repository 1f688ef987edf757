package main

import (
	"fmt"

	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/replay"
)

// machineTypes is the machine type of each machine.
func machineTypes(machines []replay.Machine) []int {
	types := make([]int, len(machines))
	for i, m := range machines {
		types[i] = m.Type
	}
	return types
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
	if !petbuild.FarFromStudies(rho) {
		return ""
	}
	what := "the machines would idle and every heuristic meet almost every deadline"
	if rho > petbuild.StudyLoadHigh {
		what = "the machines are swamped and every heuristic misses almost every deadline"
	}
	return fmt.Sprintf("offered load ρ = %.3g is far outside the %.2g to %.2g of the HCW19 trials, so %s: "+
		"a level label (19k) is HCW19's arrival rate whatever the PET's speed and unit; trace gen --load RHO sets the rate from ρ",
		rho, petbuild.StudyLoadLow, petbuild.StudyLoadHigh, what)
}
