package main

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/hcreplay/hcreplay/trace"
)

// BenchmarkPETBuild reports hcreplay pet build's speed from an execution log as issue 50 states
// its target, in rows/s, with the largest heap seen while it ran (peak-heap-MiB: the bytes of
// heap objects, live and not yet collected, sampled every 5 ms; the RSS is above it): 10 million rows of 12 task types × 8 machine types, as CSV and as Parquet,
// written into a temporary folder first (a few minutes and about 1 GB of disk; -short skips it).
func BenchmarkPETBuild(b *testing.B) {
	if testing.Short() {
		b.Skip("10M rows: skipped with -short")
	}
	const rows = 10_000_000
	for _, ext := range []string{"csv", "parquet"} {
		b.Run(ext+"/10M", func(b *testing.B) {
			dir := b.TempDir()
			log := filepath.Join(dir, "log."+ext)
			writePETBenchLog(b, log, rows)
			runtime.GC()
			b.ResetTimer()
			peak := uint64(0)
			for i := 0; b.Loop(); i++ {
				stop := sampleHeap(&peak)
				benchCLI(b, "-q", "pet", "build", log, "--out", filepath.Join(dir, "pet"+strconv.Itoa(i)+".json"))
				stop()
			}
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(peak)/(1<<20), "peak-heap-MiB")
		})
	}
}

// writePETBenchLog writes n log rows: exponential execution times over 20 ms, rounded to µs.
func writePETBenchLog(b *testing.B, path string, n int) {
	b.Helper()
	w, err := trace.CreateLogs(path, trace.WriteOptions{})
	if err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(50, 4))
	types := make([]string, 12)
	for i := range types {
		types[i] = "type" + strconv.Itoa(i)
	}
	machines := []string{"c5.large", "c5.xlarge", "m5.large", "m5.2xlarge", "r5.large", "g4dn.xlarge", "p3.2xlarge", "t3.medium"}
	for i := range n {
		rec := trace.LogRecord{TaskID: "t" + strconv.Itoa(i), TaskType: types[rng.IntN(len(types))], MachineType: machines[rng.IntN(len(machines))],
			ExecTime: math.Round((20+rng.ExpFloat64()*100)*1000) / 1000, Start: math.NaN(), End: math.NaN()}
		if err := w.Write(rec); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
}

// sampleHeap raises *peak to the heap objects' bytes every 5 ms until stop is called.
func sampleHeap(peak *uint64) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			metrics.Read(s)
			*peak = max(*peak, s[0].Value.Uint64())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}
