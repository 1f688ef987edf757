package trace

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// writeBenchLog writes n log records shaped like a real log: 12 task types,
// 8 machine types, unique task ids and execution times with a few decimals.
func writeBenchLog(tb testing.TB, path string, n int) {
	tb.Helper()
	w, err := CreateLogs(path, WriteOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	types := make([]string, 12)
	for i := range types {
		types[i] = "type" + strconv.Itoa(i)
	}
	machines := []string{"c5.large", "c5.xlarge", "m5.large", "m5.2xlarge", "r5.large", "g4dn.xlarge", "p3.2xlarge", "t3.medium"}
	for i := range n {
		exec := math.Round((20+rng.ExpFloat64()*100)*1000) / 1000
		rec := LogRecord{TaskID: "t" + strconv.Itoa(i), TaskType: types[rng.IntN(12)], MachineType: machines[rng.IntN(8)],
			ExecTime: exec, Start: math.NaN(), End: math.NaN()}
		if err := w.Write(rec); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
}

// readAllLogs streams a log and returns the number of records and a checksum.
func readAllLogs(tb testing.TB, path string) (int, float64) {
	lr, err := OpenLogs(fileSource(path), ReadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	defer lr.Close()
	n, sum := 0, 0.0
	for {
		rec, err := lr.Next()
		if err == io.EOF {
			return n, sum
		}
		if err != nil {
			tb.Fatal(err)
		}
		n++
		sum += rec.ExecTime
	}
}

func benchmarkRead(b *testing.B, ext string) {
	const rows = 200_000
	path := filepath.Join(b.TempDir(), "log."+ext)
	writeBenchLog(b, path, rows)
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu := time.Now(), cpuTime()
	for b.Loop() {
		if n, _ := readAllLogs(b, path); n != rows {
			b.Fatalf("%d rows", n)
		}
	}
	total := float64(rows) * float64(b.N)
	b.ReportMetric(total/time.Since(start).Seconds(), "rows/s")
	// Rows per second of CPU time of the process, a steadier figure on a
	// shared machine than wall time.
	b.ReportMetric(total/(cpuTime()-cpu).Seconds(), "rows/cpu-s")
}

// cpuTime returns the user and system CPU time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Targets on one core: at least 500k rows/s for CSV and 2M rows/s for
// Parquet. Run with: go test -run '^$' -bench ReadLogs -cpu 1 ./trace/
func BenchmarkReadLogsCSV(b *testing.B)     { benchmarkRead(b, "csv") }
func BenchmarkReadLogsParquet(b *testing.B) { benchmarkRead(b, "parquet") }
func BenchmarkReadLogsJSONL(b *testing.B)   { benchmarkRead(b, "jsonl") }

// BenchmarkReadLogs10M shows that reading is done in constant memory: it
// writes logs of 1 and 10 million rows and streams each, forcing a garbage
// collection every 2^18 records to sample the live heap; it reports the
// largest sample ("live-heap-MiB"), which must not grow with the number of
// rows. It takes a minute or two and about 1 GB of disk, so -short skips it
// (and plain go test never runs benchmarks). Run with:
//
//	go test -run '^$' -bench ReadLogs10M -benchtime 1x ./trace/
func BenchmarkReadLogs10M(b *testing.B) {
	if testing.Short() {
		b.Skip("10M rows: skipped with -short")
	}
	for _, ext := range []string{"parquet", "csv"} {
		for _, rows := range []int{1_000_000, 10_000_000} {
			b.Run(fmt.Sprintf("%s/%dM", ext, rows/1_000_000), func(b *testing.B) {
				path := filepath.Join(b.TempDir(), "big."+ext)
				writeBenchLog(b, path, rows)
				runtime.GC()
				runtime.GC() // the second clears the writer's sync.Pools
				b.ResetTimer()
				for b.Loop() {
					live, elapsed := streamMeasuringHeap(b, path, rows)
					b.ReportMetric(float64(live)/(1<<20), "live-heap-MiB")
					b.ReportMetric(float64(rows)/elapsed.Seconds(), "rows/s")
				}
			})
		}
	}
}

// streamMeasuringHeap reads the log and returns the largest live heap seen
// and the reading time (without the collections it forced).
func streamMeasuringHeap(b *testing.B, path string, rows int) (uint64, time.Duration) {
	var ms runtime.MemStats
	live := uint64(0)
	lr, err := OpenLogs(fileSource(path), ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer lr.Close()
	n := 0
	var elapsed time.Duration
	start := time.Now()
	for {
		_, err := lr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		if n++; n%(1<<18) == 0 {
			elapsed += time.Since(start)
			runtime.GC()
			runtime.ReadMemStats(&ms)
			live = max(live, ms.HeapAlloc)
			start = time.Now()
		}
	}
	elapsed += time.Since(start)
	if n != rows {
		b.Fatalf("%d rows, want %d", n, rows)
	}
	return live, elapsed
}

// BenchmarkReadLogsCSVPaths compares the CSV readers on the same 200k-row log: encoding/csv
// (the reader before issue 50's fast path), the fast path read serially, and in parallel
// chunks on GOMAXPROCS workers (what EachLog does).
func BenchmarkReadLogsCSVPaths(b *testing.B) {
	const rows = 200_000
	path := filepath.Join(b.TempDir(), "log.csv")
	writeBenchLog(b, path, rows)
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range []struct {
		name          string
		size, workers int
	}{{"encoding-csv", 0, 1}, {"fast", csvChunk, 1}, {"parallel", csvChunk, runtime.GOMAXPROCS(0)}} {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			start, cpu := time.Now(), cpuTime()
			for b.Loop() {
				if recs, err := csvLogRead(data, p.size, p.workers); err != "" || len(recs) != rows {
					b.Fatalf("%d rows, %s", len(recs), err)
				}
			}
			total := float64(rows) * float64(b.N)
			b.ReportMetric(total/time.Since(start).Seconds(), "rows/s")
			b.ReportMetric(total/(cpuTime()-cpu).Seconds(), "rows/cpu-s")
		})
	}
}
