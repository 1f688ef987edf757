package replay

import (
	"math"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// TestMemoForgetsReleasedHandle: a task handle freed by an exit and taken by a new arrival does
// not inherit the chances remembered for the task that held it. Two machines; every task takes
// exactly 1 on machine 0, and C takes exactly 10 on machine 1. C arrives at 0 and runs on
// machine 1 until 10. A arrives at 0.5 with deadline 100: behind C on machine 1 it would finish
// at 11 ≤ 100, chance 1; it is asked there, then runs on machine 0 and leaves at 1.5, freeing
// its handle. B arrives at 3, takes that handle, and has deadline 5: behind C on machine 1 it
// would finish at 11 > 5, chance 0. Machine 1's chain (C running, nothing queued, C's end
// certain at 10) has not changed since A was asked, so only the handle tells B from A.
func TestMemoForgetsReleasedHandle(t *testing.T) {
	one, ten := impulse(1), impulse(10)
	pet := gridPET{{one, ten}, {one, one}}
	for _, engine := range []string{"reference", "fast"} {
		got := map[int64]float64{}
		mapper := mapperFunc{"ask on 1", Immediate, func(ev Event) {
			for _, h := range ev.Batch() {
				task := ev.Task(h)
				if task.Type == 0 { // C
					ev.Assign(h, 1)
					continue
				}
				got[task.ID] = ev.Success(h, 1)
				ev.Assign(h, 0)
			}
		}}
		cfg := Config{PET: pet, Machines: machinesOf(0, 1), Options: DefaultOptions(), Tasks: []Task{
			{ID: 0, Type: 0, Arrival: 0, Deadline: 1000},  // C
			{ID: 1, Type: 1, Arrival: 0.5, Deadline: 100}, // A
			{ID: 2, Type: 1, Arrival: 3, Deadline: 5},     // B
		}}
		cfg.Options.Engine = engine
		cfg.Options.DropModel = pmf.None
		run(t, cfg, mapper)
		if got[1] != 1 || got[2] != 0 {
			t.Errorf("engine %q: A's chance on machine 1 %v, B's %v; want 1 and 0", engine, got[1], got[2])
		}
	}
}

// TestFastChainStaleAtNextAfter: the fast engine's cached chain of a running machine is rebuilt
// at the very time conditioning on the elapsed time changes (pmf.PMF.NextAfter), not one event
// later. One machine; R takes 2 or 4 (1/2 each) and truly 4, from 0. X takes exactly 1, deadline
// 3.5, and stays in the batch. At 1, R ends at 2 or 4: X would end at 3 or 5, chance 1/2. At
// u = NextAfter(1), the time within the grid tolerance of 2 that conditioning counts as 2, R is
// known to run past 2: it ends at 4, X at 5, chance 0. An arrival at u makes the event.
func TestFastChainStaleAtNextAfter(t *testing.T) {
	r, err := pmf.New(2, 1, []float64{0.5, 0, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	u := r.NextAfter(1)
	if !(u < 2) {
		t.Fatalf("NextAfter(1) = %v, want just below 2 (the grid tolerance)", u)
	}
	pet := gridPET{{r}, {impulse(1)}}
	for _, engine := range []string{"reference", "fast"} {
		got := map[float64]float64{}
		mapper := mapperFunc{"R, then ask about X", Immediate, func(ev Event) {
			for _, h := range ev.Batch() {
				switch ev.Task(h).ID {
				case 0:
					ev.Assign(h, 0)
				case 1:
					got[ev.Now()] = ev.Success(h, 0)
				}
			}
		}}
		cfg := Config{PET: pet, Machines: machinesOf(0), Options: DefaultOptions(), Tasks: []Task{
			{ID: 0, Type: 0, Arrival: 0, Deadline: 100, Observed: []float64{4}}, // R
			{ID: 1, Type: 1, Arrival: 1, Deadline: 3.5},                         // X
			{ID: 2, Type: 1, Arrival: u, Deadline: 100},                         // makes the event at u
		}}
		cfg.Options.Engine = engine
		cfg.Options.ConditionElapsed = true
		run(t, cfg, mapper)
		if got[1] != 0.5 || got[u] != 0 {
			t.Errorf("engine %q: X's chance %v at 1, %v at NextAfter(1); want 0.5 and 0", engine, got[1], got[u])
		}
	}
}

// TestCompletionBoundNearRounding: a completion bound taken from the memo, for a completion that
// lies near a rounding boundary of its 1e-9 grid, is rounded down, never up past the completion
// (Event.CompletionBound may exceed it by half a unit of its last digit, 5e-10, no more). One idle
// machine at 0; X takes exactly t = 1 + (0.5 − 10⁻⁷)·10⁻⁹, a ten-millionth of a unit below the
// rounding boundary 1.0000000005, well within the engines' window there (timeWindow(1)·10⁹ ≈
// 1.4·10⁻⁵ units): its completion t rounds to 1 (1000000000.4999999 units). Its bound, asked after
// it (from the memo), must not be 1.000000001.
func TestCompletionBoundNearRounding(t *testing.T) {
	x := pmf.Impulse(1+(0.5-1e-7)*1e-9, 1)
	var bound, done float64
	mapper := mapperFunc{"ask about X", Immediate, func(ev Event) {
		for _, h := range ev.Batch() {
			done = ev.Completion(h, 0)
			bound = ev.CompletionBound(h, 0)
		}
	}}
	cfg := Config{PET: gridPET{{x}}, Machines: machinesOf(0), Options: DefaultOptions(),
		Tasks: []Task{{ID: 0, Arrival: 0, Deadline: 100}}}
	cfg.Options.DropModel = pmf.None
	run(t, cfg, mapper)
	if done != 1 || bound > done+5e-10 {
		t.Errorf("X's completion %v (want 1), its bound %v (want at most 1 + 5e-10)", done, bound)
	}
}

// TestDriftFloorsByHand: QueueFloors from the mixture argument (driftFloors), worked by hand. One
// machine, conditioning on elapsed time. R takes 1 or 3 (1/2 each; truly 3) from 0; Q, assigned
// at 0.5 behind it, takes exactly 1. At 1.5, when Z's arrival makes an event, R is known to run
// past 1. Conditioning at 0.5 kept mass K₀ = 1 (normaliser N₀ = 1) of R's execution time and of
// its completion; at 1.5 it keeps K₁ (N₁ = K₁) of each, and a floor is (S₀·N₀ − (K₀ − K₁))/N₁,
// at least 0, with S₀ the chance at 0.5: R's from its execution time, Q's from R's completion.
//
// Under none, R's deadline 100 and Q's 4.5: S₀ = 1 for both (Q ends at 2 or 4), K₁ = 1/2 for
// both, floors (1 − 1/2)/(1/2) = 1, and the chances at 1.5 are 1. Under evict, R's deadline 1.8
// and Q's 2.5: R's completion is 1 (1/2) or killed at 1.8, split between the grid points 1 and 2
// as 0.2 and 0.8 of the other 1/2: 1 with 0.6, 2 with 0.4. Q ends at 2 (0.6) or 3: S₀ = 0.6. R's
// S₀ = 1/2. At 1.5 the execution time keeps K₁ = 1/2, the completion 0.4: R's floor
// (1/2 − 1/2)/(1/2) = 0 and Q's (0.6 − 0.6)/0.4 = 0, and so are the chances (R runs to 3, past
// 1.8; Q then ends at 3, past 2.5). R's execution time and completion weigh apart there, so
// swapping the two formulas gives Q (0.6 − 1/2)/(1/2) = 0.2, above its chance.
func TestDriftFloorsByHand(t *testing.T) {
	r, err := pmf.New(1, 1, []float64{0.5, 0, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		model      pmf.Model
		rDue, qDue float64
		want       float64 // floors and chances of R and Q
	}{
		{pmf.None, 100, 4.5, 1},
		{pmf.Evict, 1.8, 2.5, 0},
	} {
		var floors []float64
		var chances []QueueChance
		mapper := mapperFunc{"R, Q, then floors", Immediate, func(ev Event) {
			if ev.Now() == 1.5 {
				floors = append([]float64(nil), ev.QueueFloors(0)...)
				chances = append([]QueueChance(nil), ev.QueueChances(0)...)
			}
			for _, h := range ev.Batch() {
				if ev.Task(h).ID < 2 {
					ev.Assign(h, 0)
				}
			}
		}}
		cfg := Config{PET: gridPET{{r}, {impulse(1)}}, Machines: machinesOf(0), Options: DefaultOptions(), Tasks: []Task{
			{ID: 0, Type: 0, Arrival: 0, Deadline: c.rDue, Observed: []float64{3}}, // R
			{ID: 1, Type: 1, Arrival: 0.5, Deadline: c.qDue},                       // Q
			{ID: 2, Type: 1, Arrival: 1.5, Deadline: 100},                          // Z
		}}
		cfg.Options.DropModel = c.model
		cfg.Options.ConditionElapsed = true
		run(t, cfg, mapper)
		if len(floors) != 2 || len(chances) != 2 {
			t.Fatalf("%v at 1.5: floors %v, chances %v; want two of each (R and Q)", c.model, floors, chances)
		}
		for i, name := range []string{"R", "Q"} {
			if math.Abs(floors[i]-c.want) > 1e-12 || chances[i].Success != c.want {
				t.Errorf("%v: %s's floor %v, chance %v; want %v and %v", c.model, name, floors[i], chances[i].Success, c.want, c.want)
			}
		}
	}
}

// TestRunCompletionByHand: Event.RunCompletion is the machine's expected free time plus the
// task's expected execution time, rounded to 1e-9. One idle machine; X arrives at 1, when the
// machine is free at 1. X taking 1 or 3 (1/2 each) ends at 1 + 2 = 3. X taking exactly
// t = 1 + (0.5 − 10⁻⁶)·10⁻⁹ ends at 1 + t, a millionth of a unit below the rounding boundary
// 2.0000000005 (within the engines' window there, where the fast engine sums the reference's
// tail instead): 2.
func TestRunCompletionByHand(t *testing.T) {
	x, err := pmf.New(1, 1, []float64{0.5, 0, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		exec pmf.PMF
		want float64
	}{
		{x, 3},
		{pmf.Impulse(1+(0.5-1e-6)*1e-9, 1), 2},
	} {
		for _, engine := range []string{"reference", "fast"} {
			got := math.NaN()
			mapper := mapperFunc{"ask", Immediate, func(ev Event) {
				for _, h := range ev.Batch() {
					got = ev.RunCompletion(h, 0)
				}
			}}
			cfg := Config{PET: gridPET{{c.exec}}, Machines: machinesOf(0), Options: DefaultOptions(),
				Tasks: []Task{{ID: 0, Arrival: 1, Deadline: 100}}}
			cfg.Options.Engine = engine
			run(t, cfg, mapper)
			if got != c.want {
				t.Errorf("engine %q, execution time of mean %v: run completion %v, want %v", engine, c.exec.Mean(), got, c.want)
			}
		}
	}
}
