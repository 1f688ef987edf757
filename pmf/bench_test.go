package pmf

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkConvolve compares the textbook convolution (Convolve, the reference engine's) with
// the vectorised one the fast engine's links use (convolveInto), its AVX2 form where it runs
// AVX-512's, and its form without either (convolveScatter), in multiplications of impulses per
// second. The first shape is that of a typical evicting link of an MM replay (BenchmarkReplay):
// 17 impulses that let the task start, a cell of 118, and the 24 impulses before the deadline.
func BenchmarkConvolve(b *testing.B) {
	for _, shape := range [][3]int{{17, 118, 24}, {64, 256, 319}, {256, 1024, 1279}} {
		r := rand.New(rand.NewPCG(1, 1))
		x := randomPMF(r, 2, 1, shape[0])
		y := randomPMF(r, 100, 1, shape[1])
		n := shape[2]
		terms := 0.0 // the products the first n impulses take
		for k := range n {
			terms += float64(min(k, shape[0]-1) - max(0, k-shape[1]+1) + 1)
		}
		name := fmt.Sprintf("%dx%d/first%d", shape[0], shape[1], n)
		b.Run("textbook/"+name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Convolve(x, y); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(shape[0]*shape[1])*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gmul/s")
		})
		out := make([]float64, n)
		var pad []float64
		b.Run("vectorised/"+name, func(b *testing.B) {
			for b.Loop() {
				clear(out)
				convolveInto(out, x.p, y.p, &pad)
			}
			b.ReportMetric(terms*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gmul/s")
		})
		if avx512 { // convolveInto above is convolveGatherZ: the AVX2 kernel for comparison
			b.Run("avx2/"+name, func(b *testing.B) {
				for b.Loop() {
					clear(out)
					convolveGather(out, y.p, x.p, n, &pad)
				}
				b.ReportMetric(terms*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gmul/s")
			})
		}
		b.Run("scatter/"+name, func(b *testing.B) {
			for b.Loop() {
				clear(out)
				convolveScatter(out, y.p, x.p, n)
			}
			b.ReportMetric(terms*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gmul/s")
		})
	}
}

// BenchmarkSuccess compares the three ways of computing one success chance: building the
// convolution, 000 Algorithm 1, and the cached-CDF form. PMF sizes are those of an HCW19 cell
// (about 100 impulses) behind a queue's completion PMF (about 500).
func BenchmarkSuccess(b *testing.B) {
	r := rand.New(rand.NewPCG(2, 2))
	exec := randomPMF(r, 2, 2, 100)
	prev := randomPMF(r, 1000, 2, 500)
	deadline := prev.Mean() + exec.Mean()
	table := prev.CDFTable()
	b.Run("convolution", func(b *testing.B) {
		for b.Loop() {
			c, _ := Convolve(prev, exec)
			_ = c.CDF(deadline)
		}
	})
	b.Run("algorithm1", func(b *testing.B) {
		for b.Loop() {
			_, _ = SuccessAlg1(exec, prev, deadline, false)
		}
	})
	b.Run("cdf", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = SuccessCDF(exec, table, deadline, false)
		}
	})
}

func BenchmarkAppendEvict(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 3))
	exec := randomPMF(r, 2, 2, 100)
	prev := randomPMF(r, 1000, 2, 500)
	deadline := prev.Mean() + exec.Mean()
	for b.Loop() {
		_, _, _ = Append(Evict, prev, exec, deadline, false)
	}
}

// BenchmarkAppendStats compares one success-and-mean evaluation of a 150-impulse execution PMF
// behind free-time PMFs of several lengths, with exec's table rebuilt each time (AppendStats)
// and kept (AppendStatsTable), under evict; and AppendMeanBound's lower bound on that mean.
func BenchmarkAppendStats(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 5))
	exec := randomPMF(r, 2, 2, 150)
	et := exec.CDFTable()
	for _, n := range []int{1, 40, 300} {
		prev := randomPMF(r, 1000, 2, n)
		pt := prev.CDFTable()
		d := prev.Mean() + exec.Mean()
		b.Run(fmt.Sprintf("prev%d/rebuilt", n), func(b *testing.B) {
			for b.Loop() {
				_, _, _ = AppendStats(Evict, exec, pt, d, false)
			}
		})
		b.Run(fmt.Sprintf("prev%d/kept", n), func(b *testing.B) {
			for b.Loop() {
				_, _, _ = AppendStatsTable(Evict, exec, &et, &pt, d, false)
			}
		})
		b.Run(fmt.Sprintf("prev%d/bound", n), func(b *testing.B) {
			for b.Loop() {
				_ = AppendMeanBound(Evict, &et, &pt, d)
			}
		})
	}
}
