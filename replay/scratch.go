package replay

import "github.com/hcreplay/hcreplay/pmf"

// Scratch is storage that a finished replay leaves for the next one: its task records, queues,
// batch, event heap, cell array and duration samplers, and the fast engine's chain buffers,
// tables and memo, emptied and kept at the size they grew to. A replay given a Scratch
// (Config.Scratch) starts from that storage instead of growing its own, and leaves its own there
// when it ends.
//
// A sweep's worker replays trial after trial, each of about a thousand tasks, and a fresh replay
// of that size allocates about 390 KB in 450 allocations: growing its records, chains and memo.
// The collector's work for that garbage was 7% of MM's instructions per replay (cachegrind: 23.35M
// against 21.83M with the collector off). Reusing the storage changes nothing a replay decides or
// reports: every piece is emptied to what a fresh replay starts with (TestScratchReplaysAsFresh).
//
// The zero value is ready to use. A Scratch serves one replay at a time: give each goroutine its
// own. Outcomes a replay returns (Result.Outcomes) are never reused.
//
// A mapper may keep storage of its own across events (a heuristic's completion memo, grown to
// the batch's tasks times the machines): when it has a method Recycle(old Mapper), the Scratch
// keeps it after its replay, and hands it to the next replay's mapper's Recycle, which takes its
// storage, emptied, when it knows old's kind (a heuristic knows every heuristic's, pruned or
// renamed). Decisions and counters do not change. A fresh process pays a page fault for every new
// page, and those of the memo were 13% of a 30-trial HCW19 MM replay's (perf record -e
// page-faults).
type Scratch struct {
	e      *engine  // the last replay's engine, kept for its storage; nil when none
	mapper recycler // the last replay's mapper, when it can hand its storage on; nil when none
}

// recycler is a mapper that can take over the storage of an earlier replay's mapper, emptied to
// what it starts with; it leaves alone a mapper whose storage it does not know, and its own when
// old is itself. Recycle must not keep old: old hands its storage over.
type recycler interface {
	Mapper
	Recycle(old Mapper)
}

// recycle gives mapper, the new replay's, the storage of the last replay's mapper, if both can.
func (s *Scratch) recycle(mapper Mapper) {
	if s == nil || s.mapper == nil {
		return
	}
	old := s.mapper
	s.mapper = nil
	if r, ok := mapper.(recycler); ok {
		r.Recycle(old) // old may be mapper itself, replayed again: Recycle then keeps what it has
	}
}

// take hands over the engine the scratch holds, if any, and leaves it empty.
func (s *Scratch) take() *engine {
	if s == nil {
		return nil
	}
	e := s.e
	s.e = nil
	return e
}

// keep stores e, a replay that has ended, for the next replay's storage, and its mapper when it
// can hand its storage on. It lets go of what is not storage: the outcomes it returned
// (Result.Outcomes, the caller's now), and its configuration and source, which the scratch would
// otherwise keep alive.
func (s *Scratch) keep(e *engine) {
	if s != nil {
		s.mapper, _ = e.mapper.(recycler)
		e.exits.kept, e.exits.emit, e.onExit = nil, nil, nil
		e.cfg, e.mapper, e.source, e.next = Config{}, nil, nil, Task{}
		s.e = e
	}
}

// recycle gives e, a new engine of n machines, the storage of old, an engine whose replay has
// ended, each piece emptied to what a fresh engine starts with. The chance engine's storage
// waits in e.spareChances until newFast takes it.
func (e *engine) recycle(old *engine, n int) {
	e.tasks, e.keys, e.spare = old.tasks[:0], old.keys[:0], old.spare[:0]
	e.batch, e.batchKey = old.batch[:0], old.batchKey[:0]
	e.assigned, e.exited, e.events = old.assigned[:0], old.exited[:0], old.events[:0]
	e.machines = resize(old.machines, n)
	for i := range e.machines {
		e.machines[i] = machineState{queue: e.machines[i].queue[:0]}
	}
	e.virtual = resize(old.virtual, n)
	for i := range e.virtual {
		e.virtual[i] = e.virtual[i][:0]
	}
	e.samplers = zeroed(old.samplers[:cap(old.samplers)])[:0]
	e.cells = zeroed(old.cells[:cap(old.cells)])[:0]
	e.exits.pending = old.exits.pending[:0]
	v := &old.view
	e.view = mapping{deferred: v.deferred[:0], batch: v.batch[:0], keyed: v.keyed[:0], queues: resize(v.queues, n)}
	for i := range e.view.queues {
		e.view.queues[i] = e.view.queues[i][:0]
	}
	for _, g := range old.groups.byType {
		old.groups.free = append(old.groups.free, g.Tasks[:0])
	}
	e.groups = typeGroups{free: old.groups.free}
	e.spareChances = old.chances
}

// recycle gives f, the new fast engine of a replay of n machines, the storage of old, the fast
// engine of a replay that has ended, each piece emptied to what newFast starts with.
func (f *fast) recycle(old *fast, n int) {
	f.valid = zeroed(resize(old.valid, n))
	f.built = resize(old.built, n)
	for i := range f.built {
		f.built[i] = builtFor{serials: f.built[i].serials[:0]}
	}
	f.tails = zeroed(resize(old.tails, n))
	f.tailBufs = resize(old.tailBufs, n)
	f.cur = zeroed(resize(old.cur, n))
	f.scratch, f.readied = old.scratch.emptied(), old.readied.emptied()
	f.tables = resize(old.tables, n)
	for i := range f.tables {
		f.tables[i].Reset()
	}
	f.chances = resize(old.chances, n)
	for i := range f.chances {
		f.chances[i] = f.chances[i][:0]
	}
	f.versions, f.epochs = zeroed(resize(old.versions, n)), zeroed(resize(old.epochs, n))
	f.same = zeroed(resize(old.same, n))
	f.memo = zeroed(old.memo) // an entry of version 0 is none
	f.floors = resize(old.floors, n)
	for i := range f.floors {
		f.floors[i] = floorCache{floors: f.floors[i].floors[:0]}
	}
	f.exact, f.drift, f.handed = old.exact[:0], old.drift[:0], old.handed[:0]
	f.heads = zeroed(resize(old.heads, n))
	f.headBufs = resize(old.headBufs, n)
	for i, o := range old.oracles {
		f.oracles[i] = oracleTail{kept: o.kept, chances: o.chances[:0], serials: o.serials[:0]} // none: the epochs start again
	}
	f.refBuilt, f.refNext = old.refBuilt.emptied(), old.refNext
}

// emptied is s with its storage kept and nothing in it.
func (s chainScratch) emptied() chainScratch {
	s.chances, s.linkList, s.successes, s.headFree = s.chances[:0], s.linkList[:0], s.successes[:0], pmf.PMF{}
	return s
}

// spareFast is the fast engine inside c, the chance engine of a replay that has ended, or nil.
func spareFast(c chancer) *fast {
	switch c := c.(type) {
	case *fast:
		return c
	case *approx:
		return c.fast
	}
	return nil
}

// resize returns s with length n, its elements kept for their storage where it has them, new
// ones zero.
func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return append(s[:cap(s)], make([]T, n-cap(s))...)
}

// zeroed is s with every element zero.
func zeroed[T any](s []T) []T {
	clear(s)
	return s
}
