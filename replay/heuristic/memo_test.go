package heuristic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
)

// memoEvent is an Event under evict that knows only completions and the engine's lower bounds
// on them, both given and changed by the test as queues move; any other question panics (the
// embedded Event is nil). asked lists the exact completions asked, as task·10 + machine.
type memoEvent struct {
	replay.Event
	done, bound [][]float64 // by task, machine
	asked       []int
}

func (e *memoEvent) DropModel() pmf.Model             { return pmf.Evict }
func (e *memoEvent) CompletionBound(h, m int) float64 { return e.bound[h][m] }
func (e *memoEvent) Completion(h, m int) float64 {
	e.asked = append(e.asked, 10*h+m)
	return e.done[h][m]
}

// check reports a round whose pairs or asked completions (sorted) are not those wanted.
func (e *memoEvent) check(t *testing.T, round int, pairs, want []pair, asked []int) {
	t.Helper()
	if got, want := fmt.Sprintf("%+v", pairs), fmt.Sprintf("%+v", want); got != want {
		t.Errorf("round %d: pairs %s, want %s", round, got, want)
	}
	slices.Sort(e.asked)
	if !slices.Equal(e.asked, asked) {
		t.Errorf("round %d: asked %v (task·10 + machine), want %v", round, e.asked, asked)
	}
}

// TestMemoHandWorked: the completions the memo asks for, and those it answers itself, over
// three rounds of one mapping event worked by hand from memoCompletions's rule. Every exact
// completion asked is work the run reports (a convolution under the reference engine, a success
// evaluation under the fast one). Machines 0, 1, 2, drop model evict; slack s(c) = 10⁻⁶ +
// 10⁻¹¹·c.
//
// Round 1, nothing known. Task 0, the first, asks every machine whatever the engine's bounds
// (1, 2, 100): completions 5, 6, 200, best m0 at 5. Task 1 takes the engine's bounds (1,
// 3 + s(3), 100) and asks in their order: m0 completes at 3; m1's bound 3 + s(3) is not above
// 3 + s(3), so m1 is asked (4); m2's 100 is, so m2 is not. Asked: 0·0, 0·1, 0·2, 1·0, 1·1.
//
// m0 takes a task: its completions grow (task 0's to 8). Round 2, task 0 alone: m1 (6) and m2
// (200) are known exactly and unmoved, answered from the memo (2 reuses); m0's old 5 bounds its
// new completion from below under evict, 5 ≤ 6 + s(6), so m0 is asked: 8. Best m1 at 6.
//
// m0 takes another task (task 0's completion there 11). Round 3, task 0: m1 and m2 from the
// memo again (2 more reuses: 4); m0's completion asked in round 2, 8, is now a bound above
// 6 + s(6), so m0 is not asked. Best m1 at 6, with no question at all.
func TestMemoHandWorked(t *testing.T) {
	ev := &memoEvent{done: [][]float64{{5, 6, 200}, {3, 4, 300}}, bound: [][]float64{{1, 2, 100}, {1, 3 + completionSlack(3), 100}}}
	b := new(buffers)
	b.memo.start(3)
	rounds := []struct {
		tasks []int
		move  float64 // task 0's completion on m0 after m0 takes a task before the round; 0: no move
		asked []int
		pairs []pair
	}{
		{[]int{0, 1}, 0, []int{0, 1, 2, 10, 11}, []pair{pairOf(0, 0, 5), pairOf(1, 0, 3)}},
		{[]int{0}, 8, []int{0}, []pair{pairOf(0, 1, 6)}},
		{[]int{0}, 11, nil, []pair{pairOf(0, 1, 6)}},
	}
	for i, r := range rounds {
		if r.move > 0 {
			b.memo.moved(0)
			ev.done[0][0] = r.move
		}
		ev.asked = nil
		ev.check(t, i+1, memoCompletions(ev, Params{}, b, r.tasks, []int{0, 1, 2}), r.pairs, r.asked)
	}
	if b.memo.reused != 4 {
		t.Errorf("%d completions taken from the memo, want 4", b.memo.reused)
	}
}

// pairOf is the pair memoCompletions gives task t on machine m with completion c.
func pairOf(t, m int, c float64) pair {
	return pair{task: t, machine: m, completion: c, second: math.Inf(1)}
}

// TestEmptiedMemoIsZero: a memo emptied after a replay's use (emptied, what Recycle hands on)
// answers a script of events exactly as a zero memo does: each row it returns holds the same
// versions, and the same values where a version is set, though its storage holds the old
// replay's rows, marks and event numbers. The scripts start, grow rows, write them and move
// machines at random, over machine counts that change between the two replays.
func TestEmptiedMemoIsZero(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	script := func(c *completionMemo, seed uint64, n int) string {
		s := rand.New(rand.NewPCG(seed, 1))
		var b strings.Builder
		for range 40 {
			c.start(n)
			for range s.IntN(12) {
				h := s.IntN(30)
				value, at, exact := c.row(h)
				for m := range n {
					if at[m] >= 0 {
						fmt.Fprintf(&b, "%d/%d:%d=%v,%v ", h, m, at[m], value[m], exact[m])
					} else {
						fmt.Fprintf(&b, "%d/%d:%d ", h, m, at[m])
					}
				}
				if m := s.IntN(n); s.IntN(2) == 0 {
					value[m], at[m], exact[m] = s.Float64(), c.version[m], s.IntN(2) == 0
				} else {
					c.moved(m)
				}
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	for i := range 50 {
		used := new(completionMemo)
		script(used, uint64(i), 1+r.IntN(8))
		n, seed := 1+r.IntN(8), uint64(1000+i)
		emptied := used.emptied()
		if got, want := script(&emptied, seed, n), script(new(completionMemo), seed, n); got != want {
			t.Fatalf("script %d on %d machines: the emptied memo answered\n%s\na zero one\n%s", i, n, got, want)
		}
	}
}
