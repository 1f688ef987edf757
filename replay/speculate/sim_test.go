package speculate

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/hcreplay/hcreplay/replay"
)

func homogeneous(n int) []replay.Machine {
	ms := make([]replay.Machine, n)
	for i := range ms {
		ms[i] = replay.Machine{Name: fmt.Sprint("m", i), PricePerHour: 3.6, PowerWatts: 100}
	}
	return ms
}

// TestHandWorkedJob runs one job of two tasks on 4 machines under every strategy. The scheduler
// believes Pareto(mu = 1, α = 2): E[x] = 2, σ* = 1 + √2/2, so ESE and SDA back up a task whose
// remaining time exceeds 2σ* = 3.414; Mantri's threshold is 2·F⁻¹(0.25) = 2/√0.75 = 2.309.
// The actual durations are fixed: task 0's first copy takes 1, task 1's takes 4, and every
// further copy of either takes 2. Decisions happen at the arrival (t = 0) and at every
// completion. By hand:
//
//   - none: both tasks start at 0 and end at 1 and 4: flowtime 4, machine time 1 + 4 = 5.
//   - Mantri: at t = 1 (task 0 done) task 1 has 3 left > 2.309: a backup runs 1..3 and wins;
//     the first copy is killed at 3. Flowtime 3; machine time 1 + 3 + 2 = 6, 3 of it wasted.
//   - ESE: at t = 1, 3 left < 3.414: no backup (and m = 2 is not < η·N/|χ| = 0.4, so no
//     cloning at 0). Flowtime 4, machine time 5.
//   - SDA (s = 0.1): task 0 is judged at 0.1 with 0.9 left (no); task 1 at 0.4 with 3.6 left
//     > 3.414: a backup runs 0.4..2.4 and wins. Flowtime 2.4; machine time 1 + 2.4 + 2 = 5.4.
//   - SCA: at 0, 2 tasks < 4 idle machines, so P2 with c ∈ {1, 2}. For Pareto(1, β),
//     E[max of 2] = 2β²/((β−1)(2β−1)) and E[min of c] = β/(β−1) with β = 2c: c = 1 costs
//     8/3 + 0.01·2·2 = 2.707, c = 2 costs 32/21 + 0.01·4·4/3 = 1.577, so c = 2. Task 0: copies
//     of 1 and 2, done at 1 (the clone is killed after 1). Task 1: copies of 4 and 2, done at 2
//     (the original is killed after 2). Flowtime 2; machine time 2 + 4 = 6, 3 wasted; one
//     backup won.
//   - auto: one arrival, so the load estimate is light and it acts as SCA.
func TestHandWorkedJob(t *testing.T) {
	w := SingleJob(2, 2, 2)
	dur := func(job, task, copy, _ int) float64 {
		switch {
		case copy > 0:
			return 2
		case task == 0:
			return 1
		}
		return 4
	}
	tests := []struct {
		st                          Strategy
		flow, machine, wasted       float64
		copies, extra, won, p2Calls int
	}{
		{None, 4, 5, 0, 2, 0, 0, 0},
		{Mantri, 3, 6, 3, 3, 1, 1, 0},
		{ESE, 4, 5, 0, 2, 0, 0, 0},
		{SDA, 2.4, 5.4, 2.4, 3, 1, 1, 0},
		{SCA, 2, 6, 3, 4, 2, 1, 1},
		{Auto, 2, 6, 3, 4, 2, 1, 1},
	}
	for _, tc := range tests {
		t.Run(string(tc.st), func(t *testing.T) {
			opt := DefaultOptions()
			opt.Strategy, opt.Durations = tc.st, dur
			res, err := Run(context.Background(), w, homogeneous(4), opt)
			if err != nil {
				t.Fatal(err)
			}
			j, s := res.Jobs[0], res.Summary
			near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
			if !near(j.Flowtime, tc.flow) || !near(j.MachineTime, tc.machine) || !near(j.Wasted, tc.wasted) {
				t.Errorf("flowtime %v, machine time %v, wasted %v; want %v, %v, %v", j.Flowtime, j.MachineTime, j.Wasted, tc.flow, tc.machine, tc.wasted)
			}
			if j.Copies != tc.copies || j.ExtraCopies != tc.extra || j.BackupsWon != tc.won || int(s.P2Solves) != tc.p2Calls {
				t.Errorf("copies %d, extra %d, won %d, P2 solves %d; want %d, %d, %d, %d", j.Copies, j.ExtraCopies, j.BackupsWon, s.P2Solves, tc.copies, tc.extra, tc.won, tc.p2Calls)
			}
			// 4 machines at $3.6/h, one time unit = 1 s: cost is machine time / 1000.
			if !near(float64(s.Cost), tc.machine/1000) || !near(float64(s.ResourceTotal), 0.01*tc.machine) {
				t.Errorf("cost %v, resource %v; want %v, %v", s.Cost, s.ResourceTotal, tc.machine/1000, 0.01*tc.machine)
			}
			// Energy: 100 W × (0.7·busy + 0.25·idle) over a span of the flowtime on 4 machines.
			want := 100 * (0.7*tc.machine + 0.25*(4*tc.flow-tc.machine))
			if !near(float64(s.Energy), want) {
				t.Errorf("energy %v, want %v", s.Energy, want)
			}
		})
	}
}

// TestInvariants runs every strategy on small random workloads and checks, from the copies
// themselves: each task has exactly one copy that was not killed, and it ends first; killed
// copies stop at that instant; a job finishes when its last task's first copy does; a machine
// runs one copy at a time; no copy starts before its job arrives; at most r copies per task;
// and machine time, wasted time and copies add up to the summary. With a slot length, copies
// start only at slot boundaries (apart from SDA's detection-time backups).
func TestInvariants(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		for _, slot := range []float64{0, 0.5} {
			for _, rate := range []float64{0.5, 4} {
				w, err := Synthetic(SyntheticOptions{Rate: rate, Horizon: 40, MinTasks: 1, MaxTasks: 12, MinMean: 1, MaxMean: 4, Alpha: 2, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				for _, st := range Strategies() {
					name := fmt.Sprintf("seed%d/slot%g/rate%g/%s", seed, slot, rate, st)
					checkInvariants(t, name, w, st, slot, seed)
				}
			}
		}
	}
}

func checkInvariants(t *testing.T, name string, w *Workload, st Strategy, slot float64, seed uint64) {
	t.Helper()
	var copies []CopyRecord
	opt := DefaultOptions()
	opt.Strategy, opt.Slot, opt.Seed, opt.MaxCopies, opt.Xi = st, slot, seed, 4, 10 // ξ = 10: ESE clones small jobs
	opt.OnCopy = func(c CopyRecord) { copies = append(copies, c) }
	const machines = 24
	res, err := Run(context.Background(), w, homogeneous(machines), opt)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	type key struct{ job, task int }
	byTask := map[key][]CopyRecord{}
	byMachine := make([][]CopyRecord, machines)
	var busy, wasted float64
	perJob := make([]float64, len(w.Jobs))
	for _, c := range copies {
		byTask[key{c.Job, c.Task}] = append(byTask[key{c.Job, c.Task}], c)
		byMachine[c.Machine] = append(byMachine[c.Machine], c)
		busy += c.End - c.Start
		perJob[c.Job] += c.End - c.Start
		if c.Killed {
			wasted += c.End - c.Start
		}
		if c.Start < w.Jobs[c.Job].Arrival {
			t.Errorf("%s: job %d task %d copy %d starts at %v, before its arrival %v", name, c.Job, c.Task, c.Copy, c.Start, w.Jobs[c.Job].Arrival)
		}
		if slot > 0 && st != SDA && st != Auto && math.Abs(c.Start/slot-math.Round(c.Start/slot)) > 1e-9 {
			t.Errorf("%s: a copy starts at %v, off the slot grid", name, c.Start)
		}
	}
	finish := make([]float64, len(w.Jobs))
	for i, j := range w.Jobs {
		for task := range j.Tasks {
			cs := byTask[key{i, task}]
			if len(cs) == 0 || len(cs) > opt.MaxCopies {
				t.Errorf("%s: job %d task %d has %d copies", name, i, task, len(cs))
				continue
			}
			winners, end := 0, math.Inf(1)
			for _, c := range cs {
				end = math.Min(end, c.End)
				if !c.Killed {
					winners++
				}
			}
			for _, c := range cs {
				if c.End != end {
					t.Errorf("%s: job %d task %d: a copy ends at %v (killed %t), after the first at %v", name, i, task, c.End, c.Killed, end)
				}
			}
			if winners != 1 {
				t.Errorf("%s: job %d task %d: %d copies not killed", name, i, task, winners)
			}
			finish[i] = math.Max(finish[i], end)
		}
	}
	for i, j := range res.Jobs {
		if j.Finish != finish[i] || math.Abs(j.Flowtime-(finish[i]-w.Jobs[i].Arrival)) > 1e-9 {
			t.Errorf("%s: job %d finishes at %v (flowtime %v); its last task's first copy ends at %v", name, i, j.Finish, j.Flowtime, finish[i])
		}
		if math.Abs(j.MachineTime-perJob[i]) > 1e-9*(1+perJob[i]) {
			t.Errorf("%s: job %d machine time %v, its copies %v", name, i, j.MachineTime, perJob[i])
		}
	}
	for m, cs := range byMachine {
		slices.SortFunc(cs, func(a, b CopyRecord) int { return cmp.Compare(a.Start, b.Start) })
		for k := 1; k < len(cs); k++ {
			if cs[k].Start < cs[k-1].End {
				t.Errorf("%s: machine %d runs two copies at %v", name, m, cs[k].Start)
			}
		}
	}
	s := res.Summary
	if math.Abs(float64(s.MachineTime)-busy) > 1e-9*busy || math.Abs(float64(s.WastedTime)-wasted) > 1e-9*(1+wasted) ||
		s.Copies != int64(len(copies)) || s.Launches != s.Copies {
		t.Errorf("%s: summary machine time %v wasted %v copies %d launches %d; copies add up to %v, %v, %d",
			name, s.MachineTime, s.WastedTime, s.Copies, s.Launches, busy, wasted, len(copies))
	}
}

// TestNoSpeculationClosedForm: with no speculation and more machines than tasks ever waiting,
// every job starts on arrival and its flowtime is the max of its m task times, whose mean for
// Pareto(mu, α) is mu·Γ(m+1)·Γ(1−1/α)/Γ(m+1−1/α). α = 3 keeps the variance finite.
func TestNoSpeculationClosedForm(t *testing.T) {
	const m, mean, alpha = 5, 1.5, 3.0
	w, err := Synthetic(SyntheticOptions{Rate: 2, Horizon: 3000, MinTasks: m, MaxTasks: m, MinMean: mean, MaxMean: mean, Alpha: alpha, Seed: 11})
	if err != nil {
		t.Fatal(err)
	}
	opt := DefaultOptions()
	res, err := Run(context.Background(), w, homogeneous(400), opt)
	if err != nil {
		t.Fatal(err)
	}
	mu := mean * (alpha - 1) / alpha
	want := mu * math.Gamma(m+1) * math.Gamma(1-1/alpha) / math.Gamma(m+1-1/alpha)
	sum, sq := 0.0, 0.0
	for _, j := range res.Jobs {
		if j.Start != j.Arrival {
			t.Fatalf("job %s waited (%v → %v): not enough machines for the check", j.ID, j.Arrival, j.Start)
		}
		sum += j.Flowtime
		sq += j.Flowtime * j.Flowtime
	}
	n := float64(len(res.Jobs))
	got := sum / n
	se := math.Sqrt((sq/n - got*got) / n)
	if math.Abs(got-want) > 4*se {
		t.Errorf("mean flowtime %.4f ± %.4f over %d jobs, closed form %.4f", got, se, len(res.Jobs), want)
	}
}

// TestCommonRandomNumbers: strategies see the same draws, so a job that no strategy touches
// (none and SDA with an unreachable threshold) ends alike.
func TestCommonRandomNumbers(t *testing.T) {
	w, err := Synthetic(SyntheticOptions{Rate: 1, Horizon: 50, MinTasks: 1, MaxTasks: 20, MinMean: 1, MaxMean: 4, Alpha: 2, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	run := func(st Strategy, sigma float64) *Result {
		opt := DefaultOptions()
		opt.Strategy, opt.Sigma = st, sigma
		res, err := Run(context.Background(), w, homogeneous(30), opt)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b := run(None, 0), run(SDA, 1e9)
	for i := range a.Jobs {
		if a.Jobs[i].Finish != b.Jobs[i].Finish {
			t.Fatalf("job %d: none finishes at %v, SDA that never backs up at %v", i, a.Jobs[i].Finish, b.Jobs[i].Finish)
		}
	}
	if b.Summary.ExtraCopies != 0 || b.Summary.Checks == 0 {
		t.Errorf("SDA with σ = 1e9: %d extra copies, %d checks", b.Summary.ExtraCopies, b.Summary.Checks)
	}
}

// TestBadOptions: bad options are errors, never panics.
func TestBadOptions(t *testing.T) {
	w := SingleJob(3, 1, 2)
	for _, mutate := range []func(*Options){
		func(o *Options) { o.Strategy = "nosuch" },
		func(o *Options) { o.MaxCopies = 0 },
		func(o *Options) { o.Detect = 1 },
		func(o *Options) { o.Delta = 0 },
		func(o *Options) { o.Slot = -1 },
		func(o *Options) { o.Window = 1 },
		func(o *Options) { o.Light = ESE },
	} {
		opt := DefaultOptions()
		mutate(&opt)
		if _, err := Run(context.Background(), w, homogeneous(2), opt); err == nil {
			t.Errorf("%+v: no error", opt)
		}
	}
	if _, err := Run(context.Background(), w, nil, DefaultOptions()); err == nil {
		t.Error("no machines: no error")
	}
	if _, err := Synthetic(SyntheticOptions{Rate: 1, Horizon: 10, MinTasks: 1, MaxTasks: 1, MinMean: 1, MaxMean: 1, Alpha: 1}); err == nil {
		t.Error("Pareto α = 1: no error")
	}
}
