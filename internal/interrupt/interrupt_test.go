package interrupt

import (
	"bytes"
	"context"
	"sync/atomic"
	"testing"
	"time"
)

const tick = 50 * time.Millisecond // the test's grace; the save's is 20 of them, margin for a loaded machine

// watched runs watch with short graces and says whether it called exit, and what it wrote.
func watched(t *testing.T, ctx context.Context, finished chan struct{}, saves *Saves) (exited bool, out string) {
	t.Helper()
	var stderr bytes.Buffer
	var n atomic.Int32
	done := make(chan struct{})
	go func() {
		watch(ctx, finished, saves, &stderr, func() { n.Add(1) }, tick, 20*tick)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("watch did not return")
	}
	return n.Load() == 1, stderr.String()
}

// TestWatch: a command that finishes, before or after the signal but within the grace, is left
// alone; one that does not is stopped after the grace, or after the save's grace while it saves.
func TestWatch(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	closed := make(chan struct{})
	close(closed)

	if exited, out := watched(t, context.Background(), closed, new(Saves)); exited || out != "" {
		t.Errorf("finished without a signal: exit %v, %q", exited, out)
	}
	if exited, _ := watched(t, cancelled, closed, new(Saves)); exited {
		t.Error("finished within the grace, and stopped")
	}
	if exited, out := watched(t, cancelled, make(chan struct{}), new(Saves)); !exited || out != "hcreplay: interrupted\n" {
		t.Errorf("stuck past the grace: exit %v, %q; want exit and \"interrupted\"", exited, out)
	}

	// A save that ends after the grace (a tick) but within the save's (20 ticks) is waited for.
	saves, finished := new(Saves), make(chan struct{})
	done := saves.Hold()
	time.AfterFunc(3*tick, func() { done(); close(finished) })
	exited, out := watched(t, cancelled, finished, saves)
	if want := "hcreplay: saving the finished work; Ctrl-C again to stop at once\n"; exited || out != want {
		t.Errorf("saving: exit %v, %q; want no exit and %q", exited, out, want)
	}
	if saves.Busy() {
		t.Error("busy after the save's done")
	}
}

func TestSavesHold(t *testing.T) {
	var s Saves
	a, b := s.Hold(), s.Hold()
	a()
	a() // a second call does not count twice
	if !s.Busy() {
		t.Error("not busy with one save of two under way")
	}
	b()
	if s.Busy() {
		t.Error("busy with no save under way")
	}
}
