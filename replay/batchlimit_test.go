package replay

import (
	"strings"
	"testing"
)

func TestBatchLimit(t *testing.T) {
	for _, tt := range []struct {
		name     string
		limit    int
		arrivals []float64
		failAt   int // index of the arrival refused, -1 for none
	}{
		{"three at once, limit 2", 2, []float64{0, 1, 1, 1, 2}, 3},
		{"two at once twice, limit 2", 2, []float64{1, 1, 2, 2, 3}, -1},
		{"a run split by another time restarts", 2, []float64{1, 1, 2, 1, 1}, -1},
		{"no limit", -1, []float64{5, 5, 5, 5, 5}, -1},
		{"default limit allows 10,000", 0, make([]float64, DefaultMaxBatch), -1},
		{"default limit refuses 10,001", 0, make([]float64, DefaultMaxBatch+1), DefaultMaxBatch},
	} {
		b := NewBatchLimit("t.csv", tt.limit)
		failed := -1
		for i, at := range tt.arrivals {
			if err := b.Add(at); err != nil {
				failed = i
				if !strings.HasPrefix(err.Error(), "t.csv: more than ") || !strings.Contains(err.Error(), "--max-batch") {
					t.Errorf("%s: message %q", tt.name, err)
				}
				break
			}
		}
		if failed != tt.failAt {
			t.Errorf("%s: refused arrival %d, want %d", tt.name, failed, tt.failAt)
		}
	}
}

// TestBatchLimitMessage: the message a user sees names the trace, the limit, the arrival time
// as given (1.25, not rounded) and the flag that raises the limit.
func TestBatchLimitMessage(t *testing.T) {
	b := NewBatchLimit("t.csv", 2)
	var err error
	for _, at := range []float64{1.25, 1.25, 1.25} {
		if err = b.Add(at); err != nil {
			break
		}
	}
	want := "t.csv: more than 2 tasks arrive at time 1.25: a mapping event's time grows as the square of its batch " +
		"(20,000 took 12 s with MM on 2 machine types); spread the arrivals, or raise --max-batch (0: no limit)"
	if err == nil || err.Error() != want {
		t.Errorf("message %v, want %q", err, want)
	}
}

// TestBatchLimitZero: the zero BatchLimit, as its doc says, refuses nothing.
func TestBatchLimitZero(t *testing.T) {
	var b BatchLimit
	for i := range 5 {
		if err := b.Add(3); err != nil {
			t.Fatalf("arrival %d: %v", i, err)
		}
	}
}
