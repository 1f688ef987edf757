// Package parallel runs independent pieces of work on all cores: a fit's cells (petbuild), a
// report's figures (report). It owns the spreading of indices over goroutines, not the work, its
// order or its errors, which stay with the callers.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Each calls a work function for every index below n, on all cores, each index once, and
// returns when all are done; newWorker gives each goroutine its own function, with its own
// scratch space. The indices are handed out in turn, so a slow one does not hold up the others.
func Each(n int, newWorker func() func(int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		work := newWorker()
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				work(i)
			}
		})
	}
	wg.Wait()
}
