package importers

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/hcreplay/hcreplay/trace"
)

// writeBenchSWF writes an SWF log of n jobs shaped like a real one: header
// comments, 24 executables on 4 partitions, about 5% cancelled jobs.
func writeBenchSWF(tb testing.TB, path string, n int) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fmt.Fprintf(w, "; Version: 2.2\n; Computer: bench\n; MaxJobs: %d\n; MaxPartitions: 4\n", n)
	rng := rand.New(rand.NewPCG(1, 2))
	submit := 0
	for i := 1; i <= n; i++ {
		submit += rng.IntN(20)
		status, run := 1, 1+rng.IntN(5000)
		if rng.IntN(20) == 0 {
			status, run = 5, -1
		}
		fmt.Fprintf(w, "%d %d %d %d 8 -1 -1 8 7200 -1 %d %d 1 %d 1 %d -1 -1\n",
			i, submit, rng.IntN(600), run, status, 1+rng.IntN(50), 1+rng.IntN(24), 1+rng.IntN(4))
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkImportSWF imports a 1M-job SWF log to a CSV log and a CSV trace
// with prop:1 deadlines and reports rows per second.
func BenchmarkImportSWF(b *testing.B) {
	const n = 1_000_000
	dir := b.TempDir()
	src := filepath.Join(dir, "bench.swf")
	writeBenchSWF(b, src, n)
	rule, _ := trace.ParseDeadlineRule("prop:1")
	b.ResetTimer()
	for b.Loop() {
		res, err := Import(context.Background(), []trace.Source{{Name: src, Path: src}}, filepath.Join(dir, "log.csv"), filepath.Join(dir, "trace.csv"),
			Options{Format: SWF, Deadline: &rule})
		if err != nil || res.Rows != n {
			b.Fatalf("import: %v (%v rows)", err, res)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
