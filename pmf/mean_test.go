package pmf

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAppendMeanTableIsStats: under none and pending, AppendMeanTable's mean is the one
// AppendStatsTable reports, to the bit (the fast engine rounds either, and a last bit apart could
// round a tie apart), and both are the mean of the real process enumerated outcome by outcome: a
// start s at or after the deadline δ never starts the task under pending (the machine frees at
// s), any other start runs it to s + x, and under none every start runs it. Under evict it
// declines. Deadlines on and off the grid, before, inside and after prev's support.
func TestAppendMeanTableIsStats(t *testing.T) {
	r := rand.New(rand.NewPCG(50, 7))
	for trial := range 600 {
		step, prev, exec := randomLink(r, trial)
		dl := prev.Min() - 2*step + r.Float64()*(prev.Max()-prev.Min()+4*step)
		if trial%10 == 0 { // on a grid point now and then
			dl = prev.Time(r.IntN(prev.Len()))
		}
		et, pt := exec.CDFTable(), prev.CDFTable()
		for _, model := range []Model{None, Pending} {
			truth := 0.0
			for j := range prev.Len() {
				s, ps := prev.Time(j), prev.Prob(j)
				if model == Pending && s >= dl-1e-9*step { // never starts
					truth += ps * s
					continue
				}
				for k := range exec.Len() {
					truth += ps * exec.Prob(k) * (s + exec.Time(k))
				}
			}
			mean, ok, err := AppendMeanTable(model, &et, &pt, dl)
			if err != nil || !ok {
				t.Fatalf("trial %d %v: ok %v, err %v", trial, model, ok, err)
			}
			for _, strict := range []bool{false, true} {
				_, stats, err := AppendStatsTable(model, exec, &et, &pt, dl, strict)
				if err != nil {
					t.Fatal(err)
				}
				if mean != stats {
					t.Fatalf("trial %d %v (δ %.6g, strict %v): AppendMeanTable %.17g, AppendStatsTable %.17g", trial, model, dl, strict, mean, stats)
				}
			}
			if math.Abs(mean-truth) > 1e-12*truth {
				t.Fatalf("trial %d %v (δ %.6g): mean %.15g, the process's %.15g (prev %v, exec %v)", trial, model, dl, mean, truth, prev, exec)
			}
		}
		if _, ok, err := AppendMeanTable(Evict, &et, &pt, dl); ok || err != nil {
			t.Fatalf("trial %d: evict answered (ok %v, err %v); its mean needs the pass over exec", trial, ok, err)
		}
	}
	exec := mustNew(t, 1, 1, []float64{1})
	et, half := exec.CDFTable(), mustNew(t, 0, 0.5, []float64{1}).CDFTable()
	if _, _, err := AppendMeanTable(Pending, &et, &half, 10); err == nil {
		t.Error("steps 1 and 0.5: no error")
	}
	if _, _, err := AppendMeanTable(Model(7), &et, &et, 10); err == nil {
		t.Error("model 7: no error")
	}
}

// TestAppendSuccessTableIsStats: AppendSuccessTable's chance is AppendStatsTable's, to the bit
// (the fast engine memoises either and rounds it, and a last bit apart could round a tie
// apart), under every drop model, strict or not, with deadlines on and off the grid, before,
// inside and past the link's outcomes, on short links and on long ones (up to 80 impulses, where
// a sum in another order would part in its last bits).
func TestAppendSuccessTableIsStats(t *testing.T) {
	r := rand.New(rand.NewPCG(50, 8))
	for trial := range 900 {
		step, prev, exec := randomLink(r, trial)
		if trial%2 == 1 {
			prev = randomPMF(r, 100+float64(r.IntN(5))*step, step, 1+r.IntN(80))
			exec = randomPMF(r, float64(1+r.IntN(4))*step, step, 1+r.IntN(60))
		}
		dl := prev.Min() - 2*step + r.Float64()*(prev.Max()-prev.Min()+exec.Max()+4*step)
		if trial%10 == 0 { // on a grid point now and then
			dl = prev.Time(r.IntN(prev.Len()))
		}
		et, pt := exec.CDFTable(), prev.CDFTable()
		for _, model := range []Model{None, Pending, Evict} {
			for _, strict := range []bool{false, true} {
				want, _, err := AppendStatsTable(model, exec, &et, &pt, dl, strict)
				if err != nil {
					t.Fatal(err)
				}
				got, err := AppendSuccessTable(model, exec, &et, &pt, dl, strict)
				if err != nil || got != want {
					t.Fatalf("trial %d %v (δ %.6g, strict %v): AppendSuccessTable %.17g (%v), AppendStatsTable %.17g", trial, model, dl, strict, got, err, want)
				}
			}
		}
	}
	exec := mustNew(t, 1, 1, []float64{1})
	et, half := exec.CDFTable(), mustNew(t, 0, 0.5, []float64{1}).CDFTable()
	if _, err := AppendSuccessTable(Evict, exec, &et, &half, 10, false); err == nil {
		t.Error("steps 1 and 0.5: no error")
	}
}
