package replay

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// TestLindley: one machine, FCFS, no deadlines, deterministic durations. Each task starts when
// both it and the machine are ready (the Lindley recursion W' = max(0, W + S − A)), computed here
// directly from the arrivals.
func TestLindley(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	pet := gridPET{{impulse(3)}, {impulse(5)}}
	tasks := make([]Task, 300)
	at := 0.0
	for i := range tasks {
		at += float64(r.IntN(9))
		tasks[i] = Task{ID: int64(i), Type: r.IntN(2), Arrival: at, Deadline: inf}
	}
	opt := DefaultOptions()
	opt.DropModel, opt.Trim = pmf.None, 0
	res := run(t, Config{PET: pet, Machines: machinesOf(0), Tasks: tasks, Options: opt}, toMachine0)

	byID := map[int64]Outcome{}
	for _, o := range res.Outcomes {
		byID[o.Task.ID] = o
	}
	free := math.Inf(-1)
	for _, task := range tasks {
		start := math.Max(task.Arrival, free)
		free = start + []float64{3, 5}[task.Type]
		o := byID[task.ID]
		if o.Start != start || o.End != free || o.Status != OnTime {
			t.Fatalf("task %d: start %v end %v status %v, Lindley says start %v end %v", task.ID, o.Start, o.End, o.Status, start, free)
		}
	}
}

// TestMG1Sojourn: Poisson arrivals to one FCFS machine whose service time is a discretised
// exponential. The mean time in system must match the Pollaczek–Khinchine formula
// W = E[S] + λE[S²]/(2(1−ρ)) for the discretised distribution, which is the M/M/1 result
// 1/(μ−λ) up to the discretisation, within the batch-means error of a long run.
func TestMG1Sojourn(t *testing.T) {
	const (
		lambda = 0.5
		step   = 0.1
		n      = 100000
	)
	// Exponential with mean 1, bins ((k-1)·step, k·step] with the impulse at k·step, cut at 10
	// means (the tail folds away in the normalisation). The reference engine convolves these
	// PMFs at every mapping, so they stay small.
	w := make([]float64, 100)
	for k := range w {
		w[k] = math.Exp(-float64(k)*step) - math.Exp(-float64(k+1)*step)
	}
	service, _, err := pmf.FromWeights(step, step, w)
	if err != nil {
		t.Fatal(err)
	}
	es, es2 := service.Mean(), service.Variance()+service.Mean()*service.Mean()
	rho := lambda * es
	want := es + lambda*es2/(2*(1-rho))

	r := rand.New(rand.NewPCG(2, 2))
	tasks := make([]Task, n)
	at := 0.0
	for i := range tasks {
		at += r.ExpFloat64() / lambda
		tasks[i] = Task{ID: int64(i), Arrival: at, Deadline: inf}
	}
	opt := DefaultOptions()
	opt.DropModel, opt.Trim, opt.Seed = pmf.None, 0, 7
	res := run(t, Config{PET: gridPET{{service}}, Machines: machinesOf(0), Tasks: tasks, Options: opt}, toMachine0)

	// Batch means over 50 consecutive blocks of tasks, by arrival.
	slices.SortFunc(res.Outcomes, func(a, b Outcome) int { return int(a.Task.ID - b.Task.ID) })
	const blocks = 50
	means := make([]float64, blocks)
	for i, o := range res.Outcomes {
		means[i*blocks/n] += (o.End - o.Task.Arrival) / (n / blocks)
	}
	mean, sd := meanSD(means)
	se := sd / math.Sqrt(blocks)
	if math.Abs(mean-want) > 4*se {
		t.Errorf("mean sojourn %.4f ± %.4f, Pollaczek–Khinchine %.4f (M/M/1 1/(μ−λ) = %.4f)", mean, se, want, 1/(1-lambda))
	}
}

func meanSD(xs []float64) (float64, float64) {
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, math.Sqrt(v / float64(len(xs)-1))
}

// TestHandWorkedDeadlines follows three tasks on one machine under each drop model.
//
// Task 0 arrives at 0, takes 4, due 10. Task 1 arrives at 1, takes 8, due 9. Task 2 arrives at
// 2, takes 2, due 13. All go to machine 0 on arrival.
//   - none: 0 runs 0–4 (on time); 1 runs 4–12 (late); 2 runs 12–14 (late).
//   - pending: 1 starts at 4 < 9 and runs to 12 (late); 2 runs 12–14 (late).
//   - evict: 1 is killed at its deadline 9 (dropped); 2 runs 9–11 (on time).
func TestHandWorkedDeadlines(t *testing.T) {
	pet := gridPET{{impulse(4)}, {impulse(8)}, {impulse(2)}}
	tasks := []Task{{ID: 0, Type: 0, Arrival: 0, Deadline: 10}, {ID: 1, Type: 1, Arrival: 1, Deadline: 9}, {ID: 2, Type: 2, Arrival: 2, Deadline: 13}}
	type want struct {
		status     Status
		start, end float64
	}
	cases := map[pmf.Model][]want{
		pmf.None:    {{OnTime, 0, 4}, {Late, 4, 12}, {Late, 12, 14}},
		pmf.Pending: {{OnTime, 0, 4}, {Late, 4, 12}, {Late, 12, 14}},
		pmf.Evict:   {{OnTime, 0, 4}, {DroppedDeadline, 4, 9}, {OnTime, 9, 11}},
	}
	for model, wants := range cases {
		opt := DefaultOptions()
		opt.DropModel, opt.Trim = model, 0
		res := run(t, Config{PET: pet, Machines: machinesOf(0), Tasks: tasks, Options: opt}, toMachine0)
		for _, o := range res.Outcomes {
			w := wants[o.Task.ID]
			if o.Status != w.status || o.Start != w.start || o.End != w.end {
				t.Errorf("%v task %d: %v %v–%v, want %v %v–%v", model, o.Task.ID, o.Status, o.Start, o.End, w.status, w.start, w.end)
			}
		}
	}
	// Pending: a task whose predecessor runs past its deadline never starts. Task 2 due 11 here.
	tasks[2].Deadline = 11
	opt := DefaultOptions()
	opt.DropModel, opt.Trim = pmf.Pending, 0
	res := run(t, Config{PET: pet, Machines: machinesOf(0), Tasks: tasks, Options: opt}, toMachine0)
	for _, o := range res.Outcomes {
		if o.Task.ID == 2 && (o.Status != DroppedDeadline || o.End != 12 || !math.IsNaN(o.Start)) {
			t.Errorf("pending, task 2 due 11 behind a task running to 12: %v start %v end %v; want dropped_deadline at 12, never started", o.Status, o.Start, o.End)
		}
	}
}

// checkInvariants asserts SPEC §9's replay invariants on one run.
func checkInvariants(t *testing.T, label string, cfg Config, res *Result, queueSize int) {
	t.Helper()
	if len(res.Outcomes) != len(cfg.Tasks) {
		t.Fatalf("%s: %d outcomes for %d tasks", label, len(res.Outcomes), len(cfg.Tasks))
	}
	seen := map[int64]bool{}
	perMachine := map[int][]Outcome{}
	var counts [numStatus]int
	for _, o := range res.Outcomes {
		if seen[o.Task.ID] {
			t.Fatalf("%s: task %d has two outcomes", label, o.Task.ID)
		}
		seen[o.Task.ID] = true
		if o.Scored {
			counts[o.Status]++
		}
		started := !math.IsNaN(o.Start)
		mapped := o.Machine >= 0
		switch {
		case started && !mapped:
			t.Fatalf("%s: task %d started without a machine", label, o.Task.ID)
		case started && (o.Start < o.Task.Arrival || o.Start < o.MapTime || o.End < o.Start):
			t.Fatalf("%s: task %d arrival %v mapped %v start %v end %v", label, o.Task.ID, o.Task.Arrival, o.MapTime, o.Start, o.End)
		case o.Status == OnTime && (!started || o.End > o.Task.Deadline):
			t.Fatalf("%s: task %d on time but start %v end %v deadline %v", label, o.Task.ID, o.Start, o.End, o.Task.Deadline)
		case (o.Status == Late) && (o.End <= o.Task.Deadline || cfg.Options.DropModel == pmf.Evict):
			t.Fatalf("%s: task %d late under %v, end %v deadline %v", label, o.Task.ID, cfg.Options.DropModel, o.End, o.Task.Deadline)
		case o.Status == ExpiredUnmapped && (mapped || o.End < o.Task.Deadline):
			t.Fatalf("%s: task %d expired unmapped but machine %d, end %v < deadline %v", label, o.Task.ID, o.Machine, o.End, o.Task.Deadline)
		case o.Status == DroppedDeadline && (o.End < o.Task.Deadline || cfg.Options.DropModel == pmf.None):
			t.Fatalf("%s: task %d dropped at %v before its deadline %v", label, o.Task.ID, o.End, o.Task.Deadline)
		case o.Status == Unfinished:
			t.Fatalf("%s: task %d unfinished", label, o.Task.ID)
		}
		if mapped {
			perMachine[o.Machine] = append(perMachine[o.Machine], o)
		}
	}
	s := res.Summary
	if got := [...]int{s.OnTime, s.Late, s.DroppedDeadline, s.DroppedPruned, s.ExpiredUnmapped, s.Unfinished}; got != counts {
		t.Fatalf("%s: summary counts %v, outcomes say %v", label, got, counts)
	}
	if sum := s.OnTime + s.Late + s.DroppedDeadline + s.DroppedPruned + s.ExpiredUnmapped + s.Unfinished; sum != s.Scored || s.Scored != max(0, len(cfg.Tasks)-2*cfg.Options.Trim) {
		t.Fatalf("%s: counts add to %d, scored %d, tasks %d", label, sum, s.Scored, len(cfg.Tasks))
	}
	busy, cost := 0.0, 0.0
	for m, os := range perMachine {
		// A machine never runs two tasks at once.
		var runs []Outcome
		for _, o := range os {
			if !math.IsNaN(o.Start) {
				runs = append(runs, o)
				busy += o.End - o.Start
				cost += cfg.Machines[m].PricePerHour * (o.End - o.Start) * cfg.Options.TimeUnitSeconds / 3600
			}
		}
		slices.SortFunc(runs, func(a, b Outcome) int { return cmpFloat(a.Start, b.Start) })
		for i := 1; i < len(runs); i++ {
			if runs[i].Start < runs[i-1].End {
				t.Fatalf("%s: machine %d runs task %d (%v–%v) and task %d (%v–%v) at once", label, m,
					runs[i-1].Task.ID, runs[i-1].Start, runs[i-1].End, runs[i].Task.ID, runs[i].Start, runs[i].End)
			}
		}
		// Queue bound: when a task is mapped, at most queueSize tasks are on the machine.
		for _, o := range os {
			n := 0
			for _, p := range os {
				if p.MapTime <= o.MapTime && p.End > o.MapTime {
					n++
				}
			}
			if n > queueSize {
				t.Fatalf("%s: machine %d holds %d tasks at %v, queue size %d", label, m, n, o.MapTime, queueSize)
			}
		}
	}
	if math.Abs(busy-float64(s.BusyTime)) > 1e-6*math.Max(1, busy) {
		t.Fatalf("%s: busy time %v, outcomes say %v", label, s.BusyTime, busy)
	}
	// Cost is of the whole run, and per on-time task it divides by every on-time task of the
	// run, trimmed ones included (Summary.CostPerOnTime); energy per on-time task likewise.
	allOnTime := 0
	for _, o := range res.Outcomes {
		if o.Status == OnTime {
			allOnTime++
		}
	}
	if math.Abs(cost-float64(s.Cost)) > 1e-9*math.Max(1, cost) {
		t.Fatalf("%s: cost %v, outcomes say %v", label, s.Cost, cost)
	}
	if allOnTime > 0 {
		for _, r := range []struct {
			name       string
			got, total Num
		}{{"cost", s.CostPerOnTime, s.Cost}, {"energy", s.EnergyPerOnTime, s.Energy}} {
			if want := float64(r.total) / float64(allOnTime); math.Abs(float64(r.got)-want) > 1e-9*math.Max(1, want) {
				t.Fatalf("%s: %s per on-time task %v, want %v over %d on-time tasks", label, r.name, r.got, want, allOnTime)
			}
		}
	} else if !math.IsNaN(float64(s.CostPerOnTime)) || !math.IsNaN(float64(s.EnergyPerOnTime)) {
		t.Fatalf("%s: no task on time, but cost and energy per on-time task %v, %v", label, s.CostPerOnTime, s.EnergyPerOnTime)
	}
	if float64(s.BusyTime) > float64(s.Span)*float64(len(cfg.Machines))+1e-9 {
		t.Fatalf("%s: busy %v > span %v × %d machines", label, s.BusyTime, s.Span, len(cfg.Machines))
	}
	checkFairness(t, label, cfg, res)
}

// checkFairness recomputes the per-type on-time percentages and Jain's index from the scored
// outcomes: a type with no scored task (none arrived, or all were trimmed) has no percentage.
func checkFairness(t *testing.T, label string, cfg Config, res *Result) {
	t.Helper()
	types := 0
	for _, task := range cfg.Tasks {
		types = max(types, task.Type+1)
	}
	onTime, scored := make([]float64, types), make([]float64, types)
	for _, o := range res.Outcomes {
		if o.Scored {
			scored[o.Task.Type]++
			if o.Status == OnTime {
				onTime[o.Task.Type]++
			}
		}
	}
	s := res.Summary
	if len(s.OnTimeByType) != types {
		t.Fatalf("%s: %d per-type percentages for %d types", label, len(s.OnTimeByType), types)
	}
	sum, sq, n := 0.0, 0.0, 0.0
	for ty, got := range s.OnTimeByType {
		if scored[ty] == 0 {
			if !math.IsNaN(float64(got)) {
				t.Fatalf("%s: type %d has no scored task but %v%% on time", label, ty, got)
			}
			continue
		}
		want := 100 * onTime[ty] / scored[ty]
		if math.Abs(float64(got)-want) > 1e-9 {
			t.Fatalf("%s: type %d %v%% on time, outcomes say %v%%", label, ty, got, want)
		}
		sum, sq, n = sum+want, sq+want*want, n+1
	}
	if sq > 0 && math.Abs(float64(s.JainIndex)-sum*sum/(n*sq)) > 1e-9 {
		t.Fatalf("%s: Jain's index %v, outcomes say %v", label, s.JainIndex, sum*sum/(n*sq))
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// expiredSpy checks, before its mapper runs, that the mapping event shows no task whose
// deadline has passed: not in the batch, and (except under none) not waiting in a queue; and
// that TypeAndDeadline agrees with Task for every batch task, handles reused or not.
type expiredSpy struct {
	t *testing.T
	mapperFunc
}

func (s expiredSpy) Map(ev Event) {
	for _, h := range ev.Batch() {
		if d := ev.Task(h).Deadline; d <= ev.Now() {
			s.t.Fatalf("at %g: task %d in the batch, deadline %g", ev.Now(), ev.Task(h).ID, d)
		}
		if typ, d := ev.TypeAndDeadline(h); typ != ev.Task(h).Type || d != ev.Task(h).Deadline {
			s.t.Fatalf("at %g: task %d of type %d, deadline %g: TypeAndDeadline says %d, %g", ev.Now(), ev.Task(h).ID, ev.Task(h).Type, ev.Task(h).Deadline, typ, d)
		}
	}
	for m := range ev.NumMachines() {
		q := ev.Queue(m)
		if ev.Running(m) {
			q = q[1:]
		}
		for _, h := range q {
			if d := ev.Task(h).Deadline; d <= ev.Now() && ev.DropModel() != pmf.None {
				s.t.Fatalf("at %g: task %d waits on machine %d, deadline %g", ev.Now(), ev.Task(h).ID, m, d)
			}
		}
	}
	s.mapperFunc.Map(ev)
}

func TestInvariantsRandomWorkloads(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	for trial := range 60 {
		pet := randomPET(r, 4, 3, 5, 20, 1)
		cfg := Config{PET: pet, Machines: machinesOf(0, 1, 2, 2), Tasks: randomTasks(r, 150, 4, 0.6, 5, 40), Options: DefaultOptions()}
		for i := range cfg.Tasks {
			switch {
			case trial%5 == 0 && cfg.Tasks[i].Type == 1: // no task of type 1: its percentage is undefined, not 0
				cfg.Tasks[i].Type = 0
			case trial%5 == 1 && i > 0 && cfg.Tasks[i].Type == 3: // type 3's one task is trimmed
				cfg.Tasks[i].Type = 2
			case trial%5 == 1 && i == 0:
				cfg.Tasks[i].Type = 3
			}
		}
		cfg.Options.DropModel = []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}[trial%3]
		cfg.Options.Strict = trial%2 == 1
		cfg.Options.QueueSize = 1 + trial%4
		cfg.Options.Trim = 10
		cfg.Options.Seed = uint64(trial)
		for _, m := range []Mapper{expiredSpy{t, greedyBest}, expiredSpy{t, toMachine0}} {
			res := run(t, cfg, m)
			size := cfg.Options.QueueSize
			if m.Mode() == Immediate {
				size = math.MaxInt
			}
			checkInvariants(t, fmt.Sprintf("trial %d %s %v strict=%v q=%d", trial, m.Name(), cfg.Options.DropModel, cfg.Options.Strict, size), cfg, res, size)
		}
	}
}

// TestCommonRandomNumbers: a task's duration on a machine type does not depend on the mapper,
// and the same configuration gives a byte-identical summary.
func TestCommonRandomNumbers(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	pet := randomPET(r, 3, 2, 8, 30, 1)
	cfg := Config{PET: pet, Machines: machinesOf(0, 1, 0, 1), Tasks: randomTasks(r, 400, 3, 0.3, 10, 80), Options: DefaultOptions()}
	cfg.Options.DropModel, cfg.Options.Trim, cfg.Options.Seed = pmf.None, 0, 11
	durations := map[[2]int64]float64{} // (task, machine type) -> duration
	for _, m := range []Mapper{greedyBest, toMachine0} {
		res := run(t, cfg, m)
		for _, o := range res.Outcomes {
			if math.IsNaN(o.Start) {
				continue
			}
			key := [2]int64{o.Task.ID, int64(cfg.Machines[o.Machine].Type)}
			d := o.End - o.Start
			if prev, ok := durations[key]; ok && math.Abs(prev-d) > 1e-9*d {
				t.Fatalf("task %d on machine type %d took %v under one mapper and %v under another", key[0], key[1], prev, d)
			}
			durations[key] = d
		}
	}
	a, _ := json.Marshal(run(t, cfg, greedyBest).Summary)
	b, _ := json.Marshal(run(t, cfg, greedyBest).Summary)
	if string(a) != string(b) {
		t.Fatalf("same seed, different summaries:\n%s\n%s", a, b)
	}
	cfg.Options.Seed = 12
	c, _ := json.Marshal(run(t, cfg, greedyBest).Summary)
	if string(a) == string(c) {
		t.Fatal("a different seed gave the same summary: durations do not depend on the seed")
	}
}

// TestCalibration: over many tasks, those predicted at mapping to succeed with chance near p
// succeed at rate p. The prediction is exact for pending and none (the chain matches the world);
// under evict the chain frees the machine at the first grid point after a kill, a fraction of a
// step late, so predictions there may be slightly pessimistic: allow one more percentage point.
func TestCalibration(t *testing.T) {
	for _, model := range []pmf.Model{pmf.Pending, pmf.Evict, pmf.None} {
		r := rand.New(rand.NewPCG(5, uint64(model)))
		pet := randomPET(r, 4, 3, 12, 24, 1)
		cfg := Config{PET: pet, Machines: machinesOf(0, 1, 2), Options: DefaultOptions()}
		cfg.Options.DropModel, cfg.Options.Trim, cfg.Options.QueueSize = model, 0, 3
		var preds, hits [10]float64
		var ns [10]int
		for trial := range 10 {
			cfg.Tasks = randomTasks(r, 1500, 4, 0.35, 5, 60)
			cfg.Options.Seed = uint64(trial)
			for _, o := range run(t, cfg, greedyBest).Outcomes {
				if math.IsNaN(o.Predicted) {
					continue
				}
				b := min(9, int(o.Predicted*10))
				preds[b] += o.Predicted
				ns[b]++
				if o.Status == OnTime {
					hits[b]++
				}
			}
		}
		slack := 0.0
		if model == pmf.Evict {
			slack = 0.01
		}
		for b := range ns {
			if ns[b] < 300 {
				continue
			}
			p, rate := preds[b]/float64(ns[b]), hits[b]/float64(ns[b])
			se := math.Sqrt(p * (1 - p) / float64(ns[b]))
			if math.Abs(rate-p) > 4*se+slack+1e-9 {
				t.Errorf("%v: bin %d: %d tasks predicted %.3f on average, %.3f succeeded (4σ = %.3f)", model, b, ns[b], p, rate, 4*se)
			}
		}
	}
}

// TestTimingAddsUp: a run's total wall time covers the time spent in the mapper, and its rate
// is the trace's tasks over that total (both were once left at zero).
func TestTimingAddsUp(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	cfg := Config{PET: randomPET(r, 4, 3, 5, 20, 1), Machines: machinesOf(0, 1, 2, 2), Tasks: randomTasks(r, 400, 4, 0.6, 5, 40), Options: DefaultOptions()}
	res := run(t, cfg, greedyBest)
	tm := res.Timing
	if tm.TotalSeconds <= 0 || tm.TotalSeconds < tm.MapperSeconds+tm.PrunerSeconds {
		t.Fatalf("total %v s, mapper %v s, pruner %v s: the total must be positive and cover both", tm.TotalSeconds, tm.MapperSeconds, tm.PrunerSeconds)
	}
	if want := float64(len(cfg.Tasks)) / tm.TotalSeconds; math.Abs(tm.TasksPerSecond-want) > 1e-9*want {
		t.Fatalf("%v tasks/s, want %d tasks over %v s = %v", tm.TasksPerSecond, len(cfg.Tasks), tm.TotalSeconds, want)
	}
}

// TestBatchFollowsMarks: at every mapping event the batch holds exactly the tasks that have
// arrived, are not yet assigned and whose deadline is still ahead, in arrival order (ties by
// ID), worked out here from the trace and the assignments made; and before and after each Defer
// and Assign of the event, Batch is the event's first Batch without the tasks marked so far,
// BatchKeys gives each listed task's type and deadline as Task has them, and FreeMachines lists
// the machines Free gives a slot. On random workloads with short deadlines (the batch loses
// tasks at their deadlines), simultaneous arrivals, every drop model, and bounded and unbounded
// queues; the mapper defers every task until the batch holds eight, so that some events assign
// one or two tasks and others many (engine.leaveBatch's two ways).
func TestBatchFollowsMarks(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 7))
	for trial := range 24 {
		pet := randomPET(r, 4, 3, 5, 20, 1)
		tasks := randomTasks(r, 200, 4, 2, 2, 30)
		cfg := Config{PET: pet, Machines: machinesOf(0, 1, 2), Tasks: tasks, Options: DefaultOptions()}
		cfg.Options.DropModel = []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}[trial%3]
		cfg.Options.QueueSize = []int{1, 2, 3, math.MaxInt}[trial%4]
		cfg.Options.Trim = 0
		cfg.Options.Seed = uint64(trial)
		assigned := map[int64]bool{}
		m := mapperFunc{"marker", Batch, func(ev Event) {
			var want []int64
			for _, task := range tasks {
				if task.Arrival <= ev.Now() && ev.Now() < task.Deadline && !assigned[task.ID] {
					want = append(want, task.ID)
				}
			}
			first := slices.Clone(ev.Batch())
			var got []int64
			for _, h := range first {
				got = append(got, ev.Task(h).ID)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("trial %d at %g: batch %v, want %v", trial, ev.Now(), got, want)
			}
			marked := map[int]bool{}
			check := func(when string) {
				var want []int
				for _, h := range first {
					if !marked[h] {
						want = append(want, h)
					}
				}
				got, keys := ev.Batch(), ev.BatchKeys()
				if !slices.Equal(got, want) || len(keys) != len(got) {
					t.Fatalf("trial %d at %g %s: Batch %v with %d keys, want %v", trial, ev.Now(), when, got, len(keys), want)
				}
				for i, h := range got {
					if task := ev.Task(h); keys[i] != (BatchKey{task.Type, task.Deadline}) {
						t.Fatalf("trial %d at %g %s: task %d of type %d, deadline %g: BatchKeys says %+v", trial, ev.Now(), when, task.ID, task.Type, task.Deadline, keys[i])
					}
				}
				var free []int
				for m := range ev.NumMachines() {
					if ev.Free(m) > 0 {
						free = append(free, m)
					}
				}
				if got := ev.FreeMachines([]int{7}); !slices.Equal(got, free) {
					t.Fatalf("trial %d at %g %s: FreeMachines %v, want %v", trial, ev.Now(), when, got, free)
				}
			}
			check("at the start")
			for i, h := range first {
				if i%3 == 1 || len(first) < 8 { // a batch of 8 or more has several tasks assigned at once
					ev.Defer(h)
					marked[h] = true
					check("after a defer")
					continue
				}
				for m := range ev.NumMachines() {
					if ev.Free(m) > 0 {
						ev.Assign(h, m)
						marked[h], assigned[ev.Task(h).ID] = true, true
						check("after an assign")
						break
					}
				}
			}
		}}
		res := run(t, cfg, m)
		if res.Summary.ExpiredUnmapped == 0 || len(assigned) == 0 {
			t.Fatalf("trial %d: %d tasks expired in the batch and %d were assigned: the workload tests nothing", trial, res.Summary.ExpiredUnmapped, len(assigned))
		}
	}
}

// TestDropRunningCountsBusyTime: a running task the pruner stops counts as busy from its start
// to the stop. Worked by hand: R starts at 1 on the only machine (it would run 10) and is
// dropped at 3, when T arrives; T is never mapped. Busy time 3 − 1 = 2; cost 2 × 1/hour (the
// machine's price), a time unit being a second here: 2/3600.
func TestDropRunningCountsBusyTime(t *testing.T) {
	cfg := Config{PET: gridPET{{impulse(1)}}, Machines: machinesOf(0), Options: DefaultOptions(),
		Tasks: []Task{{ID: 0, Arrival: 1, Deadline: 100, Observed: []float64{10}}, {ID: 1, Arrival: 3, Deadline: 4}}}
	cfg.Options.TimeUnitSeconds = 1
	dropped := false
	res := run(t, cfg, mapperFunc{"drop at 3", Batch, func(ev Event) {
		switch ev.Now() {
		case 1:
			ev.Assign(ev.Batch()[0], 0)
		case 3:
			ev.Drop(ev.Queue(0)[0])
			dropped = true
		}
	}})
	if !dropped {
		t.Fatal("R never dropped")
	}
	if s := res.Summary; s.BusyTime != 2 || math.Abs(float64(s.Cost)-2.0/3600) > 1e-15 {
		t.Errorf("busy time %v, cost %v; want 2 and %v", s.BusyTime, s.Cost, 2.0/3600)
	}
}

// TestOptionsValidateEdges: Validate takes each option at the edge of its range and refuses the
// value just past it, naming it. Worked by hand from the ranges: approximation bucket ≥ 0 (0: one
// step), trim ≥ 0, time unit > 0 s, power fractions in [0, 1].
func TestOptionsValidateEdges(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(*Options)
		want string // "" for valid
	}{
		{"bucket 0", func(o *Options) { o.ApproxBucket = 0 }, ""},
		{"bucket -1", func(o *Options) { o.ApproxBucket = -1 }, "replay options: approximation bucket -1 < 0"},
		{"trim 0", func(o *Options) { o.Trim = 0 }, ""},
		{"trim -1", func(o *Options) { o.Trim = -1 }, "replay options: trim -1 < 0"},
		{"time unit 0", func(o *Options) { o.TimeUnitSeconds = 0 }, "replay options: time unit 0 s"},
		{"time unit 1e-300", func(o *Options) { o.TimeUnitSeconds = 1e-300 }, ""},
		{"power fractions 0 and 1", func(o *Options) { o.IdlePowerFraction, o.ActivePowerFraction = 0, 1 }, ""},
		{"power fractions 1 and 0", func(o *Options) { o.IdlePowerFraction, o.ActivePowerFraction = 1, 0 }, ""},
		{"power fraction -0.5", func(o *Options) { o.IdlePowerFraction = -0.5 }, "replay options: power fraction -0.5 outside [0, 1]"},
		{"power fraction 1.5", func(o *Options) { o.ActivePowerFraction = 1.5 }, "replay options: power fraction 1.5 outside [0, 1]"},
	} {
		o := DefaultOptions()
		c.set(&o)
		err := o.Validate()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want valid", c.name, err)
		case c.want != "" && (err == nil || err.Error() != c.want):
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}
