package replay

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// TestHandWorkedMetrics: every run metric of SPEC §5.4 on a replay small enough to work by
// hand. The derivation below, not a run of the code, is the oracle.
//
// Two machines: m0 (type 0, 1 per hour, 100 W) and m1 (type 1, 2 per hour, 100 W, never used).
// The time unit is an hour (TimeUnitSeconds 3600), so cost is price × busy time and energy is
// watts × fraction × time × 3600. Drop model none; every task goes to m0 (toMachine0) at
// time 0, in this order; trim 1.
//
//	task  type  exec on m0                 deadline  runs     status
//	t0     1    1                             100     0–1      on time (first exit: trimmed)
//	t1     0    X = 1 (p .25) or 3 (p .75)      3     1–3      on time (takes 2 in this world)
//	t2     0    X (takes 2)                     4     3–5      late
//	t3     1    1                             100     5–6      on time
//	t4     2    1                               6     6–7      late
//	t5     2    1                             100     7–8      on time (last exit: trimmed)
//
// Robustness: t1..t4 are scored, 2 on time → 50% (untrimmed it would be 4/6).
// Per type over scored tasks: type 0 1/2 = 50%, type 1 1/1 = 100%, type 2 0/1 = 0%. Mean 50;
// population variance (0² + 50² + 50²)/3 = 5000/3 (with n + 1 in the denominator: 1250; the
// sample variance: 2500); standard deviation √(5000/3) ≈ 40.82; Jain's index
// (Σx)²/(n·Σx²) = 150²/(3·12500) = 0.6.
// Cost: m0 is busy 0–8, 8 hours × 1 = 8; m1 0. Per on-time task of the whole run (t0, t1, t3,
// t5; trimmed tasks included): 8/4 = 2.
// Energy: the span is 0–8. m0 100 W × (0.70 × 8 busy + 0.25 × 0 idle) × 3600 = 2,016,000 J;
// m1 100 × (0.25 × 8 idle) × 3600 = 720,000 J; total 2,736,000 J, 684,000 J per on-time task.
// Wasted busy time: the late t2 (2) and t4 (1) = 3. Utilisation 8 / (8 × 2) = 0.5.
// Brier (predicted success at mapping against the outcome, scored tasks): at mapping, t1
// completes at 1 + X = {2: .25, 4: .75}, P(≤ 3) = .25, on time → (.25 − 1)² = .5625. t2 at
// 1 + X + X = {3: .0625, 5: .375, 7: .5625}, P(≤ 4) = .0625, late → .0625² = .00390625. t3
// is certain (chance 1, on time) → 0. t4 at t2's + 1 + 1 = {5: .0625, 7: .375, 9: .5625},
// P(≤ 6) = .0625, late → .00390625. Mean over 4: .5703125/4 = .142578125.
func TestHandWorkedMetrics(t *testing.T) {
	x := pmf.Impulse(1, 1)
	gamble, _, err := pmf.FromWeights(1, 1, []float64{0.25, 0, 0.75})
	if err != nil {
		t.Fatal(err)
	}
	far := pmf.Impulse(50, 1)
	cfg := Config{
		PET:      gridPET{{gamble, far}, {x, far}, {x, far}},
		Machines: machinesOf(0, 1),
		Tasks: []Task{
			{ID: 0, Type: 1, Deadline: 100},
			{ID: 1, Type: 0, Deadline: 3, Observed: []float64{2, 50}},
			{ID: 2, Type: 0, Deadline: 4, Observed: []float64{2, 50}},
			{ID: 3, Type: 1, Deadline: 100},
			{ID: 4, Type: 2, Deadline: 6},
			{ID: 5, Type: 2, Deadline: 100},
		},
		Options: DefaultOptions(),
	}
	cfg.Options.DropModel, cfg.Options.Trim, cfg.Options.TimeUnitSeconds = pmf.None, 1, 3600
	s := run(t, cfg, toMachine0).Summary
	counts := []struct {
		name      string
		got, want int
	}{{"scored", s.Scored, 4}, {"on time", s.OnTime, 2}, {"late", s.Late, 2}}
	for _, c := range counts {
		if c.got != c.want {
			t.Errorf("%s %d, want %d", c.name, c.got, c.want)
		}
	}
	checks := []struct {
		name      string
		got, want Num
	}{
		{"robustness", s.Robustness, 50},
		{"type 0 on time", s.OnTimeByType[0], 50},
		{"type 1 on time", s.OnTimeByType[1], 100},
		{"type 2 on time", s.OnTimeByType[2], 0},
		{"fairness variance", s.FairnessVariance, 5000.0 / 3},
		{"fairness stddev", s.FairnessStdDev, Num(math.Sqrt(5000.0 / 3))},
		{"Jain's index", s.JainIndex, 0.6},
		{"cost", s.Cost, 8},
		{"cost per on-time task", s.CostPerOnTime, 2},
		{"energy", s.Energy, 2_736_000},
		{"energy per on-time task", s.EnergyPerOnTime, 684_000},
		{"busy time", s.BusyTime, 8},
		{"wasted busy time", s.WastedBusyTime, 3},
		{"utilisation", s.Utilisation, 0.5},
		{"span", s.Span, 8},
		{"Brier score", s.BrierScore, 0.142578125},
	}
	for _, c := range checks {
		if math.Abs(float64(c.got-c.want)) > 1e-9*math.Max(1, math.Abs(float64(c.want))) {
			t.Errorf("%s %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestHandWorkedFairnessSkipsUnscoredTypes: a type none of whose tasks is scored has no
// percentage and takes no part in the variance or Jain's index. One machine, drop model none,
// trim 1; tasks in exit order t0 (type 2, trimmed), t1 (type 0, on time), t2 (type 1, late),
// t3 (type 0, trimmed). Scored: type 0 100%, type 1 0%, type 2 none. Over the two types: mean
// 50, variance (50² + 50²)/2 = 2500 (counting type 2 as 0%: mean 33.3, variance 2222.2),
// standard deviation 50, Jain's index 100²/(2·100²) = 0.5.
func TestHandWorkedFairnessSkipsUnscoredTypes(t *testing.T) {
	x := pmf.Impulse(1, 1)
	cfg := Config{
		PET:      gridPET{{x}, {x}, {x}},
		Machines: machinesOf(0),
		Tasks: []Task{
			{ID: 0, Type: 2, Deadline: 100},
			{ID: 1, Type: 0, Deadline: 100},
			{ID: 2, Type: 1, Deadline: 2.5},
			{ID: 3, Type: 0, Deadline: 100},
		},
		Options: DefaultOptions(),
	}
	cfg.Options.DropModel, cfg.Options.Trim = pmf.None, 1
	s := run(t, cfg, toMachine0).Summary
	if len(s.OnTimeByType) != 3 || !math.IsNaN(float64(s.OnTimeByType[2])) {
		t.Fatalf("per-type on time %v, want [100 0 NaN]", s.OnTimeByType)
	}
	for _, c := range []struct {
		name      string
		got, want Num
	}{{"type 0", s.OnTimeByType[0], 100}, {"type 1", s.OnTimeByType[1], 0}, {"variance", s.FairnessVariance, 2500},
		{"stddev", s.FairnessStdDev, 50}, {"Jain", s.JainIndex, 0.5}} {
		if math.Abs(float64(c.got-c.want)) > 1e-9*math.Max(1, float64(c.want)) {
			t.Errorf("%s %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestHandWorkedMetricsLater: the metrics when the trace starts late, two tasks are trimmed at
// each end, and a scored task never ran. One machine (1 per hour, 100 W), time unit an hour,
// drop model none, batch mode (queue 6); all seven tasks arrive at 10, each takes 1, and the
// mapper puts every task but t3 on the machine in order.
//
//	task  type  deadline  runs     exit at  status
//	t0     0      100     10–11     11      on time   (trimmed: first two exits)
//	t1     1      100     11–12     12      on time   (trimmed)
//	t3     3       12     never     12      expired (unmapped; at the event of t1's completion,
//	                                                  after it)
//	t2     2     11.5     12–13     13      late
//	t4     4      100     13–14     14      on time
//	t5     5      100     14–15     15      on time   (trimmed: last two exits)
//	t6     6      100     15–16     16      on time   (trimmed)
//
// Scored: t3, t2, t4: robustness 1/3; per type 0% (type 2), 0% (type 3), 100% (type 4), the
// others none. Mean 100/3; variance ((100/3)² + (100/3)² + (200/3)²)/3 = 20000/9; Jain's index
// 100²/(3·100²) = 1/3. Brier over the scored tasks that were mapped (t3 has no prediction):
// t2 was predicted to complete at 13 > 11.5 (chance 0) and was late, t4 at 14 ≤ 100 (chance 1)
// and on time: 0. Busy 6 hours: cost 6, per on-time task of the run (t0, t1, t4, t5, t6) 1.2.
// The span runs from the first arrival, 10, to the last exit, 16: 6 hours, with no idle time:
// utilisation 1, energy 100 × 0.70 × 6 × 3600 = 1,512,000 J, 302,400 J per on-time task.
// Wasted: t2's hour (t3 never ran).
func TestHandWorkedMetricsLater(t *testing.T) {
	x := pmf.Impulse(1, 1)
	cfg := Config{
		PET:      gridPET{{x}, {x}, {x}, {x}, {x}, {x}, {x}},
		Machines: machinesOf(0),
		Options:  DefaultOptions(),
	}
	for i, due := range []float64{100, 100, 11.5, 12, 100, 100, 100} {
		cfg.Tasks = append(cfg.Tasks, Task{ID: int64(i), Type: i, Arrival: 10, Deadline: due})
	}
	cfg.Options.DropModel, cfg.Options.Trim, cfg.Options.TimeUnitSeconds = pmf.None, 2, 3600
	allBut3 := mapperFunc{"all but t3", Batch, func(ev Event) {
		for _, h := range ev.Batch() {
			if ev.Task(h).ID != 3 && ev.Free(0) > 0 {
				ev.Assign(h, 0)
			}
		}
	}}
	s := run(t, cfg, allBut3).Summary
	for _, c := range []struct {
		name      string
		got, want int
	}{{"scored", s.Scored, 3}, {"on time", s.OnTime, 1}, {"late", s.Late, 1}, {"expired", s.ExpiredUnmapped, 1}} {
		if c.got != c.want {
			t.Errorf("%s %d, want %d", c.name, c.got, c.want)
		}
	}
	nan := Num(math.NaN())
	byType := []Num{nan, nan, 0, 0, 100, nan, nan}
	for ty, want := range byType {
		if got := s.OnTimeByType[ty]; !(got == want || math.IsNaN(float64(got)) && math.IsNaN(float64(want))) {
			t.Errorf("type %d on time %v, want %v", ty, got, want)
		}
	}
	for _, c := range []struct {
		name      string
		got, want Num
	}{
		{"robustness", s.Robustness, 100.0 / 3},
		{"fairness variance", s.FairnessVariance, 20000.0 / 9},
		{"Jain's index", s.JainIndex, 1.0 / 3},
		{"Brier score", s.BrierScore, 0},
		{"cost", s.Cost, 6},
		{"cost per on-time task", s.CostPerOnTime, 1.2},
		{"span", s.Span, 6},
		{"utilisation", s.Utilisation, 1},
		{"energy", s.Energy, 1_512_000},
		{"energy per on-time task", s.EnergyPerOnTime, 302_400},
		{"wasted busy time", s.WastedBusyTime, 1},
	} {
		if math.Abs(float64(c.got-c.want)) > 1e-9*math.Max(1, math.Abs(float64(c.want))) || math.IsNaN(float64(c.got)) {
			t.Errorf("%s %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestNumJSON: a metric is written with every digit it has (the shortest form that reads back
// as the same float64), and one with nothing to measure (NaN, ±Inf) as null, which reads back
// as NaN.
func TestNumJSON(t *testing.T) {
	for _, c := range []struct {
		n    Num
		want string
	}{{0.142578125, "0.142578125"}, {5000.0 / 3, "1666.6666666666667"}, {2_736_000, "2.736e+06"}, {Num(math.NaN()), "null"}, {Num(math.Inf(1)), "null"}, {Num(math.Inf(-1)), "null"}} {
		b, err := json.Marshal(c.n)
		if err != nil || string(b) != c.want {
			t.Errorf("%v: %s, %v; want %s", float64(c.n), b, err, c.want)
		}
	}
	var back struct{ A, B Num }
	if err := json.Unmarshal([]byte(`{"A": null, "B": 0.142578125}`), &back); err != nil || !math.IsNaN(float64(back.A)) || back.B != 0.142578125 {
		t.Errorf("read back %+v, %v; want NaN and 0.142578125", back, err)
	}
}

// prunerTime is toMachine0 reporting a fixed share of its time as the pruner's.
type prunerTime struct {
	mapperFunc
	seconds float64
}

func (p prunerTime) PrunerSeconds() float64 { return p.seconds }

// TestTimingShares: the time in Map is split between mapper and pruner (the pruner reports its
// own share), so the two add up to the time in Map, which is within the run's total; the time
// per mapping event is the mapper's share over the events. With a pruner claiming 1000 s of a
// run that takes well under that, the mapper's share is about −1000 s, and the sum stays
// within the total.
func TestTimingShares(t *testing.T) {
	x := pmf.Impulse(1, 1)
	cfg := Config{PET: gridPET{{x}}, Machines: machinesOf(0), Options: DefaultOptions(),
		Tasks: []Task{{ID: 0, Deadline: 10}, {ID: 1, Arrival: 1, Deadline: 10}, {ID: 2, Arrival: 2, Deadline: 10}}}
	res := run(t, cfg, prunerTime{toMachine0, 1000})
	tm, events := res.Timing, res.Summary.MappingEvents
	if sum := tm.MapperSeconds + tm.PrunerSeconds; sum < 0 || sum > tm.TotalSeconds {
		t.Errorf("mapper %v s + pruner %v s = %v s, want within [0, total %v s]", tm.MapperSeconds, tm.PrunerSeconds, sum, tm.TotalSeconds)
	}
	if events < 1 {
		t.Fatalf("%d mapping events", events)
	}
	if want := 1e6 * tm.MapperSeconds / float64(events); math.Abs(tm.PerEventMicros-want) > 1e-9*math.Abs(want) {
		t.Errorf("per event %v µs, want %v (mapper's share over %d events)", tm.PerEventMicros, want, events)
	}
	// No task, no mapping event: no time per event (0, not 0/0).
	cfg.Tasks = nil
	if res := run(t, cfg, prunerTime{toMachine0, 1000}); res.Summary.MappingEvents != 0 || res.Timing.PerEventMicros != 0 {
		t.Errorf("no task: %d events, %v µs per event; want 0 and 0", res.Summary.MappingEvents, res.Timing.PerEventMicros)
	}
}
