package main

import (
	"io"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/hcreplay/hcreplay/report"
)

// BenchmarkGeneratedTaskBytes reports the heap one task of a sweep's generated level takes
// while the sweep holds it (B/task): the figure report's cap on generated tasks is derived
// from. Issue 49 measured about 84 bytes where the cap assumed 32.
func BenchmarkGeneratedTaskBytes(b *testing.B) {
	dir := b.TempDir()
	petPath := filepath.Join(dir, "pet.json")
	if code := run([]string{"pet", "synth", "--out", petPath, "--types", "12", "--machines", "8", "-q"}, io.Discard, io.Discard); code != 0 {
		b.Fatalf("pet synth: exit %d", code)
	}
	pet, err := loadPET(petPath)
	if err != nil {
		b.Fatal(err)
	}
	gen := report.DefaultGenerate()
	gen.Tasks, gen.Level = 500_000, "19k"
	lv := report.Level{Name: "19k", Generate: gen, Trials: 2, Seed: 1}
	var perTask float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		lt, err := generateLevel(lv, pet, func(s string) string { return s })
		if err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		perTask = float64(after.HeapAlloc-before.HeapAlloc) / float64(2*gen.Tasks)
		runtime.KeepAlive(lt)
	}
	b.ReportMetric(perTask, "B/task")
}
