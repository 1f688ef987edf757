package replay

import (
	"math"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// nearHalfPET is one task type on one machine type whose execution time is 1 with chance
// a = 0.5 + 5·10⁻¹³ and 2 otherwise: a task started at 0 with deadline 1 has chance a, which
// lies on a rounding boundary of the 12 decimals chances are reported to (a·10¹² ends in .5).
// The fast engine then recomputes the chance as the reference engine does (fast.refAppend).
func nearHalfPET(t *testing.T) gridPET {
	x, err := pmf.New(1, 1, []float64{0.5 + 5e-13, 0.5 - 5e-13})
	if err != nil {
		t.Fatal(err)
	}
	return gridPET{{x}}
}

// TestSuccessEvalsCounted: Summary.SuccessEvals counts the chance evaluations an engine made, by
// hand. One machine, idle; one task at 0 with deadline 1; the mapper asks its chance once and
// assigns it, and Assign asks again (the predicted chance): two questions. The reference engine
// evaluates each: 2. The fast engine evaluates the first against its table and remembers it for
// the second: 1 for a chance of 1/2 (execution time 1 or 2, each 1/2); when the chance is on a
// rounding boundary (nearHalfPET) each question also costs one plain evaluation: 1 + 2 = 3.
func TestSuccessEvalsCounted(t *testing.T) {
	half, err := pmf.New(1, 1, []float64{0.5, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	askThenAssign := mapperFunc{"ask", Immediate, func(ev Event) {
		for _, h := range ev.Batch() {
			ev.Success(h, 0)
			ev.Assign(h, 0)
		}
	}}
	for _, c := range []struct {
		name, engine string
		pet          gridPET
		want         int64
	}{
		{"reference", "reference", gridPET{{half}}, 2},
		{"reference, on a boundary", "reference", nearHalfPET(t), 2},
		{"fast", "", gridPET{{half}}, 1},
		{"fast, on a boundary", "", nearHalfPET(t), 3},
	} {
		cfg := Config{PET: c.pet, Machines: machinesOf(0), Tasks: []Task{{ID: 0, Deadline: 1}}, Options: DefaultOptions()}
		cfg.Options.Engine = c.engine
		if got := run(t, cfg, askThenAssign).Summary.SuccessEvals; got != c.want {
			t.Errorf("%s: %d success evaluations, want %d", c.name, got, c.want)
		}
	}
}

// TestFastOracleFollowsQueue: the chain the fast engine keeps for recomputing a chance on a
// rounding boundary is rebuilt when the queue has grown since, within one event. Drop model
// none, one idle machine, tasks A (nearHalfPET's execution time, deadline 1) and B (takes 1,
// deadline 2) in one batch at 0. A's chance, asked first, is a: the chain is built for the idle
// machine. A is assigned; B's chance behind it is P(A + 1 ≤ 2) = P(A ≤ 1) = a, on the boundary
// again, so it is recomputed: behind A, ≈ 0.5. Behind the idle machine's old chain it would be 1.
func TestFastOracleFollowsQueue(t *testing.T) {
	one := pmf.Impulse(1, 1)
	pet := nearHalfPET(t)
	pet = append(pet, []pmf.PMF{one})
	var got float64
	mapper := mapperFunc{"A then B", Batch, func(ev Event) {
		if len(ev.Batch()) != 2 {
			return // the events after the arrivals
		}
		a, b := ev.Batch()[0], ev.Batch()[1]
		ev.Success(a, 0)
		ev.Assign(a, 0)
		got = ev.Success(b, 0)
		ev.Assign(b, 0)
	}}
	cfg := Config{PET: pet, Machines: machinesOf(0), Options: DefaultOptions(),
		Tasks: []Task{{ID: 0, Type: 0, Deadline: 1}, {ID: 1, Type: 1, Deadline: 2}}}
	cfg.Options.DropModel = pmf.None
	run(t, cfg, mapper)
	if math.Abs(got-0.5) > 1e-11 {
		t.Errorf("B's chance behind A %v, want 0.5 + 5e-13 to 12 decimals", got)
	}
}
