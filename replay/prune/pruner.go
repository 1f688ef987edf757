package prune

import (
	"math"
	"slices"
	"sort"
	"time"

	"github.com/hcreplay/hcreplay/replay"
)

// Pruner wraps a heuristic with the pruning mechanism. It keeps state across mapping events
// (the oversubscription level, the toggle, the sufferage of each task type, the dynamic
// deferring threshold), so make one per replay with Wrap.
type Pruner struct {
	inner     replay.Mapper
	cfg       Config
	level     float64         // d_τ
	engaged   bool            // dropping engaged
	sufferage map[int]float64 // by task type
	deferAt   float64         // current deferring threshold before fairness
	wall      time.Duration   // time spent pruning, for the overhead metrics
	trace     func(Decision)  // optional observer, for tests and debugging
	cut       cutoffs         // the deferring filter's bounds, reused
	view      deferring       // what the heuristic sees, reused so that an event allocates nothing
	free      []int           // the deferring filter's machines with a free slot, reused
	low       []int           // DeferAfter: this event's assignments to take back, reused
	chosen    []chosenPair    // DeferAfterRejudge: this event's assignments in order, reused
	touched   []int           // DeferAfterRejudge: machines with a pair taken back, reused
	screen    typeScreen      // the per-type state of PromisingEach and Batch, reused
	ths       []float64       // dropAtOrBelow's thresholds by queue position, reused
}

// chosenPair is an assignment the heuristic made under DeferAfterRejudge, with whether its chance
// when it was made (in the queue the heuristic had built by then) was at or below the threshold.
type chosenPair struct {
	h, m   int
	low    bool
	chance float64 // when known: the chance at the assignment, for an observer
}

// Decision is one thing the pruner did, reported to an observer.
type Decision struct {
	Time    float64
	Kind    string // "drop", "defer", "engage", "release"
	Task    int    // task handle, -1 for toggle changes
	Chance  float64
	Against float64 // the threshold it was compared with
}

// Wrap returns inner with pruning. A Config with Variant None returns inner unchanged.
func Wrap(inner replay.Mapper, cfg Config) (replay.Mapper, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.Variant == None {
		return inner, nil
	}
	if cfg.IsMiss == nil {
		cfg.IsMiss = DeadlineMiss
	}
	p := &Pruner{inner: inner, cfg: cfg, sufferage: map[int]float64{}}
	p.deferAt = p.staticDefer()
	return p, nil
}

// Recycle hands the wrapped heuristic the storage of old's, an earlier replay's mapper
// (replay.Scratch). The pruner's own state is its replay's and starts fresh.
func (p *Pruner) Recycle(old replay.Mapper) { recycleInner(p.inner, old) }

// recycleInner hands inner, when it can take storage, the heuristic inside old, a mapper that
// may be renamed or pruned: the storage is the heuristic's.
func recycleInner(inner, old replay.Mapper) {
	if r, ok := inner.(interface{ Recycle(replay.Mapper) }); ok {
		r.Recycle(heuristicOf(old))
	}
}

// heuristicOf is the mapper inside m's renames and pruning.
func heuristicOf(m replay.Mapper) replay.Mapper {
	for {
		switch w := m.(type) {
		case renamed:
			m = w.Mapper
		case *Pruner:
			m = w.inner
		default:
			return m
		}
	}
}

// Observe sets a function that is told every decision the pruner makes.
func (p *Pruner) Observe(f func(Decision)) { p.trace = f }

// Name is the thesis's name: the heuristic's name with -D, -Drop or -P.
func (p *Pruner) Name() string { return p.inner.Name() + p.cfg.Variant.Suffix() }

func (p *Pruner) Mode() replay.Mode { return p.inner.Mode() }

// ReadsSkewness is whether the dropping threshold adjusts by skewness (000 Eq 7 with ρ ≠ 0), or
// the wrapped heuristic reads skewness itself (replay.SkewnessReader).
func (p *Pruner) ReadsSkewness() bool {
	return p.cfg.Variant.drops() && p.cfg.Rho != 0 || replay.ReadsSkewness(p.inner)
}

// Variant names the pruning variant, for the run summary.
func (p *Pruner) Variant() string { return p.cfg.Variant.String() }

// Readings are the semantic choices the pruner runs under, for the run summary
// (replay.PruningReadings).
func (p *Pruner) Readings() replay.Readings {
	suffer := "no"
	if p.cfg.SufferExpired {
		suffer = "yes"
	}
	return replay.Readings{DeferAt: p.cfg.DeferAt.String(), DropRunning: p.cfg.DropRunning.String(), SufferageExpired: suffer}
}

// PrunerSeconds is the wall time spent in the pruner itself (not in the wrapped heuristic).
func (p *Pruner) PrunerSeconds() float64 { return p.wall.Seconds() }

// Map is one mapping event: accounting, toggle, dropping, then the heuristic with deferring.
func (p *Pruner) Map(ev replay.Event) {
	start := time.Now()
	p.account(ev)
	if p.cfg.Variant.drops() && p.engaged {
		p.dropPhase(ev)
	}
	if p.cfg.Variant.defers() && p.cfg.Defer.Kind == "dynamic" {
		p.adjustDefer(ev)
	}
	p.wall += time.Since(start)
	if p.cfg.Variant.defers() {
		p.view = deferring{Event: ev, p: p}
		p.low, p.chosen = p.low[:0], p.chosen[:0]
		p.inner.Map(&p.view)
		p.deferChosen(ev)
		return
	}
	p.inner.Map(ev)
}

// account reads what left the system since the last event: misses feed the oversubscription
// level (000 Eq 11) and every outcome moves its type's sufferage (000 §6.3.2).
func (p *Pruner) account(ev replay.Event) {
	misses := 0
	for _, x := range ev.Exits() {
		if p.cfg.IsMiss(x.Status) {
			misses++
		}
		if p.cfg.Fairness > 0 && (x.Status != replay.ExpiredUnmapped || p.cfg.SufferExpired) {
			ty := ev.Task(x.Task).Type
			step := p.cfg.Fairness
			if x.Status == replay.OnTime {
				step = -step
			}
			p.sufferage[ty] = clamp01(p.sufferage[ty] + step)
		}
	}
	if p.observe(misses) && p.trace != nil {
		kind := "release"
		if p.engaged {
			kind = "engage"
		}
		p.trace(Decision{Time: ev.Now(), Kind: kind, Task: -1, Chance: p.level})
	}
}

// observe updates the oversubscription level with this event's misses (000 Eq 11) and the
// toggle, and reports whether the toggle changed.
func (p *Pruner) observe(misses int) bool {
	p.level = float64(misses)*p.cfg.Lambda + p.level*(1-p.cfg.Lambda)
	was := p.engaged
	p.engaged = p.cfg.Toggle.next(p.engaged, p.level)
	return was != p.engaged
}

// next is the toggle's state after observing level d.
func (t Toggle) next(engaged bool, d float64) bool {
	switch t.Kind {
	case "always":
		return true
	case "threshold":
		return d >= t.On
	case "schmitt":
		if engaged {
			return d > t.Off
		}
		return d >= t.On
	}
	return false
}

// DropThreshold is task h's dropping threshold at position pos of its queue (0 = head), with
// its completion PMF's bounded skewness s: 000 Eq 7 plus fairness, clamped to [0, 1]. With ρ = 0
// the skewness plays no part, and may be NaN (the engine computes it only for a pruner that
// reads it: ReadsSkewness).
func (p *Pruner) DropThreshold(taskType, pos int, s float64) float64 {
	adjust := 0.0
	if p.cfg.Rho != 0 {
		adjust = (-s * p.cfg.Rho) / float64(pos+1)
	}
	return clamp01(p.cfg.DropThreshold + adjust - p.sufferage[taskType])
}

// DeferThreshold is the deferring threshold of a task of the given type, fairness included.
func (p *Pruner) DeferThreshold(taskType int) float64 {
	if p.cfg.Fairness == 0 {
		return clamp01(p.deferAt) // no sufferage is ever written (account): the map lookup would give 0
	}
	return clamp01(p.deferAt - p.sufferage[taskType])
}

// dropPhase walks every machine queue from the head and drops the tasks whose chance of
// success is at or below their threshold (000 §5.2, thesis Alg. 1). After a drop the chances
// behind it improve, so the walk goes on from the same position with fresh chances.
func (p *Pruner) dropPhase(ev replay.Event) {
	if p.cfg.DropThreshold == 0 {
		return // a threshold of 0 means no probabilistic dropping (thesis §4.4.2)
	}
	for m := range ev.NumMachines() {
		q := ev.Queue(m)
		if p.trace == nil && p.safe(ev, m, q) {
			continue // floors decide: nobody on m is dropped, no chain needed
		}
		if p.trace == nil && p.cfg.Rho == 0 {
			p.dropAtOrBelow(ev, m, q)
			continue
		}
		chances := ev.QueueChances(m)
		for pos := 0; pos < len(q); {
			h := q[pos]
			if pos == 0 && ev.Running(m) && !p.cfg.DropRunning.may(ev.DropModel()) {
				pos++ // Config.DropRunning keeps the running task
				continue
			}
			c := chances[pos]
			th := p.DropThreshold(ev.Task(h).Type, pos, c.Skewness)
			if th > 0 && c.Success <= th {
				if p.trace != nil {
					p.trace(Decision{Time: ev.Now(), Kind: "drop", Task: h, Chance: c.Success, Against: th})
				}
				ev.Drop(h)
				q, chances = ev.Queue(m), ev.QueueChances(m) // the tasks behind have better chances now
				continue
			}
			pos++
		}
	}
}

// dropAtOrBelow is dropPhase's walk of machine m's queue q where the thresholds do not depend
// on the skewness (Config.Rho 0) and no trace records the chances: the engine finds the next task
// at or below its threshold (Event.QueueChanceAtOrBelow), which needs the chances as reported
// only near a threshold; the same drops, in the same order.
func (p *Pruner) dropAtOrBelow(ev replay.Event, m int, q []int) {
	keep := ev.Running(m) && !p.cfg.DropRunning.may(ev.DropModel()) // Config.DropRunning keeps the running task
	for pos := 0; ; {
		p.ths = p.ths[:0]
		for k, h := range q {
			th := 0.0 // matches nothing
			if k > 0 || !keep {
				typ, _ := ev.TypeAndDeadline(h)
				th = p.DropThreshold(typ, k, math.NaN())
			}
			p.ths = append(p.ths, th)
		}
		k := ev.QueueChanceAtOrBelow(m, pos, p.ths)
		if k < 0 {
			return
		}
		ev.Drop(q[k])
		q, pos = ev.Queue(m), k // the tasks behind have better chances now
	}
}

// safe reports whether the engine's floors on the chances of machine m's queued tasks q
// (Event.QueueFloors) are above the highest dropping threshold each task could have, whatever
// its skewness (bounded to [-1, 1]), so that the dropping phase keeps them all without their
// exact chances.
func (p *Pruner) safe(ev replay.Event, m int, q []int) bool {
	floors := ev.QueueFloors(m)
	if floors == nil || len(floors) != len(q) {
		return false
	}
	for pos, h := range q {
		if pos == 0 && ev.Running(m) && !p.cfg.DropRunning.may(ev.DropModel()) {
			continue
		}
		if th := p.DropThreshold(ev.Task(h).Type, pos, -1); th > 0 && floors[pos] <= th+boundMargin {
			return false
		}
	}
	return true
}

// staticDefer is the deferring threshold of the static and gap rules, and where the dynamic
// rule starts.
func (p *Pruner) staticDefer() float64 {
	switch p.cfg.Defer.Kind {
	case "static":
		return p.cfg.Defer.Value
	case "gap":
		return clamp01(p.cfg.DropThreshold + p.cfg.Defer.Value)
	}
	if p.cfg.Defer.Start > 0 {
		return p.cfg.Defer.Start // dynamic, started where the user said
	}
	return clamp01(p.cfg.DropThreshold + 0.25) // dynamic: start where the default gap would
}

// adjustDefer is the dynamic deferring threshold (000 Eqs 8–10, reading in the package doc).
func (p *Pruner) adjustDefer(ev replay.Event) {
	batch := ev.Batch()
	p.deferAt = nextDefer(p.deferAt, p.cfg.DropThreshold, p.cfg.Defer.Value,
		selective(len(batch), freeSlots(ev, len(batch))), competency(ev, batch, p.deferAt), instantRobustness(ev))
}

// freeSlots is the number of free slots over all machines, counting at most max(tasks, 1) per
// machine. An immediate heuristic's queues are unbounded: each machine reports math.MaxInt
// slots, and their plain sum wraps around. ψ only matters against 1 and as infinite when no slot
// is free (nextDefer, selective), which the cap leaves as they were: one machine with room for
// every task already makes ψ ≤ 1, and a capped count is 0 only when every machine's is.
func freeSlots(ev replay.Event, tasks int) int {
	free, most := 0, max(tasks, 1)
	for m := range ev.NumMachines() {
		free += min(ev.Free(m), most)
	}
	return free
}

// nextDefer is Eq 10 [IMPL]: with selective factor psi, competency omega and instantaneous
// robustness rho, move the threshold down by c when there are more slots than tasks or no task
// passes, and near rho otherwise; never below the dropping threshold.
func nextDefer(current, drop, c, psi, omega, rho float64) float64 {
	next := rho - c
	if psi <= 1 || omega == 0 {
		next = current - c
	}
	return math.Max(drop, clamp01(next))
}

// selective is ψ: tasks waiting per free slot (Inf when there is no free slot).
func selective(tasks, free int) float64 {
	if free == 0 {
		return math.Inf(1)
	}
	return float64(tasks) / float64(free)
}

// competency is ω (000 Eq 8): the share of batch tasks whose best chance of success over the
// machines with a free slot exceeds the threshold.
func competency(ev replay.Event, batch []int, threshold float64) float64 {
	if len(batch) == 0 {
		return 0
	}
	competent := 0
	for _, h := range batch {
		for m := range ev.NumMachines() {
			if ev.Free(m) > 0 && ev.SuccessAbove(h, m, threshold) {
				competent++
				break
			}
		}
	}
	return float64(competent) / float64(len(batch))
}

// instantRobustness is 000 Eq 9: the mean chance of success of the tasks in machine queues (1
// when the queues are empty: nothing is at risk).
func instantRobustness(ev replay.Event) float64 {
	sum, n := 0.0, 0
	for m := range ev.NumMachines() {
		for _, c := range ev.QueueChances(m) {
			sum += c.Success
			n++
		}
	}
	if n == 0 {
		return 1
	}
	return sum / float64(n)
}

// deferring is the Event the wrapped heuristic sees (000 §5.3; thesis §3.1 and §5.2: after
// phase 1, pairs whose chance on the chosen machine is at or below the deferring threshold are
// deferred). The heuristic's phase 1 is its own, so the rule is applied where the wrapper can
// see it. Under DeferAfter (thesis §4.5) the heuristic sees the whole batch and makes its
// assignments; those at or below the threshold are noted (Assign) and taken back once it is
// done (deferChosen). Under DeferBefore, at two places: a task that no machine with a free slot
// gives a chance above the threshold
// is deferred before the heuristic sees the batch (whatever machine it would choose, the pair
// would be deferred), and an assignment whose chance on the chosen machine is at or below the
// threshold becomes a deferral. The first saves the heuristic a round per hopeless task. Batch
// leaves out only the tasks it defers (Event.Defer), which the engine leaves out too: the
// engine's BatchKeys still describe the batch the heuristic sees.
type deferring struct {
	replay.Event
	p   *Pruner
	cut bool // p.cut holds this event's cut-offs, for Promising
}

func (d *deferring) Batch() []int {
	batch := d.Event.Batch()
	if d.p.cfg.DeferAt.afterChoice() {
		return batch // the heuristic chooses from the whole batch; deferChosen defers after
	}
	free := d.FreeMachines(d.p.free)
	d.p.free = free
	if len(free) == 0 {
		return batch
	}
	bounds := d.p.trace == nil // bounds decide only when nobody records the chances
	if bounds {
		d.p.cut.reset(free)
		d.p.screen.reset(free, free)
		d.cut = true
	}
	kept := batch[:0]
	for _, h := range batch {
		typ, deadline := d.TypeAndDeadline(h)
		var th, all float64
		var cut []float64
		if bounds {
			cut, all, th = d.p.screen.of(d, h, typ) // per type, once per call
		} else {
			th = d.p.DeferThreshold(typ)
		}
		if th == 0 {
			kept = append(kept, h)
			continue
		}
		if bounds && deadline < all {
			d.deferTask(h, 0, th) // hopeless on every machine with a free slot
			continue
		}
		best, above := 0.0, false
		for i, m := range free {
			if bounds && (deadline < cut[i] || d.SuccessBoundBelow(h, m, th-boundMargin)) {
				continue // best stays at or below th on this machine
			}
			// One machine above the threshold keeps the task; best is reported only for a
			// deferral, to a trace: without one, only the side of th matters (SuccessAbove).
			if bounds {
				if above = d.SuccessAbove(h, m, th); above {
					break
				}
				continue
			}
			if best = math.Max(best, d.Success(h, m)); best > th {
				above = true
				break
			}
		}
		if !above {
			d.deferTask(h, best, th)
			continue
		}
		kept = append(kept, h)
	}
	return kept
}

// The deferring pre-filter decides most of a crowded batch from bounds that need no queue chain.
// A machine cannot be free for a task appended now before Event.FreeFrom, so the task's chance
// there is at most P(X ≤ δ − FreeFrom), read one grid step later still (so that no rounding
// of the engine's grid can put the exact chance above it) and compared with a margin. A bound
// below the threshold decides as the exact chance would (it is at or below the threshold too),
// and spares the engine the chains of the machines the task would be checked against. The bound
// falls as the deadline does, so for each task type and free machine it is one cut-off deadline
// (cutoffs), and the tasks that wait through many events cost a comparison each. Under --engine
// approx the bound is of the exact chance, not of the approximate one the engine would report.
// What the cut-offs leave open, the engine's own bound often closes (Event.SuccessBound: the
// chance against the machine's last chain, which time can only have lowered), still without a
// chain.
const boundMargin = 1e-9

// cutoffs holds, for the current call of deferring.Batch, per task type, the deadline before
// which a task of that type is hopeless on each machine with a free slot (its chance there, as
// bounded from Event.FreeFrom, is below its deferring threshold), and the earliest of them: before
// that, it is hopeless on all of them.
type cutoffs struct {
	free     []int        // the machines with a free slot
	earliest []float64    // Event.FreeFrom of each, once a type is asked for
	byType   [][]float64  // per task type, a cut-off per free machine; empty until asked for
	all      []float64    // per task type, the earliest of byType's
	th       []float64    // per task type, the threshold the cut-offs are for
	quantile [][]quantile // per task type and machine type, at the last threshold asked for
	nextType []int        // the types asked for in this call, to reset
	types    []int        // each machine's type, read once per replay (quantiles)
	numTypes int          // the number of machine types: one more than the largest in types
}

// quantile is where a cell's cumulative table first reaches th − boundMargin, less a step and
// a half (find), for threshold th.
type quantile struct {
	th, at float64
}

// reset starts a call of Batch with the machines in free.
func (c *cutoffs) reset(free []int) {
	for _, tt := range c.nextType {
		c.byType[tt] = c.byType[tt][:0]
	}
	c.nextType = c.nextType[:0]
	c.free = free
	c.earliest = c.earliest[:0]
}

// of returns the cut-offs of task type tt at threshold th, per free machine and over all of
// them, computing them on first use in this call (h is a task of that type, to read its cells).
func (c *cutoffs) of(ev replay.Event, h, tt int, th float64) ([]float64, float64) {
	for len(c.byType) <= tt {
		c.byType, c.all, c.th = append(c.byType, nil), append(c.all, 0), append(c.th, 0)
	}
	if len(c.byType[tt]) > 0 && c.th[tt] == th {
		return c.byType[tt], c.all[tt]
	}
	if len(c.byType[tt]) == 0 {
		c.nextType = append(c.nextType, tt)
	}
	if len(c.earliest) == 0 { // the first type asked for in this call
		for _, m := range c.free {
			c.earliest = append(c.earliest, ev.FreeFrom(m))
		}
	}
	qs := c.quantiles(ev, tt)
	cut, all := c.byType[tt][:0], math.Inf(1)
	for i, m := range c.free {
		q := &qs[c.types[m]]
		if q.th != th { // a cell's quantile is asked for once per threshold: the check stays inline
			q.find(ev, h, m, th)
		}
		x := c.earliest[i] + q.at
		cut = append(cut, x)
		all = min(all, x)
	}
	c.byType[tt], c.all[tt], c.th[tt] = cut, all, th
	return cut, all
}

// quantiles is task type tt's quantiles per machine type, sized for every machine type of the
// replay. Each machine's type is read once per replay: Event.Machine copies a struct with strings.
func (c *cutoffs) quantiles(ev replay.Event, tt int) []quantile {
	if len(c.types) != ev.NumMachines() { // the machines do not change during a replay
		c.types, c.numTypes = c.types[:0], 0
		for k := range ev.NumMachines() {
			mt := ev.Machine(k).Type
			c.types = append(c.types, mt)
			c.numTypes = max(c.numTypes, mt+1)
		}
	}
	for len(c.quantile) <= tt {
		c.quantile = append(c.quantile, nil)
	}
	for len(c.quantile[tt]) < c.numTypes {
		c.quantile[tt] = append(c.quantile[tt], quantile{th: -1})
	}
	return c.quantile[tt]
}

// find sets q to the quantile of h's cell on machine m for threshold th: how long after the
// time it can first be free a task of h's type is hopeless on m. With the cell's impulses at
// o + j·step, CDF table T and J its first index with T ≥ th − boundMargin, the bound
// T(δ − at + step), for a machine that cannot be free before at, is below th − boundMargin
// exactly when δ − at + step lies before o + J·step, that is δ before at + o + (J − 1)·step; the
// cut-off keeps half a step more off that edge, so that rounding in this arithmetic cannot claim
// a bound the table would not give.
func (q *quantile) find(ev replay.Event, h, m int, th float64) {
	exec, table := ev.Exec(h, m), ev.ExecTable(h, m)
	j := sort.Search(exec.Len(), func(j int) bool { return table.CDF(exec.Time(j)) >= th-boundMargin })
	q.th, q.at = th, math.Inf(1) // never reached: below the threshold even with all the time there is
	if j < exec.Len() {
		q.at = exec.Origin() + (float64(j)-1.5)*exec.Step()
	}
}

// Assign makes an assignment whose chance on the chosen machine is at or below the threshold a
// deferral. The engine's bound (Event.SuccessBound) decides it first when it is below the
// threshold already, without the machine's chain: an immediate heuristic offers each waiting task
// to the machine of its choice at every event, and under deferring most of those offers fail
// (cachegrind, 10 MET-P replays of 1,000 HCW19-like tasks: 32% fewer instructions, with the
// early exit of Batch; PAM-P 0.8%, MM-P 1.4%; decisions unchanged). A trace gets the exact
// chance, as Batch's does.
//
// Under DeferAfter the assignment is made all the same, so that the heuristic goes on choosing
// against the queues it built, and the task is noted for deferChosen to take back. Under
// DeferAfterRejudge every assignment is noted, in order, with its judgement, for deferChosen to
// judge again where an earlier pair on its machine was taken back.
func (d *deferring) Assign(h, m int) {
	th := d.DeferThreshold(h)
	if th > 0 {
		low, s := false, 0.0
		switch {
		case d.p.trace == nil && d.SuccessBoundBelow(h, m, th-boundMargin):
			low = true // the chance is at most the bound: at or below th
		case d.p.trace == nil:
			low = !d.SuccessAbove(h, m, th) // s goes only to a trace
		default:
			s = d.Success(h, m)
			low = s <= th
		}
		if d.p.cfg.DeferAt == DeferAfterRejudge {
			d.p.chosen = append(d.p.chosen, chosenPair{h: h, m: m, low: low, chance: s})
		} else if low && d.p.cfg.DeferAt == DeferAfter {
			d.p.low = append(d.p.low, h)
			if d.p.trace != nil {
				d.p.trace(Decision{Time: d.Now(), Kind: "defer", Task: h, Chance: s, Against: th})
			}
			if t, ok := d.Event.(tentative); ok {
				t.AssignTentative(h, m) // deferChosen takes it back: its chance is not recorded
				return
			}
		} else if low {
			d.deferTask(h, s, th)
			return
		}
	}
	d.Event.Assign(h, m)
}

// tentative is the engine's Event, which can make an assignment that deferChosen takes back
// without the chance an assignment records (replay's mapping).
type tentative interface {
	AssignTentative(h, m int)
}

// retracter is the engine's Event, which can take back an assignment of the current event and
// make it a deferral (replay's mapping).
type retracter interface {
	Retract(h int)
}

// deferChosen defers the assignments the heuristic made at or below the deferring threshold
// (thesis §4.5). Under DeferAfter each pair is judged by the chance it had when the heuristic
// chose it, in the queue it had built by then. Under DeferAfterRejudge the pairs are judged in
// the heuristic's order, each against the queue it joins once the pairs deferred before it are
// taken back: a pair's chance depends only on the tasks ahead of it, so where no earlier pair on
// its machine was taken back, its chance at the assignment stands.
func (p *Pruner) deferChosen(ev replay.Event) {
	if len(p.low) == 0 && !slices.ContainsFunc(p.chosen, func(c chosenPair) bool { return c.low }) {
		return
	}
	r, ok := ev.(retracter)
	if !ok {
		panic("prune: --defer-at after needs an Event that can take back an assignment (Retract)")
	}
	for _, h := range p.low {
		r.Retract(h)
	}
	p.touched = p.touched[:0]
	for _, c := range p.chosen {
		low, chance := c.low, c.chance
		th := p.DeferThreshold(ev.Task(c.h).Type)
		if slices.Contains(p.touched, c.m) {
			pos := slices.Index(ev.Queue(c.m), c.h)
			chance = ev.QueueChances(c.m)[pos].Success
			low = chance <= th
		}
		if !low {
			continue
		}
		if p.trace != nil {
			p.trace(Decision{Time: ev.Now(), Kind: "defer", Task: c.h, Chance: chance, Against: th})
		}
		r.Retract(c.h)
		if !slices.Contains(p.touched, c.m) {
			p.touched = append(p.touched, c.m)
		}
	}
}

func (d *deferring) deferTask(h int, chance, th float64) {
	if d.p.trace != nil {
		d.p.trace(Decision{Time: d.Now(), Kind: "defer", Task: h, Chance: chance, Against: th})
	}
	d.Defer(h)
}

// Promising appends to dst the machines of ms (in index order, each with a free slot) on which
// task h's chance may be above its deferring threshold, and returns them with true; the others
// are those where the cut-offs alone (no chain) show it below. A pruning-aware heuristic (PAM)
// that keeps a task only for a chance above its threshold on the machine of its choice need not
// ask the chances of the others: each is below the threshold, so below the best when the task is
// kept, and the task is deferred whatever they are when it is not; none left means the task is
// deferred without a chance asked. The cut-offs are of the machines free when first asked in
// the event; a machine's FreeFrom only rises as tasks are assigned to it in the event, so a
// cut-off stays below the machine's later one, and the set of free machines only shrinks. False
// when unknown: with a trace (which records chances), a threshold of 0, or no free machine.
func (d *deferring) Promising(h int, ms, dst []int) ([]int, bool) {
	deadline, cut, all, ok := d.cutoffsOf(h)
	if !ok {
		return dst, false
	}
	if deadline < all {
		return dst, true
	}
	free, j := d.p.cut.free, 0
	for _, m := range ms {
		for j < len(free) && free[j] < m {
			j++
		}
		if j < len(free) && free[j] == m && deadline < cut[j] {
			continue // hopeless on m
		}
		dst = append(dst, m) // or not free when the cut-offs were taken: ask
	}
	return dst, true
}

// PromisingEach is Promising for each task of tasks in turn, with the work that depends only on
// the task's type done once per type (its threshold and cut-offs) and the matching of ms with
// the machines the cut-offs are of done once per call. For the i-th task it appends to dst the
// machines Promising would append, or all of ms where Promising would say it cannot tell (a
// threshold of 0), and appends len(dst) to ends; so the task's machines are
// dst[ends[i-1]:ends[i]] (from the start for the first), and none means it is deferred. False,
// with dst and ends as they came, when Promising could tell for no task: a trace, which records
// chances, or no free machine.
//
// A task's own work is then its deadline against its type's cut-offs, one comparison per
// machine. Sorting a type's tasks by deadline would let a binary search find the prefix of them
// that is hopeless on a machine, but every task still gets its own list or deferral, and in
// batch order; the comparisons it would save cost less than the sort.
func (d *deferring) PromisingEach(tasks, ms, dst, ends []int) ([]int, []int, bool) {
	if d.p.trace != nil {
		return dst, ends, false
	}
	if !d.cut {
		d.p.free = d.FreeMachines(d.p.free)
		d.p.cut.reset(d.p.free)
		d.cut = true
	}
	if len(d.p.free) == 0 {
		return dst, ends, false
	}
	s := &d.p.screen
	s.reset(ms, d.p.cut.free)
	for _, h := range tasks {
		typ, deadline := d.TypeAndDeadline(h)
		cut, all, _ := s.of(d, h, typ)
		switch {
		case cut == nil: // a threshold of 0: Promising cannot tell, so every machine is asked
			dst = append(dst, ms...)
		case deadline < all:
		default:
			for i, j := range s.at {
				if j < 0 || !(deadline < cut[j]) { // not free when the cut-offs were taken, or not hopeless
					dst = append(dst, ms[i])
				}
			}
		}
		ends = append(ends, len(dst))
	}
	return dst, ends, true
}

// typeScreen is the per-type state of one call of PromisingEach or Batch, in storage reused from
// call to call.
type typeScreen struct {
	at    []int       // per machine of ms, its index in the cut-offs' free machines, or -1
	state []int8      // per task type: 0 not yet seen in this call, 1 screened, 2 a threshold of 0
	cut   [][]float64 // per task type, its cut-offs (cutoffs.of), when screened
	all   []float64   // per task type, the earliest of them, when screened
	th    []float64   // per task type, its deferring threshold, when screened
	seen  []int       // the types seen in this call, to reset
}

// reset starts a call for machines ms (in index order) and cut-offs of machines free (the same).
func (s *typeScreen) reset(ms, free []int) {
	for _, tt := range s.seen {
		s.state[tt] = 0
	}
	s.seen, s.at = s.seen[:0], s.at[:0]
	j := 0
	for _, m := range ms {
		for j < len(free) && free[j] < m {
			j++
		}
		k := -1
		if j < len(free) && free[j] == m {
			k = j
		}
		s.at = append(s.at, k)
	}
}

// of is type tt's cut-offs, the earliest of them and its threshold, or nil and 0 for a type whose
// threshold is 0 (h is a task of the type).
func (s *typeScreen) of(d *deferring, h, tt int) ([]float64, float64, float64) {
	for len(s.state) <= tt {
		s.state, s.cut, s.all, s.th = append(s.state, 0), append(s.cut, nil), append(s.all, 0), append(s.th, 0)
	}
	switch s.state[tt] {
	case 1:
		return s.cut[tt], s.all[tt], s.th[tt]
	case 2:
		return nil, 0, 0
	}
	s.seen = append(s.seen, tt)
	th := d.p.DeferThreshold(tt)
	if th == 0 {
		s.state[tt] = 2
		return nil, 0, 0
	}
	s.cut[tt], s.all[tt] = d.p.cut.of(d.Event, h, tt, th)
	s.state[tt], s.th[tt] = 1, th
	return s.cut[tt], s.all[tt], th
}

// cutoffsOf is task h's deadline and its type's cut-offs for this event, per machine of
// p.cut.free and over all of them; false when the cut-offs do not decide (a trace, which records
// chances, a threshold of 0, or no free machine).
func (d *deferring) cutoffsOf(h int) (deadline float64, cut []float64, all float64, ok bool) {
	typ, deadline := d.TypeAndDeadline(h)
	if d.p.trace != nil {
		return 0, nil, 0, false
	}
	th := d.p.DeferThreshold(typ)
	if th == 0 {
		return 0, nil, 0, false
	}
	if !d.cut {
		d.p.free = d.FreeMachines(d.p.free)
		d.p.cut.reset(d.p.free)
		d.cut = true
	}
	if len(d.p.free) == 0 {
		return 0, nil, 0, false
	}
	cut, all = d.p.cut.of(d.Event, h, typ, th)
	return deadline, cut, all, true
}

// DeferThreshold lets a pruning-aware heuristic (PAM) defer by the pruner's threshold itself,
// before choosing among the remaining tasks.
func (d *deferring) DeferThreshold(h int) float64 {
	typ, _ := d.TypeAndDeadline(h) // not Task(h): it copies a struct with a slice, per pair of every round
	return d.p.DeferThreshold(typ)
}

func clamp01(x float64) float64 { return math.Max(0, math.Min(1, x)) }
