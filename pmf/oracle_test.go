package pmf

import (
	"math"
	"math/rand/v2"
	"testing"
)

// This file checks the completion chains against an oracle that shares no code with them: a
// machine queue simulated task by task, once per outcome. Brute force enumerates every outcome of
// tiny PMFs exactly; Monte Carlo samples larger ones.

// queueTask is one task of a simulated machine queue: its possible execution times with their
// probabilities, and its deadline.
type queueTask struct {
	times, probs []float64
	deadline     float64
}

// simulate runs one outcome of a queue that becomes free at start: durations[i] is how long task
// i takes if it runs, and up[i] where a kill of task i frees the machine. It returns when the
// machine is free after the last task, and which tasks met their deadlines. The rules are those
// of SPEC §3, written out directly:
//   - none: every task runs;
//   - pending: a task whose predecessor finishes at or after its deadline never starts;
//   - evict: in addition, a running task is killed at its deadline; the machine is free from the
//     grid point (of the given step, with the given phase) just after the deadline when up[i] is
//     set, else from the one just before it (the lattice process the chains model: killWeight
//     gives the chance of up). A deadline on a grid point frees it there.
func simulate(model Model, start float64, tasks []queueTask, durations []float64, up []bool, strict bool, step, phase float64) (free float64, met []bool) {
	t := start
	met = make([]bool, len(tasks))
	for i, task := range tasks {
		d := task.deadline
		if model != None && t >= d {
			continue // never started
		}
		end := t + durations[i]
		ok := end <= d
		if strict {
			ok = end < d
		}
		met[i] = ok
		if model == Evict && !ok {
			x := (d - phase) / step
			end = phase + math.Floor(x+1e-9)*step
			if up[i] && killWeight(d, step, phase) > 0 {
				end += step
			}
		}
		t = end
	}
	return t, met
}

// killWeight is the chance that a kill at deadline d frees the machine at the grid point just
// after d rather than the one just before: d's distance past the one before, in steps, so that
// it frees at d on average. 0 on a grid point.
func killWeight(d, step, phase float64) float64 {
	x := (d - phase) / step
	if math.Abs(x-math.Round(x)) <= 1e-9 {
		return 0
	}
	return x - math.Floor(x)
}

// chain runs Append down the queue and returns the final free-time PMF and every task's success.
func chain(t *testing.T, model Model, start, step float64, tasks []queueTask, strict bool) (PMF, []float64) {
	t.Helper()
	prev := Impulse(start, step)
	succ := make([]float64, len(tasks))
	for i, task := range tasks {
		exec := pmfOf(t, task.times, task.probs, step)
		next, s, err := Append(model, prev, exec, task.deadline, strict)
		if err != nil {
			t.Fatalf("Append task %d: %v", i, err)
		}
		if err := next.Check(); err != nil {
			t.Fatalf("Append task %d returned a broken PMF: %v", i, err)
		}
		prev, succ[i] = next, s
	}
	return prev, succ
}

// pmfOf builds the PMF of a few impulses at grid times.
func pmfOf(t *testing.T, times, probs []float64, step float64) PMF {
	t.Helper()
	lo, hi := times[0], times[0]
	for _, x := range times {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	w := make([]float64, int(math.Round((hi-lo)/step))+1)
	for i, x := range times {
		w[int(math.Round((x-lo)/step))] += probs[i]
	}
	d, _, err := FromWeights(lo, step, w)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// randomQueue makes n tasks whose execution times are 1..span grid steps with at most k
// impulses each, and deadlines around when they might finish. With offGrid, deadlines fall
// between grid points (most half-way), so no outcome ties with a deadline.
func randomQueue(r *rand.Rand, n, k, span int, start, step float64, offGrid bool) []queueTask {
	tasks := make([]queueTask, n)
	elapsed := start
	for i := range tasks {
		m := 1 + r.IntN(k)
		seen := map[int]bool{}
		var times, probs []float64
		total := 0.0
		for len(times) < m {
			s := 1 + r.IntN(span)
			if seen[s] {
				continue
			}
			seen[s] = true
			w := 0.05 + r.Float64()
			times = append(times, float64(s)*step)
			probs = append(probs, w)
			total += w
		}
		for j := range probs {
			probs[j] /= total
		}
		elapsed += float64(1+span/2) * step
		slack := float64(r.IntN(span+1)-span/2) * step
		d := math.Round((elapsed+slack-start)/step)*step + start
		if offGrid {
			d += step / 2 // half-way, and a few at other fractions, where a kill's split is uneven
			if r.IntN(3) == 0 {
				d += step * (0.4*r.Float64() - 0.2)
			}
		}
		tasks[i] = queueTask{times: times, probs: probs, deadline: d}
	}
	return tasks
}

// enumerate calls f with every combination of durations and kill placements (up, as simulate
// reads it) and its probability. A kill's placement is drawn independently of the durations,
// with killWeight's chance of up; it matters only under evict, and only when the task is killed.
func enumerate(tasks []queueTask, step, phase float64, f func(durations []float64, up []bool, p float64)) {
	durations := make([]float64, len(tasks))
	up := make([]bool, len(tasks))
	var rec func(i int, p float64)
	rec = func(i int, p float64) {
		if i == len(tasks) {
			f(durations, up, p)
			return
		}
		w := killWeight(tasks[i].deadline, step, phase)
		for j, x := range tasks[i].times {
			durations[i] = x
			up[i] = false
			rec(i+1, p*tasks[i].probs[j]*(1-w))
			if w > 0 {
				up[i] = true
				rec(i+1, p*tasks[i].probs[j]*w)
			}
		}
	}
	rec(0, 1)
}

func TestChainsMatchBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	type setup struct {
		start, step float64
		offGrid     bool
	}
	setups := []setup{{0, 1, false}, {7, 1, false}, {3.25, 0.5, true}, {100, 2, false}, {12.5, 2.5, true}}
	for _, model := range []Model{None, Pending, Evict} {
		for _, strict := range []bool{false, true} {
			for trial := 0; trial < 60; trial++ {
				s := setups[trial%len(setups)]
				tasks := randomQueue(r, 1+r.IntN(4), 4, 6, s.start, s.step, s.offGrid)
				free, succ := chain(t, model, s.start, s.step, tasks, strict)

				wantFree := map[int]float64{} // grid index relative to start -> probability
				wantSucc := make([]float64, len(tasks))
				enumerate(tasks, s.step, s.start, func(durations []float64, up []bool, p float64) {
					end, met := simulate(model, s.start, tasks, durations, up, strict, s.step, s.start)
					wantFree[int(math.Round((end-s.start)/s.step))] += p
					for i, ok := range met {
						if ok {
							wantSucc[i] += p
						}
					}
				})
				for i := range tasks {
					if math.Abs(succ[i]-wantSucc[i]) > 1e-12 {
						t.Fatalf("%v strict=%v trial %d task %d: success %.15g, brute force %.15g (tasks %+v)",
							model, strict, trial, i, succ[i], wantSucc[i], tasks)
					}
				}
				got := map[int]float64{}
				for k := 0; k < free.Len(); k++ {
					if free.Prob(k) != 0 {
						got[int(math.Round((free.Time(k)-s.start)/s.step))] = free.Prob(k)
					}
				}
				for idx, p := range wantFree {
					if math.Abs(got[idx]-p) > 1e-12 {
						t.Fatalf("%v strict=%v trial %d: P(free at start+%d steps) = %.15g, brute force %.15g",
							model, strict, trial, idx, got[idx], p)
					}
				}
				for idx, p := range got {
					if _, ok := wantFree[idx]; !ok && p > 1e-12 {
						t.Fatalf("%v trial %d: chain has mass %g at start+%d steps, brute force none", model, trial, p, idx)
					}
				}
			}
		}
	}
}

func TestChainsMatchMonteCarlo(t *testing.T) {
	const n = 200000
	r := rand.New(rand.NewPCG(3, 4))
	for _, model := range []Model{None, Pending, Evict} {
		for trial := 0; trial < 3; trial++ {
			start, step := 40.0, 1.0
			tasks := randomQueue(r, 6, 10, 25, start, step, trial == 2)
			free, succ := chain(t, model, start, step, tasks, false)

			counts := map[int]int{}
			hits := make([]int, len(tasks))
			durations := make([]float64, len(tasks))
			up := make([]bool, len(tasks))
			for range n {
				for i, task := range tasks {
					durations[i] = drawDiscrete(r, task.times, task.probs)
					up[i] = r.Float64() < killWeight(task.deadline, step, start)
				}
				end, met := simulate(model, start, tasks, durations, up, false, step, start)
				counts[int(math.Round(end-start))]++
				for i, ok := range met {
					if ok {
						hits[i]++
					}
				}
			}
			for i := range tasks {
				if !withinSampling(succ[i], hits[i], n) {
					t.Errorf("%v trial %d task %d: success %.5f, Monte Carlo %d/%d", model, trial, i, succ[i], hits[i], n)
				}
			}
			for k := 0; k < free.Len(); k++ {
				idx := int(math.Round(free.Time(k) - start))
				if !withinSampling(free.Prob(k), counts[idx], n) {
					t.Errorf("%v trial %d: P(free at +%d) = %.5f, Monte Carlo %d/%d", model, trial, idx, free.Prob(k), counts[idx], n)
				}
				delete(counts, idx)
			}
			for idx, c := range counts {
				t.Errorf("%v trial %d: Monte Carlo saw the machine free at +%d (%d times), the chain gives no mass there", model, trial, idx, c)
			}
		}
	}
}

// withinSampling reports whether count/n is within five standard errors of p. At five sigma a
// correct chain fails about once in two million comparisons.
func withinSampling(p float64, count, n int) bool {
	se := math.Sqrt(math.Max(p*(1-p), 1.0/float64(n)) / float64(n))
	return math.Abs(float64(count)/float64(n)-p) <= 5*se
}

// drawDiscrete draws one of times with the given probabilities, by a linear scan.
func drawDiscrete(r *rand.Rand, times, probs []float64) float64 {
	u := r.Float64()
	for i, p := range probs {
		if u < p {
			return times[i]
		}
		u -= p
	}
	return times[len(times)-1]
}
