package parallel

import (
	"fmt"
	"sync/atomic"
	"testing"
)

// TestEachOnce: every index below n is worked on exactly once, whatever n against the cores
// (none, fewer, many more), counted per index; and each goroutine has a worker of its own.
func TestEachOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 1000} {
		counts := make([]atomic.Int32, n)
		var workers atomic.Int32
		Each(n, func() func(int) {
			workers.Add(1)
			return func(i int) { counts[i].Add(1) }
		})
		for i := range counts {
			if c := counts[i].Load(); c != 1 {
				t.Errorf("n %d: index %d worked on %d times", n, i, c)
			}
		}
		if w := workers.Load(); n > 0 && w == 0 || w > int32(n) {
			t.Errorf("n %d: %d workers", n, w)
		}
	}
}

func ExampleEach() {
	squares := make([]int, 5)
	Each(len(squares), func() func(int) {
		return func(i int) { squares[i] = i * i }
	})
	fmt.Println(squares)
	// Output: [0 1 4 9 16]
}
