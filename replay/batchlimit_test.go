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
