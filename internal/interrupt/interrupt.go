// Package interrupt stops a command that has not stopped by itself a while after Ctrl-C or
// SIGTERM, without leaving the temporary files of the outputs it was writing: a command that
// does not look at its context (pet show, trace convert, ...) or is blocked in a read (a FIFO,
// a terminal) would otherwise run to its end or forever. A command saving its work then (a sweep
// its finished runs) gets longer, as stopping it would throw the save away.
//
// It owns those waits and the last cleanup; catching the signal is the caller's (its context),
// and which files are being written is internal/atomicfile's.
package interrupt

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
)

// Grace is how long a command has after a signal to stop by itself (a sweep saves its finished
// runs) before Watch stops it.
const Grace = 2 * time.Second

// SaveGrace is how long Watch waits past Grace for a command that is saving its work (Saves): a
// sweep of 100,000 runs takes about 2 s to save them on 2 busy cores, one of the 840,000 runs a
// sweep allows some 17 s. A second Ctrl-C stops it at once.
const SaveGrace = time.Minute

// Saves counts the saves under way. The zero value is ready to use.
type Saves struct {
	mu sync.Mutex
	n  int
}

// Hold counts a save under way until the returned func is called (once; more calls do nothing).
func (s *Saves) Hold() (done func()) {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			s.n--
			s.mu.Unlock()
		})
	}
}

// Busy says whether a save is under way.
func (s *Saves) Busy() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n > 0
}

// Watch waits until finished is closed, or until ctx is cancelled (the signal) and the command
// has not finished Grace later, nor SaveGrace after that when saves are under way. Then it removes
// the temporary files of the outputs being written, says "interrupted" on stderr, and calls exit,
// which is not expected to return (os.Exit).
func Watch(ctx context.Context, finished <-chan struct{}, saves *Saves, stderr io.Writer, exit func()) {
	watch(ctx, finished, saves, stderr, exit, Grace, SaveGrace)
}

func watch(ctx context.Context, finished <-chan struct{}, saves *Saves, stderr io.Writer, exit func(), grace, saveGrace time.Duration) {
	select {
	case <-finished:
		return
	case <-ctx.Done():
	}
	select {
	case <-finished:
		return
	case <-time.After(grace):
	}
	if saves.Busy() {
		fmt.Fprintln(stderr, "hcreplay: saving the finished work; Ctrl-C again to stop at once")
		select {
		case <-finished:
			return
		case <-time.After(saveGrace):
		}
	}
	atomicfile.RemoveLive()
	fmt.Fprintln(stderr, "hcreplay: interrupted")
	exit()
}
