package heuristic

import "github.com/hcreplay/hcreplay/replay"

// storage is the buffers a heuristic keeps from event to event, embedded in every heuristic
// that has them. It hands them on from one replay to the next one given the same
// replay.Scratch (a sweep's or a multi-trial replay's worker): Recycle takes the storage of the
// last replay's mapper, emptied (buffers.recycle). Decisions do not change
// (TestRecycleTakesTheMemo here, prune's TestScratchReplaysAsFresh).
type storage struct {
	buf *buffers // nil: fresh ones per event
}

// Recycle takes the buffers of old, an earlier replay's mapper (replay.Scratch), when old is a
// heuristic of this package that has them.
func (s storage) Recycle(old replay.Mapper) {
	if o, ok := old.(interface{ stored() *buffers }); ok {
		s.buf.recycle(o.stored())
	}
}

// stored is the heuristic's buffers, for the next replay's Recycle.
func (s storage) stored() *buffers { return s.buf }

// recycle gives b, a new heuristic's buffers, the storage of old, an earlier replay's (Recycle),
// emptied to what new(buffers) starts with, and leaves old empty: nothing is shared. Only the
// parts that grow with a replay are taken: the completion memo, which grows to the batch's tasks
// times the machines (about 90 KB on an HCW19 trial), and the batch's groups by type.
func (b *buffers) recycle(old *buffers) {
	if b == nil || old == nil || old == b {
		return
	}
	b.memo, old.memo = old.memo.emptied(), completionMemo{}
	b.groups, old.groups = old.groups, nil // groupBatch empties each group before it fills them
}
