package speculate

import (
	"errors"
	"fmt"
	"math"
)

// P2Job is one waiting job of problem P2: Tasks tasks whose copies follow Dist.
type P2Job struct {
	Tasks int
	Dist  Dist
}

// P2Cost is job j's term of P2's objective with c copies of each task, with utility
// U = −E[t] (002 Eqs 10–13): the expected span E[d](c) = E[max over tasks of the min of c
// copies] plus γ times the expected machine time m·c·E[min of c copies]. The constant l − a of
// E[t] = E[d] + l − a does not change the optimum and is left out.
func P2Cost(j P2Job, c int, gamma float64) float64 {
	return j.Dist.SpanMean(j.Tasks, c) + gamma*float64(j.Tasks*c)*j.Dist.MinMean(c)
}

// SolveP2 solves the per-slot cloning problem P2 of 002 §IV-A exactly over the integers: the
// copies c_i ∈ [1, r] of every task of job i that minimise Σ_i P2Cost(i, c_i) subject to
// Σ_i m_i·c_i ≤ n idle machines. The objective is separable, so a knapsack over the machines
// left after one copy each (n − Σ m_i) is exact, in O(jobs · machines · r) work, which it
// returns as cells. The paper's dual gradient projection (Eqs 14–17) returns a continuous c and
// did not converge with its own step sizes (reference §2.3, §6.7), so it is not used; ties go
// to fewer copies.
func SolveP2(jobs []P2Job, n, r int, gamma float64) (c []int, cells int64, err error) {
	if r < 1 {
		return nil, 0, fmt.Errorf("P2: at most %d copies per task: want at least 1", r)
	}
	base, span := 0, 0
	for _, j := range jobs {
		if j.Tasks < 1 {
			return nil, 0, fmt.Errorf("P2: a job of %d tasks", j.Tasks)
		}
		base += j.Tasks
		span += j.Tasks * (r - 1)
	}
	if base > n {
		return nil, 0, errors.New("P2: fewer idle machines than waiting tasks")
	}
	budget := min(n-base, span) // machines for extra copies
	best := make([]float64, budget+1)
	next := make([]float64, budget+1)
	choice := make([][]int8, len(jobs))
	cost := make([]float64, r)
	for i, j := range jobs {
		for e := range cost {
			cost[e] = P2Cost(j, e+1, gamma)
		}
		choice[i] = make([]int8, budget+1)
		for b := 0; b <= budget; b++ {
			bestCost, bestE := math.Inf(1), 0
			for e := 0; e < r && e*j.Tasks <= b; e++ {
				if v := best[b-e*j.Tasks] + cost[e]; v < bestCost {
					bestCost, bestE = v, e
				}
				cells++
			}
			if math.IsInf(bestCost, 1) { // every choice diverges: one copy
				bestCost = best[b] + cost[0]
			}
			next[b], choice[i][b] = bestCost, int8(bestE)
		}
		best, next = next, best
	}
	c = make([]int, len(jobs))
	b := budget
	for i := len(jobs) - 1; i >= 0; i-- {
		e := int(choice[i][b])
		c[i] = e + 1
		b -= e * jobs[i].Tasks
	}
	return c, cells, nil
}
