package pmf

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestKillShare: where a kill at a deadline lands on a grid, worked by hand.
func TestKillShare(t *testing.T) {
	tol := Tolerance(2) // 2e-9 on a grid of step 2
	cases := []struct {
		name                 string
		origin, step, dl     float64
		floor, ceil          int
		wCeil, floorTime, ok float64
	}{
		{"on grid", 0, 1, 3, 3, 3, 0, 3, 0},
		{"half-way", 0, 1, 2.5, 2, 3, 0.5, 2, 0},
		{"a quarter past", 10, 1, 13.25, 3, 4, 0.25, 13, 0},
		{"phase and step", 0.37, 2, 5.87, 2, 3, 0.75, 4.37, 0}, // (5.87 − .37)/2 = 2.75
		{"within tolerance below", 0, 2, 6 - tol/2, 3, 3, 0, 6, 0},
		{"within tolerance above", 0, 2, 6 + tol/2, 3, 3, 0, 6, 0},
		{"beyond tolerance above", 0, 2, 6 + 4*tol, 3, 4, 4e-9, 6, 1e-15},     // (6 + 8e-9)/2 = 3 + 4e-9
		{"beyond tolerance below", 0, 2, 6 - 4*tol, 2, 3, 1 - 4e-9, 4, 1e-15}, // (6 − 8e-9)/2 = 2 + (1 − 4e-9)
		{"before the origin", 10, 1, 8.5, -2, -1, 0.5, 8, 0},
	}
	for _, c := range cases {
		floor, ceil, w := KillShare(c.origin, c.step, c.dl)
		if floor != c.floor || ceil != c.ceil || math.Abs(w-c.wCeil) > c.ok+1e-12 {
			t.Errorf("%s: KillShare(%g, %g, %.12g) = %d, %d, %.12g; want %d, %d, %.12g", c.name, c.origin, c.step, c.dl, floor, ceil, w, c.floor, c.ceil, c.wCeil)
		}
		if got := KillFloor(c.origin, c.step, c.dl); math.Abs(got-c.floorTime) > 1e-12 {
			t.Errorf("%s: KillFloor = %.12g, want %g", c.name, got, c.floorTime)
		}
	}
}

// TestKillSplitTwoTasks works a two-task evict chain by hand, on a grid of step 1 from 0.
//
// A takes 1 or 3 (½ each), deadline 2.5: it finishes at 1 (on time, ½) or is killed at 2.5,
// half-way between 2 and 3, so its killed ½ is split ¼ at 2 and ¼ at 3. The machine is free at
// {1: ½, 2: ¼, 3: ¼}, mean ½ + ½ + ¾ = 1.75 = ½·1 + ½·2.5.
//
// B takes 1, deadline 3.5. From 1 it ends at 2 (on time, ½); from 2 at 3 (on time, ¼); from 3
// (< 3.5, so it starts) at 4 > 3.5: killed at 3.5, its ¼ split ⅛ at 3 and ⅛ at 4. B's chance is
// ¾ and the machine is free at {2: ½, 3: ⅜, 4: ⅛}. (With the kill on the next grid point, A's
// killed ½ waited at 3, B's chance was ½ and the machine free at {2: ½, 4: ½}.)
func TestKillSplitTwoTasks(t *testing.T) {
	a := mustNew(t, 1, 1, []float64{0.5, 0, 0.5})
	b := mustNew(t, 1, 1, []float64{1})
	want := map[float64]float64{2: 0.5, 3: 0.375, 4: 0.125}
	links := map[string]func(prev, exec PMF, dl float64) (PMF, float64, error){
		"Append": func(prev, exec PMF, dl float64) (PMF, float64, error) { return Append(Evict, prev, exec, dl, false) },
		"AppendPlain": func(prev, exec PMF, dl float64) (PMF, float64, error) {
			return AppendPlain(Evict, prev, exec, dl, false)
		},
		"AppendIntoTable": func(prev, exec PMF, dl float64) (PMF, float64, error) {
			table := exec.CDFTable()
			return AppendIntoTable(new(Buffer), Evict, prev, exec, &table, dl, false)
		},
	}
	for name, link := range links {
		afterA, sa, err := link(Impulse(0, 1), a, 2.5)
		if err != nil {
			t.Fatal(err)
		}
		if m := afterA.Mean(); sa != 0.5 || math.Abs(m-1.75) > 1e-15 {
			t.Errorf("%s: after A %v %v, chance %v; want mean 1.75, chance .5", name, afterA, afterA.Probs(), sa)
		}
		afterB, sb, err := link(afterA, b, 3.5)
		if err != nil {
			t.Fatal(err)
		}
		got := map[float64]float64{}
		for k := range afterB.Len() {
			if afterB.Prob(k) != 0 {
				got[afterB.Time(k)] = afterB.Prob(k)
			}
		}
		if sb != 0.75 || len(got) != len(want) || got[2] != want[2] || got[3] != want[3] || got[4] != want[4] {
			t.Errorf("%s: after B %v, chance %v; want %v, .75", name, got, sb, want)
		}
	}
}

// randomLink is a random chain link for trial: a step of 1, 0.5 or 2, a free-time PMF prev of up
// to 12 impulses near 100 (on the grid or 0.37 off it) and an execution-time PMF exec of up to 10
// impulses from a whole number of steps.
func randomLink(r *rand.Rand, trial int) (step float64, prev, exec PMF) {
	step = []float64{1, 0.5, 2}[trial%3]
	prev = randomPMF(r, 100+0.37*float64(trial%2)+float64(r.IntN(5))*step, step, 1+r.IntN(12))
	exec = randomPMF(r, float64(1+r.IntN(4))*step, step, 1+r.IntN(10))
	return step, prev, exec
}

// TestKilledMeanIsDeadline: one evict link behind a random free-time PMF frees the machine, on
// average, exactly when the task it models does: the mean of the link's result, of
// AppendStatsTable's expected completion, and (as a bound) AppendMeanBound, against the mean
// of the real process enumerated outcome by outcome — a start s at or after the deadline δ never
// starts the task, any other runs to s + x or is killed at δ, whichever comes first.
func TestKilledMeanIsDeadline(t *testing.T) {
	r := rand.New(rand.NewPCG(51, 4))
	for trial := range 300 {
		step, prev, exec := randomLink(r, trial)
		dl := prev.Min() + r.Float64()*(prev.Max()-prev.Min()+exec.Max())
		if trial%10 == 0 { // on a grid point now and then
			dl = prev.Time(r.IntN(prev.Len() + exec.Len()))
		}
		strict := trial%4 == 1
		truth := 0.0
		for j := range prev.Len() {
			s, ps := prev.Time(j), prev.Prob(j)
			if s >= dl-1e-9*step { // at δ within the grid tolerance, or after: never starts
				truth += ps * s
				continue
			}
			for k := range exec.Len() {
				truth += ps * exec.Prob(k) * math.Min(s+exec.Time(k), dl)
			}
		}
		tol := 1e-12 * truth
		plain, _, err := AppendPlain(Evict, prev, exec, dl, strict)
		if err != nil {
			t.Fatal(err)
		}
		fused, _, err := Append(Evict, prev, exec, dl, strict)
		if err != nil {
			t.Fatal(err)
		}
		et, pt := exec.CDFTable(), prev.CDFTable()
		_, stats, err := AppendStatsTable(Evict, exec, &et, &pt, dl, strict)
		if err != nil {
			t.Fatal(err)
		}
		bound := AppendMeanBound(Evict, &et, &pt, dl)
		for name, m := range map[string]float64{"AppendPlain": plain.Mean(), "Append": fused.Mean(), "AppendStatsTable": stats} {
			if math.Abs(m-truth) > tol {
				t.Fatalf("trial %d (δ %.6g, strict %v): %s mean %.15g, the process's %.15g (prev %v, exec %v)", trial, dl, strict, name, m, truth, prev, exec)
			}
		}
		if bound > truth+tol {
			t.Fatalf("trial %d (δ %.6g): AppendMeanBound %.15g above the mean %.15g", trial, dl, bound, truth)
		}
	}
}
