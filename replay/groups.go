package replay

// BatchGroup is the tasks of one type in the batch (Event.BatchGroups); Lead is -1 if it has none.
type BatchGroup struct {
	Type     int
	Tasks    []BatchTask // in batch order
	Lead     int         // the index in Tasks of the earliest deadline, the first in batch order among ties
	Deadline float64     // the lead's deadline
}

// BatchTask is a task of a BatchGroup: its handle, its deadline, and a number that orders the
// whole batch as Event.Batch lists it (the groups of different types interleave in the batch).
type BatchTask struct {
	Handle   int
	Order    int64
	Deadline float64
}

// typeGroups is the batch grouped by task type, kept up to date as tasks enter and leave it
// once a mapper has asked for it (Event.BatchGroups): a heuristic that wants each type's
// earliest deadline at every event (MM's soonest) then reads a dozen groups, where it would
// group a batch of hundreds of tasks itself. A mapper that never asks costs nothing.
type typeGroups struct {
	on     bool
	byType []BatchGroup  // by task type; Lead is -1 when the lead left and must be found again
	free   [][]BatchTask // storage for new groups' tasks, from an ended replay (Scratch)
}

// startGroups groups the batch, and keeps it grouped from then on.
func (e *engine) startGroups() {
	e.groups.on = true
	for _, h := range e.batch {
		e.joinGroup(h)
	}
}

// joinGroup puts task h, which has just joined the end of the batch, at the end of its type's
// group. Batch order is arrival order, so a task's serial orders the batch.
func (e *engine) joinGroup(h int) {
	g, k := &e.groups, e.keys[h]
	ty := int(k.typ)
	for len(g.byType) <= ty {
		var tasks []BatchTask
		if n := len(g.free); n > 0 {
			tasks, g.free = g.free[n-1], g.free[:n-1]
		} else {
			tasks = make([]BatchTask, 0, 16)
		}
		g.byType = append(g.byType, BatchGroup{Type: len(g.byType), Lead: -1, Tasks: tasks})
	}
	gr := &g.byType[ty]
	gr.Tasks = append(gr.Tasks, BatchTask{Handle: h, Order: e.tasks[h].serial, Deadline: k.deadline})
	if len(gr.Tasks) == 1 || gr.Lead >= 0 && k.deadline < gr.Deadline { // exact: deadline order
		gr.Lead, gr.Deadline = len(gr.Tasks)-1, k.deadline
	}
}

// leaveGroup takes task h, which has just left the batch, out of its type's group.
func (e *engine) leaveGroup(h int) {
	gr := &e.groups.byType[e.keys[h].typ]
	i := 0
	for gr.Tasks[i].Handle != h {
		i++
	}
	gr.Tasks = append(gr.Tasks[:i], gr.Tasks[i+1:]...)
	switch {
	case gr.Lead == i:
		gr.Lead = -1
	case gr.Lead > i:
		gr.Lead--
	}
}

// batchGroups is Event.BatchGroups's answer while no task is marked, with the leads that left
// found again.
func (e *engine) batchGroups() []BatchGroup {
	if !e.groups.on {
		e.startGroups()
	}
	groups := e.groups.byType
	for ty := range groups {
		gr := &groups[ty]
		if gr.Lead >= 0 || len(gr.Tasks) == 0 {
			continue
		}
		l := 0
		for i := 1; i < len(gr.Tasks); i++ {
			if gr.Tasks[i].Deadline < gr.Tasks[l].Deadline { // exact: deadline order
				l = i
			}
		}
		gr.Lead, gr.Deadline = l, gr.Tasks[l].Deadline
	}
	return groups
}
