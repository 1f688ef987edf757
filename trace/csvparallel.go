package trace

import (
	"io"
	"sync"
)

// each calls fn with every remaining record, in order, and stops at the first error, fn's or
// the reader's. A CSV log on the fast path is parsed by workers goroutines, a chunk of lines
// each (eachChunk), and its records reach fn in file order, so fn sees what Next would return.
func (lr *LogReader) each(fn func(LogRecord) error, workers int) error {
	if t, ok := lr.r.t.(*csvTable); ok && t.r == nil && !lr.r.atEOF && workers > 1 {
		if err := lr.eachChunk(t, fn, workers); err != nil {
			return err
		}
	}
	if _, ok := lr.r.t.(*parquetTable); ok && workers > 1 {
		return lr.eachAhead(fn)
	}
	return lr.eachSerial(fn)
}

func (lr *LogReader) eachSerial(fn func(LogRecord) error) error {
	for {
		rec, err := lr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
}

// aheadBatch is how many records eachAhead reads before handing them over: enough that the
// hand-over is small against the reading, few enough to stay in the cache.
const aheadBatch = 4096

// eachAhead is eachSerial with the reading on a goroutine of its own, batches of records
// ahead of fn: a Parquet log is not cut into chunks that parse in parallel, but its reading
// and what fn does with the records (pet build's fit) share the cores. fn sees the records
// and the error eachSerial would give it; the reader is left past the records fn was given.
func (lr *LogReader) eachAhead(fn func(LogRecord) error) error {
	batches := make(chan chunkResult, 2)
	free := make(chan []LogRecord, 3)
	done := make(chan struct{})
	var wg sync.WaitGroup
	defer func() {
		close(done)
		wg.Wait()
	}()
	wg.Go(func() {
		defer close(batches)
		for {
			var recs []LogRecord
			select {
			case recs = <-free:
			default:
				recs = make([]LogRecord, 0, aheadBatch)
			}
			var err error
			for len(recs) < aheadBatch {
				var rec LogRecord
				if rec, err = lr.Next(); err != nil {
					break
				}
				recs = append(recs, rec)
			}
			select {
			case batches <- chunkResult{recs: recs, err: err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	})
	for b := range batches {
		for _, rec := range b.recs {
			if err := fn(rec); err != nil {
				return err
			}
		}
		if b.err == io.EOF {
			return nil
		}
		if b.err != nil {
			return b.err
		}
		select {
		case free <- b.recs[:0]:
		default:
		}
	}
	return nil
}

// chunkResult is a worker's reading of one chunk: its records up to the first bad one, that
// one's error, and the line of the last record (0 when none).
type chunkResult struct {
	recs []LogRecord
	last int
	err  error
}

type chunkJob struct {
	ch  chunk
	res chan<- chunkResult
}

// chunkItem is a chunk in file order: the result to wait for, or where the chunks end (a
// chunk with a quote, or the zero chunk at the end of the stream or a read error).
type chunkItem struct {
	res <-chan chunkResult
	end *chunk
}

// eachChunk reads the fast path's chunks in parallel: one goroutine cuts the stream into
// chunks, workers turn chunks into records, and this one hands the records to fn in order. It
// returns nil where the fast path ends, leaving the rest (encoding/csv after a quote, or the
// end and its error) to Next, with the table where a serial read would have left it.
func (lr *LogReader) eachChunk(t *csvTable, fn func(LogRecord) error, workers int) error {
	inflight := 2 * workers
	order := make(chan chunkItem, inflight)
	jobs := make(chan chunkJob)
	done := make(chan struct{})
	bufs := make(chan []byte, inflight+workers+2)
	batches := make(chan []LogRecord, inflight+workers+2)
	rest, last := chunk{data: t.lines.data, first: t.lines.next}, t.lines.line
	t.lines, t.buf = csvLines{}, nil
	var wg sync.WaitGroup
	defer func() {
		close(done)
		wg.Wait()
	}()
	for range workers {
		w := lr.chunkWorker(t) // here: the copy of lr.r must not race with the updates below
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				var recs []LogRecord
				select {
				case recs = <-batches:
				default:
				}
				j.res <- w.parse(j.ch, recs)
				select {
				case bufs <- j.ch.data[:0]:
				default:
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(jobs)
		send := func(ch chunk) bool {
			res := make(chan chunkResult, 1)
			return enqueue(order, chunkItem{res: res}, jobs, chunkJob{ch, res}, done)
		}
		if len(rest.data) > 0 { // the rest of the chunk read last
			if !send(rest) {
				return
			}
		}
		for {
			var buf []byte
			select {
			case buf = <-bufs:
			default:
			}
			ch, err := t.chunks.next(buf)
			if err != nil || ch.quoted {
				select {
				case order <- chunkItem{end: &ch}:
				case <-done:
				}
				return
			}
			if !send(ch) {
				return
			}
		}
	}()

	for it := range order {
		if it.end != nil {
			t.lines.line = last
			if it.end.quoted {
				t.toCSV(*it.end)
			}
			return nil
		}
		res := <-it.res
		lr.r.n += int64(len(res.recs))
		for _, rec := range res.recs {
			if err := fn(rec); err != nil {
				return err
			}
		}
		if res.err != nil {
			lr.r.atEOF = true
			return res.err
		}
		if res.last > 0 {
			last = res.last
		}
		select {
		case batches <- res.recs[:0]:
		default:
		}
	}
	return nil
}

// chunkReader is a worker's LogReader: the file's bindings over a table of one chunk.
type chunkReader struct {
	lr LogReader
	t  *csvChunkTable
}

func (lr *LogReader) chunkWorker(t *csvTable) *chunkReader {
	ct := &csvChunkTable{table: t, cols: len(t.cols)}
	r := *lr.r
	r.t = ct
	w := &chunkReader{lr: *lr, t: ct}
	w.lr.r = &r
	return w
}

// parse appends ch's records to recs, up to the first error.
func (w *chunkReader) parse(ch chunk, recs []LogRecord) chunkResult {
	w.t.lines.reset(ch)
	w.t.lines.line = 0
	for {
		if err := w.t.next(); err != nil {
			if err == io.EOF {
				err = nil
			}
			return chunkResult{recs, w.t.lines.line, err}
		}
		rec, err := w.lr.record()
		if err != nil {
			return chunkResult{recs, w.t.lines.line, err}
		}
		recs = append(recs, rec)
	}
}

// enqueue hands a job to the workers of an ordered pipeline (eachChunk, eachColumns): first its
// place in the order the results are read in, then the job itself, so that results come back in
// the order jobs were given whichever worker finishes first. It reports false when done closes
// first (the reader stopped early).
func enqueue[I, J any](order chan<- I, item I, jobs chan<- J, job J, done <-chan struct{}) bool {
	select {
	case order <- item:
	case <-done:
		return false
	}
	select {
	case jobs <- job:
		return true
	case <-done:
		return false
	}
}
