package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hcreplay/hcreplay/sweep"
)

// BenchmarkGeneratedTaskBytes reports the heap one task of a sweep's generated level takes
// while the sweep holds it (B/task, live after a collection). What the sweep's caps must allow
// for is the peak, which BenchmarkSweepPeakBytes reports.
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
	gen := sweep.DefaultGenerate()
	gen.Tasks, gen.Level = 500_000, "19k"
	lv := sweep.Level{Name: "19k", Generate: gen, Trials: 2, Seed: 1}
	var perTask float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		lt, err := sweep.GenerateLevel(lv, pet, func(s string) string { return s })
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

// BenchmarkSweepPeakBytes reports the peak memory (resident, of a child process running `hcreplay
// sweep`) per generated task and per run, above that of a sweep of one small run: the figures
// report's caps on generated tasks and on runs are derived from (issue 49: a sweep just under
// the caps of the time took 10 GB and 3.1 GB, where the caps assumed far less). generated: 4
// trials of 500,000 tasks, generated and held, in a shard that runs none of them. run: a
// sweep of 64,000 runs of a one-task trial, run to its end (the plan, the rows, the checkpoints
// and runs.parquet).
func BenchmarkSweepPeakBytes(b *testing.B) {
	dir := b.TempDir()
	pet := filepath.Join(dir, "pet.json")
	if code := run([]string{"pet", "synth", "--out", pet, "--types", "12", "--machines", "8", "-q"}, io.Discard, io.Discard); code != 0 {
		b.Fatalf("pet synth: exit %d", code)
	}
	seeds := make([]string, 400)
	for i := range seeds {
		seeds[i] = fmt.Sprint(i + 1)
	}
	grid := func(name, heuristics, prune, seed string, trials, tasks int) string {
		path := filepath.Join(dir, name+".yaml")
		writeFile(b, path, fmt.Sprintf("pet: %s\nheuristics: [%s]\nprune: [%s]\nseed: [%s]\nlevels:\n  - name: l\n    trials: %d\n    generate: {level: 19k, tasks: %d}\n",
			pet, heuristics, prune, seed, trials, tasks))
		return path
	}
	peak := func(args ...string) float64 {
		out := filepath.Join(dir, fmt.Sprint("out", time.Now().UnixNano()))
		c := startChild(b, 0, append(args, "--out", out, "-j", "1", "-q")...)
		code, rss := c.wait(b, 10*time.Minute)
		if code != 0 {
			b.Fatalf("%v: exit %d: %s", args, code, c.stderr)
		}
		os.RemoveAll(out)
		return rss * (1 << 20)
	}
	base := peak("sweep", grid("one", "MM", "none", "1", 1, 1))
	for _, c := range []struct {
		name, unit string
		units      int
		args       []string
	}{
		{"generated", "task", 4 * 500_000, []string{"sweep", grid("gen", "MM", "none", "1", 4, 500_000), "--shard", "5/5"}},
		{"runs", "run", 16 * 400 * 10, []string{"sweep", grid("runs", "MM, MCT, MSD, MMU", "none, defer, drop, both", strings.Join(seeds, ", "), 10, 1)}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var per float64
			for b.Loop() {
				per = (peak(c.args...) - base) / float64(c.units)
			}
			b.ReportMetric(per, "peak-B/"+c.unit)
		})
	}
}
