// Package corespeed measures how fast the processor core is running right now, with a fixed
// chain of dependent integer multiply-adds that touches no memory. The benchmarks that carry
// issue 6's speed targets probe it between their iterations and report the mean, so that a
// reader can tell a slower program from a slower machine: on the shared machine the project is
// built on, this loop has run at half its speed for minutes at a time, and the replay's tasks/s
// with it.
//
// It owns the loop and nothing else: which samples count as taken on a fast core is for the
// reader of the benchmark lines to decide (internal/benchtable).
package corespeed

import (
	"runtime"
	"time"
)

// Probe runs n steps of the loop and returns the multiply-adds done per nanosecond. Its seed is
// the clock, so that the compiler cannot work the chain out beforehand. At about 0.7 per ns (a
// 2.8 GHz core that does one every four cycles, the multiply's latency and the add's), half a
// million take 0.7 ms.
func Probe(n int) float64 {
	start := time.Now()
	x := chain(uint64(start.UnixNano())|1, n)
	d := time.Since(start)
	runtime.KeepAlive(x)
	return float64(n) / float64(max(d.Nanoseconds(), 1))
}

// chain is n steps of the linear congruential generator of Knuth's MMIX from x: each step
// needs the one before, so the core can do one at a time however wide it is.
//
//go:noinline
func chain(x uint64, n int) uint64 {
	for range n {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}
