package speculate_test

import (
	"context"
	"fmt"

	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/speculate"
)

// The straggler threshold and P2's clone counts for the paper's instances.
func Example() {
	fmt.Printf("σ* for Pareto α=2: %.4f\n", speculate.BreakEvenSigma(speculate.Pareto{Mu: 1, Alpha: 2}))
	var jobs []speculate.P2Job
	for i, m := range []int{10, 20, 5, 10} { // 002 Fig 1
		jobs = append(jobs, speculate.P2Job{Tasks: m, Dist: speculate.Pareto{Mu: float64(1 + i%2), Alpha: 2}})
	}
	c, _, _ := speculate.SolveP2(jobs, 100, 8, 0.01)
	fmt.Println("P2 clone counts:", c)
	// Output:
	// σ* for Pareto α=2: 1.7071
	// P2 clone counts: [2 2 2 3]
}

// A light synthetic workload under SCA: the flowtime and how many extra copies it launched.
func ExampleRun() {
	w, err := speculate.Synthetic(speculate.SyntheticOptions{Rate: 0.5, Horizon: 100, MinTasks: 1, MaxTasks: 10,
		MinMean: 1, MaxMean: 4, Alpha: 2, Seed: 1})
	if err != nil {
		panic(err)
	}
	machines := make([]replay.Machine, 50)
	opt := speculate.DefaultOptions()
	opt.Strategy = speculate.SCA
	res, err := speculate.Run(context.Background(), w, machines, opt)
	if err != nil {
		panic(err)
	}
	s := res.Summary
	fmt.Println(s.Jobs == len(res.Jobs), s.ExtraCopies > 0, s.FlowtimeMean > 0)
	// Output: true true true
}
