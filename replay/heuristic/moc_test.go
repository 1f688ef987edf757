package heuristic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
)

// queueEvent is a replay.Event that holds one machine's queue and nothing else: what
// Algorithm 1 reads. Any other method hits the nil embedded interface and panics.
type queueEvent struct {
	replay.Event
	ready   pmf.PMF   // Ready(0)
	running bool      // Running(0): handle 0 is the running head
	head    float64   // QueueChances(0)[0].Success, the head's own chance
	exec    []pmf.PMF // by handle
	due     []float64 // deadlines by handle
	model   pmf.Model
}

func (q queueEvent) Ready(int) pmf.PMF { return q.ready }
func (q queueEvent) Running(int) bool  { return q.running }
func (q queueEvent) QueueChances(int) []replay.QueueChance {
	return []replay.QueueChance{{Success: q.head}}
}
func (q queueEvent) Exec(h, _ int) pmf.PMF  { return q.exec[h] }
func (q queueEvent) Task(h int) replay.Task { return replay.Task{ID: int64(h), Deadline: q.due[h]} }
func (q queueEvent) DropModel() pmf.Model   { return q.model }
func (q queueEvent) Strict() bool           { return false }
func (q queueEvent) Queue(int) []int {
	hs := make([]int, len(q.exec))
	for h := range hs {
		hs[h] = h
	}
	return hs
}

// TestAlgorithm1HandComputed checks 004 Algorithm 1 (corrected) on queues worked out by hand.
func TestAlgorithm1HandComputed(t *testing.T) {
	cases := []struct {
		name  string
		ev    queueEvent
		value float64
		note  string
	}{
		{
			// Idle machine, now 0, two waiting tasks.
			//   a: exec {2: .5, 4: .5}, δ 3. C_a = {2: .5, 4: .5}; p_a = P(C_a ≤ 3) = .5 → ρ = .5,
			//      and D[p_a] keeps the on-time part, renormalised: {2: 1}.
			//   b: exec {1: .5, 3: .5}, δ 4. C_b = D[p_a] ∗ exec = {3: .5, 5: .5}; p_b = .5 →
			//      ρ = .25, D = {3: 1}.
			// Value ρ·(n − m) = .25·2 = .5. Without conditioning, b's chance behind the plain
			// C_a would be P({3: .25, 5: .5, 7: .25} ≤ 4) = .25 and the value .5·.25·2 = .25.
			name: "two waiting tasks, conditioned",
			ev: queueEvent{ready: one(0), model: pmf.None,
				exec: []pmf.PMF{at(2, .5, 4, .5), at(1, .5, 3, .5)}, due: []float64{3, 4}},
			value: 0.5,
		},
		{
			// As above, then c: exec {2: .5, 3: .5}, δ 4. C_c = {3: 1} ∗ exec = {5: .5, 6: .5};
			// p_c = 0: doomed, m = 1, and c passes on its unconditioned completion {5: .5, 6: .5}.
			//   d: exec {1}, δ 6. C_d = {6: .5, 7: .5}; p_d = .5 → ρ = .25·.5 = .125.
			// Value .125·(4 − 1) = .375. Had the doomed c been skipped (carry {3}), d would finish
			// at 4 with p = 1 and the value would be .25·3 = .75.
			name: "a doomed task passes its completion on",
			ev: queueEvent{ready: one(0), model: pmf.None,
				exec: []pmf.PMF{at(2, .5, 4, .5), at(1, .5, 3, .5), at(2, .5, 3, .5), one(1)}, due: []float64{3, 4, 4, 6}},
			value: 0.375,
		},
		{
			// Evict, running head h (δ 5) whose completion given that it is still running is
			// {3: .25, 5: .25, 7: .5}. Ready(m) moves the mass the kill at 5 takes onto 5:
			// {3: .25, 5: .75}, and h's own chance is .5. D[p_h] is the on-time part, {3: .25,
			// 5: .25} renormalised to {3: .5, 5: .5} — not Ready's {3: .25, 5: .75}, whose
			// impulse at 5 is mostly the kill. ρ = .5.
			//   w: exec {1}, δ 5. C_w = {4: .5, 6: .5}; p_w = .5 → ρ = .25, D = {4: 1}.
			// Value .25·2 = .5 (reading D off Ready would give .5·.25·2 = .25).
			name: "running head under evict",
			ev: queueEvent{ready: at(3, .25, 5, .75), running: true, head: .5, model: pmf.Evict,
				exec: []pmf.PMF{one(99), one(1)}, due: []float64{5, 5}},
			value: 0.5,
		},
		{
			// The same head, w due 6 instead. ρ = .5 and D = {3: .5, 5: .5} as above;
			// C_w = {4: .5, 6: .5}, p_w = 1. Value .5·2 = 1. Taking the head's chance off Ready
			// (P(Ready ≤ 5) = 1, the kill at 5 counted as a success) would give 1·1·2 = 2.
			name: "the head's chance is its own, not Ready's",
			ev: queueEvent{ready: at(3, .25, 5, .75), running: true, head: .5, model: pmf.Evict,
				exec: []pmf.PMF{one(99), one(1)}, due: []float64{5, 6}},
			value: 1,
		},
		{
			// As the third case, then x: exec {3}, δ 5. C_x = {4} ∗ {3} = {7}; p_x = 0: doomed. Under
			// evict x starts at 4 < 5 and is killed at 5, so the machine is free at 5, not 7.
			//   y: exec {1}, δ 6. C_y = {6}; p_y = 1 → ρ stays .25.
			// Value .25·(4 − 1) = .75. With the plain convolution as x's carry, y would end at 8,
			// doomed too, and the value would be .25·2 = .5.
			name: "doomed task under evict frees the machine at its deadline",
			ev: queueEvent{ready: at(3, .25, 5, .75), running: true, head: .5, model: pmf.Evict,
				exec: []pmf.PMF{one(99), one(1), one(3), one(1)}, due: []float64{5, 5, 5, 6}},
			value: 0.75,
		},
		{
			// A running head with chance 0 is doomed: m = 1, and the chain goes on from Ready
			// itself. Head due 2, Ready {4}; w: exec {1}, δ 5 → C = {5}, p = 1. Value 1·(2 − 1).
			name: "doomed running head",
			ev: queueEvent{ready: one(4), running: true, head: 0, model: pmf.None,
				exec: []pmf.PMF{one(99), one(1)}, due: []float64{2, 5}},
			value: 1,
		},
	}
	for _, c := range cases {
		if got := queueOnTime(c.ev, 0, new(chainBuffers)).value(); math.Abs(got-c.value) > 1e-12 {
			t.Errorf("%s: value %v, want %v", c.name, got, c.value)
		}
	}
}

// TestAlgorithm1BruteForce compares Algorithm 1 with a direct count over every combination of
// execution times, for random queues on an idle machine under each drop model. The oracle
// plays the queue out in each world: under pending and evict a task whose predecessor frees
// the machine at or after its deadline is skipped, and under evict a task still running at its
// deadline is killed there. By 004 §IV.C (and reference §2.3) Algorithm 1's value is
// ρ·(n − m), where the doomed tasks are those that are never on time and ρ is the probability
// that all the others are.
func TestAlgorithm1BruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for trial := range 300 {
		model := []pmf.Model{pmf.None, pmf.Pending, pmf.Evict}[trial%3]
		n := 1 + r.IntN(4)
		ev := queueEvent{ready: one(0), model: model}
		for range n {
			k := 1 + r.IntN(3)
			tp := make([]float64, 0, 2*k)
			for i, t := 0, 1+r.IntN(3); i < k; i, t = i+1, t+1+r.IntN(3) {
				tp = append(tp, float64(t), 0.1+r.Float64())
			}
			ev.exec = append(ev.exec, at(tp...))
			ev.due = append(ev.due, float64(2+r.IntN(4*n+2)))
		}
		want := bruteOnTime(ev)
		if got := queueOnTime(ev, 0, new(chainBuffers)).value(); math.Abs(got-want) > 1e-9 {
			t.Fatalf("trial %d (%v, deadlines %v): Algorithm 1 gives %v, enumeration %v", trial, model, ev.due, got, want)
		}
	}
}

// bruteOnTime enumerates every combination of the queue's execution times.
func bruteOnTime(ev queueEvent) float64 {
	n := len(ev.exec)
	marginal := make([]float64, n)
	type world struct {
		prob   float64
		onTime []bool
	}
	var worlds []world
	var walk func(i int, free, prob float64, onTime []bool)
	walk = func(i int, free, prob float64, onTime []bool) {
		if i == n {
			worlds = append(worlds, world{prob, append([]bool(nil), onTime...)})
			return
		}
		e, due := ev.exec[i], ev.due[i]
		for k := range e.Len() {
			p := e.Prob(k)
			if p == 0 {
				continue
			}
			next, ok := free, false
			if ev.model == pmf.None || free < due {
				end := free + e.Time(k)
				next, ok = end, end <= due
				if ev.model == pmf.Evict && !ok {
					next = due
				}
			}
			walk(i+1, next, prob*p, append(onTime, ok))
		}
	}
	walk(0, 0, 1, nil)
	for _, w := range worlds {
		for i, ok := range w.onTime {
			if ok {
				marginal[i] += w.prob
			}
		}
	}
	rho, alive := 0.0, 0
	for _, p := range marginal {
		if p > 0 {
			alive++
		}
	}
	for _, w := range worlds {
		all := true
		for i, ok := range w.onTime {
			all = all && (ok || marginal[i] == 0)
		}
		if all {
			rho += w.prob
		}
	}
	return rho * float64(alive)
}

// TestPermutations: every ordering once, in lexicographic order of positions.
func TestPermutations(t *testing.T) {
	var got []string
	permutations([]int{7, 8, 9}, nil, nil, func(o []int) { got = append(got, fmt.Sprint(o)) })
	want := "[[7 8 9] [7 9 8] [8 7 9] [8 9 7] [9 7 8] [9 8 7]]"
	if fmt.Sprint(got) != want {
		t.Errorf("permutations: %v, want %v", got, want)
	}
}
