package heuristic

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hcreplay/hcreplay/replay"
)

// boundedEvent is an Event that knows only completions and lower bounds on them, both given; any
// other question panics (the embedded Event is nil). asked counts the exact completions asked.
type boundedEvent struct {
	replay.Event
	done, bound [][]float64 // by task, machine
	asked       int
}

func (e *boundedEvent) Completion(h, m int) float64      { e.asked++; return e.done[h][m] }
func (e *boundedEvent) CompletionBound(h, m int) float64 { return e.bound[h][m] }

// TestCompletionsSkipOnlyLosers: on random tables of completions with many ties and random lower
// bounds (some exact, some loose, some unknown), minCompletion and minTwoCompletions give every
// task the machine, completion and second-best completion of a brute-force scan of every
// machine in index order; and, for a single task, ask for exact completions only on the
// machines whose bound does not clearly exceed the best (or second best) completion (a batch of
// several tasks is asked about on every machine, but for completions' later, MM's, which takes
// the bounds of every task after the first).
func TestCompletionsSkipOnlyLosers(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1))
	skipped := 0 // single-task cases that asked fewer machines than there are
	for trial := range 2000 {
		machines := r.Perm(6)[:1+r.IntN(6)]
		slices.Sort(machines)
		ev := &boundedEvent{}
		var tasks []int
		for h := range 1 + r.IntN(2) {
			tasks = append(tasks, h)
			done, bound := make([]float64, 6), make([]float64, 6)
			for m := range done {
				done[m] = float64(10 + r.IntN(4)) // few values: ties are common
				switch r.IntN(3) {
				case 0:
					bound[m] = math.Inf(-1)
				case 1:
					bound[m] = done[m]
				default:
					bound[m] = done[m] - float64(r.IntN(3))
				}
			}
			ev.done, ev.bound = append(ev.done, done), append(ev.bound, bound)
		}
		for _, mode := range [][2]bool{{false, false}, {true, false}, {false, true}, {true, true}} {
			second, later := mode[0], mode[1]
			ev.asked = 0
			var pairs []pair
			switch {
			case later:
				pairs = completions(ev, Params{}, new(buffers), tasks, machines, second, true)
			case second:
				pairs = minTwoCompletions(ev, Params{}, new(buffers), tasks, machines)
			default:
				pairs = minCompletion(ev, Params{}, new(buffers), tasks, machines)
			}
			may := 0 // machines whose bound does not rule them out
			for i, h := range tasks {
				best, bestDone, secondDone := -1, math.Inf(1), math.Inf(1)
				for _, m := range machines { // brute force, index order
					switch d := ev.done[h][m]; {
					case best < 0 || d < bestDone:
						best, bestDone, secondDone = m, d, bestDone
					case d < secondDone:
						secondDone = d
					}
				}
				want := pair{task: h, machine: best, completion: bestDone, second: math.Inf(1)}
				limit := bestDone
				if second {
					want.second, limit = secondDone, secondDone
				}
				if pairs[i] != want {
					t.Fatalf("trial %d, second %v, later %v: task %d on %v: got %+v, want %+v", trial, second, later, h, machines, pairs[i], want)
				}
				for _, m := range machines {
					asksAll := len(tasks) > 1 && !(later && i > 0)
					if asksAll || len(machines) == 1 || ev.bound[h][m] <= limit+completionSlack(limit) {
						may++
					}
				}
			}
			if ev.asked > may {
				t.Fatalf("trial %d, second %v, later %v: %d exact completions asked, only %d machines not ruled out", trial, second, later, ev.asked, may)
			}
			if (len(tasks) == 1 || later) && ev.asked < len(tasks)*len(machines) {
				skipped++
			}
		}
	}
	if skipped < 500 {
		t.Fatalf("only %d single-task cases skipped a machine", skipped)
	}
}
