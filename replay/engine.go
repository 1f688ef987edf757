package replay

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/hcreplay/hcreplay/pmf"
)

// Mapper is a mapping heuristic as the engine drives it: at every mapping event it looks at the
// batch and the machines through ev and assigns (or defers) tasks.
type Mapper interface {
	Name() string
	Mode() Mode
	Map(ev Event)
}

// SkewnessReader is implemented by a Mapper that says whether it reads QueueChance.Skewness.
// A skewness costs a pass over a chain link, on every chain an engine builds, so the engines
// leave it out (NaN) for a mapper that says it does not read it; a mapper that does not say gets
// it.
type SkewnessReader interface {
	ReadsSkewness() bool
}

// ReadsSkewness reports whether m reads QueueChance.Skewness: what it says, or true when it does
// not say. Mappers that wrap another ask it of the one they wrap.
func ReadsSkewness(m Mapper) bool {
	if r, ok := m.(SkewnessReader); ok {
		return r.ReadsSkewness()
	}
	return true
}

// SlotWaiter is implemented by a Mapper that does nothing at a mapping event where no machine
// has a free slot: it assigns and defers nothing and keeps nothing of what it could read there
// (Event.Exits among it), as a batch heuristic whose rounds start from the free slots does. The
// engine does not call Map at such an event if WaitsForSlot says so: in a crowded replay about
// half the events are arrivals that find every queue full (910 of MM's 1,962 on 1,000
// HCW19-like tasks at the 34k level), and the call, its two clock readings and the chance
// engine's reset before it cost 1.6% of MM's instructions (cachegrind, 10 replays). The event
// still counts as one, with no mapper time.
// A mapper that wraps another must not say so on the other's behalf unless it too does nothing
// there (the pruner reads every event's exits).
type SlotWaiter interface {
	WaitsForSlot() bool
}

// WaitsForSlot reports whether m says it does nothing while every queue is full (SlotWaiter);
// false when it does not say. Mappers that wrap another may ask it of the one they wrap.
func WaitsForSlot(m Mapper) bool {
	w, ok := m.(SlotWaiter)
	return ok && w.WaitsForSlot()
}

// Config is one replay: the model the mapper believes, the world durations come from, the
// machines and the trace.
type Config struct {
	PET      PET       // the model: what heuristics and chances see
	Truth    PET       // where durations are drawn from; nil means PET
	Machines []Machine // one entry per machine
	Tasks    []Task    // sorted by arrival (ties by ID)
	// Source, when set, streams the tasks instead of Tasks, in the same order. The engine reads
	// one arrival ahead and recycles the records of tasks that left, so with Options.OnTask a
	// replay's memory is bounded by the tasks in the system, not by the trace's length.
	Source  TaskSource
	Options Options
	// Scratch, when set, is storage an earlier replay left, which this one reuses and leaves its
	// own in: one per worker of a sweep. It changes nothing a replay decides or reports.
	Scratch *Scratch
}

// TaskSource yields a trace's tasks one at a time, sorted by arrival (ties by ID).
type TaskSource interface {
	// Next returns the next task, or ok false when the trace has ended.
	Next() (t Task, ok bool, err error)
}

// sliceSource is a TaskSource over a slice.
type sliceSource struct {
	tasks []Task
	i     int
}

func (s *sliceSource) Next() (Task, bool, error) {
	if s.i >= len(s.tasks) {
		return Task{}, false, nil
	}
	s.i++
	return s.tasks[s.i-1], true, nil
}

// taskState is the engine's record of one task.
type taskState struct {
	Outcome
	queued   bool    // in a machine queue (running or waiting)
	duration float64 // actual duration once started
	serial   int64   // arrival order: unique for the whole replay, unlike handles
	hint     int     // Event.Hint + 1, 0 for none
	// tentative: assigned in this event by AssignTentative, to be taken back (Retract)
	tentative bool
}

// taskKey is what lookups by handle read of a task, kept apart from its taskState so that they
// read 24 bytes a task rather than a record several cache lines long: its type and deadline
// (cell lookups, TypeAndDeadline), whether it is in the batch, and the mapping event that
// assigned or deferred it (Batch, once the event has marked a task).
type taskKey struct {
	deadline float64
	marked   int64
	typ      int32
	inBatch  bool
}

// machineState is one machine: its queue (head first; the head runs when running is set).
type machineState struct {
	Machine
	queue   []int // task handles
	running bool
	busy    float64 // total busy time
	free    float64 // when the current run ends (finish or kill)
}

// popHead removes the head of the queue, moving the rest forward so that the queue keeps its
// storage (reslicing from the front would make every later append allocate).
func (ms *machineState) popHead() {
	ms.queue = append(ms.queue[:0], ms.queue[1:]...)
}

// queued is how many tasks machine m's queue holds, this event's assignments included.
func (e *engine) queued(m int) int { return len(e.machines[m].queue) + len(e.virtual[m]) }

// queuedAt is task i of machine m's queue, this event's assignments behind the queue, head
// first.
func (e *engine) queuedAt(m, i int) int {
	if q := e.machines[m].queue; i < len(q) {
		return q[i]
	}
	return e.virtual[m][i-len(e.machines[m].queue)]
}

// engine is one replay in progress.
type engine struct {
	cfg       Config
	opt       Options
	mapper    Mapper
	tasks     []taskState // by handle; records of tasks that left are reused (spare)
	keys      []taskKey   // by handle, what lookups by handle read (taskKey)
	spare     []int       // handles free for the next arrivals
	source    TaskSource
	next      Task // the next arrival, when hasNext
	hasNext   bool
	machines  []machineState
	batch     []int      // unmapped task handles in arrival order
	batchKey  []BatchKey // and their types and deadlines, in the same order
	virtual   [][]int    // per machine, the tasks assigned in the current mapping event
	assigned  []int      // the machines with tasks in virtual, in order of their first assignment
	exited    []Exit     // tasks that left since the previous mapping event's Map (Event.Exits)
	events    eventHeap
	seq       int
	now       float64
	chances   chancer
	samplers  []truthSampler // by cell index, as cells: made when a task of the cell first starts
	step      float64
	clock     clock   // how times compare: as the chains compare them
	ending    []int   // the machines whose runs end at the current event
	gridLimit float64 // maxGridSteps steps: the farthest from 0 a task's times may lie
	exits     exitLog
	stats     runStats
	began     time.Time      // when the engine was made: mapping events are timed as offsets from it
	onExit    func(*Outcome) // stats.onExit, bound once: a method value made per exit allocates
	view      mapping        // the Event of every mapping event, reset at each
	skew      bool           // the mapper reads QueueChance.Skewness (ReadsSkewness)
	waits     bool           // the mapper does nothing while every queue is full (SlotWaiter)
	groups    typeGroups     // the batch by task type, once the mapper has asked (Event.BatchGroups)
	cells     []cellEntry    // the PET's cells with their tables, by task type × machine type (cell)
	stride    int            // cells' row length: one more than the largest machine type
	batchDue  float64        // no task in the batch has a deadline before this
	queueDue  float64        // no waiting task in a machine queue has a deadline before this

	spareChances chancer // an ended replay's chance engine, for the new one's storage (Scratch)
}

// Run replays cfg.Tasks through mapper and returns the outcomes and the run's metrics.
func Run(ctx context.Context, cfg Config, mapper Mapper) (*Result, error) {
	chances := newFast
	switch cfg.Options.Engine {
	case "reference":
		chances = newReference
	case "approx":
		chances = newApprox
	}
	e, err := newEngine(cfg, mapper, chances)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	if err := e.run(ctx); err != nil {
		return nil, err
	}
	res := e.result()
	res.Timing.TotalSeconds = time.Since(start).Seconds()
	if res.Timing.TotalSeconds > 0 {
		res.Timing.TasksPerSecond = float64(e.stats.arrived) / res.Timing.TotalSeconds
	}
	cfg.Scratch.keep(e)
	return res, nil
}

func newEngine(cfg Config, mapper Mapper, newChances func(*engine) chancer) (*engine, error) {
	if err := cfg.Options.Validate(); err != nil {
		return nil, err
	}
	if cfg.PET == nil || len(cfg.Machines) == 0 {
		return nil, errors.New("replay: no PET or no machines")
	}
	if cfg.Truth == nil {
		cfg.Truth = cfg.PET
	}
	e := &engine{cfg: cfg, opt: cfg.Options, mapper: mapper, skew: ReadsSkewness(mapper), waits: WaitsForSlot(mapper),
		batchDue: math.Inf(1), queueDue: math.Inf(1), began: time.Now()}
	if mapper.Mode() == Immediate {
		e.opt.QueueSize = math.MaxInt
	}
	e.source = cfg.Source
	if e.source == nil {
		e.source = &sliceSource{tasks: cfg.Tasks}
	}
	n := len(cfg.Machines)
	cfg.Scratch.recycle(mapper)
	if old := cfg.Scratch.take(); old != nil {
		e.recycle(old, n)
	} else {
		e.machines, e.virtual = make([]machineState, n), make([][]int, n)
		e.view.queues = make([][]int, n)
	}
	for i, m := range cfg.Machines {
		e.machines[i].Machine = m
		e.stride = max(e.stride, m.Type+1)
	}
	if err := e.readNext(); err != nil {
		return nil, err
	}
	if e.hasNext {
		e.step = cfg.PET.Cell(e.next.Type, cfg.Machines[0].Type).Step()
		e.gridLimit = maxGridSteps * e.step
		e.clock = newClock(e.step)
	}
	e.exits = newExitLog(e.opt.Trim, e.opt.OnTask, e.exits.pending)
	e.onExit = e.stats.onExit
	e.view.e = e
	e.chances = newChances(e)
	e.spareChances = nil
	return e, nil
}

// truthSampler draws the durations of one cell of Config.Truth, once made.
type truthSampler struct {
	pmf.Sampler
	made bool
}

// cellEntry is a PET cell and its cumulative table.
type cellEntry struct {
	exec  pmf.PMF
	table pmf.CDFTable
}

// cell is the execution-time PMF of task type tt on machine type mt with its cumulative table.
// The cells lie in one array, row by task type, which arrive grows to every type that arrives
// and fills, from the PET, for the machine types of the replay: the chains and bounds of every
// event read cells of many types, one lookup each, with no check whether a cell was read (that
// kept cell from being inlined: cachegrind, 10 MM replays, 2% of the instructions).
func (e *engine) cell(tt, mt int) *cellEntry { return &e.cells[e.cellIndex(tt, mt)] }

// cellIndex is the place of cell (tt, mt) in cells, and of its sampler in samplers.
func (e *engine) cellIndex(tt, mt int) int { return tt*e.stride + mt }

// readRow reads from the PET the cells of task type tt on the machine types of the replay,
// unless they were read before: when a task of type tt arrives.
func (e *engine) readRow(tt int) {
	if need := (tt + 1) * e.stride; need > len(e.cells) {
		e.cells = append(e.cells, make([]cellEntry, need-len(e.cells))...) // between events: no cell is held
		e.samplers = append(e.samplers, make([]truthSampler, need-len(e.samplers))...)
	}
	for i := range e.machines {
		mt := e.machines[i].Type
		if c := &e.cells[e.cellIndex(tt, mt)]; c.exec.Len() == 0 {
			c.exec = e.cfg.PET.Cell(tt, mt)
			c.table = cellTable(e.cfg.PET, tt, mt, c.exec)
		}
	}
}

// tabledPET is a PET that keeps each cell's cumulative table (petbuild.PET does), so that the
// replays of one matrix share the tables rather than each building its own: for a replay of a
// thousand tasks that is a twentieth of its time.
type tabledPET interface {
	PET
	CellTable(taskType, machineType int) pmf.CDFTable
}

// cellTable is the cumulative table of d, cell (tt, mt) of pet: pet's own when it keeps them.
func cellTable(pet PET, tt, mt int, d pmf.PMF) pmf.CDFTable {
	if tp, ok := pet.(tabledPET); ok {
		return tp.CellTable(tt, mt)
	}
	return d.CDFTable()
}

// taskCell is the cell of task h's type on machine m's type.
func (e *engine) taskCell(h, m int) *cellEntry {
	return e.cell(int(e.keys[h].typ), e.machines[m].Type)
}

// readNext reads the next arrival from the source and checks the order.
func (e *engine) readNext() error {
	prev, had := e.next, e.hasNext
	t, ok, err := e.source.Next()
	if err != nil {
		return fmt.Errorf("replay: read task %d: %w", e.stats.arrived+1, err)
	}
	e.next, e.hasNext = t, ok
	if ok && (math.IsNaN(t.Arrival) || math.IsInf(t.Arrival, 0) || math.IsNaN(t.Deadline)) {
		return &TaskError{ID: t.ID, Msg: fmt.Sprintf("arrival %g, deadline %g: both must be numbers, the arrival finite", t.Arrival, t.Deadline)}
	}
	if ok && had && less(t, prev) {
		return &TaskError{ID: t.ID, Msg: fmt.Sprintf("arrives at %g, before task %d at %g: sort the trace", t.Arrival, prev.ID, prev.Arrival)}
	}
	return nil
}

// TaskError is a task the replay cannot take, from Config.Tasks or Config.Source: times that
// are not numbers, arrivals out of order, or times too far from 0 for the PET's grid
// (maxGridSteps). It is the input's fault, not the engine's.
type TaskError struct {
	ID  int64
	Msg string
}

func (e *TaskError) Error() string { return fmt.Sprintf("replay: task %d: %s", e.ID, e.Msg) }

// maxGridSteps bounds a task's times in grid steps from 0: past 2^50 steps, adjacent float64
// values lie more than a quarter of a step apart, and a chain's impulses, laid at a clock time
// plus whole steps, would be rounded onto their neighbours. With a step of 1 ms that is 35,000
// years, past package trace's bound on times (1e12 s); with a step of 1 ns, 13 days.
const maxGridSteps = 1 << 50

// gridError is the error of a task whose arrival or finite deadline lies beyond e.gridLimit
// (maxGridSteps steps of the PET's grid from 0), which arrive checks.
func (e *engine) gridError(t Task) error {
	return &TaskError{ID: t.ID, Msg: fmt.Sprintf("arrival %g, deadline %g: times past ±%.4g (2^50 steps of the PET's grid, %g) cannot be laid on it", t.Arrival, t.Deadline, e.gridLimit, e.step)}
}

// arrive puts the next arrival in the batch under a fresh or recycled handle.
func (e *engine) arrive() error {
	t := e.next
	if math.Abs(t.Arrival) > e.gridLimit || math.Abs(t.Deadline) > e.gridLimit && !math.IsInf(t.Deadline, 1) { // exact: a bound on magnitudes
		return e.gridError(t) // a deadline of +Inf (none) is allowed
	}
	h := len(e.tasks)
	if n := len(e.spare); n > 0 {
		h = e.spare[n-1]
		e.spare = e.spare[:n-1]
	} else {
		e.tasks = append(e.tasks, taskState{})
		e.keys = append(e.keys, taskKey{})
	}
	e.keys[h] = taskKey{deadline: t.Deadline, marked: -1, typ: int32(t.Type), inBatch: true}
	e.tasks[h] = taskState{
		Outcome: Outcome{Task: t, Machine: -1, MapTime: math.NaN(), Start: math.NaN(), Predicted: math.NaN()},
		serial:  int64(e.stats.arrived),
	}
	e.stats.arrive(t)
	e.batch = append(e.batch, h)
	e.batchKey = append(e.batchKey, BatchKey{Type: t.Type, Deadline: t.Deadline})
	if e.groups.on {
		e.joinGroup(h)
	}
	e.batchDue = min(e.batchDue, t.Deadline)
	if c := (t.Type+1)*e.stride - 1; c >= len(e.cells) || e.cells[c].exec.Len() == 0 {
		e.readRow(t.Type)
	}
	return e.readNext()
}

func less(a, b Task) bool {
	return a.Arrival < b.Arrival || (a.Arrival == b.Arrival && a.ID < b.ID) // exact: trace order
}

// run processes events until none is left: machine finishes from the heap, arrivals from the
// source. Everything that happens at the same time as the earliest of them (clock: within the
// grid tolerance) is one mapping event, at the latest of their times, finishes first: the chains
// would count a run that ends a hair after an arrival as ended at the arrival's time.
func (e *engine) run(ctx context.Context) error {
	for e.events.Len() > 0 || e.hasNext {
		if e.stats.mappingEvents%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		first := math.Inf(1)
		if e.events.Len() > 0 {
			first = e.events[0].time
		}
		if e.hasNext && e.next.Arrival < first { // exact: the earliest pending time
			first = e.next.Arrival
		}
		e.now, e.ending = first, e.ending[:0]
		for e.events.Len() > 0 && e.clock.atOrBefore(e.events[0].time, first) {
			ev := e.events.pop()
			e.now = max(e.now, ev.time)
			e.ending = append(e.ending, ev.machine)
		}
		for e.hasNext && e.clock.atOrBefore(e.next.Arrival, first) {
			e.now = max(e.now, e.next.Arrival)
			if err := e.arrive(); err != nil { // an arrival only joins the batch: it reads no time
				return err
			}
		}
		for _, m := range e.ending {
			e.finish(m)
		}
		for e.events.Len() > 0 && e.clock.atOrBefore(e.events[0].time, e.now) {
			e.finish(e.events.pop().machine) // a run of no length, started by a finish above
		}
		e.mappingEvent()
	}
	// Whatever is still in the batch has nobody left to map it: it expires at its deadline.
	for _, h := range e.batch {
		e.exit(h, ExpiredUnmapped, math.Max(e.now, e.tasks[h].Task.Deadline))
	}
	e.batch, e.batchKey = e.batch[:0], e.batchKey[:0]
	e.exits.flush()
	return nil
}

// mappingEvent is one mapping event at e.now (SPEC §5.1).
func (e *engine) mappingEvent() {
	e.stats.mappingEvents++
	e.expire()
	ev := &e.view
	ev.deferred, ev.marks, ev.tentative = ev.deferred[:0], 0, 0
	reported := len(e.exited) // what Map is told (Event.Exits)
	ev.reported = reported
	if !e.waits || e.anyFree() {
		e.chances.begin()            // nothing asks about chances outside Map: skipped with it
		start := time.Since(e.began) // one monotonic reading, where time.Now takes the wall clock too
		e.mapper.Map(ev)
		e.stats.mapperWall += time.Since(e.began) - start
	}
	e.commit(ev)
	// The tasks that left before Map have been reported (Event.Exits): their handles can serve
	// new arrivals. Those that left during Map or commit (the pruner's drops, queued tasks
	// dropped at their deadline on start) are the next event's to report: clearing them too
	// would hide them from the pruner, whose sufferage would never rise for its own drops
	// (issue 45).
	for _, x := range e.exited[:reported] {
		e.spare = append(e.spare, x.Task)
		e.chances.release(x.Task)
	}
	e.exited = append(e.exited[:0], e.exited[reported:]...)
}

// anyFree reports whether some machine has a free slot, as Event.FreeMachines counts them.
func (e *engine) anyFree() bool {
	for m := range e.machines {
		if slots(e.opt.QueueSize, &e.machines[m], e.virtual[m]) > 0 {
			return true
		}
	}
	return false
}

// expire removes unmapped tasks whose deadline has passed and, under evict and pending, queued
// tasks that have not started and can no longer finish in time. The batch and the queues are
// walked only when a deadline may have passed (batchDue, queueDue): in a crowded replay the
// batch holds hundreds of tasks, and most events expire none of them.
func (e *engine) expire() {
	if e.clock.atOrBefore(e.batchDue, e.now) {
		e.batchDue = math.Inf(1)
		e.dropPastBatch()
	}
	if e.opt.DropModel == pmf.None || e.clock.before(e.now, e.queueDue) {
		return
	}
	e.queueDue = math.Inf(1)
	for m := range e.machines {
		ms := &e.machines[m]
		first := 0
		if ms.running {
			first = 1 // only waiting tasks expire here
		}
		ms.queue = ms.queue[:first+len(e.dropPastWaiting(ms.queue[first:]))]
	}
}

// dropPastWaiting removes from hs, waiting tasks of a machine queue, in place, the tasks whose
// deadline has passed, each leaving the system dropped, and lowers queueDue to the deadlines of
// the tasks it keeps.
func (e *engine) dropPastWaiting(hs []int) []int {
	kept := hs[:0]
	for _, h := range hs {
		t := &e.tasks[h]
		if d := t.Task.Deadline; e.clock.before(e.now, d) {
			kept = append(kept, h)
			e.queueDue = min(e.queueDue, d)
			continue
		}
		t.queued = false
		e.exit(h, DroppedDeadline, e.now)
	}
	return kept
}

// dropPastBatch is dropPastWaiting for the batch: the tasks leave it unmapped, its keys are kept
// in step, and batchDue is lowered.
func (e *engine) dropPastBatch() {
	k := 0
	for i, h := range e.batch {
		if d := e.batchKey[i].Deadline; e.clock.before(e.now, d) {
			e.batch[k], e.batchKey[k] = h, e.batchKey[i]
			k++
			e.batchDue = min(e.batchDue, d)
			continue
		}
		e.keys[h].inBatch = false
		if e.groups.on {
			e.leaveGroup(h)
		}
		e.exit(h, ExpiredUnmapped, e.now)
	}
	e.batch, e.batchKey = e.batch[:k], e.batchKey[:k]
}

// commit moves the event's assignments from the batch into the machine queues and starts idle
// machines.
func (e *engine) commit(ev *mapping) {
	if ev.tentative != 0 {
		panic(fmt.Sprintf("replay: %s left %d tentative assignments (AssignTentative) in the queues, without the chances Assign records", e.mapper.Name(), ev.tentative))
	}
	n := 0 // tasks assigned
	for _, m := range e.assigned {
		hs := e.virtual[m]
		e.machines[m].queue = append(e.machines[m].queue, hs...)
		for _, h := range hs {
			t := &e.tasks[h]
			e.keys[h].inBatch, t.queued = false, true
			if e.groups.on {
				e.leaveGroup(h)
			}
			t.Machine, t.MapTime = m, e.now
			e.queueDue = min(e.queueDue, t.Task.Deadline)
		}
		n += len(hs)
	}
	e.leaveBatch(n)
	for _, m := range e.assigned {
		e.virtual[m] = e.virtual[m][:0]
	}
	e.assigned = e.assigned[:0]
	for _, h := range ev.deferred {
		e.tasks[h].Deferred++
	}
	for m := range e.machines {
		if !e.machines[m].running {
			e.startNext(m)
		}
	}
}

// leaveBatch takes the n tasks assigned in this event (e.virtual) out of the batch, keys with
// them. An event mostly assigns a task or two out of a long batch: each is then found and
// deleted, which costs less than a pass that looks every task up. More than a few (four, a
// round guess: both ways give the same batch), and the pass costs less; it writes every task
// and counts the kept ones, without a branch on which: those that leave sit anywhere.
func (e *engine) leaveBatch(n int) {
	if n <= 4 {
		for _, m := range e.assigned {
			for _, h := range e.virtual[m] {
				i, last := slices.Index(e.batch, h), len(e.batch)-1
				copy(e.batch[i:], e.batch[i+1:]) // slices.Delete would also clear the last place
				copy(e.batchKey[i:], e.batchKey[i+1:])
				e.batch, e.batchKey = e.batch[:last], e.batchKey[:last]
			}
		}
		return
	}
	k := 0
	for i, h := range e.batch {
		e.batch[k], e.batchKey[k] = h, e.batchKey[i]
		if e.keys[h].inBatch {
			k++
		}
	}
	e.batch, e.batchKey = e.batch[:k], e.batchKey[:k]
}

// startNext starts the first task of machine m's queue that can still start: under evict and
// pending, tasks whose deadline has passed are dropped on the way.
func (e *engine) startNext(m int) {
	ms := &e.machines[m]
	for len(ms.queue) > 0 {
		h := ms.queue[0]
		t := &e.tasks[h]
		if e.opt.DropModel != pmf.None && e.clock.atOrBefore(t.Task.Deadline, e.now) {
			ms.popHead()
			t.queued = false
			e.exit(h, DroppedDeadline, e.now)
			continue
		}
		t.Start = e.now
		t.duration = e.duration(t.Task, ms.Type)
		end := e.now + t.duration
		if e.opt.DropModel == pmf.Evict && !e.meets(end, t.Task.Deadline) {
			end = t.Task.Deadline // killed at the deadline
		}
		ms.running = true
		ms.free = end
		e.push(event{time: end, machine: m})
		return
	}
}

// finish ends the run of machine m's head task at e.now: completion, or a kill at the deadline.
func (e *engine) finish(m int) {
	ms := &e.machines[m]
	h := ms.queue[0]
	ms.popHead()
	ms.running = false
	t := &e.tasks[h]
	t.queued = false
	ms.busy += e.now - t.Start
	switch {
	case e.meets(t.Start+t.duration, t.Task.Deadline):
		e.exit(h, OnTime, e.now)
	case e.opt.DropModel == pmf.Evict:
		e.exit(h, DroppedDeadline, e.now)
	default:
		e.exit(h, Late, e.now)
	}
	e.startNext(m)
}

// meets reports whether finishing at end meets deadline d: at or before it, or before it under
// --strict, as the chains count success (clock).
func (e *engine) meets(end, d float64) bool {
	if e.opt.Strict {
		return e.clock.before(end, d)
	}
	return e.clock.atOrBefore(end, d)
}

// drop removes a queued task on the pruner's decision; a running task is stopped now.
func (e *engine) drop(h int) {
	t := &e.tasks[h]
	ms := &e.machines[t.Machine]
	if ms.running && ms.queue[0] == h {
		ms.busy += e.now - t.Start
		ms.running = false
		e.events.remove(t.Machine)
	}
	for i, q := range ms.queue {
		if q == h {
			ms.queue = append(ms.queue[:i], ms.queue[i+1:]...)
			break
		}
	}
	t.queued = false
	e.exit(h, DroppedPruned, e.now)
}

// duration is the actual duration of task t on a machine of type mt: observed, or drawn with
// common random numbers from the truth PET.
func (e *engine) duration(t Task, mt int) float64 {
	if mt < len(t.Observed) && !math.IsNaN(t.Observed[mt]) {
		return t.Observed[mt]
	}
	s := &e.samplers[e.cellIndex(t.Type, mt)] // a task's type has its row of cells from its arrival on (readRow)
	if !s.made {
		d := e.cfg.Truth.Cell(t.Type, mt)
		s.Sampler, s.made = pmf.NewSamplerTable(d, cellTable(e.cfg.Truth, t.Type, mt, d)), true
	}
	return s.At(crnUniform(e.opt.Seed, t.ID, mt))
}

// crnUniform maps (seed, task, machine type) to a uniform number in [0, 1) with SplitMix64
// mixing: the same inputs give the same number under every heuristic.
func crnUniform(seed uint64, task int64, mt int) float64 {
	x := seed ^ 0x9e3779b97f4a7c15
	for _, v := range [...]uint64{uint64(task), uint64(mt)} {
		x += v*0xbf58476d1ce4e5b9 + 0x9e3779b97f4a7c15
		x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
		x = (x ^ (x >> 27)) * 0x94d049bb133111eb
		x ^= x >> 31
	}
	return float64(x>>11) / (1 << 53)
}

// exit records that task h left the system with status s at time at.
func (e *engine) exit(h int, s Status, at float64) {
	t := &e.tasks[h]
	t.Status = s
	t.End = at
	e.exited = append(e.exited, Exit{h, s})
	e.stats.count(t)
	e.exits.add(&t.Outcome, e.onExit)
}

func (e *engine) push(ev event) {
	ev.seq = e.seq
	e.seq++
	e.events.push(ev)
}

// event is the end of a machine's run (a finish or a kill). Arrivals come from the source.
type event struct {
	time    float64
	machine int
	seq     int
}

// eventHeap orders events by time, then machine, then insertion.
type eventHeap []event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	if a.time != b.time { // exact: heap order
		return a.time < b.time // exact: heap order
	}
	if a.machine != b.machine {
		return a.machine < b.machine
	}
	return a.seq < b.seq
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(event)) }
func (h *eventHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// push, pop and remove are heap.Push, heap.Pop and heap.Remove without their interface{}
// values, each of which would allocate: the event loop allocates nothing (issue 6).
func (h *eventHeap) push(ev event) {
	*h = append(*h, ev)
	heap.Fix(h, len(*h)-1)
}

func (h *eventHeap) pop() event {
	ev := (*h)[0]
	h.cut(0)
	return ev
}

// remove deletes the event of machine m, if there is one.
func (h *eventHeap) remove(m int) {
	for i, ev := range *h {
		if ev.machine == m {
			h.cut(i)
			return
		}
	}
}

// cut deletes event i: the last takes its place and sinks or rises to where it belongs.
func (h *eventHeap) cut(i int) {
	last := len(*h) - 1
	h.Swap(i, last)
	*h = (*h)[:last]
	if i < last {
		heap.Fix(h, i)
	}
}
