package replay

import "github.com/hcreplay/hcreplay/pmf"

// chancer is where heuristics' probabilities come from: success chances and expected
// completions of tasks appended to machine queues, and the chances of the tasks already queued.
// The engine tells it when a mapping event begins and when a queue changes, so that an
// implementation may cache; the reference implementation ignores both and recomputes.
type chancer interface {
	begin()        // a mapping event starts; any queue may have changed since the last one
	changed(m int) // machine m's queue (real or virtual) changed within the event
	ready(m int) pmf.PMF
	tail(m int) pmf.PMF
	success(h, m int) float64
	completion(h, m int) float64
	queueChances(m int) []QueueChance
}

// QueueChance is what is known of a task waiting or running in a machine queue: its chance of
// success and the bounded skewness of its completion PMF (003 Eq 6), which the pruner's per-task
// dropping threshold uses (003 Eq 7).
type QueueChance struct {
	Success  float64
	Skewness float64
}

// reference recomputes every chain from scratch with plain convolutions (SPEC §5.5): slow,
// obviously correct, the oracle for faster engines.
type reference struct{ e *engine }

func newReference(e *engine) chancer { return reference{e} }

func (r reference) begin()      {}
func (r reference) changed(int) {}

// ready is the machine's free-time PMF before its first waiting task.
func (r reference) ready(m int) pmf.PMF {
	e := r.e
	ms := &e.machines[m]
	if !ms.running {
		return pmf.Impulse(e.now, e.step)
	}
	h := ms.queue[0]
	t := e.tasks[h].Task
	exec := e.cfg.PET.Cell(t.Type, ms.Type)
	free, _ := r.append(pmf.Impulse(e.tasks[h].Start, exec.Step()), exec, t.Deadline)
	if e.opt.ConditionElapsed {
		free = free.Condition(e.now)
	}
	return free
}

// headSuccess is the running task's chance of success given what is known at now.
func (r reference) headSuccess(m int) float64 {
	e := r.e
	ms := &e.machines[m]
	h := ms.queue[0]
	t := e.tasks[h].Task
	c := e.cfg.PET.Cell(t.Type, ms.Type).Shift(e.tasks[h].Start)
	if e.opt.ConditionElapsed {
		c = c.Condition(e.now)
	}
	return c.Success(t.Deadline, e.opt.Strict)
}

// append is one link of the chain under the replay's drop model, counted.
func (r reference) append(prev, exec pmf.PMF, deadline float64) (pmf.PMF, float64) {
	e := r.e
	e.stats.convolutions++
	e.stats.multiplications += int64(prev.Len()) * int64(exec.Len())
	next, s, err := pmf.Append(e.opt.DropModel, prev, exec, deadline, e.opt.Strict)
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
	e := r.e
	ms := &e.machines[m]
	free := r.ready(m)
	var chances []QueueChance
	waiting := ms.queue
	if ms.running {
		chances = append(chances, QueueChance{r.headSuccess(m), free.BoundedSkewness()})
		waiting = waiting[1:]
	}
	for _, hs := range [][]int{waiting, e.virtual[m]} {
		for _, h := range hs {
			t := e.tasks[h].Task
			var s float64
			free, s = r.append(free, e.cfg.PET.Cell(t.Type, ms.Type), t.Deadline)
			chances = append(chances, QueueChance{s, free.BoundedSkewness()})
		}
	}
	return free, chances
}

func (r reference) appendTask(h, m int) (pmf.PMF, float64) {
	e := r.e
	e.stats.successEvals++
	free := r.tail(m)
	t := e.tasks[h].Task
	return r.append(free, e.cfg.PET.Cell(t.Type, e.machines[m].Type), t.Deadline)
}

func (r reference) success(h, m int) float64 {
	_, s := r.appendTask(h, m)
	return s
}

func (r reference) completion(h, m int) float64 {
	next, _ := r.appendTask(h, m)
	return next.Mean()
}

func (r reference) queueChances(m int) []QueueChance {
	_, chances := r.chain(m)
	return chances
}
