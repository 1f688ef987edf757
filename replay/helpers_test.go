package replay

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// gridPET is a PET given cell by cell: cells[type][machineType].
type gridPET [][]pmf.PMF

func (g gridPET) Cell(t, m int) pmf.PMF { return g[t][m] }

// randomPET makes types × mtypes cells of up to k impulses at whole steps from 1 to span.
func randomPET(r *rand.Rand, types, mtypes, k, span int, step float64) gridPET {
	g := make(gridPET, types)
	for t := range g {
		g[t] = make([]pmf.PMF, mtypes)
		for m := range g[t] {
			lo := 1 + r.IntN(span/2)
			n := 1 + r.IntN(k)
			w := make([]float64, n)
			for i := range w {
				w[i] = 0.05 + r.Float64()
			}
			d, _, err := pmf.FromWeights(float64(lo)*step, step, w)
			if err != nil {
				panic(err)
			}
			g[t][m] = d
		}
	}
	return g
}

// randomTasks makes n tasks with Poisson arrivals at the given rate and deadlines a random
// slack after arrival.
func randomTasks(r *rand.Rand, n, types int, rate, slackMin, slackMax float64) []Task {
	tasks := make([]Task, n)
	t := 0.0
	for i := range tasks {
		t += r.ExpFloat64() / rate
		if r.IntN(10) == 0 && i > 0 {
			t = tasks[i-1].Arrival // simultaneous arrivals form one event
		}
		tasks[i] = Task{ID: int64(i), Type: r.IntN(types), Arrival: t,
			Deadline: t + slackMin + r.Float64()*(slackMax-slackMin)}
	}
	return tasks
}

func machinesOf(types ...int) []Machine {
	ms := make([]Machine, len(types))
	for i, ty := range types {
		ms[i] = Machine{Name: string(rune('a' + i)), Type: ty, PricePerHour: 1 + float64(i), PowerWatts: 100}
	}
	return ms
}

// mapperFunc makes a Mapper from a function, for tests that need a specific policy.
type mapperFunc struct {
	name string
	mode Mode
	f    func(Event)
}

func (m mapperFunc) Name() string { return m.name }
func (m mapperFunc) Mode() Mode   { return m.mode }
func (m mapperFunc) Map(ev Event) { m.f(ev) }

// toMachine0 maps every task, in arrival order, to machine 0.
var toMachine0 = mapperFunc{"machine0", Immediate, func(ev Event) {
	for _, h := range ev.Batch() {
		ev.Assign(h, 0)
	}
}}

// greedyBest is a small batch mapper for engine tests: each task in arrival order goes to the
// free machine with the best success chance.
var greedyBest = mapperFunc{"greedy", Batch, func(ev Event) { greedy(ev, nil) }}

// greedy is greedyBest's mapping, calling after (when set) after each assignment.
func greedy(ev Event, after func(Event)) {
	for _, h := range ev.Batch() {
		best, bestS := -1, -1.0
		for m := range ev.NumMachines() {
			if ev.Free(m) > 0 {
				if s := ev.Success(h, m); s > bestS {
					best, bestS = m, s
				}
			}
		}
		if best < 0 {
			return
		}
		ev.Assign(h, best)
		if after != nil {
			after(ev)
		}
	}
}

// checkingGreedy is greedy that first hands check the event and its engine, at every event: the
// mapper of the tests that compare the engine's answers with an oracle on greedy's queues.
func checkingGreedy(check func(ev Event, e *engine)) Mapper {
	return mapperFunc{"checking greedy", Batch, func(ev Event) {
		check(ev, ev.(*mapping).e)
		greedy(ev, nil)
	}}
}

func run(t *testing.T, cfg Config, m Mapper) *Result {
	t.Helper()
	res, err := Run(t.Context(), cfg, m)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func impulse(t float64) pmf.PMF { return pmf.Impulse(t, 1) }

var inf = math.Inf(1)
