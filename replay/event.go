package replay

import (
	"fmt"
	"math"
	"slices"

	"github.com/hcreplay/hcreplay/pmf"
)

// Event is a mapping event as a heuristic or the pruner sees it. Tasks are named by handles
// (ints) that stay valid while the task is in the system and until the mapping event that
// reports its exit (Exits) is over; the engine then gives the handle to a later arrival, so a
// heuristic must not keep handles of tasks that left. Queues, free slots and chances reflect the
// assignments already made in this event, so a heuristic that assigns one task and asks again
// sees the machine's queue grown by that task (thesis §3.1: "recompute after each assignment").
type Event interface {
	// Now is the time of the event.
	Now() float64
	// Batch lists the unmapped tasks not yet assigned or deferred in this event, in arrival
	// order (ties by task ID). The slice is the engine's, rewritten by the next call: a caller
	// may filter it in place, and must not keep it across another call.
	Batch() []int
	// BatchKeys is the type and deadline of each task Batch() would list now, in the same
	// order: read from storage the engine keeps beside the batch, so that a heuristic that
	// scans the whole batch at every event (MM's soonest) makes no call per task. The slice may
	// be the engine's: read it, do not change or keep it, and ask again after an Assign or Defer.
	BatchKeys() []BatchKey
	// BatchGroups is the batch grouped by task type, with each type's earliest deadline, while
	// no task has been assigned or deferred in this event (ok is false after the first: ask
	// BatchKeys): groups[ty] holds the tasks of type ty, for every type up to the largest seen
	// so far, empty for a type not in the batch. The engine keeps the groups up to date from the
	// first call on, so that a heuristic that wants each type's earliest deadline at every event
	// does not group a long batch at every event. The groups are the engine's: read them, do not
	// change or keep them.
	BatchGroups() (groups []BatchGroup, ok bool)
	// Task describes task h.
	Task(h int) Task
	// Hint is the machine a mapper noted for task h with SetHint earlier in this replay, or -1.
	// It is a mapper's memory of a task that lasts as long as the task in this replay and not
	// past it: a mapper that kept it itself, by handle, would carry it into the next replay it
	// maps, whose work would then depend on what it replayed before.
	Hint(h int) int
	// SetHint notes machine m for task h (Hint).
	SetHint(h, m int)
	// TypeAndDeadline is Task(h)'s type and deadline, from storage that holds only these: a
	// heuristic that scans a long batch for them at every event reads far less memory.
	TypeAndDeadline(h int) (taskType int, deadline float64)
	// NumMachines is the number of machines; machines are 0..NumMachines()-1.
	NumMachines() int
	// Machine describes machine m.
	Machine(m int) Machine
	// Free is the number of tasks machine m can still take in this event (huge in immediate
	// mode, where queues are unbounded).
	Free(m int) int
	// FreeMachines lists the machines with a free slot (Free(m) > 0), in index order, written
	// into ms's storage (grown as needed) and returned: one call where a heuristic would ask
	// Free of every machine at every event.
	FreeMachines(ms []int) []int
	// Queue lists the tasks in machine m's queue, the running one first, this event's
	// assignments last. The slice is the engine's, rewritten by the next call for the same
	// machine.
	Queue(m int) []int
	// Running reports whether the head of machine m's queue is executing.
	Running(m int) bool
	// Exec is the model's execution-time PMF of task h on machine m.
	Exec(h, m int) pmf.PMF
	// ExecTable is Exec(h, m)'s cumulative table, which the engine keeps for every PET cell: its
	// Mean is Exec(h, m).Mean() to the bit, without the pass over the PMF.
	ExecTable(h, m int) pmf.CDFTable
	// Ready is when machine m becomes free for the first task waiting in its queue before this
	// event: the running task's completion PMF (conditioned on its elapsed time when that option
	// is on, cut at its deadline under evict), or an impulse at Now for an idle machine. It may
	// share the engine's storage: use it before asking for another Ready.
	Ready(m int) pmf.PMF
	// Tail is when machine m becomes free after every task in Queue(m), this event's
	// assignments included: the completion PMF the next appended task would start from. It may
	// share the engine's storage: use it before the queue changes.
	Tail(m int) pmf.PMF
	// FreeFrom is a time before which machine m cannot become free for a task appended to its
	// queue now, whatever the outcomes of the tasks in Queue(m): it costs no chain, only a pass
	// over the queue. A task appended to m cannot complete before FreeFrom(m) plus its shortest
	// execution time, which lets a pruner find it hopeless without asking for its chance.
	FreeFrom(m int) float64
	// Success is the chance that task h meets its deadline if appended to machine m now.
	Success(h, m int) float64
	// SuccessAbove is Success(h, m) > x, the same answer, at less cost where the chance lies far
	// from x: a pruner that compares a chance with a threshold, and keeps no record of it, asks
	// this.
	SuccessAbove(h, m int, x float64) bool
	// SuccessBound is an upper bound on Success(h, m) that costs no convolution: a chance the
	// engine computed earlier for the same queue, which time can only have lowered, or 1 when it
	// knows none. A pruner decides "no better than the threshold" from it without the chain.
	SuccessBound(h, m int) float64
	// SuccessBoundBelow is SuccessBound(h, m) < x, the same answer, without rounding the bound
	// where it lies far from x: a pruner or heuristic that compares the bound with a threshold
	// asks this.
	SuccessBoundBelow(h, m int, x float64) bool
	// Completion is the expected time machine m becomes free after task h, if h is appended.
	Completion(h, m int) float64
	// RunCompletion is the expected time task h's run ends if h is appended to machine m now and
	// runs to its end: the mean of Tail(m) plus the mean of Exec(h, m), rounded as Completion is
	// (on every engine the same number, see doc.go "Time"). Under drop model none it is
	// Completion's value, by another sum; under evict it is not capped by h's own kill at its
	// deadline, and under pending it counts h in full where h would be dropped at its start. A
	// heuristic that asks how late h itself would be (MMU's urgency) asks this, not when the
	// machine is free again.
	RunCompletion(h, m int) float64
	// CompletionBound is a lower bound on Completion(h, m) that costs no convolution: the
	// expected completion against an earlier table of the same queue, which time and the tasks
	// appended since can only have raised; once m's chain is up to date, a bound from its table
	// that costs a few lookups instead of the pass over h's execution time Completion makes
	// (pmf.AppendMeanBound); or -Inf when the engine knows none. A bound may exceed Completion
	// by the rounding of reported completions (5e-10): a heuristic decides "no sooner than the
	// best so far" from it, by more than a slack, without the machine's chain or the pass.
	CompletionBound(h, m int) float64
	// CompletionBounds is CompletionBound(h, m) for each task h of hs, in order, written into
	// out's storage (grown as needed) and returned: one call for a heuristic that bounds many
	// tasks on one machine.
	CompletionBounds(hs []int, m int, out []float64) []float64
	// QueueChances is the chance of success and the skewness of the completion PMF of each task
	// in Queue(m), head first. The slice may be the engine's: read it before asking again or
	// changing the queue.
	QueueChances(m int) []QueueChance
	// QueueChanceAtOrBelow is the first position k ≥ from of Queue(m) whose task's chance, as
	// QueueChances(m) reports it, is at or below ths[k] (one threshold per position; one of 0 or
	// less matches nothing), or -1: the answer a scan of QueueChances(m) gives, at less cost
	// where the chances lie far from their thresholds. A pruner that drops the tasks at or below
	// thresholds that do not depend on the skewness, and records no chance, asks this.
	QueueChanceAtOrBelow(m, from int, ths []float64) int
	// QueueFloors is a lower bound on each chance QueueChances(m) reports, in the same order,
	// that costs at most an occasional chain: while the queue holds the same tasks, the chances
	// of its last chain less what the running task's progress since can have taken from them, or
	// chances as they will be a little later. Nil when the engine knows none (the reference and
	// approx engines, some states under the pending drop model). The slice is the engine's: read
	// it before asking again.
	QueueFloors(m int) []float64
	// Exits lists the tasks that left the system since the previous mapping event's Map was
	// called, with the status they left with, in the order they left (the pruner counts
	// deadline misses here): the exits during that Map and its commit (the pruner's drops)
	// included.
	Exits() []Exit
	// DropModel and Strict say how deadlines work in this replay.
	DropModel() pmf.Model
	Strict() bool
	// Assign appends task h to machine m's queue. It panics if h is not in the batch or m has
	// no free slot: both are bugs in the heuristic.
	Assign(h, m int)
	// Defer keeps task h in the batch until the next mapping event.
	Defer(h int)
	// Drop removes task h from its machine queue (the pruner's dropping phase); a running task
	// is stopped.
	Drop(h int)
}

// Exit is a task that left the system, and how.
type Exit struct {
	Task   int
	Status Status
}

// mapping implements Event for one mapping event of an engine.
type mapping struct {
	e         *engine
	deferred  []int
	batch     []int      // Batch's answer, rewritten at each call
	keyed     []BatchKey // BatchKeys's, once a task is marked
	marks     int        // tasks assigned or deferred in this event
	tentative int        // assignments of AssignTentative not yet taken back (Retract)
	reported  int        // the exits Exits reports: those before this event's Map
	queues    [][]int    // Queue's answers, per machine, rewritten at each call
}

func (v *mapping) Now() float64     { return v.e.now }
func (v *mapping) Task(h int) Task  { return v.e.tasks[h].Task }
func (v *mapping) Hint(h int) int   { return v.e.tasks[h].hint - 1 }
func (v *mapping) SetHint(h, m int) { v.e.tasks[h].hint = m + 1 }
func (v *mapping) TypeAndDeadline(h int) (int, float64) {
	k := v.e.keys[h]
	return int(k.typ), k.deadline
}
func (v *mapping) NumMachines() int      { return len(v.e.machines) }
func (v *mapping) Machine(m int) Machine { return v.e.machines[m].Machine }
func (v *mapping) Running(m int) bool    { return v.e.machines[m].running }
func (v *mapping) DropModel() pmf.Model  { return v.e.opt.DropModel }
func (v *mapping) Strict() bool          { return v.e.opt.Strict }

// Batch lists the engine's batch, which holds exactly the tasks with inBatch set between
// events, without the tasks marked in this event: a copy of the batch until the first mark.
func (v *mapping) Batch() []int {
	if v.marks == 0 {
		v.batch = append(v.batch[:0], v.e.batch...)
		return v.batch
	}
	out := v.batch[:0]
	for _, h := range v.e.batch {
		if !v.marked(h) {
			out = append(out, h)
		}
	}
	v.batch = out
	return out
}

// BatchKey is a batch task's type and deadline (Event.BatchKeys).
type BatchKey struct {
	Type     int
	Deadline float64
}

// BatchKeys is the engine's keys of the batch (engine.batchKey) until the first mark, and then
// those of the tasks Batch keeps.
func (v *mapping) BatchKeys() []BatchKey {
	if v.marks == 0 {
		return v.e.batchKey
	}
	out := v.keyed[:0]
	for i, h := range v.e.batch {
		if !v.marked(h) {
			out = append(out, v.e.batchKey[i])
		}
	}
	v.keyed = out
	return out
}

// BatchGroups is the engine's groups (engine.batchGroups) until the first mark.
func (v *mapping) BatchGroups() ([]BatchGroup, bool) {
	if v.marks > 0 {
		return nil, false
	}
	return v.e.batchGroups(), true
}

// marked reports whether task h was assigned or deferred in this event. Tasks carry the number
// of the event that marked them, so no per-event set has to be cleared.
func (v *mapping) marked(h int) bool { return v.e.keys[h].marked == v.e.stats.mappingEvents }

func (v *mapping) setMark(h int) {
	v.e.keys[h].marked = v.e.stats.mappingEvents
	v.marks++
}

func (v *mapping) Free(m int) int {
	if v.e.opt.QueueSize == math.MaxInt {
		return v.e.opt.QueueSize
	}
	return slots(v.e.opt.QueueSize, &v.e.machines[m], v.e.virtual[m])
}

// slots is how many more tasks a machine can take in this event, with queues of size tasks, its
// state ms and virtual the tasks assigned to it in this event: Free, except that with unbounded
// queues it is a little less than math.MaxInt rather than math.MaxInt itself.
func slots(size int, ms *machineState, virtual []int) int {
	return size - len(ms.queue) - len(virtual)
}

// FreeMachines writes every machine and keeps those with a slot, without a branch on which: in
// a crowded replay which machine has the free slot changes from one event to the next, and is
// not predictable.
func (v *mapping) FreeMachines(ms []int) []int {
	machines, virtual, size := v.e.machines, v.e.virtual, v.e.opt.QueueSize
	ms = slices.Grow(ms[:0], len(machines))[:len(machines)]
	k := 0
	for m := range machines {
		ms[k] = m
		if slots(size, &machines[m], virtual[m]) > 0 {
			k++
		}
	}
	return ms[:k]
}

func (v *mapping) Queue(m int) []int {
	out := append(append(v.queues[m][:0], v.e.machines[m].queue...), v.e.virtual[m]...)
	v.queues[m] = out
	return out
}

func (v *mapping) Exec(h, m int) pmf.PMF           { return v.e.taskCell(h, m).exec }
func (v *mapping) ExecTable(h, m int) pmf.CDFTable { return v.e.taskCell(h, m).table }

func (v *mapping) Ready(m int) pmf.PMF           { return v.e.chances.ready(m) }
func (v *mapping) Tail(m int) pmf.PMF            { return v.e.chances.tail(m) }
func (v *mapping) FreeFrom(m int) float64        { return v.e.freeFrom(m) }
func (v *mapping) Success(h, m int) float64      { return v.e.chances.success(h, m) }
func (v *mapping) SuccessBound(h, m int) float64 { return v.e.chances.successBound(h, m) }
func (v *mapping) SuccessAbove(h, m int, x float64) bool {
	return v.e.chances.successAbove(h, m, x)
}
func (v *mapping) SuccessBoundBelow(h, m int, x float64) bool {
	return v.e.chances.successBoundBelow(h, m, x)
}
func (v *mapping) Completion(h, m int) float64      { return v.e.chances.completion(h, m) }
func (v *mapping) RunCompletion(h, m int) float64   { return v.e.chances.runCompletion(h, m) }
func (v *mapping) CompletionBound(h, m int) float64 { return v.e.chances.completionBound(h, m) }
func (v *mapping) CompletionBounds(hs []int, m int, out []float64) []float64 {
	return v.e.chances.completionBounds(hs, m, out)
}
func (v *mapping) QueueChances(m int) []QueueChance { return v.e.chances.queueChances(m) }
func (v *mapping) QueueFloors(m int) []float64      { return v.e.chances.queueFloors(m) }
func (v *mapping) QueueChanceAtOrBelow(m, from int, ths []float64) int {
	return v.e.chances.queueAtOrBelow(m, from, ths)
}
func (v *mapping) Exits() []Exit { return v.e.exited[:v.reported] }

func (v *mapping) Assign(h, m int) { v.assign(h, m, false) }

// AssignTentative is Assign for an assignment its caller takes back (Retract) before the mapping
// event ends: the queues are the same for the rest of the event, but the task's chance on the
// machine, which Assign records (Outcome.Predicted) and Retract discards, is not computed. A
// pruner that defers after the heuristic's choice (thesis §4.5) assigns so the pairs it has
// already judged hopeless: an immediate heuristic offers every waiting task at every event, and
// under MET-P on BenchmarkReplay's workload this and SuccessAbove's comparisons took its success
// evaluations from 168,915 to 91,864 (a chance near a rounding boundary costs the reference's
// chain, fast.success). The engine panics at the end of the event
// if such an assignment is still in a queue: a bug in the caller.
func (v *mapping) AssignTentative(h, m int) {
	v.assign(h, m, true)
	v.tentative++
}

func (v *mapping) assign(h, m int, tentative bool) {
	t := &v.e.tasks[h]
	if !v.e.keys[h].inBatch || v.marked(h) {
		panic(fmt.Sprintf("replay: %s assigned task %d, which is not in the batch", v.e.mapper.Name(), t.Task.ID))
	}
	if v.Free(m) <= 0 {
		panic(fmt.Sprintf("replay: %s assigned task %d to machine %d, which is full", v.e.mapper.Name(), t.Task.ID, m))
	}
	t.tentative = tentative
	t.Predicted = math.NaN()
	if !tentative {
		t.Predicted = v.e.chances.success(h, m)
	}
	if len(v.e.virtual[m]) == 0 {
		v.e.assigned = append(v.e.assigned, m)
	}
	v.e.virtual[m] = append(v.e.virtual[m], h)
	v.e.chances.appended(m, h)
	v.setMark(h)
}

// freeFrom is Event.FreeFrom: the earliest completion of the running task (its start plus its
// shortest execution time; under evict no later than where the chains free the machine when it
// is killed at its deadline, the grid point at or before the deadline (pmf.KillFloor); after now
// when the replay conditions on elapsed time, which removes the outcomes up to now), or now on an
// idle machine; then, for each waiting task in turn, from a start no earlier than s, an end no
// earlier than max(s, min(s + x, K)) with x its shortest execution time: it runs at least x or,
// under pending and evict, is skipped or killed, which frees the machine in the chains at K, the
// deadline under pending (a skipped task passes its predecessor's outcome through, at or after
// the deadline) and KillFloor's point at or before it under evict. Under none every task runs:
// s + x. A machine's chain lies on one grid, that of the running task's start, or of now on an
// idle machine. Grid rounding can put an outcome a hair (the grid tolerance) before the bound;
// callers allow a grid step.
func (e *engine) freeFrom(m int) float64 {
	ms := &e.machines[m]
	evict, none := e.opt.DropModel == pmf.Evict, e.opt.DropModel == pmf.None
	s, origin := e.now, e.now // origin: of the chain's grid
	waiting := ms.queue
	if ms.running {
		h := ms.queue[0]
		t := &e.tasks[h]
		origin = t.Start
		s = t.Start + e.taskCell(h, m).exec.Origin()
		if evict {
			s = min(s, pmf.KillFloor(origin, e.step, t.Task.Deadline))
		}
		if e.opt.ConditionElapsed {
			s = max(s, e.now)
		}
		waiting = waiting[1:]
	}
	for _, hs := range [][]int{waiting, e.virtual[m]} {
		for _, h := range hs {
			end := s + e.taskCell(h, m).exec.Origin()
			switch dl := e.tasks[h].Task.Deadline; {
			case evict:
				end = max(s, min(end, pmf.KillFloor(origin, e.step, dl)))
			case !none:
				end = max(s, min(end, dl))
			}
			s = end
		}
	}
	return s
}

// Retract takes back task h's assignment of this event and defers it instead: h leaves its
// machine's queue, the tasks assigned behind it move up, and it stays in the batch until the
// next event. A pruner that defers after the heuristic has chosen (thesis §4.5) calls it once
// the heuristic is done. It panics if h was not assigned in this event: a bug in the caller.
func (v *mapping) Retract(h int) {
	for i, m := range v.e.assigned {
		k := slices.Index(v.e.virtual[m], h)
		if k < 0 {
			continue
		}
		v.e.virtual[m] = slices.Delete(v.e.virtual[m], k, k+1)
		if len(v.e.virtual[m]) == 0 {
			v.e.assigned = slices.Delete(v.e.assigned, i, i+1)
		}
		t := &v.e.tasks[h]
		if t.tentative {
			t.tentative = false
			v.tentative--
		}
		t.Predicted = math.NaN()
		v.e.chances.changed(m)
		v.deferred = append(v.deferred, h)
		return
	}
	panic(fmt.Sprintf("replay: retracting task %d, which was not assigned in this mapping event", v.e.tasks[h].Task.ID))
}

func (v *mapping) Defer(h int) {
	if !v.e.keys[h].inBatch || v.marked(h) {
		return
	}
	v.setMark(h)
	v.deferred = append(v.deferred, h)
}

func (v *mapping) Drop(h int) {
	t := &v.e.tasks[h]
	if !t.queued {
		panic(fmt.Sprintf("replay: dropping task %d, which is not in a machine queue", t.Task.ID))
	}
	m := t.Machine
	v.e.drop(h)
	v.e.chances.changed(m)
}
