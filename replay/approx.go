package replay

import (
	"math"

	"github.com/hcreplay/hcreplay/pmf"
)

// approx is the journal paper's approximate probability engine (000 §7.2, Fig 5): the fast
// engine's caching, with every PMF compacted (§7.2.1: impulses merged into buckets of
// ApproxBucket steps; a queue's completion PMF cropped at the latest deadline of the batch, above
// which no success chance looks) and success chances by Algorithm 1 (§7.2.2). With a bucket of
// one step and no cropping it computes what the fast engine computes, so its decisions equal the
// reference engine's; the point of the other settings is to measure what the approximations cost
// in robustness and save in work (000 Fig 14).
type approx struct {
	*fast
	bucket int
	crop   bool
	cells  map[[2]int]cellEntry // compacted PET cells with their tables, by (task type, machine type)
}

func newApprox(e *engine) chancer {
	f := newFast(e).(*fast)
	f.reuse = false // the crop moves with the batch's latest deadline
	return &approx{fast: f, bucket: max(1, e.opt.ApproxBucket), crop: e.opt.ApproxCrop,
		cells: map[[2]int]cellEntry{}}
}

// cell is the compacted execution-time PMF of task h on machine m, with its cumulative table.
func (a *approx) cell(h, m int) cellEntry {
	e := a.e
	key := [2]int{e.tasks[h].Task.Type, e.machines[m].Type}
	c, ok := a.cells[key]
	if !ok {
		c.exec = e.cfg.PET.Cell(key[0], key[1]).Merge(a.bucket)
		c.table = c.exec.CDFTable()
		a.cells[key] = c
	}
	return c
}

// compact crops machine m's tail, after merging it into buckets when it was built on the PET's
// step (a tail extended by appended is on the bucket grid already).
func (a *approx) compact(m int, merge bool) {
	tail := a.tails[m]
	if merge {
		tail = tail.Merge(a.bucket)
	}
	if a.crop {
		if hi := a.latestDeadline(); hi > tail.Min() {
			if c, err := tail.Crop(tail.Min(), hi); err == nil {
				tail = c
			}
		}
	}
	a.tails[m], a.tables[m] = tail, tail.CDFTable()
}

// latestDeadline is the latest deadline among the tasks waiting in the batch.
func (a *approx) latestDeadline() float64 {
	hi := math.Inf(-1)
	for _, h := range a.e.batch {
		hi = math.Max(hi, a.e.tasks[h].Task.Deadline)
	}
	return hi
}

func (a *approx) ensure(m int) {
	if a.valid[m] {
		return
	}
	a.fast.ensure(m)
	a.compact(m, true)
	// fast.ensure kept the version when the new chain equals the old table's tail, but that tail
	// was compacted and the crop moves with the batch: the table is new, and so is its version.
	a.versions[m] = a.bump()
}

func (a *approx) appended(m, h int) {
	if !a.valid[m] {
		return
	}
	e := a.e
	t := e.tasks[h].Task
	next, s := a.append(nil, a.tails[m], a.cell(h, m).exec, nil, t.Deadline)
	a.tails[m] = next
	a.chances[m] = append(a.chances[m], QueueChance{s, e.skewness(next)})
	a.versions[m] = a.bump()
	a.compact(m, false)
}

func (a *approx) tail(m int) pmf.PMF { a.ensure(m); return a.tails[m] }

func (a *approx) queueAtOrBelow(m, from int, ths []float64) int {
	return atOrBelow(a.queueChances(m), from, ths)
}

func (a *approx) queueChances(m int) []QueueChance {
	a.ensure(m)
	return roundChances(nil, a.cached(m))
}

func (a *approx) stats(h, m int) (float64, float64) {
	a.ensure(m)
	return a.memoized(h, m, func() (float64, float64, error) {
		e := a.e
		t := e.tasks[h].Task
		c := a.cell(h, m)
		s, err := pmf.SuccessAlg1(c.exec, a.tails[m], t.Deadline, e.opt.Strict)
		if err != nil {
			return 0, 0, err
		}
		e.stats.multiplications += int64(c.exec.Len())
		_, mean, err := pmf.AppendStatsTable(e.opt.DropModel, c.exec, &c.table, &a.tables[m], t.Deadline, e.opt.Strict)
		return s, mean, err
	})
}

func (a *approx) success(h, m int) float64 {
	s, _ := a.stats(h, m)
	return roundChance(s)
}

// successAbove is success(h, m) > x: approx's chances are its own (stats), not the fast engine's.
func (a *approx) successAbove(h, m int, x float64) bool { return a.success(h, m) > x }

func (a *approx) completion(h, m int) float64 {
	_, mean := a.stats(h, m)
	return roundTime(mean)
}

// runCompletion is on the compacted tail and cell, rounded as completion is rounded.
func (a *approx) runCompletion(h, m int) float64 {
	a.ensure(m)
	return roundTime(a.tables[m].Mean() + a.cell(h, m).table.Mean())
}
