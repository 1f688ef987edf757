package pmf

import (
	"math/rand/v2"
	"testing"
)

// TestAppendMonotone checks the property the fast replay engine's chance bounds rest on: under
// evict and none, a machine that becomes free later (stochastically) makes every later task's
// completion later and its chance lower. A running task's completion conditioned on a later
// elapsed time is such a later start. Under pending the property fails (the hand case below),
// which is why the engine offers no bound there.
func TestAppendMonotone(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 0))
	const step = 1.0
	for trial := range 300 {
		head := randomPMF(r, 0, step, 2+r.IntN(12))
		cut := head.Time(r.IntN(head.Len()))
		early, late := head, head.Condition(cut)
		queue := randomQueue(r, 1+r.IntN(4), 4, 8, 0, step, trial%2 == 0)
		for _, model := range []Model{Evict, None} {
			a, b := early, late
			for i, q := range queue {
				exec := pmfOf(t, q.times, q.probs, step)
				var sa, sb float64
				var err error
				if a, sa, err = Append(model, a, exec, q.deadline, trial%3 == 0); err != nil {
					t.Fatal(err)
				}
				if b, sb, err = Append(model, b, exec, q.deadline, trial%3 == 0); err != nil {
					t.Fatal(err)
				}
				if sb > sa+1e-12 {
					t.Fatalf("trial %d %v task %d: chance %v after a later start, %v after an earlier one", trial, model, i, sb, sa)
				}
				for x := a.Min() - step; x <= max(a.Max(), b.Max())+step; x += step {
					if b.CDF(x) > a.CDF(x)+1e-12 {
						t.Fatalf("trial %d %v task %d: P(free ≤ %v) is %v after a later start, %v after an earlier one", trial, model, i, x, b.CDF(x), a.CDF(x))
					}
				}
			}
		}
	}
}

// TestAppendPendingNotMonotone is the hand case: task A (10 units, deadline 5) then B (1 unit,
// deadline 8). Free at 4, A starts and runs to 14 and B misses; free at 5, A is skipped and B
// ends at 6.
func TestAppendPendingNotMonotone(t *testing.T) {
	a := Impulse(10, 1)
	b := Impulse(1, 1)
	chance := func(free float64) float64 {
		next, _, err := Append(Pending, Impulse(free, 1), a, 5, false)
		if err != nil {
			t.Fatal(err)
		}
		_, s, err := Append(Pending, next, b, 8, false)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	if early, late := chance(4), chance(5); early != 0 || late != 1 {
		t.Fatalf("B's chance: %v when free at 4, %v when free at 5; want 0 and 1", early, late)
	}
}
