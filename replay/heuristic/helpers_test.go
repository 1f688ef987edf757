package heuristic

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
)

// at is a PMF on the unit grid with the given mass at each time: at(2, 0.25, 10, 0.75).
func at(timeProb ...float64) pmf.PMF {
	lo := timeProb[0]
	w := make([]float64, int(timeProb[len(timeProb)-2]-lo)+1)
	for i := 0; i < len(timeProb); i += 2 {
		w[int(timeProb[i]-lo)] = timeProb[i+1]
	}
	d, _, err := pmf.FromWeights(lo, 1, w)
	if err != nil {
		panic(err)
	}
	return d
}

// one is a single impulse: a task that always takes exactly t.
func one(t float64) pmf.PMF { return pmf.Impulse(t, 1) }

// scenario is a hand-worked replay: task i has type i, so pet[i] is task i's row, and machine j
// has type j.
type scenario struct {
	pet   replaytest.Grid
	tasks []replay.Task
	model pmf.Model
	queue int // batch mode queue size, the running task included (0: the default)
}

// want is the outcome a test expects for one task; machine -1 and a NaN start for a task that
// was never mapped.
type want struct {
	machine    int
	start, end float64
	status     replay.Status
}

// unmapped is the outcome of a task that never reached a machine and left at end.
func unmapped(end float64, status replay.Status) want { return want{-1, math.NaN(), end, status} }

// run replays the scenario through m and returns the outcomes in task order.
func (s scenario) run(t *testing.T, m replay.Mapper) []replay.Outcome {
	t.Helper()
	opt := replay.DefaultOptions()
	opt.Trim, opt.DropModel = 0, s.model
	if s.queue > 0 {
		opt.QueueSize = s.queue
	}
	res, err := replay.Run(t.Context(), replay.Config{PET: s.pet, Machines: machines(len(s.pet[0])), Tasks: s.tasks, Options: opt}, m)
	if err != nil {
		t.Fatal(err)
	}
	out := slices.Clone(res.Outcomes)
	slices.SortFunc(out, func(a, b replay.Outcome) int { return int(a.Task.ID - b.Task.ID) })
	return out
}

// expect replays the scenario through m and compares every task's outcome with wants.
func (s scenario) expect(t *testing.T, label string, m replay.Mapper, wants []want) {
	t.Helper()
	got := s.run(t, m)
	if len(got) != len(wants) {
		t.Fatalf("%s: %d outcomes, want %d", label, len(got), len(wants))
	}
	for i, o := range got {
		w := wants[i]
		if o.Machine != w.machine || !same(o.Start, w.start) || o.End != w.end || o.Status != w.status {
			t.Errorf("%s: task %d on machine %d %v–%v %v; want machine %d %v–%v %v",
				label, o.Task.ID, o.Machine, o.Start, o.End, o.Status, w.machine, w.start, w.end, w.status)
		}
	}
}

func same(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }

// sameDecisions replays cfg through oracle and through m, and fails the test, naming the run by
// label, unless both give the same exits in the same order: task, status, machine, mapping time
// and end. It returns both results.
func sameDecisions(t *testing.T, label string, cfg replay.Config, oracle, m replay.Mapper) (want, got *replay.Result) {
	t.Helper()
	var res [2]*replay.Result
	for i, mapper := range []replay.Mapper{oracle, m} {
		r, err := replay.Run(t.Context(), cfg, mapper)
		if err != nil {
			t.Fatal(err)
		}
		res[i] = r
	}
	want, got = res[0], res[1]
	if len(want.Outcomes) != len(got.Outcomes) {
		t.Fatalf("%s: %d exits, oracle %d", label, len(got.Outcomes), len(want.Outcomes))
	}
	for k, a := range want.Outcomes {
		b := got.Outcomes[k]
		if a.Task.ID != b.Task.ID || a.Status != b.Status || a.Machine != b.Machine || !same(a.MapTime, b.MapTime) || a.End != b.End {
			t.Fatalf("%s: exit %d differs:\noracle %+v\ngot    %+v", label, k, a, b)
		}
	}
	return want, got
}

// machines makes n machines, machine j of type j.
func machines(n int) []replay.Machine {
	ms := make([]replay.Machine, n)
	for j := range ms {
		ms[j] = replay.Machine{Name: string(rune('a' + j)), Type: j, PricePerHour: 1, PowerWatts: 100}
	}
	return ms
}

// task is task id of type id arriving at arrival with the given deadline.
func task(id int, arrival, deadline float64) replay.Task {
	return replay.Task{ID: int64(id), Type: id, Arrival: arrival, Deadline: deadline}
}

// lookup makes the named heuristic with p, failing the test if the name is unknown.
func lookup(t testing.TB, name string, p Params) replay.Mapper {
	t.Helper()
	h, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return h.New(p)
}

// crowdedTrial is trial number trial of a random crowded workload (four machines of three types,
// 150 tasks, queues of 1 to 4), with the drop models in turn and random template readings.
func crowdedTrial(r *rand.Rand, trial int) (replay.Config, Params) {
	models := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}
	cfg := replay.Config{
		PET:      replaytest.RandomPET(r, 4, 3, 6, 16),
		Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}, {Type: 2}},
		Tasks:    replaytest.RandomTasks(r, 150, 4, 1+r.Float64(), 4, 30),
		Options:  replay.DefaultOptions(),
	}
	cfg.Options.DropModel = models[trial%len(models)]
	cfg.Options.QueueSize = 1 + r.IntN(4)
	p := DefaultParams()
	p.Phase1All, p.GlobalPhase2, p.ETC = trial%3 == 1, r.IntN(3) == 0, r.IntN(4) == 0
	return cfg, p
}
