package petbuild

import (
	"math"
	"slices"
	"unsafe"
)

// Block sizes of a cell's samples. Growing one slice per cell by append copied every sample
// several times and left the old arrays to the collector: on a 10-million-row log that was
// about a sixth of pet build's CPU (issue 50). The first block grows by doubling up to
// blockLen, so a cell of a few samples costs a few words; after it, every block holds
// blockLen samples and is never moved, and sample i is at blocks[i>>blockShift][i&blockMask].
const (
	blockShift = 12
	blockLen   = 1 << blockShift
	blockMask  = blockLen - 1
	firstBlock = 8
)

// times is one cell's samples in the order they were added, and after sort in ascending
// order: blocks of blockLen samples, the last one partly filled.
type times struct {
	blocks [][]float64
	n      int
	// negZero records a −0 among the samples: it sorts as the largest bit pattern, so sort
	// leaves such a cell to slices.Sort.
	negZero bool
	sorted  bool
}

func (t *times) add(v float64) {
	k := len(t.blocks) - 1
	if k < 0 || len(t.blocks[k]) == cap(t.blocks[k]) {
		k = t.grow()
	}
	t.blocks[k] = append(t.blocks[k], v)
	t.n++
	t.negZero = t.negZero || math.Signbit(v)
	t.sorted = false
}

// grow makes room for one more sample and returns the index of the block it goes into.
func (t *times) grow() int {
	switch k := len(t.blocks) - 1; {
	case k < 0:
		t.blocks = append(t.blocks, make([]float64, 0, firstBlock))
	case k == 0 && cap(t.blocks[0]) < blockLen:
		b := make([]float64, len(t.blocks[0]), min(2*cap(t.blocks[0]), blockLen))
		copy(b, t.blocks[0])
		t.blocks[0] = b
	default:
		t.blocks = append(t.blocks, make([]float64, 0, blockLen))
	}
	return len(t.blocks) - 1
}

func (t *times) len() int { return t.n }

func (t *times) at(i int) float64 { return t.blocks[i>>blockShift][i&blockMask] }

func (t *times) first() float64 { return t.at(0) }

func (t *times) last() float64 { return t.at(t.n - 1) }

// gather copies the samples, in order, into the start of buf, which it grows when short.
func (t *times) gather(buf []float64) []float64 {
	buf = slices.Grow(buf[:0], t.n)
	for _, b := range t.blocks {
		buf = append(buf, b...)
	}
	return buf
}

// scatter copies buf's samples back into the blocks, in order.
func (t *times) scatter(buf []float64) {
	for _, b := range t.blocks {
		buf = buf[copy(b, buf):]
	}
}

// Radix sort parameters: 6 digits of 11 bits cover a float64's 64 bits, and a digit's 2048
// counters fit in the L1 cache. Cells under radixMin samples are left to slices.Sort, whose
// result is the same.
const (
	digitBits = 11
	digits    = (64 + digitBits - 1) / digitBits
	radixMin  = 256
)

// sorter is one goroutine's scratch space for sorting cells.
type sorter struct {
	buf    []float64
	counts [digits][1 << digitBits]int
}

// sort sorts the samples ascending. The samples are finite and not negative, so their order
// is the order of their bit patterns as unsigned integers, except for −0, which is equal to 0
// but has the sign bit. Ascending order of values is therefore one order of the samples up to
// the order of equal values, and equal values other than ±0 have equal bits and cannot be told
// apart: the result is the same slice of float64s as slices.Sort's (a cell with a −0 is sorted
// by slices.Sort itself). An LSD radix sort on 11-bit digits took about a fifth of the CPU of
// slices.Sort on the exponential times of issue 50's 10-million-row log (0.2 against 1.0 s).
func (s *sorter) sort(t *times) {
	if t.sorted || t.n < 2 {
		t.sorted = true
		return
	}
	s.buf = t.gather(s.buf)
	if t.negZero || t.n < radixMin {
		slices.Sort(s.buf)
		t.scatter(s.buf)
		t.sorted = true
		return
	}
	s.radix(s.buf, t)
	t.sorted = true
}

// radix sorts buf (a copy of t's samples, all with the sign bit clear) and leaves the result in
// t's blocks, passing the samples between buf and the blocks once per digit that differs
// among them.
func (s *sorter) radix(buf []float64, t *times) {
	for d := range s.counts {
		clear(s.counts[d][:])
	}
	for _, v := range buf {
		u := math.Float64bits(v)
		for d := range digits {
			s.counts[d][u>>(d*digitBits)&(1<<digitBits-1)]++
		}
	}
	// bufBlocks is buf cut like t's blocks, so a pass writes to either by the same index.
	bufBlocks := make([][]float64, len(t.blocks))
	for i, b := range t.blocks {
		bufBlocks[i] = buf[i<<blockShift : i<<blockShift+len(b)]
	}
	src, dst := bufBlocks, t.blocks
	first := math.Float64bits(buf[0])
	for d := range digits {
		shift := uint(d * digitBits)
		c := &s.counts[d]
		if c[first>>shift&(1<<digitBits-1)] == t.n {
			continue // one value of this digit for all: the pass would change nothing
		}
		at := 0
		for i, k := range c {
			c[i], at = at, at+k
		}
		for _, b := range src {
			for _, v := range b {
				k := math.Float64bits(v) >> shift & (1<<digitBits - 1)
				p := c[k]
				c[k]++
				dst[p>>blockShift][p&blockMask] = v
			}
		}
		src, dst = dst, src
	}
	if &src[0] == &bufBlocks[0] {
		t.scatter(buf)
	}
}

// recentCells remembers the cells of recent (task, machine) pairs by where their names'
// bytes are: the log readers intern names, so the two strings of a record are those of an
// earlier record of the same cell, and comparing two pointers and two lengths costs less than
// hashing two strings for the map (about a tenth of pet build's CPU on issue 50's log). Equal
// pointers and lengths mean equal strings; anything else goes to the map, so names that are
// not interned are only slower, never wrong.
type recentCells [1 << recentBits]recentCell

const recentBits = 10

type recentCell struct {
	task, machine string
	acc           *cellAcc
}

func recentSlot(task, machine string) uint64 {
	p := uint64(uintptr(unsafe.Pointer(unsafe.StringData(task))))
	q := uint64(uintptr(unsafe.Pointer(unsafe.StringData(machine))))
	return (p*0x9e3779b97f4a7c15 ^ q*0xc2b2ae3d27d4eb4f) >> (64 - recentBits)
}

// lookup is the cell of a task and machine type, or nil for a cell not seen yet.
func (f *Fitter) lookup(task, machine string) *cellAcc {
	if f.recent == nil {
		f.recent = new(recentCells)
	}
	e := &f.recent[recentSlot(task, machine)]
	if unsafe.StringData(e.task) == unsafe.StringData(task) && len(e.task) == len(task) &&
		unsafe.StringData(e.machine) == unsafe.StringData(machine) && len(e.machine) == len(machine) && e.acc != nil {
		return e.acc
	}
	acc := f.cells[cellKey{task, machine}]
	if acc != nil {
		*e = recentCell{task, machine, acc}
	}
	return acc
}
