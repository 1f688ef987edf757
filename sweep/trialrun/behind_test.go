package trialrun

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// TestWriteBehindInOrder: every row added is written once, in the order added, whatever the
// chunks' size and number and however many rows a last, partial chunk holds; after a write's
// error no row is written, and close reports that error.
func TestWriteBehindInOrder(t *testing.T) {
	errDisk := errors.New("disk full")
	for _, c := range []struct{ rows, failAt, chunk, chunks int }{
		{0, -1, 4, 2},
		{1, -1, 4, 2},
		{4, -1, 4, 2},
		{9, -1, 4, 2},
		{50, -1, 1, 1},
		{50, -1, 4, 3},
		{50, 0, 4, 2},
		{50, 17, 4, 2},
		{5000, -1, writeBehindChunk, writeBehindChunks},
		{5000, 4321, writeBehindChunk, writeBehindChunks},
	} {
		t.Run(fmt.Sprintf("rows%d-fail%d-chunk%dx%d", c.rows, c.failAt, c.chunk, c.chunks), func(t *testing.T) {
			var written []int
			write := func(r int) error {
				if r == c.failAt {
					return errDisk
				}
				written = append(written, r) // the writer's goroutine only; read after close
				return nil
			}
			b := newWriteBehind(write, c.chunk, c.chunks)
			for r := range c.rows {
				b.add(r)
			}
			err := b.close()
			want := c.rows
			if c.failAt >= 0 {
				want = c.failAt
			}
			if len(written) != want || !slices.Equal(written, seq(want)) {
				t.Errorf("wrote %d rows (%v…), want 0 to %d in order", len(written), written[:min(len(written), 8)], want-1)
			}
			if c.failAt >= 0 && !errors.Is(err, errDisk) || c.failAt < 0 && err != nil {
				t.Errorf("close: %v", err)
			}
		})
	}
}

// TestWriteBehindBounded: while the writer is stuck, add takes no more rows than the chunks
// hold, and then waits; when the writer moves on, every row is written.
func TestWriteBehindBounded(t *testing.T) {
	release := make(chan struct{})
	var written atomic.Int64
	b := newWriteBehind(func(int) error {
		<-release
		written.Add(1)
		return nil
	}, 8, 3)
	var added atomic.Int64
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		for r := range 1000 {
			b.add(r)
			added.Add(1)
		}
	}()
	time.Sleep(50 * time.Millisecond) // ample time to run past the bound, were there none
	if n := added.Load(); n > 3*8 {
		t.Errorf("%d rows added while the writer was stuck on the first, want at most the 3 chunks of 8", n)
	}
	close(release)
	<-finished
	if err := b.close(); err != nil {
		t.Fatal(err)
	}
	if n := written.Load(); n != 1000 {
		t.Errorf("wrote %d rows, want 1000", n)
	}
}

// seq is 0, 1, ..., n−1.
func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}
