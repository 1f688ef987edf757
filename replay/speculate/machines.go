package speculate

import (
	"fmt"

	"github.com/hcreplay/hcreplay/replay"
)

// IdenticalMachines is the cluster of the paper's synthetic workload (002 §V): n identical
// machines node-0 … node-(n−1), of the default catalog's price and power for one machine type.
func IdenticalMachines(n int) []replay.Machine {
	node := replay.DefaultCatalog([]string{"node"})[0]
	machines := make([]replay.Machine, n)
	for i := range machines {
		machines[i] = node
		machines[i].Name = fmt.Sprintf("node-%d", i)
	}
	return machines
}

// Replicate makes k machines of each one, named NAME-0 … NAME-(k−1), in order: a catalog of
// one machine per PET machine type grown to a cluster.
func Replicate(machines []replay.Machine, k int) []replay.Machine {
	var many []replay.Machine
	for _, m := range machines {
		for i := range k {
			mm := m
			mm.Name = fmt.Sprintf("%s-%d", m.Name, i)
			many = append(many, mm)
		}
	}
	return many
}

// TypeWeights counts the machines of each of types machine types: the share of the cluster
// each type's execution times get in a job's model (TraceOptions.TypeWeights).
func TypeWeights(machines []replay.Machine, types int) []float64 {
	weights := make([]float64, types)
	for _, m := range machines {
		weights[m.Type]++
	}
	return weights
}
