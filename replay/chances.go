package replay

import (
	"math"

	"github.com/hcreplay/hcreplay/pmf"
)

// chancer is where heuristics' probabilities come from: success chances and expected
// completions of tasks appended to machine queues, and the chances of the tasks already queued.
// The engine tells it when a mapping event begins and when a queue changes, so that an
// implementation may cache; the reference implementation ignores both and recomputes.
type chancer interface {
	begin()            // a mapping event starts; any queue may have changed since the last one
	changed(m int)     // machine m's queue (real or virtual) changed within the event
	appended(m, h int) // task h was appended to machine m's queue within the event
	release(h int)     // task h has left and its handle will serve another task
	ready(m int) pmf.PMF
	tail(m int) pmf.PMF
	success(h, m int) float64
	successAbove(h, m int, x float64) bool
	successBound(h, m int) float64
	successBoundBelow(h, m int, x float64) bool
	completion(h, m int) float64
	runCompletion(h, m int) float64
	completionBound(h, m int) float64
	completionBounds(hs []int, m int, out []float64) []float64
	queueChances(m int) []QueueChance
	queueAtOrBelow(m, from int, ths []float64) int
	queueFloors(m int) []float64
}

// QueueChance is what is known of a task waiting or running in a machine queue: its chance of
// success and the bounded skewness of its completion PMF (003 Eq 6), which the pruner's per-task
// dropping threshold uses (003 Eq 7); NaN for a mapper that says it does not read it
// (SkewnessReader).
type QueueChance struct {
	Success  float64
	Skewness float64
}

// reference recomputes every chain from scratch with plain convolutions (SPEC §5.5,
// pmf.AppendPlain): slow, obviously correct, the oracle for faster engines. The fast engine
// reuses its chain code with prefix set (pmf.Append: evicting links convolve only up to the
// deadline).
//
// The reference engine itself has own set: it builds what it does not hand out (the chains
// behind a chance or an expected completion, and queueChances) in that storage, with the same
// textbook convolution (pmf.AppendPlainReusing) and no table, instead of in new storage at every
// link; what it hands out (ready, tail) is still new. Built anew, the links' garbage ran the
// collector 260 times a second, whose stops, signals and page faults stopped every replay beside
// it as well: 30 HCW19 trials of PAM-P at 30k took 47.1 s of CPU (25.5 s on two cores), and 15.6
// s (8.1) now, the same decisions and counters (perf stat).
type reference struct {
	e      *engine
	prefix bool
	own    *chainScratch // the reference engine's own storage; nil where the fast engine uses this code
}

func newReference(e *engine) chancer { return reference{e: e, own: new(chainScratch)} }

func (r reference) begin()            {}
func (r reference) changed(int)       {}
func (r reference) appended(int, int) {}
func (r reference) release(int)       {}

// successBound knows nothing cheaper than certainty: the reference computes every chance it is
// asked for, so that it stays the oracle of the faster engines' bounds.
func (r reference) successBound(int, int) float64 { return 1 }

func (r reference) successBoundBelow(_, _ int, x float64) bool { return 1 < x }

// completionBound knows nothing cheaper than no bound, for the same reason.
func (r reference) completionBound(int, int) float64 { return math.Inf(-1) }

func (r reference) completionBounds(hs []int, _ int, out []float64) []float64 {
	out = out[:0]
	for range hs {
		out = append(out, math.Inf(-1))
	}
	return out
}

// queueFloors knows no floor, for the same reason.
func (r reference) queueFloors(int) []float64 { return nil }

// ready is the machine's free-time PMF before its first waiting task.
func (r reference) ready(m int) pmf.PMF {
	free, _ := r.readyAt(nil, m, r.e.now)
	return free
}

// readyAt is ready as it will be at time at, if the queue does not move before, built in s (nil:
// in new storage), and the time before which it stays as it is: the running task's conditioning
// on its elapsed time (of its drop-aware completion PMF here, of its execution PMF in
// headSuccess) changes only when at crosses a grid point of either. An idle machine's ready is an
// impulse at at, good for that time only. The running task's completion before conditioning is
// s.kept when the caller kept it from a chain of the same running task (the fast engine, when
// only time has moved), and is computed otherwise.
func (r reference) readyAt(s *chainScratch, m int, at float64) (pmf.PMF, float64) {
	e := r.e
	ms := &e.machines[m]
	if !ms.running {
		if s != nil {
			s.headFree = pmf.PMF{}
		}
		return s.impulse(at, e.step), at
	}
	h := ms.queue[0]
	c := e.taskCell(h, m)
	exec := c.exec
	start := e.tasks[h].Start
	var free pmf.PMF
	if s != nil && s.kept.Len() > 0 {
		free = s.kept
	} else {
		free, _ = r.append(s.headBuffer(), s.impulse(start, exec.Step()), exec, &c.table, e.keys[h].deadline)
	}
	if s != nil {
		s.headFree = free
	}
	if !e.opt.ConditionElapsed {
		return free, math.Inf(1)
	}
	until := min(exec.Shift(start).NextAfter(at), free.NextAfter(at))
	return s.condition(free, at), until
}

// chainScratch is the storage the fast engine builds chains in, so that a chain costs no
// allocation once it has grown; a chain built in it is valid until the next one. The reference
// engine builds what it hands out in new storage (a nil *chainScratch) and the rest in its own
// (reference.own), with the sums of new storage: the textbook convolution and no table.
type chainScratch struct {
	task               pmf.Buffer // the reference engine's link of a task appended to a chain built here
	start, head, ready pmf.Buffer
	exec               pmf.Buffer    // the running task's execution time, conditioned
	links              [2]pmf.Buffer // a link reads one and writes the other
	chances            []QueueChance
	headFree           pmf.PMF    // the running task's completion before conditioning, in head
	kept               pmf.PMF    // headFree of the same running task, kept by the caller: readyAt reads it instead of computing it again
	linkList           []pmf.Link // linksAt's waiting and virtual tasks, rewritten at each chain
	successes          []float64  // and their chances
	headLeft           bool       // chainAt leaves the running task's chance out, as NaN (fast.ensure)
}

// leaveHead reports whether chainAt leaves the running task's chance out of a chain built in s.
func (s *chainScratch) leaveHead() bool { return s != nil && s.headLeft }

// headBuffer is where the running task's completion goes (nil when s is nil).
func (s *chainScratch) headBuffer() *pmf.Buffer {
	if s == nil {
		return nil
	}
	return &s.head
}

// taskBuffer is where the link of a task appended to a chain built in s goes (nil when s is nil).
func (s *chainScratch) taskBuffer() *pmf.Buffer {
	if s == nil {
		return nil
	}
	return &s.task
}

// linkBuffer is where link i of the waiting tasks' chain goes (nil when s is nil).
func (s *chainScratch) linkBuffer(i int) *pmf.Buffer {
	if s == nil {
		return nil
	}
	return &s.links[i%2]
}

func (s *chainScratch) impulse(t, step float64) pmf.PMF {
	if s == nil {
		return pmf.Impulse(t, step)
	}
	return pmf.ImpulseInto(&s.start, t, step)
}

func (s *chainScratch) condition(d pmf.PMF, at float64) pmf.PMF {
	if s == nil {
		return d.Condition(at)
	}
	return d.ConditionInto(&s.ready, at)
}

func (s *chainScratch) conditionHead(d pmf.PMF, at float64) pmf.PMF {
	if s == nil {
		return d.Condition(at)
	}
	return d.ConditionInto(&s.exec, at)
}

// headSuccess is the running task's chance of success given what is known at time at, its
// conditioned PMF built in s (nil: in new storage). The fast engine (s set) reads a chance that
// conditioning leaves alone, as that of a task started at or after at, from the cell's table.
func (r reference) headSuccess(s *chainScratch, m int, at float64) float64 {
	e := r.e
	ms := &e.machines[m]
	h := ms.queue[0]
	c := e.taskCell(h, m)
	exec, deadline := c.exec.Shift(e.tasks[h].Start), e.keys[h].deadline
	if e.opt.ConditionElapsed && !exec.StartsAfter(at) {
		return s.conditionHead(exec, at).Success(deadline, e.opt.Strict)
	}
	if s != nil && r.own == nil { // the fast engine's storage; the reference engine's own reads no table
		return exec.SuccessTable(c.table, deadline, e.opt.Strict)
	}
	return exec.Success(deadline, e.opt.Strict)
}

// append is one link of the chain under the replay's drop model, counted, written into buf
// with the help of exec's cumulative table, which spares the prefix form a pass over exec; or,
// with buf nil, in new storage and without the table (the reference engine's links are always
// new, as are approx's, on compacted cells the engine keeps no table of).
func (r reference) append(buf *pmf.Buffer, prev, exec pmf.PMF, table *pmf.CDFTable, deadline float64) (pmf.PMF, float64) {
	e := r.e
	e.stats.convolutions++
	e.stats.multiplications += int64(prev.Len()) * int64(exec.Len())
	var next pmf.PMF
	var s float64
	var err error
	switch {
	case !r.prefix && buf != nil && r.own != nil: // the reference engine's own storage
		next, s, err = pmf.AppendPlainReusing(buf, e.opt.DropModel, prev, exec, deadline, e.opt.Strict)
	case !r.prefix && buf != nil: // the fast engine's oracle (fast.refAppend): AppendPlain's bits
		next, s, err = pmf.AppendPlainInto(buf, e.opt.DropModel, prev, exec, deadline, e.opt.Strict)
	case !r.prefix:
		next, s, err = pmf.AppendPlain(e.opt.DropModel, prev, exec, deadline, e.opt.Strict)
	case buf != nil:
		next, s, err = pmf.AppendIntoTable(buf, e.opt.DropModel, prev, exec, table, deadline, e.opt.Strict)
	default:
		next, s, err = pmf.Append(e.opt.DropModel, prev, exec, deadline, e.opt.Strict)
	}
	if err != nil {
		// PET cells share one step on one lattice (petbuild guarantees it); anything else is a
		// bug, not bad input.
		panic("replay: " + err.Error())
	}
	return next, s
}

// tail is the free-time PMF after every task in machine m's queue.
func (r reference) tail(m int) pmf.PMF {
	free, _ := r.chain(m)
	return free
}

// chain is the free-time PMF after every task in machine m's queue, and what is known of each
// queued task.
func (r reference) chain(m int) (pmf.PMF, []QueueChance) {
	free, chances, _ := r.chainAt(nil, m, r.e.now)
	return free, chances
}

// chainAt is chain as it will be at time at, if the queue does not move before, built in s (nil:
// in new storage), and the time before which it stays as it is (readyAt).
func (r reference) chainAt(s *chainScratch, m int, at float64) (pmf.PMF, []QueueChance, float64) {
	e := r.e
	ms := &e.machines[m]
	free, until := r.readyAt(s, m, at)
	var chances []QueueChance
	if s != nil {
		chances = s.chances[:0]
	}
	waiting := ms.queue
	if ms.running {
		p := math.NaN() // left out: fast.cached
		if !s.leaveHead() {
			p = r.headSuccess(s, m, at)
		}
		chances = append(chances, QueueChance{p, e.skewness(free)})
		waiting = waiting[1:]
	}
	if s != nil && r.prefix && !e.skew {
		return r.linksAt(s, m, free, waiting, chances), s.chances, until
	}
	link := 0 // under s, links alternate between two buffers: each reads the other's output
	for _, hs := range [][]int{waiting, e.virtual[m]} {
		for _, h := range hs {
			var p float64
			c := e.taskCell(h, m)
			free, p = r.append(s.linkBuffer(link), free, c.exec, &c.table, e.keys[h].deadline)
			chances = append(chances, QueueChance{p, e.skewness(free)})
			link++
		}
	}
	if s != nil {
		s.chances = chances
	}
	return free, chances, until
}

// linksAt is chainAt's loop over the waiting and virtual tasks of machine m behind free, for the
// fast engine when no skewness is read: the links in one call (pmf.AppendLinks), counted as
// append counts them, their chances appended to chances and kept in s.
func (r reference) linksAt(s *chainScratch, m int, free pmf.PMF, waiting []int, chances []QueueChance) pmf.PMF {
	e := r.e
	s.linkList = s.linkList[:0]
	for _, hs := range [][]int{waiting, e.virtual[m]} {
		for _, h := range hs {
			c := e.taskCell(h, m)
			s.linkList = append(s.linkList, pmf.Link{Exec: &c.exec, Table: &c.table, Deadline: e.keys[h].deadline})
		}
	}
	free, succ, mults, err := pmf.AppendLinks(&s.links, e.opt.DropModel, free, s.linkList, e.opt.Strict, s.successes[:0])
	if err != nil {
		panic("replay: " + err.Error()) // PET cells share one lattice: a bug, not bad input
	}
	e.stats.convolutions += int64(len(s.linkList))
	e.stats.multiplications += mults
	for _, p := range succ {
		chances = append(chances, QueueChance{p, math.NaN()})
	}
	s.successes, s.chances = succ, chances
	return free
}

// appendTask is task h appended to machine m's queue, in the reference engine's own storage:
// valid until its next call.
func (r reference) appendTask(h, m int) (pmf.PMF, float64) {
	e := r.e
	e.stats.successEvals++
	free, _, _ := r.chainAt(r.own, m, e.now)
	return r.append(r.own.taskBuffer(), free, e.taskCell(h, m).exec, nil, e.tasks[h].Task.Deadline)
}

func (r reference) success(h, m int) float64 {
	_, s := r.appendTask(h, m)
	return roundChance(s)
}

func (r reference) successAbove(h, m int, x float64) bool { return r.success(h, m) > x }

func (r reference) completion(h, m int) float64 {
	next, _ := r.appendTask(h, m)
	return roundTime(next.Mean())
}

func (r reference) runCompletion(h, m int) float64 {
	free, _, _ := r.chainAt(r.own, m, r.e.now)
	return roundTime(free.Mean() + r.e.taskCell(h, m).table.Mean())
}

// Chances and expected times are reported rounded (12 decimals; 1e-9 time units), so that
// engines that compute them in a different order agree exactly, and the ties a heuristic sees
// (chances of exactly 0 or 1 on several machines) are ties under every engine.
// A heuristic that derives a value of its own from engine output that is not rounded (a PMF's
// mean, MOC's Algorithm-1 value) rounds it with RoundChance or RoundTime before it compares, so
// that its ties too are ties under every engine.
func roundChance(p float64) float64 { return math.Round(p*1e12) / 1e12 }
func roundTime(t float64) float64   { return math.Round(t*1e9) / 1e9 }

// RoundChance rounds a chance (or any value on its scale) as the engines round the chances they
// report: to 12 decimals.
func RoundChance(p float64) float64 { return roundChance(p) }

// RoundTime rounds a time as the engines round the expected completions they report: to 1e-9
// time units.
func RoundTime(t float64) float64 { return roundTime(t) }

// skewness is QueueChance.Skewness of a task whose completion PMF is d: its bounded skewness,
// or NaN when the mapper does not read it. It is rounded as chances are when handed out (the
// pruner's dropping threshold is built on it and compared with a chance).
func (e *engine) skewness(d pmf.PMF) float64 {
	if !e.skew {
		return math.NaN()
	}
	return d.BoundedSkewness() // rounded where the chances are handed out (roundChances): a dropping threshold is compared with rounded chances
}

// queueChances is valid until its next call, as the fast engine's is.
func (r reference) queueChances(m int) []QueueChance {
	_, chances, _ := r.chainAt(r.own, m, r.e.now)
	return roundChances(chances[:0], chances)
}

func (r reference) queueAtOrBelow(m, from int, ths []float64) int {
	return atOrBelow(r.queueChances(m), from, ths)
}

// atOrBelow is the first position k ≥ from of chances at or below ths[k] > 0, or -1
// (Event.QueueChanceAtOrBelow).
func atOrBelow(chances []QueueChance, from int, ths []float64) int {
	for k := from; k < len(chances); k++ {
		if th := ths[k]; th > 0 && chances[k].Success <= th {
			return k
		}
	}
	return -1
}

// roundChances appends to out the chances of in rounded as the engines round the chances they
// report (roundChance), their skewnesses too: out may be in[:0].
func roundChances(out, in []QueueChance) []QueueChance {
	for _, c := range in {
		out = append(out, QueueChance{roundChance(c.Success), roundSkewness(c.Skewness)})
	}
	return out
}

// roundSkewness rounds a skewness to 1e-9, coarser than a chance: a skewness is a ratio of
// central moments, and the engines' unrounded values differ by up to 5.8e-13 (random workloads
// of TestFastQueueChancesAsReference's shape; chances by 2e-15), which would put every
// skewness within skewWindow of a 1e-12 rounding boundary. A dropping threshold moves with the
// skewness by a fraction of it: 5e-10 moves it by less than that.
func roundSkewness(x float64) float64 { return math.Round(x*1e9) / 1e9 }

// skewWindow is chanceWindow's counterpart for a skewness: about three times the largest
// difference measured between the engines' unrounded values.
const skewWindow = 2e-12

// fast caches, per machine, the free-time PMF after its queue and that PMF's cumulative table,
// and answers success chances and expected completions from the table with pmf.AppendStats:
// one pass over the task's execution-time PMF, no convolution (SPEC §5.5). An append extends a
// machine's cache with one convolution, made when the cache is next used as it is (settle).
// Anything else that may have moved a queue (an event begins, the pruner drops a task) marks the
// cache stale, and a stale cache is rebuilt with the reference's own chain only when the
// machine's state really differs from the one it was built for: other tasks in the queue,
// another task running, or the running task's elapsed time now cutting an impulse of its
// completion PMF that it did not cut before (pmf.PMF.NextAfter). So a machine whose queue did not
// move between events costs nothing, as the issue asks.
//
// Answers are memoised per (task, machine) with the version of the machine's table they were
// computed from. A machine's version changes only when its free-time PMF really changes (a
// rebuild that yields the same PMF keeps it), so a heuristic's repeated phase-1 sweeps, and the
// batch tasks that wait through many events, cost a lookup for every machine whose queue did not
// move.
type fast struct {
	reference
	reuse    bool // check a stale cache against the state it was built for (approx does not)
	valid    []bool
	built    []builtFor
	tails    []pmf.PMF
	tailBufs [][2]pmf.Buffer // per machine, storage for its tail: one holds tails[m], cur says which
	cur      []int
	scratch  chainScratch   // where chains are built before their tails are kept
	readied  chainScratch   // where ready builds its answer
	tables   []pmf.CDFTable // rewritten in place
	chances  [][]QueueChance
	versions []int64
	epochs   []int64     // per machine, changes whenever its queue's tasks change
	same     []int8      // per machine, sameQueue's answer in this event: 0 unknown, 1 yes, 2 no
	next     int64       // the next version (and epoch) number
	memo     []memoEntry // by handle × machine; version 0 is no entry
	// chance's recent evaluations under evict, and how many of them had their mean asked after
	// (memoized): when more than half, chance computes both at once.
	chanceAsked, meanAsked int
	floors                 []floorCache  // per machine
	exact                  []float64     // queueFloors' answer when it is the exact chances
	heads                  []pmf.PMF     // per machine, its running task's completion before conditioning, as of its chain
	headBufs               []pmf.Buffer  // where heads live
	drift                  []float64     // driftFloors' answer
	handed                 []QueueChance // queueChances' answer

	// The reference engine's chains (fast.oracle): those of the machines last asked for, where
	// they are built, and where refAppend appends.
	oracles  [oracleSlots]oracleTail
	asked    int64 // how many times oracle has been asked: the slots' clock
	refBuilt chainScratch
	refNext  pmf.Buffer
}

// oracleSlots is how many machines' reference chains the fast engine keeps (fast.oracle). A
// chain kept per machine let values near a rounding boundary, which come back to a few machines
// over several rounds and events, reuse it; but each machine's chain storage, first built and
// grown whenever a value near a boundary first lands on it, made allocations that went on
// through the replay (TestHeuristicsAllocateNothing). A few slots, reused least recently asked
// first, keep that reuse with storage bounded; the chains are built in one storage (refBuilt)
// and a slot keeps only the tail and the chances.
const oracleSlots = 4

// oracleTail is a machine's chain as the reference engine builds it, its tail and its queued
// tasks' chances in storage of their own, with the queue (its epoch) and the times it holds for.
// The reference's chain depends on the time it is built for only through the running task's
// conditioning on its elapsed time, which stays as it is from the time it was built for to until
// (reference.readyAt: the fast engine's own chains are kept on the same rule, fast.unmoved); an
// idle machine's, only at that time. So a chain asked again on the same queue within that span is the one built before, to
// the bit, and is not built again: values near a rounding boundary come back to a machine over
// several rounds and events, and alternate between machines.
type oracleTail struct {
	m         int
	epoch     int64 // of the machine's queue when built; 0: none
	asked     int64 // fast.asked when last asked for
	at, until float64
	tail      pmf.PMF // in kept
	kept      pmf.Buffer
	chances   []QueueChance
	running   bool    // whether m's head was running when built
	serials   []int64 // m's queue when built, its assignments of the event included, head first
}

// refAppend is reference.appendTask: task h appended to machine m's queue, computed as the
// reference engine computes it, to the bit (pmf.AppendPlainInto is pmf.AppendPlain), in storage
// of its own. Callers have ensured m.
func (f *fast) refAppend(h, m int) (pmf.PMF, float64) {
	o := f.oracle(m)
	f.e.stats.successEvals++
	return reference{e: f.e}.append(&f.refNext, o.tail, f.e.taskCell(h, m).exec, nil, f.e.tasks[h].Task.Deadline)
}

// refTail is machine m's tail as the reference engine builds it, to the bit. Callers have
// ensured m.
func (f *fast) refTail(m int) pmf.PMF { return f.oracle(m).tail }

// refChain is the chances of machine m's queued tasks as the reference engine computes them, to
// the bit (valid until oracle is next asked for another machine). Callers have ensured m.
func (f *fast) refChain(m int) []QueueChance { return f.oracle(m).chances }

// oracle is machine m's chain as the reference engine builds it (reference.chainAt) now: the one
// kept, when it was built on the queue m holds (its epoch, current once m is ensured) and the
// time has not moved past what it holds for (unmoved's rule), and otherwise built again, in m's
// slot or, when m has none, in the slot least recently asked for. What it returns is valid until
// oracle is next asked for another machine.
func (f *fast) oracle(m int) *oracleTail {
	f.asked++
	o := f.slot(m)
	o.asked = f.asked
	now := f.e.now
	if o.m == m && o.epoch != 0 && (now == o.at || now < o.until) { // exact: the time it was built for, or before its conditioning changes
		if o.epoch == f.epochs[m] {
			return o
		}
		if f.extend(o, m) {
			o.epoch = f.epochs[m]
			return o
		}
	}
	tail, chances, until := reference{e: f.e}.chainAt(&f.refBuilt, m, now)
	o.tail, o.chances = tail.CopyInto(&o.kept), append(o.chances[:0], chances...)
	o.m, o.epoch, o.at, o.until = m, f.epochs[m], now, until
	o.running, o.serials = f.e.machines[m].running, f.queueSerials(o.serials[:0], m)
	return o
}

// queueSerials appends to dst the serials of machine m's queue, its assignments of this event
// included, head first.
func (f *fast) queueSerials(dst []int64, m int) []int64 {
	e := f.e
	for i := range e.queued(m) {
		dst = append(dst, e.tasks[e.queuedAt(m, i)].serial)
	}
	return dst
}

// extend brings slot o's chain of machine m, built for a time that still holds, up to m's queue
// when that queue is the one o was built for with tasks appended behind it, the same task
// running: the reference's chain then is o's with a link per appended task, the same function of
// the same PMFs (pmf.AppendPlainInto), so the same bits, and each link is counted as the rebuild
// would count it. A batch heuristic's rounds append a task to a machine and ask about it again
// within the event: under MM-P on BenchmarkReplay's workload, 4,315 of the 6,911 chains the
// oracle built were for a time its slot still held. False, with o as it was, otherwise.
func (f *fast) extend(o *oracleTail, m int) bool {
	if !f.holds(m, o.running, o.serials) {
		return false
	}
	e := f.e
	ref := reference{e: e}
	tail, built, n := o.tail, len(o.serials), e.queued(m)
	for i := built; i < n; i++ {
		h := e.queuedAt(m, i)
		c := e.taskCell(h, m)
		var p float64
		tail, p = ref.append(f.refBuilt.linkBuffer(i), tail, c.exec, &c.table, e.keys[h].deadline)
		o.chances = append(o.chances, QueueChance{p, e.skewness(tail)})
		o.serials = append(o.serials, e.tasks[h].serial)
	}
	if n > built { // else tail is o.tail, in o.kept
		o.tail = tail.CopyInto(&o.kept)
	}
	return true
}

// slot is the oracle slot that holds machine m's chain, or else the one least recently asked
// for (an empty one first: its asked is 0).
func (f *fast) slot(m int) *oracleTail {
	lru := &f.oracles[0]
	for i := range f.oracles {
		o := &f.oracles[i]
		if o.epoch != 0 && o.m == m {
			return o
		}
		if o.asked < lru.asked {
			lru = o
		}
	}
	return lru
}

// floorCache holds lower bounds on the chances of a machine's queued tasks: their chances as they
// will be at time until, which hold from now to then while the queue holds the same tasks (its
// epoch).
type floorCache struct {
	epoch  int64
	until  float64
	floors []float64
}

// floorHorizon is how far ahead, in grid steps, queueFloors computes its bounds. Farther ahead
// they are looser but hold longer: one chain then serves the dropping phase for this many steps
// of the running task's progress, instead of one step.
const floorHorizon = 8

// builtFor is the state of a machine a cached chain was computed from.
type builtFor struct {
	serials []int64 // the queue, appends included, by task serial
	covered int     // how many of serials the cached chain covers; the rest await settle
	running bool
	at      float64       // the event time it was built at
	until   float64       // the running task's conditioning does not change before this time
	then    conditionedAt // driftFloors' weights at time at, once it has asked
}

// conditionedAt is how conditioning at a chain's time weighed its running task's completion and
// execution time (pmf.PMF.ConditionWeights), which driftFloors compares with conditioning now.
type conditionedAt struct {
	known, ok   bool
	free, freeN float64 // of the completion
	run, runN   float64 // of the execution time
}

type memoEntry struct {
	version, epoch int64 // of the machine's table, and of its queue, when computed
	success, mean  float64
	asked          bool // computed for chance, its mean not yet asked
}

func newFast(e *engine) chancer {
	n := len(e.machines)
	if old := spareFast(e.spareChances); old != nil {
		f := &fast{reference: reference{e: e, prefix: true}, reuse: true}
		f.recycle(old, n)
		return f
	}
	return &fast{reference: reference{e: e, prefix: true}, reuse: true, valid: make([]bool, n), built: make([]builtFor, n),
		tails: make([]pmf.PMF, n), tailBufs: make([][2]pmf.Buffer, n), cur: make([]int, n),
		tables: make([]pmf.CDFTable, n), chances: make([][]QueueChance, n),
		versions: make([]int64, n), epochs: make([]int64, n), same: make([]int8, n),
		floors: make([]floorCache, n), heads: make([]pmf.PMF, n), headBufs: make([]pmf.Buffer, n)}
}

func (f *fast) begin() {
	for m := range f.valid {
		f.valid[m], f.same[m] = false, 0
	}
}

func (f *fast) release(h int) {
	n := len(f.valid)
	if (h+1)*n <= len(f.memo) {
		clear(f.memo[h*n : (h+1)*n])
	}
}

func (f *fast) changed(m int) { f.valid[m], f.same[m] = false, 0 }

// appended notes that task h joined the end of machine m's queue. The link it adds to the
// cached chain is convolved only when the chain is next used as it is (settle): often the queue
// has moved on by then, as when a heuristic fills the slot a finished task freed and nothing asks
// about the machine before its next task finishes, and the chain is rebuilt anyway. Until then
// m's table is that of the queue without h, whose chances bound those with h from above under
// evict and none (successBound).
func (f *fast) appended(m, h int) {
	if !f.valid[m] && f.same[m] != 1 {
		f.same[m] = 0
		return
	}
	f.valid[m] = false
	f.built[m].serials = append(f.built[m].serials, f.e.tasks[h].serial)
	f.epochs[m] = f.bump()
	f.same[m] = 1 // the queue is what the cached chain and its pending links are for
}

// settle convolves onto machine m's cached chain the links of the tasks appended since it was
// built, when its queue still holds them: the chain is then what extending it at each append
// would have made, built for the same time.
func (f *fast) settle(m int) {
	b := &f.built[m]
	if b.covered == len(b.serials) || !f.sameQueue(m) {
		return
	}
	e := f.e
	for i := b.covered; i < len(b.serials); i++ { // the queue holds them at the same places
		h := e.queuedAt(m, i)
		f.cur[m] = 1 - f.cur[m] // the other buffer: the link reads the one holding the tail
		c := e.taskCell(h, m)
		next, s := f.append(&f.tailBufs[m][f.cur[m]], f.tails[m], c.exec, &c.table, e.keys[h].deadline)
		f.tails[m] = next
		f.chances[m] = append(f.chances[m], QueueChance{s, e.skewness(next)})
	}
	f.tails[m].CDFTableInto(&f.tables[m])
	f.versions[m] = f.bump()
	b.covered = len(b.serials)
}

func (f *fast) bump() int64 { f.next++; return f.next }

func (f *fast) ensure(m int) {
	if f.valid[m] {
		return
	}
	sameQueue := f.reuse && f.versions[m] != 0 && f.sameQueue(m)
	if sameQueue && f.unmoved(m) {
		f.settle(m)
		f.valid[m] = true
		return
	}
	f.scratch.kept = pmf.PMF{}
	if sameQueue {
		f.scratch.kept = f.heads[m] // the same task runs since it was built: only its conditioning moved
	}
	f.scratch.headLeft = true
	tail, chances, until := f.reference.chainAt(&f.scratch, m, f.e.now)
	f.scratch.kept, f.scratch.headLeft = pmf.PMF{}, false
	if !samePMF(tail, f.tails[m]) || f.versions[m] == 0 {
		f.tails[m] = tail.CopyInto(&f.tailBufs[m][f.cur[m]]) // the old tail is not needed any more
		tail.CDFTableInto(&f.tables[m])
		f.versions[m] = f.bump()
	}
	if !sameQueue {
		f.epochs[m] = f.bump()
	}
	f.chances[m] = append(f.chances[m][:0], chances...)
	if !sameQueue {
		f.heads[m] = pmf.PMF{}
		if f.scratch.headFree.Len() > 0 {
			f.heads[m] = f.scratch.headFree.CopyInto(&f.headBufs[m])
		}
	}
	f.valid[m] = true
	f.record(m, until)
}

// cached is machine m's cached chances, the running task's included: the one reader of them
// (callers have ensured or settled m). ensure leaves the running task's chance out (NaN): it is
// a pass over the task's execution time conditioned on its elapsed time, at every chain
// rebuilt, and only a pruner reads the queue's chances (MCT without pruning rebuilt 1,671 chains
// in BenchmarkReplay's 1,000 tasks and read none). cached fills it in as chainAt computes it,
// for the time the chain was built for: the queue and its running task are the ones it was built
// from, so it is the same number (TestHeadChanceOfItsChain).
func (f *fast) cached(m int) []QueueChance {
	c := f.chances[m]
	if len(c) > 0 && math.IsNaN(c[0].Success) {
		c[0].Success = f.reference.headSuccess(&f.scratch, m, f.built[m].at)
	}
	return c
}

// record notes the state machine m's chain was just built from, valid before until.
func (f *fast) record(m int, until float64) {
	e := f.e
	ms := &e.machines[m]
	b := &f.built[m]
	b.serials = f.queueSerials(b.serials[:0], m)
	b.covered = len(b.serials)
	b.running, b.at, b.until, b.then = ms.running, e.now, until, conditionedAt{}
	f.same[m] = 1
}

// unmoved reports whether machine m is in the state its cached chain was built from, so that
// rebuilding it would give the same chain and chances. Callers have checked sameQueue.
func (f *fast) unmoved(m int) bool {
	b := &f.built[m]
	return f.e.now == b.at || f.e.now < b.until // exact: b.at is this event's time, and until the float at which conditioning changes (pmf.PMF.NextAfter)
}

// sameQueue reports whether machine m's queue holds the tasks its cached chain was built from,
// in the same order and with the same one running, whatever the time: then only the running
// task's conditioning on its elapsed time, or an idle machine's now, can have moved.
func (f *fast) sameQueue(m int) bool {
	if f.same[m] == 0 {
		f.same[m] = 2
		if f.compareQueue(m) {
			f.same[m] = 1
		}
	}
	return f.same[m] == 1
}

// compareQueue is sameQueue without the answer kept for the event.
func (f *fast) compareQueue(m int) bool {
	b := &f.built[m]
	return f.e.queued(m) == len(b.serials) && f.holds(m, b.running, b.serials)
}

// holds reports whether machine m's queue, this event's assignments included, starts with the
// tasks of serials, in that order, its head running as running says.
func (f *fast) holds(m int, running bool, serials []int64) bool {
	e := f.e
	if e.machines[m].running != running || e.queued(m) < len(serials) {
		return false
	}
	for i, s := range serials {
		if e.tasks[e.queuedAt(m, i)].serial != s {
			return false
		}
	}
	return true
}

// samePMF reports whether two PMFs are identical to the bit.
func samePMF(a, b pmf.PMF) bool {
	if a.Len() != b.Len() || a.Origin() != b.Origin() || a.Step() != b.Step() {
		return false
	}
	for k := range a.Len() {
		if a.Prob(k) != b.Prob(k) {
			return false
		}
	}
	return true
}

func (f *fast) tail(m int) pmf.PMF { f.ensure(m); return f.tails[m] }

// ready is the reference's, built in storage of its own that the next call reuses (Event.Ready).
func (f *fast) ready(m int) pmf.PMF {
	free, _ := f.reference.readyAt(&f.readied, m, f.e.now)
	return free
}

// queueChances is the cached chances, rounded as the reference engine rounds its own
// (Event.QueueChances: read them before asking again). As for success and completion, rounding
// alone does not make the engines agree: the fast engine's chains (tables, fused links) differ
// from the reference's plain ones in their last bits, and a chance within chanceWindow of a
// rounding boundary, or a skewness within skewWindow of one, may round apart. Then the chances are the reference's
// chain's (refChain), rounded: both engines round the same numbers. A pruner compares them with
// its dropping thresholds.
func (f *fast) queueChances(m int) []QueueChance {
	f.ensure(m)
	chances := f.cached(m)
	for _, c := range chances {
		if nearHalf(c.Success*1e12, chanceWindow*1e12) || nearHalf(c.Skewness*1e9, skewWindow*1e9) {
			chances = f.refChain(m)
			break
		}
	}
	f.handed = roundChances(f.handed[:0], chances)
	return f.handed
}

// queueAtOrBelow is atOrBelow over queueChances' answer, decided from the cached chances before
// rounding where each is clearOf its threshold (the chance queueChances reports is then on the
// same side), so that neither the rounding nor the
// reference's chain for a chance near a rounding boundary costs anything: queueChances'
// answer is asked only for a chance that near its threshold, which is rare. A pruner's
// dropping phase asks this where its thresholds do not depend on the skewness.
func (f *fast) queueAtOrBelow(m, from int, ths []float64) int {
	f.ensure(m)
	chances := f.cached(m)
	for k := from; k < len(chances); k++ {
		th := ths[k]
		if th <= 0 {
			continue
		}
		if s := chances[k].Success; clearOf(s, th) {
			if s <= th {
				return k
			}
			continue
		}
		return atOrBelow(f.queueChances(m), k, ths)
	}
	return -1
}

// against computes task h's chance and expected completion against machine m's cached table.
func (f *fast) against(h, m int) func() (float64, float64, error) {
	return func() (float64, float64, error) {
		c := f.e.taskCell(h, m)
		return pmf.AppendStatsTable(f.e.opt.DropModel, c.exec, &c.table, &f.tables[m], f.e.keys[h].deadline, f.e.opt.Strict)
	}
}

// chance is task h's chance on machine m, from the memo as memoized reads it, or computed alone
// against whatever table m holds (pmf.AppendSuccessTable, AppendStatsTable's bits) and kept:
// most questions are for a chance (PAM's phase 1, the bounds, the pruner's thresholds), and
// under evict the chance alone costs half the pass over the task's execution time, so there its
// mean is kept as NaN, not computed. In PAM-P's replays of HCW19 fewer than 2% of the pairs
// asked also had their expected completion asked, which then costs the full pass (memoized).
// Under none and pending the mean costs a few lookups (pmf.AppendMeanTable, AppendStatsTable's
// bits) and is kept with the chance, as it was when both came from one pass: completionBound
// then reads it from the memo. Where most chances asked under evict have their mean asked too
// (MM-P, whose pruner asks the chances of the pairs MM ranks by completion; PAM without
// pruning, whose chances of 1 tie and go to the completions), two passes cost more than one:
// while more than half of the recent ones have (meanAsked), both are computed at once, as
// memoized would (the same bits either way: TestAppendSuccessTableIsStats).
func (f *fast) chance(h, m int) float64 {
	if i := h*len(f.valid) + m; i < len(f.memo) && f.memo[i].version == f.versions[m] {
		return f.memo[i].success
	}
	f.e.stats.successEvals++
	c, model, deadline := f.e.taskCell(h, m), f.e.opt.DropModel, f.e.keys[h].deadline
	evict := model == pmf.Evict
	var s float64
	var err error
	mean := math.NaN()
	if evict && 2*f.meanAsked > f.chanceAsked {
		s, mean, err = pmf.AppendStatsTable(model, c.exec, &c.table, &f.tables[m], deadline, f.e.opt.Strict)
	} else {
		s, err = pmf.AppendSuccessTable(model, c.exec, &c.table, &f.tables[m], deadline, f.e.opt.Strict)
		if err == nil && !evict {
			mean, _, err = pmf.AppendMeanTable(model, &c.table, &f.tables[m], deadline)
		}
	}
	if err != nil {
		panic("replay: " + err.Error()) // PET cells share one lattice: a bug, not bad input
	}
	f.remember(h, m, s, mean, evict)
	if evict {
		if f.chanceAsked++; f.chanceAsked == askedWindow { // recent ones: halve both now and then
			f.chanceAsked, f.meanAsked = f.chanceAsked/2, f.meanAsked/2
		}
	}
	return s
}

// askedWindow is how many chances chance counts before it halves its counts (fast.chanceAsked):
// the switch to one pass follows what a replay asks lately, not since its start, for a replay
// whose first tasks tie at chances of 1 (each mean asked) and whose later ones do not.
const askedWindow = 4096

// memoized returns the success chance and expected completion of task h on machine m from the
// memo when machine m's table has not changed since they were computed, and computes them
// otherwise, against whatever table m holds: callers ensure m first. An entry that holds the
// chance alone (its mean NaN: chance) does not serve.
func (f *fast) memoized(h, m int, compute func() (success, mean float64, err error)) (float64, float64) {
	if i := h*len(f.valid) + m; i < len(f.memo) && f.memo[i].version == f.versions[m] {
		e := &f.memo[i]
		if e.asked { // the chance was asked first (chance): count its mean asked once
			e.asked = false
			f.meanAsked++
		}
		if !math.IsNaN(e.mean) {
			return e.success, e.mean
		}
	}
	f.e.stats.successEvals++
	s, mean, err := compute()
	if err != nil {
		panic("replay: " + err.Error()) // PET cells share one lattice: a bug, not bad input
	}
	f.remember(h, m, s, mean, false)
	return s, mean
}

// remember keeps task h's chance and mean (NaN: not computed) on machine m in the memo, for the
// version of m's table they were computed against, and whether they were computed for chance
// (memoEntry.asked).
func (f *fast) remember(h, m int, s, mean float64, asked bool) {
	n := len(f.valid)
	if need := (h + 1) * n; need > len(f.memo) {
		f.memo = append(f.memo, make([]memoEntry, max(need, 2*len(f.memo))-len(f.memo))...)
	}
	f.memo[h*n+m] = memoEntry{version: f.versions[m], epoch: f.epochs[m], success: s, mean: mean, asked: asked}
}

// successBound is an upper bound on task h's chance on machine m that costs no chain: its chance
// against any table m had while its queue held the tasks it holds now, at this event or an
// earlier one, or 1. The table itself may still lack the links of tasks appended since (settle):
// a task appended at the end maps every free time to a later one too, so chances against the
// shorter queue are higher. While a queue holds the same tasks, time only moves its free-time PMF
// later: the running task's completion conditioned on a later elapsed time is stochastically
// larger (P(C ≤ t | C > b) ≤ P(C ≤ t | C > a) for b > a; past its support it moves to the next
// grid point, later still), an idle machine's impulse at now moves with now, and every link of
// the chain (a task skipped, run or killed at its deadline) maps a later start to a later end. A
// task's chance P(start + X ≤ δ) can then only fall. So a chance memoised against an older table
// of the same queue (its epoch) bounds the chance now, and costs not even the pass over the
// task's execution time that the current table would. Not under pending, where a predecessor that
// starts just before its deadline runs long but one that starts after it is skipped: a later
// start can free the machine sooner (pmf's TestAppendMonotone).
func (f *fast) successBound(h, m int) float64 {
	s, ok := f.rawBound(h, m)
	if !ok {
		return 1
	}
	return roundedAbove(s)
}

// successBoundBelow is successBound(h, m) < x, to the bit, without rounding a bound that lies
// far from x (roundedBelow): the callers compare the bound with a threshold or a best chance less
// a slack, and the rounding decides only where the two are within a rounding step.
func (f *fast) successBoundBelow(h, m int, x float64) bool {
	s, ok := f.rawBound(h, m)
	if !ok {
		return 1 < x
	}
	return roundedBelow(s, x)
}

// rawBound is successBound before rounding, false where successBound knows no bound but 1.
func (f *fast) rawBound(h, m int) (float64, bool) {
	if !f.reuse || f.e.opt.DropModel == pmf.Pending || f.versions[m] == 0 || !(f.valid[m] || f.sameQueue(m)) {
		return 0, false
	}
	if i := h*len(f.valid) + m; i < len(f.memo) && f.memo[i].version != 0 && f.memo[i].epoch == f.epochs[m] {
		return f.memo[i].success, true
	}
	return f.chance(h, m), true
}

// roundedBelow is roundedAbove(s) < x, compared as s is where s is clearOf x.
func roundedBelow(s, x float64) bool {
	if clearOf(s, x) {
		return s < x
	}
	return roundedAbove(s) < x
}

// clearOf reports whether the fast engine's chance s lies far enough from x that every value the
// engines may report for it lies on the same side of x: the reference's chance is within
// chanceWindow of s, rounding moves a chance by at most half a rounding step (5e-13), and
// roundedAbove by that plus 2·chanceWindow, the division that rounds by a relative 1e-16. The
// pruners' comparisons with thresholds (successAbove, queueAtOrBelow, roundedBelow) decide from s
// where it is clear, and round, or ask the reference's chain, only near x.
func clearOf(s, x float64) bool { return math.Abs(s-x) > 1e-11 }

// roundedAbove is chance s rounded as success rounds it, or as the reference's value may round
// when s lies near a rounding boundary: never below, so a bound stays a bound.
func roundedAbove(s float64) float64 {
	if nearHalf(s*1e12, chanceWindow*1e12) {
		return roundChance(s + 2*chanceWindow)
	}
	return roundChance(s)
}

// completionBound is a lower bound on task h's expected completion on machine m that costs no
// chain: currentBound, against m's table when its chain is up to date, and otherwise against
// the table m had while its queue held the tasks it holds now, less any appended since (settle).
// Against the older table it is the bound of the completion there (pmf.AppendMeanBound, or the
// completion itself when memoised), not that completion computed afresh: a pass over h's
// execution time for a task that is usually new (an arrival with several free machines) cost
// more than the few chains the weaker bound has MCT and MM build more (cachegrind, 10 replays
// of 1,000 tasks: MCT 4.5% and MM 1.4% fewer instructions, decisions unchanged). By
// successBound's argument, each appended task and the passing of time map every free time of
// m to a later one, which can only delay h's own completion: every link of the chain, and h's
// link after it, maps a later start to a later end. That needs the chain's grid to stay where it
// was, which the running task's start pins: an idle machine's grid starts at now, and moves with
// it, so a task killed at the first grid point after its deadline may be killed up to a step
// sooner than on the old grid. So an idle machine gets a bound only from a table of this event
// (its queue then holds only this event's assignments, and its chain is short). Nor under
// pending, for successBound's reason: pmf's TestAppendPendingNotMonotone. Nor under approx
// (reuse off), whose tables are of compacted cells that only its own methods know.
func (f *fast) completionBound(h, m int) float64 {
	if !f.reuse {
		return math.Inf(-1)
	}
	if f.valid[m] {
		return f.currentBound(h, m)
	}
	if f.e.opt.DropModel == pmf.Pending || f.versions[m] == 0 || !f.sameQueue(m) || !(f.built[m].running || f.e.now == f.built[m].at) { // exact: a table of this very event
		return math.Inf(-1)
	}
	return f.currentBound(h, m)
}

// currentBound is completionBound against the table machine m holds (its chain's, up to date or
// not): the completion against it when that is memoised, and otherwise pmf.AppendMeanBound
// against it, which costs a few lookups instead of a pass over the task's execution time. It is
// not rounded as completions are: a bound that is the mean itself (under none and pending, and
// under evict when no run can be killed) may then exceed the rounded completion by half its last
// digit (5e-10), which the heuristics' slack (a thousand times that) absorbs, as it absorbs the
// two formulas' differing roundings anyway. Rounding cost MM 1% of its instructions (cachegrind,
// 10 replays).
func (f *fast) currentBound(h, m int) float64 {
	return f.tableBound(h, m, f.e.machines[m].Type, f.versions[m], &f.tables[m])
}

// tableBound is currentBound with what every task shares given: machine m's type, and the
// version and table of its chain.
func (f *fast) tableBound(h, m, mt int, version int64, table *pmf.CDFTable) float64 {
	if i := h*len(f.valid) + m; i < len(f.memo) && f.memo[i].version == version && !math.IsNaN(f.memo[i].mean) {
		mean := f.memo[i].mean
		if w := timeWindow(mean); nearHalf(mean*1e9, w*1e9) {
			return roundTime(mean - 2*w) // completion may round the reference's value down
		}
		return roundTime(mean)
	}
	k := &f.e.keys[h]
	return pmf.AppendMeanBound(f.e.opt.DropModel, &f.e.cell(int(k.typ), mt).table, table, k.deadline)
}

// completionBounds is completionBound(h, m) for each task h of hs, in out's storage. With m's
// chain up to date it is currentBound's loop with what every task shares read once: a heuristic
// that bounds many tasks on one machine (MM's leads) then pays for the lookups, not the calls.
func (f *fast) completionBounds(hs []int, m int, out []float64) []float64 {
	out = out[:0]
	if !f.reuse || !f.valid[m] {
		for _, h := range hs {
			out = append(out, f.completionBound(h, m))
		}
		return out
	}
	mt, version, table := f.e.machines[m].Type, f.versions[m], &f.tables[m]
	for _, h := range hs {
		out = append(out, f.tableBound(h, m, mt, version, table))
	}
	return out
}

// queueFloors returns lower bounds on machine m's queued tasks' chances (Event.QueueFloors):
// the exact chances when its chain is up to date or costs nothing to bring up to date. While the
// queue holds the tasks of its last chain and only time has moved, the bounds that cost no chain:
// driftFloors, raised to the chances as they will be floorHorizon steps from now (time only
// lowers them: successBound) while an earlier such chain still holds. When driftFloors has no
// answer (an idle machine with tasks queued on it, a running task past its support) a chain
// ahead is built and kept until then, except under pending, where time can raise a chance and
// there is no floor but driftFloors.
func (f *fast) queueFloors(m int) []float64 {
	if !f.reuse {
		return nil
	}
	if f.valid[m] || f.versions[m] == 0 || !f.sameQueue(m) || f.unmoved(m) {
		f.ensure(m)
		f.exact = f.exact[:0]
		for _, c := range f.queueChances(m) {
			f.exact = append(f.exact, c.Success)
		}
		return f.exact
	}
	f.settle(m) // driftFloors and the floors ahead read the chances of every queued task
	drift, ok := f.driftFloors(m)
	if f.e.opt.DropModel == pmf.Pending {
		if ok {
			return drift
		}
		return nil
	}
	fc := &f.floors[m]
	if !(fc.epoch == f.epochs[m] && f.e.now <= fc.until) { // exact: the floors bound every time up to until
		if ok {
			return drift // a chain ahead costs as much as the exact one
		}
		at := f.e.now + floorHorizon*f.e.step
		_, chances, _ := f.reference.chainAt(&f.scratch, m, at)
		fc.epoch, fc.until, fc.floors = f.epochs[m], at, fc.floors[:0]
		for _, c := range chances {
			fc.floors = append(fc.floors, c.Success)
		}
	}
	if !ok {
		return fc.floors
	}
	for i, x := range fc.floors {
		drift[i] = max(drift[i], x)
	}
	return drift
}

// driftFloors bounds machine m's queued tasks' chances now from below by the chances its cached
// chain gave at the time it was built, when only time has moved since (the queue holds the same
// tasks). The chain was built on its running task's completion conditioned on the elapsed time,
// which is a mixture of that completion's impulses after then (pmf.PMF.ConditionWeights); every
// link of the chain, under every drop model, maps a mixture to the same mixture of its
// images, so a queued task's chance is the same mixture of its chances σ(s) ∈ [0, 1] given the
// running task ends at s. Conditioning on a later time drops the impulses in between and
// renormalises: with the kept mass K and normaliser N of each conditioning, the chance S₁ now
// and S₀ then satisfy S₁·N₁ = S₀·N₀ − Σ_dropped p(s)·σ(s) ≥ S₀·N₀ − (K₀ − K₁). The running
// task's own chance is the same mixture of its execution time's impulses. Costs no chain; false
// when the machine is idle, conditioning is off, or now is past the support.
func (f *fast) driftFloors(m int) ([]float64, bool) {
	e := f.e
	ms := &e.machines[m]
	b := &f.built[m]
	if !ms.running || !e.opt.ConditionElapsed || f.heads[m].Len() == 0 || len(f.chances[m]) == 0 {
		return nil, false
	}
	h := ms.queue[0]
	exec := e.taskCell(h, m).exec.Shift(e.tasks[h].Start)
	if !b.then.known {
		c := &b.then
		var ok0, ok1 bool
		c.free, c.freeN, ok0 = f.heads[m].ConditionWeights(b.at)
		c.run, c.runN, ok1 = exec.ConditionWeights(b.at)
		c.known, c.ok = true, ok0 && ok1
	}
	free1, freeN1, ok0 := f.heads[m].ConditionWeights(e.now)
	run1, runN1, ok1 := exec.ConditionWeights(e.now)
	if !(b.then.ok && ok0 && ok1) {
		return nil, false
	}
	free0, freeN0, run0, runN0 := b.then.free, b.then.freeN, b.then.run, b.then.runN
	f.drift = f.drift[:0]
	for i, c := range f.cached(m) {
		if i == 0 {
			f.drift = append(f.drift, max(0, (c.Success*runN0-(run0-run1))/runN1))
			continue
		}
		f.drift = append(f.drift, max(0, (c.Success*freeN0-(free0-free1))/freeN1))
	}
	return f.drift, true
}

func (f *fast) success(h, m int) float64 {
	f.ensure(m)
	s := f.chance(h, m)
	if nearHalf(s*1e12, chanceWindow*1e12) {
		_, s = f.refAppend(h, m)
	}
	return roundChance(s)
}

// successAbove is success(h, m) > x, to the bit, without the reference's chain for a chance that
// is clearOf x: success computes the reference's value, and rounds it, only to decide which way
// a chance near a rounding boundary goes, and where the fast engine's chance is clear of x,
// success(h, m) is on the same side of it. A pruner that compares chances with its thresholds
// and records none (no trace) asks this, and the values near a rounding boundary it meets cost
// no chain of the reference's.
func (f *fast) successAbove(h, m int, x float64) bool {
	f.ensure(m)
	if s := f.chance(h, m); clearOf(s, x) {
		return s > x
	}
	return f.success(h, m) > x
}

func (f *fast) completion(h, m int) float64 {
	mean := f.mean(h, m)
	if nearHalf(mean*1e9, timeWindow(mean)*1e9) {
		next, _ := f.refAppend(h, m)
		mean = next.Mean()
	}
	return roundTime(mean)
}

// mean is stats's mean without the chance where the drop model lets the mean go without it
// (pmf.AppendMeanTable: none and pending), to the bit: a few lookups instead of a pass over the
// task's execution time. Such a mean is neither memoised nor counted as a success evaluation,
// as it costs less than the memo's lookup would save: a heuristic that ranks by completions
// (MSD, MMU) asks about every batch task on every machine whose chain moved.
func (f *fast) mean(h, m int) float64 {
	f.ensure(m)
	c := f.e.taskCell(h, m)
	mean, ok, err := pmf.AppendMeanTable(f.e.opt.DropModel, &c.table, &f.tables[m], f.e.keys[h].deadline)
	if err != nil {
		panic("replay: " + err.Error()) // PET cells share one lattice: a bug, not bad input
	}
	if ok {
		return mean
	}
	_, mean = f.memoized(h, m, f.against(h, m))
	return mean
}

// runCompletion is the reference's sum, from the cached table's mean (the tail's, to the bit),
// with the reference's own tail when the sum lies near a rounding boundary (as completion).
func (f *fast) runCompletion(h, m int) float64 {
	f.ensure(m)
	exec := f.e.taskCell(h, m).table.Mean()
	t := f.tables[m].Mean() + exec
	if nearHalf(t*1e9, timeWindow(t)*1e9) {
		t = f.refTail(m).Mean() + exec
	}
	return roundTime(t)
}

// Rounding alone does not make the engines agree: the fast engine's unrounded values differ
// from the reference's in their last bits (tables against plain convolutions), and a value that
// lies that close to a rounding boundary (half a unit of the 12th decimal of a chance, or of
// 1e-9 of a time) rounds up on one engine and down on the other. On HCW19 trial arr34k_8 (MM,
// evict) task 390's expected completion on machine 1 at t = 1183.22 was 1309.2199999994996 on the
// reference engine and 1309.2199999995003 on the fast one: rounded, 1309.219999999 against
// 1309.22, the completion of task 382 too, so MM mapped 390 on one engine and 382 on the other.
// So the fast engine rounds its own value only when it is clearly away from a boundary, and
// otherwise computes the value as the reference engine does (refAppend: the same code on the
// same state, hence the same float64) and rounds that: both engines then round the same number.
// The windows are about three times the largest differences measured between the engines'
// unrounded values (random workloads at times in the thousands, cells of up to 60 impulses:
// chances 1.7e-15 apart, completions 1.4e-15 of their magnitude); they are measured, not proven,
// and TestFastRoundsAsReference checks them. Each value that falls in them costs one plain
// chain (BenchmarkReplay's 1,000 HCW19-like tasks under evict: MM makes 68 more evaluations, 2,014
// against 1,946, and 3.8% more impulse multiplications; PAM-P 61 more of 19,176, and 5.2%).
const chanceWindow = 5e-15

// timeWindow is chanceWindow's counterpart for an expected completion near t: the engines'
// difference grows with the magnitude of the times they sum.
func timeWindow(t float64) float64 { return 1e-14 + 4e-15*math.Abs(t) }

// nearHalf reports whether x (a value in units of its rounding) lies within w of a rounding
// boundary (an integer and a half), where engines that differ by less than w may round it
// apart.
func nearHalf(x, w float64) bool {
	return math.Abs(x-math.Floor(x)-0.5) <= w
}
