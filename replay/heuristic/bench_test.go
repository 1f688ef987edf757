package heuristic

import (
	"math/rand/v2"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/replay"
)

// BenchmarkHeuristics replays one generated workload through each heuristic on the reference
// engine: 500 tasks of 12 types on 8 machines (PET cells of up to 8 impulses), two arrivals per
// time unit with deadlines 20–80 after arrival, queue size 6 and the default options (evict).
// That oversubscribes the machines: MM meets about two thirds of the deadlines. It reports tasks
// replayed per second of wall time.
//
//	go test -run '^$' -bench Heuristics -benchtime 3x ./replay/heuristic
func BenchmarkHeuristics(b *testing.B) {
	r := rand.New(rand.NewPCG(2018, 2010))
	cfg := replay.Config{
		PET:      replaytest.RandomPET(r, 12, 8, 8, 40),
		Machines: machines(8),
		Tasks:    replaytest.RandomTasks(r, 500, 12, 2, 20, 80),
		Options:  replay.DefaultOptions(),
	}
	for _, h := range All() {
		b.Run(h.Name, func(b *testing.B) {
			runs := 0
			for b.Loop() {
				if _, err := replay.Run(b.Context(), cfg, h.New(DefaultParams())); err != nil {
					b.Fatal(err)
				}
				runs++
			}
			b.ReportMetric(float64(runs*len(cfg.Tasks))/b.Elapsed().Seconds(), "tasks/s")
		})
	}
}
