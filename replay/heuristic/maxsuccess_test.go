package heuristic

import (
	"math/rand/v2"
	"testing"

	"github.com/hcreplay/hcreplay/replay"
)

// tableEvent is a replay.Event of given success chances and completions, with bounds a given
// margin above the chances, and hints: what maxSuccessEach reads. Any other method hits the nil
// embedded interface and panics. asked counts the chances asked.
type tableEvent struct {
	replay.Event
	success, completion, margin [][]float64 // by task, then machine
	asked                       *int
	hints                       map[int]int
}

func (e tableEvent) Hint(t int) int {
	if m, ok := e.hints[t]; ok {
		return m
	}
	return -1
}
func (e tableEvent) SetHint(t, m int) { e.hints[t] = m }

func (e tableEvent) Success(t, m int) float64 {
	*e.asked++
	return e.success[t][m]
}
func (e tableEvent) Completion(t, m int) float64 { return e.completion[t][m] }
func (e tableEvent) SuccessBoundBelow(t, m int, x float64) bool {
	return e.success[t][m]+e.margin[t][m] < x
}

// bestByScan is maxSuccess's rule read plainly, the oracle of TestMaxSuccessAnyFirst: the
// highest chance, then the smallest completion, then the earliest position in ms.
func bestByScan(e tableEvent, t int, ms []int) int {
	best := ms[0]
	for _, m := range ms[1:] {
		s, bs := e.success[t][m], e.success[t][best]
		if s > bs || s == bs && e.completion[t][m] < e.completion[t][best] {
			best = m
		}
	}
	return best
}

// TestMaxSuccessAnyFirst: whichever machine maxSuccessEach finds noted as a task's last best
// (Event.Hint), and so asks first, its answer is the plain scan's, on random tables dense in ties (chances and
// completions from a few values, as rounding makes them: chances of 0 and 1 tie often). A rule
// that let the first-asked machine keep a full tie, or that skipped a machine whose bound ties
// the best, fails here. A remembered machine that is the best asks fewer chances than none.
func TestMaxSuccessAnyFirst(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 50))
	levels := []float64{0, 0.25, 0.5, 1}
	var fewer, cases int
	for range 2000 {
		n := 1 + rng.IntN(6)
		asked := 0
		e := tableEvent{asked: &asked, hints: map[int]int{}}
		const tasks = 3
		for range tasks {
			var s, c, g []float64
			for range n {
				s = append(s, levels[rng.IntN(len(levels))])
				c = append(c, float64(10+rng.IntN(3)))
				g = append(g, []float64{0, 0, 0.1, 0.6}[rng.IntN(4)])
			}
			e.success, e.completion, e.margin = append(e.success, s), append(e.completion, c), append(e.margin, g)
		}
		ms := rng.Perm(n)[:1+rng.IntN(n)]
		all := []int{0, 1, 2}
		machines := func(int) []int { return ms }
		var want []int
		for tk := range tasks {
			want = append(want, bestByScan(e, tk, ms))
		}
		b := new(buffers)
		plain := maxSuccessEach(e, DefaultParams(), b, all, machines)
		plainAsked := asked
		for i, p := range plain {
			if p.machine != want[i] {
				t.Fatalf("no machine remembered: task %d on %d, the scan says %d (chances %v, completions %v, machines %v)",
					i, p.machine, want[i], e.success[i], e.completion[i], ms)
			}
		}
		// Remember a random machine (or one that is not among ms) for each task, and ask again.
		for tk := range tasks {
			e.hints[tk] = rng.IntN(n+1) - 1
		}
		asked = 0
		got := maxSuccessEach(e, DefaultParams(), b, all, machines)
		for i, p := range got {
			if p.machine != want[i] {
				t.Fatalf("task %d asked first on %d: on %d, the scan says %d (chances %v, completions %v, machines %v)",
					i, e.Hint(i), p.machine, want[i], e.success[i], e.completion[i], ms)
			}
		}
		// Now every task remembers its best: never more chances than in the list's order.
		asked = 0
		maxSuccessEach(e, DefaultParams(), b, all, machines)
		if asked > plainAsked {
			t.Fatalf("asked %d chances with the best first, %d in the list's order", asked, plainAsked)
		}
		if asked < plainAsked {
			fewer++
		}
		cases++
	}
	if fewer == 0 {
		t.Fatalf("the best first never saved a chance in %d cases", cases)
	}
}

// TestMaxSuccessHintFirst, by hand: machines 1 then 0, the task's chance .5 on 1 and 1 on 0, its
// bounds the chances. Noted on machine 0 (the lowest index, which a hint must reach too), it asks
// 0 first, and 1's bound .5 then falls below 1: one chance. Noted on none, it asks 1, then 0,
// whose bound 1 is not below .5: two.
func TestMaxSuccessHintFirst(t *testing.T) {
	for _, c := range []struct {
		hint, want int
	}{{0, 1}, {-1, 2}} {
		asked := 0
		e := tableEvent{asked: &asked, hints: map[int]int{0: c.hint},
			success: [][]float64{{1, 0.5}}, completion: [][]float64{{10, 10}}, margin: [][]float64{{0, 0}}}
		got := maxSuccessEach(e, DefaultParams(), new(buffers), []int{0}, func(int) []int { return []int{1, 0} })
		if got[0].machine != 0 || asked != c.want {
			t.Errorf("noted on %d: machine %d after %d chances, want machine 0 after %d", c.hint, got[0].machine, asked, c.want)
		}
	}
}
