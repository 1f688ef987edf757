package speculate

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/hcreplay/hcreplay/replay"
)

// The simulator of reference §3.0: machines run one copy at a time; a task finishes when its
// first copy does and its other copies are killed at that instant, freeing their machines; a
// job finishes when its last task does. Decisions happen at epochs: every arrival and
// completion instant (Slot = 0) or the slot boundaries. At one instant, completions come first,
// then SDA's detection points, then arrivals, then the decision.

type eventKind uint8

const (
	evFinish eventKind = iota // a copy ends (stale when its machine's generation moved on)
	evDetect                  // SDA judges a task's first copy
)

type event struct {
	t    float64
	kind eventKind
	a, b int32 // finish: machine; detect: job, task
	gen  uint32
	seq  uint64
}

func eventLess(x, y event) bool {
	if x.t != y.t {
		return x.t < y.t
	}
	if x.kind != y.kind {
		return x.kind < y.kind
	}
	return x.seq < y.seq
}

type machineState struct {
	typ          int
	price, power float64
	busy         float64
	running      bool
	job, task    int32
	copy         int16
	start, end   float64
	gen          uint32
}

type taskState struct {
	machines []int32 // machines running a live copy
	copies   int16   // copies launched
	done     bool
	flagged  bool    // SDA detected it (it gets at most one backup)
	first    float64 // duration of the first copy
}

type jobState struct {
	model    Dist
	mean     float64 // E[x] of the job's tasks
	workload float64 // m·E[x]
	backupAt float64 // level-1 threshold on the remaining time (ESE or Mantri)
	sdaAt    float64 // SDA's straggler threshold σ·E[x]
	omegaU   float64 // for the auto strategy's window

	tasks     []taskState // allocated when the job starts
	next      int         // tasks before next have a copy
	remaining int         // tasks not done
	partial   bool        // started, some tasks without a copy

	start, finish             float64
	machineTime, wasted, cost float64
	copies, extra, won        int
}

type candidate struct {
	end       float64
	job, task int32
}

type queued struct {
	workload float64
	job      int32
}

type sim struct {
	ctx  context.Context
	opt  Options
	w    *Workload
	rng  *rand.Rand
	now  float64
	seq  uint64
	tick int64 // next slot boundary is tick·Slot

	ms      []machineState
	idle    []int32
	idlePos []int32

	events minHeap[event]
	jobs   []jobState

	arrivals int             // jobs that have arrived
	active   int             // arrived, not finished
	chi      minHeap[queued] // χ: jobs with no task started, least workload first
	chiTasks int             // Σ m over χ
	partial  []int32         // R(l) restricted to jobs with tasks still without a copy
	cands    minHeap[candidate]
	retry    []candidate // SDA stragglers waiting for a machine (RetryDetection)

	useCands, useDetect bool
	window              loadWindow
	cache               map[cacheKey]float64

	stats  counters
	wall   time.Duration
	onCopy func(CopyRecord)
}

type counters struct {
	epochs, launches, kills, p2Solves, p2Cells, checks, lightEpochs int64
}

// Run replays workload w on machines with one strategy and returns its metrics. Machines give
// each machine's PET machine type (an index into w.MachineTypes), price and power.
func Run(ctx context.Context, w *Workload, machines []replay.Machine, opt Options) (*Result, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	if err := w.Check(); err != nil {
		return nil, err
	}
	if len(machines) == 0 {
		return nil, errors.New("no machines")
	}
	if len(machines) > math.MaxInt32 || len(w.Jobs) > math.MaxInt32 {
		return nil, errors.New("too many machines or jobs")
	}
	s := &sim{ctx: ctx, opt: opt, w: w, rng: rand.New(rand.NewPCG(opt.Seed, 0x1d1e)),
		events: minHeap[event]{less: eventLess},
		chi:    minHeap[queued]{less: func(a, b queued) bool { return a.workload < b.workload || a.workload == b.workload && a.job < b.job }},
		cands:  minHeap[candidate]{less: candidateLess},
		cache:  map[cacheKey]float64{},
		onCopy: opt.OnCopy,
	}
	for i, m := range machines {
		if m.Type < 0 || (m.Type >= len(w.MachineTypes) && len(w.MachineTypes) > 0) {
			return nil, fmt.Errorf("machine %s has type %d of %d", m.Name, m.Type, len(w.MachineTypes))
		}
		s.ms = append(s.ms, machineState{typ: m.Type, price: m.PricePerHour, power: m.PowerWatts})
		s.idle = append(s.idle, int32(i))
		s.idlePos = append(s.idlePos, int32(i))
	}
	st := opt.Strategy
	s.useCands = st == ESE || st == Mantri || st == Auto
	s.useDetect = st == SDA || st == Auto && opt.Light == SDA
	s.window = newLoadWindow(opt.Window, len(machines))
	s.jobs = make([]jobState, len(w.Jobs))
	shortest := math.Inf(1)
	for i := range w.Jobs {
		if err := s.prepare(i); err != nil {
			return nil, err
		}
		shortest = min(shortest, s.jobs[i].mean)
	}
	if err := checkSlot(opt.Slot, shortest, w.Jobs[len(w.Jobs)-1].Arrival); err != nil {
		return nil, err
	}
	began := time.Now()
	if err := s.loop(); err != nil {
		return nil, err
	}
	return s.result(time.Since(began)), nil
}

// prepare computes a job's decision quantities from its model.
func (s *sim) prepare(i int) error {
	j, d := &s.jobs[i], s.w.model(i)
	j.model, j.mean = d, d.Mean()
	if !(j.mean > 0) || math.IsInf(j.mean, 0) {
		return fmt.Errorf("job %s: mean task time %g", s.w.Jobs[i].ID, j.mean)
	}
	j.workload = float64(s.w.Jobs[i].Tasks) * j.mean
	j.remaining = s.w.Jobs[i].Tasks
	sigma := s.opt.Sigma
	if sigma == 0 {
		sigma = s.sigmaStar(d)
	}
	j.sdaAt = sigma * j.mean
	switch s.opt.Strategy {
	case Mantri:
		j.backupAt = MantriThreshold(d, s.opt.Delta)
	default:
		j.backupAt = sigma * j.mean
	}
	if s.opt.Strategy == Auto {
		j.omegaU = s.omegaU(d)
	}
	return nil
}

// cacheKey names a cached σ* or ω^U: for Pareto they depend on α only; a discrete
// distribution is cached by identity (a trace's jobs share their class's).
type cacheKey struct {
	omega bool
	alpha float64
	d     Dist
}

func (s *sim) cached(d Dist, omega bool, f func(Dist) float64) float64 {
	key := cacheKey{omega: omega}
	switch x := d.(type) {
	case Pareto:
		key.alpha, d = x.Alpha, Pareto{Mu: 1, Alpha: x.Alpha}
	case *Discrete:
		key.d = x
	default:
		return f(d)
	}
	if v, ok := s.cache[key]; ok {
		return v
	}
	v := f(d)
	s.cache[key] = v
	return v
}

func (s *sim) sigmaStar(d Dist) float64 { return s.cached(d, false, BreakEvenSigma) }
func (s *sim) omegaU(d Dist) float64    { return s.cached(d, true, OmegaU) }

// checkSlot rules out a slot length the workload cannot be simulated with: longer than
// MaxSlotRange shortest mean task times, or so short that the last arrival lies beyond slot
// boundary MaxSlotIndex.
func checkSlot(slot, shortestMean, lastArrival float64) error {
	switch {
	case slot == 0:
		return nil
	case slot > MaxSlotRange*shortestMean:
		return rangeErrorf("slot length %g: want at most %g times the shortest mean task time %g", slot, float64(MaxSlotRange), shortestMean)
	case lastArrival/slot > MaxSlotIndex:
		return rangeErrorf("slot length %g: too short for arrivals up to %g (more than 2^52 slots)", slot, lastArrival)
	}
	return nil
}

// loop runs the events in time order. With a slot length, once a decision has launched
// nothing, the decisions after it launch nothing either until an event or arrival changes the
// state: the idle machines, χ and R(l) are as they were, the auto strategy's regime moves only
// with arrivals, and a backup candidate's remaining time only falls. So the boundaries before
// the next event or arrival are counted as epochs without being simulated, which keeps the
// work proportional to the events however short the slot.
func (s *sim) loop() error {
	slot := s.opt.Slot
	settled := false // the last decision launched nothing, and nothing happened since
	for iter := 0; ; iter++ {
		if iter&4095 == 0 {
			if err := s.ctx.Err(); err != nil {
				return err
			}
		}
		t := math.Inf(1)
		if s.events.len() > 0 {
			t = s.events.top().t
		}
		if s.arrivals < len(s.w.Jobs) {
			t = math.Min(t, s.w.Jobs[s.arrivals].Arrival)
		}
		if slot > 0 {
			if t/slot > MaxSlotIndex && !math.IsInf(t, 1) {
				return rangeErrorf("slot length %g: too short for times up to %g (more than 2^52 slots)", slot, t)
			}
			if (s.active == 0 || settled) && !math.IsInf(t, 1) {
				if k := int64(math.Ceil(t / slot)); k > s.tick {
					if s.active > 0 {
						s.skipEpochs(k - s.tick)
					}
					s.tick = k
				}
			}
			if s.active > 0 && (!settled || !math.IsInf(t, 1)) {
				t = math.Min(t, float64(s.tick)*slot)
			}
		}
		if math.IsInf(t, 1) {
			if s.active > 0 {
				return fmt.Errorf("internal error: %d jobs unfinished and nothing left to happen", s.active)
			}
			return nil
		}
		s.now = t
		for s.events.len() > 0 && s.events.top().t <= t {
			settled = false
			ev := s.events.pop()
			switch ev.kind {
			case evFinish:
				s.finish(ev)
			case evDetect:
				s.detect(int(ev.a), int(ev.b))
			}
		}
		for s.arrivals < len(s.w.Jobs) && s.w.Jobs[s.arrivals].Arrival <= t {
			settled = false
			s.arrive(s.arrivals)
			s.arrivals++
		}
		if slot > 0 {
			if t < float64(s.tick)*slot {
				continue
			}
			// At boundary tick (t == tick·slot): the next one is tick+1. Recomputing it as
			// ⌊t/slot⌋+1 can give tick again when t/slot rounds down (3·0.3/0.3 < 3), which
			// would repeat this boundary forever.
			s.tick = max(s.tick+1, int64(math.Floor(t/slot))+1)
		}
		if s.active > 0 {
			launches := s.stats.launches
			s.decide()
			settled = s.stats.launches == launches
		}
	}
}

// skipEpochs counts n decision epochs that would launch nothing, as decide would count them.
func (s *sim) skipEpochs(n int64) {
	s.stats.epochs += n
	if s.opt.Strategy == Auto && s.window.light() {
		s.stats.lightEpochs += n
	}
}

func (s *sim) arrive(i int) {
	j := &s.jobs[i]
	s.active++
	s.chi.push(queued{workload: j.workload, job: int32(i)})
	s.chiTasks += s.w.Jobs[i].Tasks
	s.window.add(s.w.Jobs[i].Arrival, s.w.Jobs[i].Tasks, j.mean, j.omegaU)
}

// decide runs the strategy at a decision epoch.
func (s *sim) decide() {
	s.stats.epochs++
	began := time.Now()
	if len(s.retry) > 0 && (s.opt.Strategy == SDA || s.opt.Strategy == Auto && s.window.light()) {
		s.retryBackups()
	}
	switch s.opt.Strategy {
	case None:
		s.none()
	case SCA:
		s.sca()
	case SDA:
		s.sdaSlot()
	case ESE:
		s.ese()
	case Mantri:
		s.mantri()
	case Auto:
		s.auto()
	}
	s.wall += time.Since(began)
}

// takeIdle removes a random idle machine (the paper places copies on random idle machines).
func (s *sim) takeIdle() int32 {
	k := s.rng.IntN(len(s.idle))
	m := s.idle[k]
	last := s.idle[len(s.idle)-1]
	s.idle[k], s.idlePos[last] = last, int32(k)
	s.idle = s.idle[:len(s.idle)-1]
	s.idlePos[m] = -1
	return m
}

func (s *sim) release(m int32) {
	s.idlePos[m] = int32(len(s.idle))
	s.idle = append(s.idle, m)
}

// launch starts one more copy of task t of job i on a random idle machine. The caller checks
// that one is idle.
func (s *sim) launch(i, t int) {
	j := &s.jobs[i]
	if j.tasks == nil {
		j.tasks = make([]taskState, s.w.Jobs[i].Tasks)
		j.start = s.now
	}
	task := &j.tasks[t]
	mi := s.takeIdle()
	m := &s.ms[mi]
	copyIdx := int(task.copies)
	d := s.duration(i, t, copyIdx, m.typ)
	m.running, m.job, m.task, m.copy, m.start, m.end = true, int32(i), int32(t), int16(copyIdx), s.now, s.now+d
	m.gen++
	s.seq++
	s.events.push(event{t: m.end, kind: evFinish, a: mi, gen: m.gen, seq: s.seq})
	task.machines = append(task.machines, mi)
	task.copies++
	j.copies++
	s.stats.launches++
	if copyIdx > 0 {
		j.extra++
		return
	}
	task.first = d
	if s.useCands {
		s.cands.push(candidate{end: m.end, job: int32(i), task: int32(t)})
	}
	if s.useDetect {
		s.seq++
		s.events.push(event{t: s.now + s.opt.Detect*d, kind: evDetect, a: int32(i), b: int32(t), seq: s.seq})
	}
}

// duration of copy c of task t of job i on a machine of type mt: the override, the trace's
// observation for a first copy, or a common-random-number draw from the task's class.
func (s *sim) duration(i, t, c, mt int) float64 {
	if s.opt.Durations != nil {
		return s.opt.Durations(i, t, c, mt)
	}
	job := &s.w.Jobs[i]
	if c == 0 && job.Observed != nil && len(job.Observed[t]) > mt && !math.IsNaN(job.Observed[t][mt]) {
		return job.Observed[t][mt]
	}
	cl := &s.w.Classes[s.w.taskClass(i, t)]
	q := cl.OnType[0]
	if len(cl.OnType) > 1 {
		q = cl.OnType[mt]
	}
	return q.Quantile(uniform(s.opt.Seed, uint64(i), uint64(t), uint64(c)))
}

// uniform is a number in [0, 1) determined by its keys (SplitMix64 finalisers, chained).
func uniform(keys ...uint64) float64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, k := range keys {
		h = mix64(h ^ mix64(k+0x632be59bd9b4e019))
	}
	return float64(h>>11) / (1 << 53)
}

func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// finish handles a copy's end: the task is done, its other copies are killed.
func (s *sim) finish(ev event) {
	m := &s.ms[ev.a]
	if !m.running || m.gen != ev.gen {
		return // killed earlier
	}
	i, t := int(m.job), int(m.task)
	j := &s.jobs[i]
	task := &j.tasks[t]
	s.stop(ev.a, false)
	task.done = true
	if m.copy > 0 {
		j.won++
	}
	for _, other := range task.machines {
		if other != ev.a {
			s.stop(other, true)
		}
	}
	task.machines = nil
	j.remaining--
	if j.remaining == 0 {
		j.finish = s.now
		j.tasks = nil
		s.active--
	}
}

// stop ends the copy on machine mi now and frees the machine.
func (s *sim) stop(mi int32, killed bool) {
	m := &s.ms[mi]
	j := &s.jobs[m.job]
	busy := s.now - m.start
	m.busy += busy
	j.machineTime += busy
	j.cost += m.price * busy * s.opt.TimeUnitSeconds / 3600
	if killed {
		j.wasted += busy
		s.stats.kills++
	}
	if s.onCopy != nil {
		s.onCopy(CopyRecord{Job: int(m.job), Task: int(m.task), Copy: int(m.copy), Machine: int(mi), Start: m.start, End: s.now, Killed: killed})
	}
	m.running = false
	m.gen++
	s.release(mi)
}

// Level building blocks shared by the strategies (reference §3.1–3.5).

// startTasks starts one copy of each task of job i that has none, in task order, while a
// machine is idle; a job left with tasks and no machine joins R(l) (partial).
func (s *sim) startTasks(i int) {
	j := &s.jobs[i]
	for j.next < s.w.Jobs[i].Tasks && len(s.idle) > 0 {
		s.launch(i, j.next)
		j.next++
	}
	if j.next < s.w.Jobs[i].Tasks && !j.partial {
		j.partial = true
		s.partial = append(s.partial, int32(i))
	}
}

// cloneTasks starts c copies of every task of job i (the caller checks m·c ≤ idle).
func (s *sim) cloneTasks(i, c int) {
	j := &s.jobs[i]
	for ; j.next < s.w.Jobs[i].Tasks; j.next++ {
		for range c {
			s.launch(i, j.next)
		}
	}
}

// continueStarted is level 2: for each started job with tasks that have no copy, smallest
// remaining workload first ((unfinished tasks)·E[x], reference §6.6), start one copy of each
// such task. It reports whether a machine is still idle.
func (s *sim) continueStarted() bool {
	if len(s.partial) == 0 {
		return len(s.idle) > 0
	}
	slices.SortFunc(s.partial, func(a, b int32) int {
		wa := float64(s.jobs[a].remaining) * s.jobs[a].mean
		wb := float64(s.jobs[b].remaining) * s.jobs[b].mean
		if c := cmp.Compare(wa, wb); c != 0 {
			return c
		}
		return int(a - b)
	})
	kept := s.partial[:0]
	for _, i := range s.partial {
		j := &s.jobs[i]
		j.partial = false
		if len(s.idle) > 0 {
			for j.next < s.w.Jobs[i].Tasks && len(s.idle) > 0 {
				s.launch(int(i), j.next)
				j.next++
			}
		}
		if j.next < s.w.Jobs[i].Tasks {
			j.partial = true
			kept = append(kept, i)
		}
	}
	s.partial = kept
	return len(s.idle) > 0
}

// popWaiting removes the waiting job of least workload m·E[x] from χ.
func (s *sim) popWaiting() int {
	q := s.chi.pop()
	i := int(q.job)
	s.chiTasks -= s.w.Jobs[i].Tasks
	return i
}

// startNew is level 3: waiting jobs in increasing workload, each given copies(i) copies of
// every task (1 for a plain start), until no machine is idle.
func (s *sim) startNew(copies func(i int) int) {
	for s.chi.len() > 0 && len(s.idle) > 0 {
		i := s.popWaiting()
		if c := copies(i); c > 1 {
			s.cloneTasks(i, c)
		} else {
			s.startTasks(i)
		}
	}
}

func oneCopy(int) int { return 1 }

// backupStragglers is level 1 of ESE and Mantri: while a machine is idle, back up the running
// single-copy task with the longest remaining time among those whose remaining time exceeds
// their job's threshold. The remaining time is the oracle plannedEnd − now (reference §3.0, the
// analysis's assumption). A task below its threshold never rises above it (its remaining time
// only falls), so it leaves the candidates for good. It reports whether a machine is still
// idle.
func (s *sim) backupStragglers() bool {
	for len(s.idle) > 0 && s.cands.len() > 0 {
		c := s.cands.pop()
		j := &s.jobs[c.job]
		if j.tasks == nil {
			continue // the job is done
		}
		task := &j.tasks[c.task]
		if task.done || task.copies != 1 {
			continue
		}
		s.stats.checks++
		if c.end-s.now > j.backupAt {
			s.launch(int(c.job), int(c.task))
		}
	}
	return len(s.idle) > 0
}

func candidateLess(a, b candidate) bool {
	if a.end != b.end {
		return a.end > b.end // longest remaining time first
	}
	if a.job != b.job {
		return a.job < b.job
	}
	return a.task < b.task
}

// loadWindow estimates the offered load ω = λ·E[m]·E[s]/M over the last n job arrivals, and
// the workload-weighted ω^U of those jobs, for the auto strategy.
type loadWindow struct {
	n, machines         int
	arrival             []float64
	tasks, mean, omegaU []float64
	head, count         int
	sumW, sumWU         float64
}

func newLoadWindow(n, machines int) loadWindow {
	return loadWindow{n: n, machines: machines, arrival: make([]float64, n), tasks: make([]float64, n),
		mean: make([]float64, n), omegaU: make([]float64, n)}
}

func (lw *loadWindow) add(arrival float64, tasks int, mean, omegaU float64) {
	k := (lw.head + lw.count) % lw.n
	if lw.count == lw.n {
		k = lw.head
		lw.sumW -= lw.tasks[k] * lw.mean[k]
		lw.sumWU -= lw.tasks[k] * lw.mean[k] * lw.omegaU[k]
		lw.head = (lw.head + 1) % lw.n
	} else {
		lw.count++
	}
	lw.arrival[k], lw.tasks[k], lw.mean[k], lw.omegaU[k] = arrival, float64(tasks), mean, omegaU
	lw.sumW += float64(tasks) * mean
	lw.sumWU += float64(tasks) * mean * omegaU
}

// omega is the estimated offered load; +Inf while the window spans no time.
func (lw *loadWindow) omega() float64 {
	if lw.count < 2 {
		return 0
	}
	first, last := lw.arrival[lw.head], lw.arrival[(lw.head+lw.count-1)%lw.n]
	if !(last > first) {
		return math.Inf(1)
	}
	rate := float64(lw.count-1) / (last - first)
	// λ·E[m]·E[s] = λ · (Σm/n) · (Σ m·E[x] / Σ m) = λ·Σ m·E[x]/n
	return rate * lw.sumW / float64(lw.count) / float64(lw.machines)
}

// light reports whether the estimated load is under the cutoff ω^U (002 Eq 5: λ < λ^U).
func (lw *loadWindow) light() bool {
	if lw.count < 2 || lw.sumW == 0 {
		return true
	}
	return lw.omega() < lw.sumWU/lw.sumW
}
