package trialset

import (
	"errors"
	"sync"

	"github.com/hcreplay/hcreplay/replay"
)

// prefetchChunk is how many tasks the reader of a prefetch hands over at a time, and
// prefetchChunks how many chunks it may hold, filled or being filled: a few hundred kilobytes
// whatever the trace's length, and one exchange between the goroutines per thousand tasks.
const (
	prefetchChunk  = 1024
	prefetchChunks = 3
)

// prefetch is a replay.TaskSource that reads another ahead, in a goroutine of its own, a chunk
// at a time, so that parsing a streamed trace file runs on a second core beside the replay's
// events instead of between them. On a million HCW19-like tasks from CSV with MM, parsing was a
// fifth of the replay (1.8 s of 8.9, CPU profile); read ahead, hcreplay replay runs 1.22 times
// as fast (BenchmarkReplayFile, make bench-compare: 95% CI 1.18–1.25), and on one core it
// costs nothing measurable. The tasks come out in the source's order with its values, an
// error after the tasks read before it, and the source is read by one goroutine only, so a
// deadline rule's draws come in the same order as without.
type prefetch struct {
	chunks  chan prefetched    // filled chunks, in order
	free    chan []replay.Task // chunks the replay has read, back to the reader
	done    chan struct{}      // closed by Close: the reader stops
	stopped chan struct{}      // closed when the reader has returned
	stop    sync.Once
	cur     prefetched // the chunk being read
	i       int        // the next task of cur
}

// prefetched is a chunk of tasks, and how the source went on after them: an error, or its end.
type prefetched struct {
	tasks []replay.Task
	err   error
	end   bool
}

// errPrefetchClosed is what Next returns after Close: the replay asked for a task from a
// source it had closed (a bug).
var errPrefetchClosed = errors.New("prefetch: read after close")

// newPrefetch starts reading src ahead, chunk tasks at a time in at most n chunks. Close stops
// the reader; the caller closes src after it.
func newPrefetch(src replay.TaskSource, chunk, n int) *prefetch {
	p := &prefetch{chunks: make(chan prefetched, n), free: make(chan []replay.Task, n),
		done: make(chan struct{}), stopped: make(chan struct{})}
	for range n {
		p.free <- make([]replay.Task, 0, chunk)
	}
	go p.read(src)
	return p
}

// read fills the free chunks from src and hands them over, until src ends or fails or Close.
func (p *prefetch) read(src replay.TaskSource) {
	defer close(p.stopped)
	for {
		var c prefetched
		select {
		case c.tasks = <-p.free:
		case <-p.done:
			return
		}
		for c.tasks = c.tasks[:0]; len(c.tasks) < cap(c.tasks); {
			t, ok, err := src.Next()
			if err != nil || !ok {
				c.err, c.end = err, err == nil
				break
			}
			c.tasks = append(c.tasks, t)
		}
		select {
		case p.chunks <- c:
		case <-p.done:
			return
		}
		if c.err != nil || c.end {
			return
		}
	}
}

// Next is replay.TaskSource's.
func (p *prefetch) Next() (replay.Task, bool, error) {
	for p.i == len(p.cur.tasks) {
		if p.cur.err != nil || p.cur.end {
			return replay.Task{}, false, p.cur.err
		}
		if p.cur.tasks != nil {
			p.free <- p.cur.tasks // never blocks: free holds every chunk
		}
		select {
		case p.cur = <-p.chunks:
		case <-p.done:
			p.cur = prefetched{err: errPrefetchClosed}
		}
		p.i = 0
	}
	p.i++
	return p.cur.tasks[p.i-1], true, nil
}

// Close stops the reader and waits for it to return, so that the source may be closed after.
func (p *prefetch) Close() {
	p.stop.Do(func() { close(p.done) })
	<-p.stopped
}
