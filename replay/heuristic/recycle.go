package heuristic

import "github.com/hcreplay/hcreplay/replay"

// The heuristics that keep buffers hand them on from one replay to the next one given the same
// replay.Scratch (a sweep's or a multi-trial replay's worker): each Recycle takes the storage of
// the last replay's mapper, emptied (recycle). Decisions do not change (TestRecycleTakesTheMemo
// here, prune's TestScratchReplaysAsFresh).

func (h MM) Recycle(old replay.Mapper)        { h.buf.recycle(bufOf(old)) }
func (h MSD) Recycle(old replay.Mapper)       { h.buf.recycle(bufOf(old)) }
func (h MMU) Recycle(old replay.Mapper)       { h.buf.recycle(bufOf(old)) }
func (h PAM) Recycle(old replay.Mapper)       { h.buf.recycle(bufOf(old)) }
func (h MOC) Recycle(old replay.Mapper)       { h.buf.recycle(bufOf(old)) }
func (h MaxMin) Recycle(old replay.Mapper)    { h.buf.recycle(bufOf(old)) }
func (h Sufferage) Recycle(old replay.Mapper) { h.buf.recycle(bufOf(old)) }
func (h EDF) Recycle(old replay.Mapper)       { h.buf.recycle(bufOf(old)) }
func (h SJF) Recycle(old replay.Mapper)       { h.buf.recycle(bufOf(old)) }
func (h MET) Recycle(old replay.Mapper)       { h.buf.recycle(bufOf(old)) }
func (h MCT) Recycle(old replay.Mapper)       { h.buf.recycle(bufOf(old)) }
func (h KPB) Recycle(old replay.Mapper)       { h.buf.recycle(bufOf(old)) }
func (h MR) Recycle(old replay.Mapper)        { h.buf.recycle(bufOf(old)) }

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

// bufOf is the buffers of m, when m is a heuristic of this package that has them; else nil.
func bufOf(m replay.Mapper) *buffers {
	switch h := m.(type) {
	case MM:
		return h.buf
	case MSD:
		return h.buf
	case MMU:
		return h.buf
	case PAM:
		return h.buf
	case MOC:
		return h.buf
	case MaxMin:
		return h.buf
	case Sufferage:
		return h.buf
	case EDF:
		return h.buf
	case SJF:
		return h.buf
	case MET:
		return h.buf
	case MCT:
		return h.buf
	case KPB:
		return h.buf
	case MR:
		return h.buf
	}
	return nil
}
