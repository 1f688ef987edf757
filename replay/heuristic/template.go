package heuristic

import "github.com/hcreplay/hcreplay/replay"

// pair is a task and the machine phase 1 chose for it, with the values phase 2 ranks by.
type pair struct {
	task, machine int
	completion    float64 // expected completion on the machine
	success       float64 // success chance on the machine (when the heuristic asks for it)
}

// freeMachines lists the machines with a free slot, in index order.
func freeMachines(ev replay.Event) []int {
	var ms []int
	for m := range ev.NumMachines() {
		if ev.Free(m) > 0 {
			ms = append(ms, m)
		}
	}
	return ms
}

// minCompletion is the common phase 1 of MM, MSD and MMU: for each task, the machine with a
// free slot where it is expected to complete first (ties: lower machine index).
func minCompletion(ev replay.Event, tasks, machines []int) []pair {
	pairs := make([]pair, 0, len(tasks))
	for _, t := range tasks {
		best := pair{task: t, machine: -1}
		for _, m := range machines {
			c := ev.Completion(t, m)
			if best.machine < 0 || c < best.completion {
				best.machine, best.completion = m, c
			}
		}
		pairs = append(pairs, best)
	}
	return pairs
}

// perMachineRounds runs the two-phase template with a per-machine phase 2 (thesis §3.1: "for
// each machine with a free slot … find the machine-task pair with the minimum completion time"):
// each round, phase 1 pairs every batch task with a machine, then every machine with a free slot
// takes the pair that better prefers among those that chose it. Rounds repeat, with phase 1
// recomputed against the grown queues, until the batch is empty or no machine has a free slot.
func perMachineRounds(ev replay.Event, better func(a, b pair) bool) {
	for {
		tasks, machines := ev.Batch(), freeMachines(ev)
		if len(tasks) == 0 || len(machines) == 0 {
			return
		}
		pairs := minCompletion(ev, tasks, machines)
		for _, m := range machines {
			best := -1
			for i, p := range pairs {
				if p.machine == m && (best < 0 || better(p, pairs[best])) {
					best = i
				}
			}
			if best >= 0 {
				ev.Assign(pairs[best].task, m)
			}
		}
	}
}
