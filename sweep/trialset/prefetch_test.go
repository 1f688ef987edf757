package trialset

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/hcreplay/hcreplay/replay"
)

// countSource yields tasks 0, 1, ... n−1 (task i: ID i, arrival 2i), then the end; or, with
// failAt ≥ 0, fails when asked for task failAt. It counts the questions asked.
type countSource struct {
	n, failAt int
	asked     atomic.Int64
}

var errCountSource = errors.New("count source: bad row")

func (s *countSource) Next() (replay.Task, bool, error) {
	i := int(s.asked.Add(1) - 1)
	switch {
	case i == s.failAt:
		return replay.Task{}, false, errCountSource
	case i >= s.n:
		return replay.Task{}, false, nil
	}
	return replay.Task{ID: int64(i), Type: i % 3, Arrival: 2 * float64(i), Deadline: 2*float64(i) + 5}, true, nil
}

// TestPrefetchSameTasks: a prefetch yields its source's tasks in order with their values, then
// the end or the source's error after the tasks before it, and keeps asking the end (or the
// error) once it is reached, for traces shorter than a chunk, of whole chunks, and longer than
// all the chunks together.
func TestPrefetchSameTasks(t *testing.T) {
	for _, c := range []struct{ n, failAt, chunk, chunks int }{
		{0, -1, 4, 2},
		{1, -1, 4, 2},
		{3, -1, 4, 2},
		{4, -1, 4, 2},
		{8, -1, 4, 2},
		{9, -1, 4, 2},
		{50, -1, 4, 2},
		{50, -1, 1, 1},
		{50, 0, 4, 2},
		{50, 4, 4, 2},
		{50, 13, 4, 3},
		{5000, 4321, prefetchChunk, prefetchChunks},
	} {
		t.Run(fmt.Sprintf("n%d-fail%d-chunk%dx%d", c.n, c.failAt, c.chunk, c.chunks), func(t *testing.T) {
			src := &countSource{n: c.n, failAt: c.failAt}
			p := newPrefetch(src, c.chunk, c.chunks)
			defer p.Close()
			want := c.n
			if c.failAt >= 0 {
				want = c.failAt
			}
			for i := range want {
				task, ok, err := p.Next()
				if err != nil || !ok {
					t.Fatalf("task %d: ok %v, error %v; want the task", i, ok, err)
				}
				if task.ID != int64(i) || task.Type != i%3 || task.Arrival != 2*float64(i) || task.Deadline != 2*float64(i)+5 {
					t.Fatalf("task %d: got %+v", i, task)
				}
			}
			for range 2 {
				_, ok, err := p.Next()
				if ok {
					t.Fatalf("a task after the %d the source has", want)
				}
				if c.failAt >= 0 && !errors.Is(err, errCountSource) || c.failAt < 0 && err != nil {
					t.Fatalf("after %d tasks: error %v, want %v", want, err, map[bool]error{true: errCountSource}[c.failAt >= 0])
				}
			}
		})
	}
}

// TestPrefetchCloseStopsReading: Close returns while the source has more to give, and the
// source is not asked again after it (the replay closes the file next); what was asked before
// is at most the chunks the reader may hold, and one more question; past the tasks read ahead,
// Next says the source was closed.
func TestPrefetchCloseStopsReading(t *testing.T) {
	src := &countSource{n: 1 << 30, failAt: -1}
	p := newPrefetch(src, 16, 3)
	for range 20 {
		if _, ok, err := p.Next(); !ok || err != nil {
			t.Fatalf("ok %v, error %v", ok, err)
		}
	}
	p.Close()
	asked := src.asked.Load()
	if asked < 20 || asked > 20+3*16+1 {
		t.Errorf("the source was asked %d times for 20 tasks read, want at most the 3 chunks of 16 ahead", asked)
	}
	p.Close() // a second Close is harmless
	// The chunks read ahead may still hold tasks; past them, Next reports the close.
	ok, err := true, error(nil)
	for ok {
		_, ok, err = p.Next()
	}
	if !errors.Is(err, errPrefetchClosed) {
		t.Errorf("Next after Close, past the tasks read ahead: error %v, want %v", err, errPrefetchClosed)
	}
	if got := src.asked.Load(); got != asked {
		t.Errorf("the source was asked %d times after Close", got-asked)
	}
}
