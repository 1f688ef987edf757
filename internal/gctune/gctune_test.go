package gctune

import (
	"os"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// percent reads the collector's pace without changing it.
func percent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// withoutGOGC runs f with GOGC unset, and puts the environment and the pace back after.
func withoutGOGC(t *testing.T, f func()) {
	old, set := os.LookupEnv("GOGC")
	os.Unsetenv("GOGC")
	p := percent()
	defer func() {
		debug.SetGCPercent(p)
		if set {
			os.Setenv("GOGC", old)
		}
	}()
	f()
}

// TestStartPaces: Start sets the pace to Percent; a collection that finds 24 MB live sends it
// back to 100, and one that finds less than Small leaves it.
func TestStartPaces(t *testing.T) {
	withoutGOGC(t, func() {
		Start()
		if p := percent(); p != Percent {
			t.Fatalf("pace %d after Start, want %d", p, Percent)
		}
		runtime.GC() // little is live
		time.Sleep(50 * time.Millisecond)
		if p := percent(); p != Percent {
			t.Fatalf("pace %d after a collection of a small heap, want %d still", p, Percent)
		}
		live := make([]byte, 24<<20)
		for i := range live {
			live[i] = byte(i)
		}
		deadline := time.Now().Add(5 * time.Second)
		for percent() != 100 && time.Now().Before(deadline) {
			runtime.GC()
			time.Sleep(10 * time.Millisecond)
		}
		runtime.KeepAlive(live)
		if p := percent(); p != 100 {
			t.Errorf("pace %d after collections of a 24 MB live heap, want 100", p)
		}
	})
}

// TestStartLeavesGOGC: with GOGC set, Start leaves the pace as the runtime set it from GOGC.
func TestStartLeavesGOGC(t *testing.T) {
	withoutGOGC(t, func() {
		os.Setenv("GOGC", "50")
		defer os.Unsetenv("GOGC")
		debug.SetGCPercent(50) // as the runtime read it at start
		Start()
		if p := percent(); p != 50 {
			t.Errorf("pace %d after Start with GOGC=50, want 50", p)
		}
	})
}

func TestBack(t *testing.T) {
	for _, c := range []struct {
		live uint64
		back bool
	}{{0, false}, {Small - 1, false}, {Small, true}, {1 << 30, true}} {
		if got := Back(c.live); got != c.back {
			t.Errorf("Back(%d) = %v, want %v", c.live, got, c.back)
		}
	}
}
