package replay

import (
	"encoding/json"
	"math"
	"strconv"
	"time"
)

// Result is what a replay produced.
type Result struct {
	Summary  Summary
	Timing   Timing
	Outcomes []Outcome // in exit order; empty when Options.OnTask received them
}

// Summary is the run's metrics (SPEC §5.4). Everything in it is deterministic for a given
// configuration and seed, so two runs can be compared byte for byte; wall times are in Timing.
type Summary struct {
	Heuristic string `json:"heuristic"`
	Prune     string `json:"prune"`
	DropModel string `json:"drop_model"`
	Seed      uint64 `json:"seed"`
	// Readings are the semantic choices a pruning mapper runs under, empty for one that does
	// not prune (PruningReadings).
	Readings

	Tasks           int `json:"tasks"`
	Scored          int `json:"scored"`
	OnTime          int `json:"on_time"`
	Late            int `json:"late"`
	DroppedDeadline int `json:"dropped_deadline"`
	DroppedPruned   int `json:"dropped_pruned"`
	ExpiredUnmapped int `json:"expired_unmapped"`
	Unfinished      int `json:"unfinished"`

	Robustness       Num   `json:"robustness"`        // % of scored tasks on time
	OnTimeByType     []Num `json:"on_time_by_type"`   // % on time per task type (null: none scored)
	FairnessVariance Num   `json:"fairness_variance"` // variance of the per-type % (population)
	FairnessStdDev   Num   `json:"fairness_stddev"`
	JainIndex        Num   `json:"jain_index"`

	// Cost and energy are of the whole run, the trimmed tasks' busy time included, so their
	// ratios per on-time task divide by every on-time task of the run, scored or not: not by
	// OnTime, which counts scored tasks only.
	Cost            Num `json:"cost"` // Σ price × busy time
	CostPerOnTime   Num `json:"cost_per_on_time"`
	Energy          Num `json:"energy_joules"` // active and idle power × time
	EnergyPerOnTime Num `json:"energy_per_on_time"`
	BusyTime        Num `json:"busy_time"`
	WastedBusyTime  Num `json:"wasted_busy_time"` // busy time spent on tasks that did not succeed
	Utilisation     Num `json:"utilisation"`
	Span            Num `json:"span"`
	BrierScore      Num `json:"brier_score"` // predicted success at mapping vs outcome, scored mapped tasks
	// Reliability is the calibration of the predicted chances as a table: the scored mapped
	// tasks (BrierScore's) in ReliabilityBins bins of predicted chance.
	Reliability     []ReliabilityBin `json:"reliability"`
	MappingEvents   int64            `json:"mapping_events"`
	Convolutions    int64            `json:"convolutions"`
	Multiplications int64            `json:"impulse_multiplications"`
	SuccessEvals    int64            `json:"success_evaluations"`
}

// ReliabilityBins is how many bins of predicted chance Summary.Reliability has: [0, 0.1),
// [0.1, 0.2), …, [0.9, 1].
const ReliabilityBins = 10

// ReliabilityBin is one row of a reliability table: the tasks whose chance predicted at mapping
// lies in [BinLow, BinHigh) ([0.9, 1] for the last), their mean predicted chance and the share of them on
// time, with its 95% interval (Wilson's score interval, which stays inside [0, 1] for small
// counts and shares near 0 or 1). Predictions are calibrated when Observed lies near Predicted
// in every bin; the sums let runs be pooled (PoolReliability).
type ReliabilityBin struct {
	BinLow       float64 `json:"bin_low"`
	BinHigh      float64 `json:"bin_high"`
	Tasks        int     `json:"tasks"`
	OnTime       int     `json:"on_time"`
	PredictedSum float64 `json:"predicted_sum"`
	Predicted    Num     `json:"predicted_mean"`
	Observed     Num     `json:"observed_on_time"`
	IntervalLow  Num     `json:"ci_low"`
	IntervalHigh Num     `json:"ci_high"`
}

// reliabilityBin is the bin of predicted chance p.
func reliabilityBin(p float64) int {
	return min(max(int(p*ReliabilityBins), 0), ReliabilityBins-1)
}

// PoolReliability adds the rows of several runs' tables bin by bin and fills in the means and
// intervals of the pooled rows.
func PoolReliability(tables ...[]ReliabilityBin) []ReliabilityBin {
	out := make([]ReliabilityBin, ReliabilityBins)
	for _, t := range tables {
		for i := range min(len(t), ReliabilityBins) {
			out[i].Tasks += t[i].Tasks
			out[i].OnTime += t[i].OnTime
			out[i].PredictedSum += t[i].PredictedSum
		}
	}
	for i := range out {
		out[i].fill(i)
	}
	return out
}

// fill sets bin i's bounds, means and interval from its counts.
func (b *ReliabilityBin) fill(i int) {
	b.BinLow, b.BinHigh = float64(i)/ReliabilityBins, float64(i+1)/ReliabilityBins
	b.Predicted, b.Observed, b.IntervalLow, b.IntervalHigh = Num(math.NaN()), Num(math.NaN()), Num(math.NaN()), Num(math.NaN())
	if b.Tasks > 0 {
		n := float64(b.Tasks)
		b.Predicted = Num(b.PredictedSum / n)
		b.Observed = Num(float64(b.OnTime) / n)
		lo, hi := wilson(b.OnTime, b.Tasks)
		b.IntervalLow, b.IntervalHigh = Num(lo), Num(hi)
	}
}

// wilson is the 95% Wilson score interval of k successes in n trials.
func wilson(k, n int) (lo, hi float64) {
	const z = 1.959963984540054
	p, nf := float64(k)/float64(n), float64(n)
	den := 1 + z*z/nf
	mid := (p + z*z/(2*nf)) / den
	half := z * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf)) / den
	lo, hi = max(0, mid-half), min(1, mid+half)
	if k == 0 {
		lo = 0 // mid = half exactly; rounding leaves a few ulps
	}
	if k == n {
		hi = 1
	}
	return lo, hi
}

// Readings are the choices the papers leave open that a pruning mapper makes (package prune):
// where a retrofitted heuristic's deferring sits (after its choice, after-rejudge, or before),
// when the pruner may drop a running task (evict, always or never), and whether a task that
// expires unmapped counts against its type's sufferage (yes or no).
type Readings struct {
	DeferAt          string `json:"defer_at,omitempty"`
	DropRunning      string `json:"drop_running,omitempty"`
	SufferageExpired string `json:"sufferage_expired,omitempty"`
}

// PruningReadings is implemented by a mapper that prunes: the Readings it runs under.
type PruningReadings interface {
	Readings() Readings
}

// Timing is the wall time a run spent deciding, and in all; it varies from run to run.
type Timing struct {
	MapperSeconds  float64 `json:"mapper_seconds"`
	PrunerSeconds  float64 `json:"pruner_seconds"`
	PerEventMicros float64 `json:"per_event_microseconds"` // MapperSeconds over every mapping event, those a SlotWaiter sits out included
	TotalSeconds   float64 `json:"total_seconds"`          // the whole replay, from the first arrival read to the last exit
	TasksPerSecond float64 `json:"tasks_per_second"`       // tasks of the trace over TotalSeconds
}

// Num is a float64 that encodes NaN and ±Inf as JSON null (a metric with nothing to measure,
// such as the cost per on-time task when no task was on time).
type Num float64

func (n Num) MarshalJSON() ([]byte, error) {
	f := float64(n)
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return []byte("null"), nil
	}
	return strconv.AppendFloat(nil, f, 'g', -1, 64), nil
}

func (n *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = Num(math.NaN())
		return nil
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	*n = Num(f)
	return nil
}

// runStats accumulates the counters and the scored outcomes of a run.
type runStats struct {
	mappingEvents, convolutions, multiplications, successEvals int64
	mapperWall                                                 time.Duration

	status       [numStatus]int
	scored       int
	scoredStatus [numStatus]int
	typeScored   []int // by task type, grown as types are met: a map's inserts cost MM 0.35% of its instructions
	typeOnTime   []int
	brierSum     float64
	brierN       int
	reliability  [ReliabilityBins]ReliabilityBin // the counts and sums only
	wasted       float64
	lastExit     float64

	arrived      int     // tasks read from the trace
	types        int     // 1 + the largest task type seen
	firstArrival float64 // of the first task
}

// arrive records an arrival.
func (s *runStats) arrive(t Task) {
	if s.arrived == 0 {
		s.firstArrival = t.Arrival
	}
	s.arrived++
	s.types = max(s.types, t.Type+1)
}

// count records every exit, scored or not.
func (s *runStats) count(t *taskState) {
	s.status[t.Status]++
	if !math.IsNaN(t.Start) && t.Status != OnTime {
		s.wasted += t.End - t.Start
	}
	s.lastExit = math.Max(s.lastExit, t.End)
}

// onExit records a scored outcome.
func (s *runStats) onExit(o *Outcome) {
	if ty := o.Task.Type; ty >= len(s.typeScored) {
		s.typeScored = append(s.typeScored, make([]int, ty+1-len(s.typeScored))...)
		s.typeOnTime = append(s.typeOnTime, make([]int, ty+1-len(s.typeOnTime))...)
	}
	s.scored++
	s.scoredStatus[o.Status]++
	s.typeScored[o.Task.Type]++
	if o.Status == OnTime {
		s.typeOnTime[o.Task.Type]++
	}
	if !math.IsNaN(o.Predicted) {
		y := 0.0
		if o.Status == OnTime {
			y = 1
		}
		s.brierSum += (o.Predicted - y) * (o.Predicted - y)
		s.brierN++
		b := &s.reliability[reliabilityBin(o.Predicted)]
		b.Tasks++
		b.OnTime += int(y)
		b.PredictedSum += o.Predicted
	}
}

// exitLog marks the first and last trim exits as not scored, keeping at most trim outcomes in
// memory, and hands each final outcome on in exit order.
type exitLog struct {
	trim    int
	seen    int
	pending []Outcome // the latest exits, which may still turn out to be among the last trim (a ring)
	head    int       // index of the oldest in pending once it is full
	emit    func(Outcome)
	kept    []Outcome
}

// newExitLog is an empty log; pending is storage for its ring (Scratch), or nil.
func newExitLog(trim int, emit func(Outcome), pending []Outcome) exitLog {
	return exitLog{trim: trim, emit: emit, pending: pending[:0]}
}

// add takes a copy of o: the engine reuses task records.
func (l *exitLog) add(o *Outcome, scored func(*Outcome)) {
	l.seen++
	if l.seen <= l.trim {
		o.Scored = false
		l.out(*o)
		return
	}
	if l.trim == 0 {
		o.Scored = true
		scored(o)
		l.out(*o)
		return
	}
	if len(l.pending) < l.trim {
		l.pending = append(l.pending, *o)
		return
	}
	first := &l.pending[l.head] // in place: a copy whose address scored takes would allocate
	first.Scored = true
	scored(first)
	l.out(*first)
	l.pending[l.head] = *o
	l.head = (l.head + 1) % l.trim
}

// flush emits the last trim exits, unscored.
func (l *exitLog) flush() {
	for i := range l.pending {
		o := l.pending[(l.head+i)%len(l.pending)]
		o.Scored = false
		l.out(o)
	}
	l.pending, l.head = l.pending[:0], 0 // the storage stays for a Scratch
}

func (l *exitLog) out(o Outcome) {
	if l.emit != nil {
		l.emit(o)
		return
	}
	l.kept = append(l.kept, o)
}

// result assembles the Result once the run is over.
func (e *engine) result() *Result {
	st := &e.stats
	prune := "none"
	if v, ok := e.mapper.(interface{ Variant() string }); ok {
		prune = v.Variant()
	}
	sum := Summary{
		Heuristic: e.mapper.Name(), Prune: prune, DropModel: e.opt.DropModel.String(), Seed: e.opt.Seed,
		Tasks:  st.arrived,
		Scored: st.scored,
		OnTime: st.scoredStatus[OnTime], Late: st.scoredStatus[Late],
		DroppedDeadline: st.scoredStatus[DroppedDeadline], DroppedPruned: st.scoredStatus[DroppedPruned],
		ExpiredUnmapped: st.scoredStatus[ExpiredUnmapped], Unfinished: st.scoredStatus[Unfinished],
		MappingEvents: st.mappingEvents, Convolutions: st.convolutions,
		Multiplications: st.multiplications, SuccessEvals: st.successEvals,
	}
	if r, ok := e.mapper.(PruningReadings); ok {
		sum.Readings = r.Readings()
	}
	sum.Robustness = Num(percent(st.scoredStatus[OnTime], st.scored))
	sum.OnTimeByType, sum.FairnessVariance, sum.FairnessStdDev, sum.JainIndex = fairness(st)
	e.costAndEnergy(&sum)
	if st.brierN > 0 {
		sum.BrierScore = Num(st.brierSum / float64(st.brierN))
	} else {
		sum.BrierScore = Num(math.NaN())
	}
	sum.Reliability = PoolReliability(st.reliability[:])
	// A pruning mapper reports its own share of the time spent in Map.
	pruner := 0.0
	if p, ok := e.mapper.(interface{ PrunerSeconds() float64 }); ok {
		pruner = p.PrunerSeconds()
	}
	mapper := st.mapperWall.Seconds() - pruner
	t := Timing{MapperSeconds: mapper, PrunerSeconds: pruner}
	if st.mappingEvents > 0 {
		t.PerEventMicros = 1e6 * mapper / float64(st.mappingEvents)
	}
	return &Result{Summary: sum, Timing: t, Outcomes: e.exits.kept}
}

func percent(n, of int) float64 {
	if of == 0 {
		return math.NaN()
	}
	return 100 * float64(n) / float64(of)
}

// fairness is the per-type on-time percentage over scored tasks, its population variance and
// standard deviation across the types that had scored tasks, and Jain's index of it.
func fairness(st *runStats) (byType []Num, variance, std, jain Num) {
	byType = make([]Num, st.types)
	var xs []float64
	for ty := range byType {
		p := math.NaN() // no scored task of this type
		if ty < len(st.typeScored) {
			p = percent(st.typeOnTime[ty], st.typeScored[ty])
		}
		byType[ty] = Num(p)
		if !math.IsNaN(p) {
			xs = append(xs, p)
		}
	}
	if len(xs) == 0 {
		nan := Num(math.NaN())
		return byType, nan, nan, nan
	}
	mean, sq := 0.0, 0.0
	for _, x := range xs {
		mean += x
		sq += x * x
	}
	mean /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	v /= float64(len(xs))
	j := math.NaN()
	if sq > 0 {
		j = mean * mean * float64(len(xs)) / sq
	}
	return byType, Num(v), Num(math.Sqrt(v)), Num(j)
}

// costAndEnergy fills cost, energy, busy, wasted time and utilisation. Span runs from the first
// arrival to the last exit; idle power is counted over the span.
func (e *engine) costAndEnergy(sum *Summary) {
	st := &e.stats
	span := math.Max(0, st.lastExit-st.firstArrival)
	sec := e.opt.TimeUnitSeconds
	var cost, energy, busy float64
	for _, m := range e.machines {
		busy += m.busy
		cost += m.PricePerHour * m.busy * sec / 3600
		idle := math.Max(0, span-m.busy)
		energy += m.PowerWatts * (e.opt.ActivePowerFraction*m.busy + e.opt.IdlePowerFraction*idle) * sec
	}
	onTime := st.status[OnTime]
	sum.Cost, sum.Energy, sum.BusyTime, sum.Span = Num(cost), Num(energy), Num(busy), Num(span)
	sum.CostPerOnTime = Num(cost / float64(onTime))
	sum.EnergyPerOnTime = Num(energy / float64(onTime))
	sum.WastedBusyTime = Num(st.wasted)
	sum.Utilisation = Num(busy / (span * float64(len(e.machines))))
	if onTime == 0 {
		sum.CostPerOnTime, sum.EnergyPerOnTime = Num(math.NaN()), Num(math.NaN())
	}
	if span == 0 {
		sum.Utilisation = Num(math.NaN())
	}
}
