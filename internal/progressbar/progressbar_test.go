package progressbar

import (
	"io"
	"testing"
)

// TestCounterSteps: the bar of a replay's tasks moves in whole steps of Step (that the replay
// calls its counter once per task is trialrun's TestReplayOneCounts).
func TestCounterSteps(t *testing.T) {
	b := Draw(io.Discard)
	b.StartTasks(3*Step, "x")
	tick := b.Counter()
	for range 2*Step + 5 {
		tick()
	}
	if got := b.bar.Current(); got != 2*Step {
		t.Errorf("bar at %d after %d ticks, want %d", got, 2*Step+5, 2*Step)
	}
	b.Stop()
}

// TestNilDrawsNothing: a bar New declines to draw (quiet, or not a terminal) is nil, and every
// method of a nil bar does nothing; Logf then goes to its fallback.
func TestNilDrawsNothing(t *testing.T) {
	if b := New(io.Discard, false); b != nil {
		t.Error("a bar on a writer that is no terminal")
	}
	var b *Bar
	b.StartRuns(3, "x")
	b.StartTasks(3, "x")
	b.SetTotal(4)
	b.Inc()
	if b.Counter() != nil || b.Drawn() {
		t.Error("a nil bar counts")
	}
	var logged []string
	b.Logf(func(format string, args ...any) { logged = append(logged, format) }, "line %d", 1)
	if len(logged) != 1 || logged[0] != "line %d" {
		t.Errorf("a nil bar's log line went %q, want to the fallback", logged)
	}
	b.Stop()
}
