package replay

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// funcSource is a TaskSource over a function, for tests.
type funcSource func() (Task, bool, error)

func (f funcSource) Next() (Task, bool, error) { return f() }

func sourceOf(tasks []Task) TaskSource {
	i := 0
	return funcSource(func() (Task, bool, error) {
		if i == len(tasks) {
			return Task{}, false, nil
		}
		i++
		return tasks[i-1], true, nil
	})
}

// TestSourceMatchesTasks: streaming a trace gives the outcomes and summary of the slice, and the
// engine keeps no more task records than tasks were in the system at once, counted from the
// outcomes (a task holds its record from its arrival to the end of the event it left in).
func TestSourceMatchesTasks(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	pet := randomPET(r, 4, 3, 5, 20, 1)
	cfg := Config{PET: pet, Machines: machinesOf(0, 1, 2), Tasks: randomTasks(r, 3000, 4, 0.5, 5, 40), Options: DefaultOptions()}
	cfg.Options.Trim = 20
	want := run(t, cfg, greedyBest)

	s := cfg
	s.Tasks, s.Source = nil, sourceOf(cfg.Tasks)
	e, err := newEngine(s, greedyBest, newFast)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := e.result()
	a, _ := json.Marshal(want.Summary)
	b, _ := json.Marshal(got.Summary)
	if string(a) != string(b) {
		t.Fatalf("summaries differ:\nslice  %s\nsource %s", a, b)
	}
	if len(got.Outcomes) != len(want.Outcomes) {
		t.Fatalf("%d outcomes from the source, %d from the slice", len(got.Outcomes), len(want.Outcomes))
	}
	for i := range want.Outcomes {
		x, y := want.Outcomes[i], got.Outcomes[i]
		if x.Task.ID != y.Task.ID || x.Status != y.Status || x.Machine != y.Machine || x.End != y.End || x.Scored != y.Scored {
			t.Fatalf("outcome %d: slice %+v, source %+v", i, x, y)
		}
	}

	// The most tasks in the system at once: +1 at each arrival, −1 just after each exit.
	type step struct {
		at    float64
		delta int
	}
	var steps []step
	for _, o := range want.Outcomes {
		steps = append(steps, step{o.Task.Arrival, 1}, step{o.End, -1})
	}
	sort.Slice(steps, func(i, j int) bool {
		if steps[i].at != steps[j].at {
			return steps[i].at < steps[j].at
		}
		return steps[i].delta > steps[j].delta // arrivals first: an exit frees its record after the event
	})
	in, most := 0, 0
	for _, s := range steps {
		in += s.delta
		most = max(most, in)
	}
	if len(e.tasks) > most || len(e.tasks) >= len(cfg.Tasks)/4 {
		t.Errorf("engine kept %d task records for %d tasks; at most %d were in the system at once", len(e.tasks), len(cfg.Tasks), most)
	}
}

// TestSourceErrors: an unsorted stream, times a replay cannot lay on its grid and a failing source
// stop the replay with an error.
func TestSourceErrors(t *testing.T) {
	pet := gridPET{{impulse(2)}}
	cfg := Config{PET: pet, Machines: machinesOf(0), Options: DefaultOptions()}
	cfg.Source = sourceOf([]Task{{ID: 0, Arrival: 5, Deadline: 50}, {ID: 1, Arrival: 3, Deadline: 50}})
	if _, err := Run(t.Context(), cfg, greedyBest); err == nil || !strings.Contains(err.Error(), "sort the trace") {
		t.Errorf("unsorted source: %v", err)
	}
	// Trace order is by arrival, then by ID: at one arrival a smaller ID after a larger one is
	// out of order; the same ID twice is not (duplicate IDs are trace's reader's to refuse).
	cfg.Source = sourceOf([]Task{{ID: 5, Arrival: 3, Deadline: 50}, {ID: 4, Arrival: 3, Deadline: 50}})
	if _, err := Run(t.Context(), cfg, greedyBest); err == nil || !strings.Contains(err.Error(), "task 4: arrives at 3, before task 5") {
		t.Errorf("one arrival, IDs 5 then 4: %v", err)
	}
	for _, ids := range [][2]int64{{4, 5}, {4, 4}} {
		cfg.Source = sourceOf([]Task{{ID: ids[0], Arrival: 3, Deadline: 50}, {ID: ids[1], Arrival: 3, Deadline: 50}})
		if _, err := Run(t.Context(), cfg, greedyBest); err != nil {
			t.Errorf("one arrival, IDs %d then %d: %v", ids[0], ids[1], err)
		}
	}
	cfg.Source = sourceOf([]Task{{ID: 0, Arrival: 5, Deadline: 50}, {ID: 1, Arrival: 6, Deadline: math.NaN()}})
	if _, err := Run(t.Context(), cfg, greedyBest); err == nil || !strings.Contains(err.Error(), "must be numbers") {
		t.Errorf("a NaN deadline: %v", err)
	}
	// Times the grid (step 1 here) cannot hold: 2^50 steps from 0 is the most a clock time may
	// be, so that adjacent float64 values stay within a quarter of a step.
	limit := math.Ldexp(1, 50)
	for _, c := range []struct {
		name  string
		tasks []Task
		ok    bool
	}{
		{"arrival at the limit", []Task{{ID: 0, Arrival: -limit, Deadline: 50}}, true},
		{"deadline at the limit", []Task{{ID: 0, Arrival: 5, Deadline: limit}}, true},
		{"no deadline", []Task{{ID: 0, Arrival: 5, Deadline: inf}}, true},
		{"arrival past the limit", []Task{{ID: 0, Arrival: 5, Deadline: 50}, {ID: 1, Arrival: 2 * limit, Deadline: 3 * limit}}, false},
		{"deadline past the limit", []Task{{ID: 0, Arrival: 5, Deadline: 1e300}}, false},
		{"infinite arrival", []Task{{ID: 0, Arrival: inf, Deadline: inf}}, false},
	} {
		cfg.Source = sourceOf(c.tasks)
		res, err := Run(t.Context(), cfg, greedyBest)
		var te *TaskError
		switch {
		case c.ok && (err != nil || res.Summary.Tasks != len(c.tasks)):
			t.Errorf("%s: %v", c.name, err)
		case !c.ok && !errors.As(err, &te):
			t.Errorf("%s: %v, want a *TaskError", c.name, err)
		case !c.ok && te.ID != c.tasks[len(c.tasks)-1].ID:
			t.Errorf("%s: the error names task %d", c.name, te.ID)
		}
	}
	// The limit is in steps, not time units: on a grid of step 4 it is 2^50 · 4 = 2^52, so an
	// arrival at −2^51 lies within it (it would not on a grid of step 1, nor under a limit of
	// 2^50 / 4 = 2^48), and one at 2^53 past it.
	coarse := cfg
	coarse.PET = gridPET{{pmf.Impulse(4, 4)}}
	for _, c := range []struct {
		arrival float64
		ok      bool
	}{{-math.Ldexp(1, 51), true}, {-math.Ldexp(1, 52), true}, {math.Ldexp(1, 53), false}} {
		coarse.Source = sourceOf([]Task{{ID: 0, Arrival: c.arrival, Deadline: 50}})
		_, err := Run(t.Context(), coarse, greedyBest)
		var te *TaskError
		if c.ok != (err == nil) || !c.ok && !errors.As(err, &te) {
			t.Errorf("step 4, arrival %g: %v, want ok %v (else a *TaskError)", c.arrival, err, c.ok)
		}
	}
	boom := errors.New("disk on fire")
	n := 0
	cfg.Source = funcSource(func() (Task, bool, error) {
		n++
		if n > 3 {
			return Task{}, false, boom
		}
		return Task{ID: int64(n), Arrival: float64(n), Deadline: 50}, true, nil
	})
	// Three tasks read, the fourth read fails: the error names it, the fourth.
	if _, err := Run(t.Context(), cfg, greedyBest); !errors.Is(err, boom) || !strings.Contains(err.Error(), "read task 4:") {
		t.Errorf("failing source: %v, want %v reading task 4", err, boom)
	}
}

// TestRunCancelled: a replay checks its context before its first mapping event and every 1,024
// events after, and stops with the context's error. A mapper that maps nothing, so that each
// arrival is one event and nothing else is.
//
// Cancelled before Run, one task: the check before event 0 stops it, Map never called.
// 2,000 tasks arriving at 0, 1, …, 1999, cancelled during the tenth Map call (event 9): events
// 10 to 1,023 pass no check and run; the check before event 1,024 stops the replay after 1,024
// calls of Map.
func TestRunCancelled(t *testing.T) {
	calls := 0
	var cancel context.CancelFunc
	idle := mapperFunc{"idle", Batch, func(Event) {
		if calls++; calls == 10 && cancel != nil {
			cancel()
		}
	}}
	pet := gridPET{{impulse(2)}}
	cfg := Config{PET: pet, Machines: machinesOf(0), Options: DefaultOptions()}
	cfg.Tasks = []Task{{ID: 0, Arrival: 0, Deadline: 1}}
	ctx, stop := context.WithCancel(t.Context())
	stop()
	if _, err := Run(ctx, cfg, idle); !errors.Is(err, context.Canceled) || calls != 0 {
		t.Errorf("cancelled before: %v after %d calls of Map, want %v after none", err, calls, context.Canceled)
	}
	cfg.Tasks = nil
	for i := range 2000 {
		cfg.Tasks = append(cfg.Tasks, Task{ID: int64(i), Arrival: float64(i), Deadline: float64(i) + 0.5})
	}
	ctx, cancel = context.WithCancel(t.Context())
	defer cancel()
	if _, err := Run(ctx, cfg, idle); !errors.Is(err, context.Canceled) || calls != 1024 {
		t.Errorf("cancelled during event 9: %v after %d calls of Map, want %v after 1024", err, calls, context.Canceled)
	}
}

// TestDeferredCount: Outcome.Deferred counts the mapping events at which a task was deferred.
// One machine, unbounded queue, execution 2; X arrives at 0, Y at 1, Z at 2 (deadlines 100). The
// mapper defers X before time 2 and assigns every other task: X is deferred at 0 and at 1 and
// assigned at 2 (twice deferred); Y and Z, assigned on arrival, never.
func TestDeferredCount(t *testing.T) {
	m := mapperFunc{"late X", Batch, func(ev Event) {
		for _, h := range slices.Clone(ev.Batch()) {
			if ev.Task(h).ID == 0 && ev.Now() < 2 {
				ev.Defer(h)
				continue
			}
			ev.Assign(h, 0)
		}
	}}
	opt := DefaultOptions()
	opt.QueueSize = math.MaxInt
	cfg := Config{PET: gridPET{{impulse(2)}}, Machines: machinesOf(0), Options: opt,
		Tasks: []Task{{ID: 0, Arrival: 0, Deadline: 100}, {ID: 1, Arrival: 1, Deadline: 100}, {ID: 2, Arrival: 2, Deadline: 100}}}
	want := map[int64]int{0: 2, 1: 0, 2: 0}
	res := run(t, cfg, m)
	if len(res.Outcomes) != 3 {
		t.Fatalf("%d outcomes, want 3", len(res.Outcomes))
	}
	for _, o := range res.Outcomes {
		if o.Deferred != want[o.Task.ID] || o.Machine != 0 {
			t.Errorf("task %d deferred %d times, on machine %d; want %d, on machine 0", o.Task.ID, o.Deferred, o.Machine, want[o.Task.ID])
		}
	}
}

// TestDropQueuedLeavesHeadRunning: the pruner's drop of a task waiting behind a running one
// leaves the running one alone. One machine, unbounded queue, execution 2; A and B arrive at 0
// and queue on m0 (A runs 0–2); C's arrival at 1 makes an event, where the mapper drops B. A
// still ends at 2; B leaves at 1, dropped by the pruner; C runs 2–4.
func TestDropQueuedLeavesHeadRunning(t *testing.T) {
	m := mapperFunc{"drop B", Batch, func(ev Event) {
		for _, h := range slices.Clone(ev.Batch()) {
			ev.Assign(h, 0)
		}
		if ev.Now() == 1 {
			ev.Drop(ev.Queue(0)[1])
		}
	}}
	opt := DefaultOptions()
	opt.QueueSize = math.MaxInt
	cfg := Config{PET: gridPET{{impulse(2)}}, Machines: machinesOf(0), Options: opt,
		Tasks: []Task{{ID: 0, Arrival: 0, Deadline: 100}, {ID: 1, Arrival: 0, Deadline: 100}, {ID: 2, Arrival: 1, Deadline: 100}}}
	type end struct {
		status     Status
		start, end float64
	}
	want := map[int64]end{0: {OnTime, 0, 2}, 1: {DroppedPruned, math.NaN(), 1}, 2: {OnTime, 2, 4}}
	res := run(t, cfg, m)
	if len(res.Outcomes) != 3 {
		t.Fatalf("%d outcomes, want 3", len(res.Outcomes))
	}
	for _, o := range res.Outcomes {
		w := want[o.Task.ID]
		if o.Status != w.status || o.End != w.end || (o.Start != w.start && !math.IsNaN(w.start)) {
			t.Errorf("task %d %v %v–%v, want %v %v–%v", o.Task.ID, o.Status, o.Start, o.End, w.status, w.start, w.end)
		}
	}
}

// TestSameTimeFinishesInMachineOrder: runs that end at one time finish in machine order,
// whichever started first (the event heap orders by time, then machine). Two machines, queue
// size 1, both of machine type 0; A arrives at 0 and runs on m1 0–3 (it takes 3 in this world),
// B at 1 and runs on m0 1–3 (it takes 2). At the event at 3 the mapper hears B's exit (m0)
// before A's (m1), though A's run began first.
func TestSameTimeFinishesInMachineOrder(t *testing.T) {
	var heard []int64
	m := mapperFunc{"A to m1", Batch, func(ev Event) {
		for _, x := range ev.Exits() {
			heard = append(heard, ev.Task(x.Task).ID)
		}
		for _, h := range slices.Clone(ev.Batch()) {
			ev.Assign(h, int(1-ev.Task(h).ID)) // A (ID 0) to m1, B (ID 1) to m0
		}
	}}
	opt := DefaultOptions()
	opt.QueueSize = 1
	cfg := Config{PET: gridPET{{impulse(3)}}, Machines: machinesOf(0, 0), Options: opt,
		Tasks: []Task{{ID: 0, Arrival: 0, Deadline: 100, Observed: []float64{3}}, {ID: 1, Arrival: 1, Deadline: 100, Observed: []float64{2}}}}
	run(t, cfg, m)
	if want := []int64{1, 0}; !slices.Equal(heard, want) {
		t.Errorf("exits heard in the order %v, want %v (m0's before m1's)", heard, want)
	}
}
