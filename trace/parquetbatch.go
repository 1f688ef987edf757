package trace

import (
	"runtime"
	"sync"

	"github.com/parquet-go/parquet-go"
)

// The batch path of the Parquet log reader (issue 50). pet build needs three columns of each
// record, and on the row path every record cost a chain of calls (the table's cursors, quick,
// the record, the fit's Add) that came to most of its time. Here a Parquet log is read one
// row group per worker, the row groups on all cores at once: a worker decodes the task type,
// machine type and execution time columns of its row group page by page into LogColumns of
// at most windowRows records each, the names resolved once per dictionary value, and the
// runs reach the caller in file order.
//
// A run is taken this way only when every page it reads is of a shape the column path reads
// (parquetpage.go) and every record in it passes the checks quick makes. From the first run
// that is not, the rest of its row group is read by the row path (LogReader.Next on a table
// of the worker's own, placed at the run's first row), whose records and error are those a
// serial read gives, with the same message and row number.

// LogColumns is a run of consecutive records of an execution log, by column.
type LogColumns struct {
	// Pairs are the records' (task type, machine type) pairs; a pair may be listed twice.
	Pairs []TypePair
	// Pair is each record's pair, as an index into Pairs.
	Pair []uint32
	// ExecTime is each record's execution time, as LogRecord.ExecTime: positive and finite,
	// in the reader's output unit.
	ExecTime []float64
}

// TypePair is a record's task type and machine type.
type TypePair struct{ TaskType, MachineType string }

// EachLogColumns is EachLog for a caller that needs only the task type, machine type and
// execution time of each record: the records of a Parquet log that the batch path reads go
// to cols, in runs and in file order; those of any other source go to rows, one at a time.
// It stops at the first error, the reader's or the callbacks', and a reader's error comes
// after every record before it was given.
func EachLogColumns(spec string, opt ReadOptions, rows func(LogRecord) error, cols func(*LogColumns) error) error {
	srcs, err := Expand(spec)
	if err != nil {
		return err
	}
	for _, src := range srcs {
		if err := eachColumnsOf(src, opt, rows, cols); err != nil {
			return err
		}
	}
	return nil
}

func eachColumnsOf(src Source, opt ReadOptions, rows func(LogRecord) error, cols func(*LogColumns) error) error {
	lr, err := OpenLogs(src, opt)
	if err != nil {
		return err
	}
	defer lr.Close()
	workers := runtime.GOMAXPROCS(0)
	if t, ok := lr.columnar(); ok {
		return lr.eachColumns(t, cols, workers, windowRows)
	}
	return lr.each(rows, workers)
}

// windowRows is the most records of one LogColumns. A worker holds at most windowsAhead of
// them ready for the caller, and one more it fills, so that the memory stays a few MiB
// whatever the size of the row groups.
const (
	windowRows   = 1 << 16
	windowsAhead = 2
)

// columnar returns the Parquet table when the batch path can read the log: a fresh reader
// that needs no more than the three columns it gives, and no row group empty.
func (lr *LogReader) columnar() (*parquetTable, bool) {
	t, ok := lr.r.t.(*parquetTable)
	if !ok || t.valuesOnly || lr.r.atEOF || lr.r.n > 0 || t.rg >= 0 {
		return nil, false
	}
	if lr.derived || lr.knownTask != nil || lr.knownMachine != nil || lr.taskID.present() || lr.machineID.present() ||
		lr.start.present() || lr.end.present() || len(t.proj) != 3 {
		return nil, false
	}
	for _, rg := range t.f.RowGroups() {
		if rg.NumRows() <= 0 {
			return nil, false
		}
	}
	return t, true
}

type batchJob struct {
	g     int
	start int64 // rows before the row group
	res   chan<- batchResult
}

type batchResult struct {
	cols *LogColumns
	err  error
}

// eachColumns reads the row groups on workers goroutines, in runs of at most window records,
// and hands the runs to fn in file order.
func (lr *LogReader) eachColumns(t *parquetTable, fn func(*LogColumns) error, workers, window int) error {
	order := make(chan chan batchResult, workers)
	jobs := make(chan batchJob)
	free := make(chan *LogColumns, workers*(windowsAhead+1))
	done := make(chan struct{})
	var wg sync.WaitGroup
	defer func() {
		close(done)
		wg.Wait()
	}()
	for range workers {
		b := lr.batcher(t) // here: the copy of lr.r must not race with the updates below
		b.window = window
		wg.Go(func() {
			defer b.t.closePages()
			for j := range jobs {
				b.readGroup(j.g, j.start, func() *LogColumns {
					select {
					case out := <-free:
						return out
					default:
						return new(LogColumns)
					}
				}, func(r batchResult) bool {
					select {
					case j.res <- r:
						return true
					case <-done:
						return false
					}
				})
				close(j.res)
			}
		})
	}
	wg.Go(func() {
		defer close(jobs)
		defer close(order)
		start := int64(0)
		for g, rg := range t.f.RowGroups() {
			res := make(chan batchResult, windowsAhead)
			if !enqueue(order, res, jobs, batchJob{g, start, res}, done) {
				return
			}
			start += rg.NumRows()
		}
	})
	for res := range order {
		for r := range res {
			lr.r.n += int64(len(r.cols.Pair))
			if len(r.cols.Pair) > 0 {
				if err := fn(r.cols); err != nil {
					lr.r.atEOF = true
					return err
				}
			}
			if r.err != nil {
				lr.r.atEOF = true
				return r.err
			}
			select {
			case free <- r.cols:
			default:
			}
		}
	}
	lr.r.atEOF = true
	return nil
}

// batcher is one worker's reader of row groups: a table with cursors of its own over the
// same file, and a LogReader over it for the row path.
type batcher struct {
	t                   *parquetTable
	lr                  LogReader
	task, machine, exec int        // the table's columns
	cols                [3]pqChunk // task, machine and exec's pages in the row group
	window              int        // the most records of a run
	tn, mn              pqNames
	tid, mid            []int32 // each row's name index in tn and mn
	pairOf              []int32 // task index × machine names + machine index -> pair, -1 for none yet
	pairs               map[[2]int32]uint32
	fastRuns            int // runs read by columns (for the tests)
}

// pqChunk is where the batch path is in one column chunk: its page loaded into pg, and how
// many of the page's rows are used.
type pqChunk struct {
	pages parquet.Pages
	page  parquet.Page // nil when none is loaded
	pg    pqPage
	used  int
}

// rows hands fill the next m rows of the chunk, a page's run at a time: fill takes the rows
// [row, row+k) of the run from the page's rows from on. False when a page is not typed
// (pqPage.load), the chunk ends short, or fill says no.
func (c *pqChunk) rows(m int, maxDef byte, fill func(pg *pqPage, from, row, k int) bool) bool {
	for row := 0; row < m; {
		if c.page == nil || c.used == c.pg.rows {
			c.release()
			p, err := c.pages.ReadPage()
			if err != nil {
				return false
			}
			c.page, c.used = p, 0
			if !c.pg.load(p, maxDef) {
				return false
			}
			continue // an empty page is skipped, as the row path skips it
		}
		k := min(c.pg.rows-c.used, m-row)
		if !fill(&c.pg, c.used, row, k) {
			return false
		}
		c.used += k
		row += k
	}
	return true
}

func (c *pqChunk) release() {
	if c.page != nil {
		c.pg.drop()
		parquet.Release(c.page)
		c.page = nil
	}
}

func (c *pqChunk) close() {
	c.release()
	if c.pages != nil {
		c.pages.Close()
		c.pages = nil
	}
}

// pqNames numbers the names of one column of a row group.
type pqNames struct {
	names   []string
	index   map[string]int32
	dict    parquet.Dictionary
	dictIDs []int32 // by dictionary index: the name's number, -1 for a value that is not a good name
}

func (ns *pqNames) reset() {
	ns.names = ns.names[:0]
	clear(ns.index)
	ns.dict, ns.dictIDs = nil, ns.dictIDs[:0]
}

func (ns *pqNames) id(s string) int32 {
	if i, ok := ns.index[s]; ok {
		return i
	}
	if ns.index == nil {
		ns.index = map[string]int32{}
	}
	i := int32(len(ns.names))
	ns.names = append(ns.names, s)
	ns.index[s] = i
	return i
}

func (lr *LogReader) batcher(t *parquetTable) *batcher {
	wt := &parquetTable{src: t.src, f: t.f, ra: t.ra, size: t.size, cols: t.cols, leaf: t.leaf, units: t.units,
		decimal: t.decimal, rg: -1, unit: t.unit, hasUnit: t.hasUnit}
	wt.project(t.proj)
	r := *lr.r
	r.t, r.closer = wt, nil
	b := &batcher{t: wt, lr: *lr, task: lr.taskType.col, machine: lr.machineType.col, exec: lr.exec.col}
	b.lr.r = &r
	return b
}

// readGroup reads row group g, whose first row is row start+1, into runs of at most b.window
// records from next, and sends each: by columns while it can, and from the first run it
// cannot on by the row path, up to the first bad record, sent with its error. It stops when
// send says no.
func (b *batcher) readGroup(g int, start int64, next func() *LogColumns, send func(batchResult) bool) {
	n := int(b.t.f.RowGroups()[g].NumRows())
	fast := b.open(g)
	defer b.closeGroup()
	for w := 0; w < n; {
		m := min(b.window, n-w)
		out := next()
		var err error
		if fast && !b.fast(m, out) {
			fast = false
			b.closeGroup()
			out.Pairs, out.Pair, out.ExecTime = out.Pairs[:0], out.Pair[:0], out.ExecTime[:0]
			err = b.seek(g, start, w)
		}
		if !fast && err == nil {
			err = b.slow(m, out)
		}
		if err != nil {
			send(batchResult{out, err})
			return
		}
		if !send(batchResult{out, nil}) {
			return
		}
		w += m
	}
}

// open starts row group g's three column chunks; false when the batch path cannot.
func (b *batcher) open(g int) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	b.tn.reset() // a new chunk, a new dictionary (parquet-go may reuse the old one's memory)
	b.mn.reset()
	t := b.t
	if t.checkRowGroup(g) != nil {
		return false
	}
	chunks := t.f.RowGroups()[g].ColumnChunks()
	for i, col := range []int{b.task, b.machine, b.exec} {
		cu := t.cur[col]
		if cu.col >= len(chunks) {
			return false
		}
		b.cols[i].pages = chunks[cu.col].Pages()
	}
	return true
}

func (b *batcher) closeGroup() {
	for i := range b.cols {
		b.cols[i].close()
	}
	b.t.closePages()
}

// fast reads the next m records by columns; false when some page or record is not of the kind
// it takes (out is then to be filled again).
func (b *batcher) fast(m int, out *LogColumns) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	b.tid, b.mid = grow(b.tid, m), grow(b.mid, m)
	out.ExecTime = grow(out.ExecTime, m)
	cur := b.t.cur
	if !b.cols[0].rows(m, cur[b.task].maxDef, func(pg *pqPage, from, row, k int) bool {
		return b.nameIDs(b.task, &b.tn, pg, from, b.tid[row:row+k])
	}) || !b.cols[1].rows(m, cur[b.machine].maxDef, func(pg *pqPage, from, row, k int) bool {
		return b.nameIDs(b.machine, &b.mn, pg, from, b.mid[row:row+k])
	}) || !b.cols[2].rows(m, cur[b.exec].maxDef, func(pg *pqPage, from, row, k int) bool {
		return b.times(pg, from, out.ExecTime[row:row+k])
	}) {
		return false
	}
	b.pair(out, m)
	b.fastRuns++
	return true
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// valueAt is the value index of row i of pg, -1 for a null.
func valueAt(pg *pqPage, i int) int {
	if len(pg.at) > 0 {
		return int(pg.at[i])
	}
	return i
}

// nameIDs numbers the names of len(ids) rows of the page from row from on into ids; false on
// a row that is null or not a good name (text's cellOK), as the row path requires. A
// dictionary's names are numbered once, on its first page.
func (b *batcher) nameIDs(col int, ns *pqNames, pg *pqPage, from int, ids []int32) bool {
	if pg.dict == nil {
		for i := range ids {
			k := valueAt(pg, from+i)
			if k < 0 {
				return false
			}
			s, st := b.t.pageText(col, pg, k)
			if st != cellOK {
				return false
			}
			ids[i] = ns.id(s)
		}
		return true
	}
	if ns.dict != pg.namesFor {
		ns.dict, ns.dictIDs = pg.namesFor, grow(ns.dictIDs, pg.size)
		for j := range pg.size {
			ns.dictIDs[j] = -1
			if s, st := b.t.pageText(col, pg, j); st == cellOK {
				ns.dictIDs[j] = ns.id(s)
			}
		}
	}
	for i := range ids {
		k := valueAt(pg, from+i)
		if k < 0 {
			return false
		}
		id := ns.dictIDs[pg.dict[k]]
		if id < 0 {
			return false
		}
		ids[i] = id
	}
	return true
}

// times reads the execution times of len(out) rows of the page from row from on into out, as
// quick does; false on a time quick refuses.
func (b *batcher) times(pg *pqPage, from int, out []float64) bool {
	// A time is taken when it is positive and within the limit (always set for a time,
	// so an infinity is beyond it); anything else goes to the row path, which says why.
	scale, limit := b.lr.exec.scale, b.lr.exec.limit
	if pg.kind == parquet.Double && pg.dict == nil && len(pg.at) == 0 {
		for i, x := range pg.f64[from : from+len(out)] {
			v := x * scale
			if !(v > 0 && v <= limit) {
				return false
			}
			out[i] = v
		}
		return true
	}
	for i := range out {
		k := valueAt(pg, from+i)
		if k < 0 {
			return false
		}
		x, st := b.t.pageNumber(b.exec, pg, pg.index(k))
		v := x * scale
		if st != cellOK || !(v > 0 && v <= limit) {
			return false
		}
		out[i] = v
	}
	return true
}

// pair sets out's pairs from the rows' name indexes.
func (b *batcher) pair(out *LogColumns, n int) {
	out.Pairs, out.Pair = out.Pairs[:0], grow(out.Pair, n)
	nm := len(b.mn.names)
	if size := len(b.tn.names) * nm; size <= 1<<16 {
		b.pairOf = grow(b.pairOf, size)
		for i := range b.pairOf {
			b.pairOf[i] = -1
		}
		for i := range n {
			k := int(b.tid[i])*nm + int(b.mid[i])
			if b.pairOf[k] < 0 {
				b.pairOf[k] = int32(b.newPair(out, i))
			}
			out.Pair[i] = uint32(b.pairOf[k])
		}
	} else {
		if b.pairs == nil {
			b.pairs = map[[2]int32]uint32{}
		}
		clear(b.pairs)
		for i := range n {
			k := [2]int32{b.tid[i], b.mid[i]}
			p, ok := b.pairs[k]
			if !ok {
				p = b.newPair(out, i)
				b.pairs[k] = p
			}
			out.Pair[i] = p
		}
	}
}

// newPair adds row i's (task, machine) names to out's pairs and returns its index there.
func (b *batcher) newPair(out *LogColumns, i int) uint32 {
	out.Pairs = append(out.Pairs, TypePair{b.tn.names[b.tid[i]], b.mn.names[b.mid[i]]})
	return uint32(len(out.Pairs) - 1)
}

// seek places the row path at row w of row group g, whose first row is row start+1.
func (b *batcher) seek(g int, start int64, w int) error {
	t := b.t
	t.closePages()
	t.rg, t.rgLeft, t.row = g-1, 0, start
	b.lr.r.atEOF, b.lr.r.n = false, 1 // past the file's first record: no "empty file" here
	for range w {
		if err := t.next(); err != nil {
			return err
		}
	}
	return nil
}

// slow reads the next m records through the row path into out, up to the first error.
func (b *batcher) slow(m int, out *LogColumns) error {
	out.Pairs, out.Pair, out.ExecTime = out.Pairs[:0], out.Pair[:0], out.ExecTime[:0]
	index := map[TypePair]uint32{}
	for range m {
		rec, err := b.lr.Next()
		if err != nil {
			return err
		}
		p := TypePair{rec.TaskType, rec.MachineType}
		k, ok := index[p]
		if !ok {
			k = uint32(len(out.Pairs))
			index[p] = k
			out.Pairs = append(out.Pairs, p)
		}
		out.Pair = append(out.Pair, k)
		out.ExecTime = append(out.ExecTime, rec.ExecTime)
	}
	return nil
}
