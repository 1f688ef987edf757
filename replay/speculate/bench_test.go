package speculate

import (
	"context"
	"testing"
)

// BenchmarkSpeculate replays the paper's light workload (λ = 6, M = 3000, 1..100 tasks of
// Pareto α = 2) over 50 time units, about 300 jobs and 15,000 tasks, and reports jobs/s per
// strategy.
func BenchmarkSpeculate(b *testing.B) {
	opt := PaperWorkload(6, 1)
	opt.Horizon = 50
	w, err := Synthetic(opt)
	if err != nil {
		b.Fatal(err)
	}
	machines := homogeneous(3000)
	for _, st := range Strategies() {
		b.Run(string(st), func(b *testing.B) {
			o := DefaultOptions()
			o.Strategy, o.KeepJobs = st, false
			for b.Loop() {
				if _, err := Run(context.Background(), w, machines, o); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(len(w.Jobs)*b.N)/b.Elapsed().Seconds(), "jobs/s")
		})
	}
}
