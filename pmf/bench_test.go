package pmf

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkConvolve compares the textbook convolution (Convolve, the reference engine's) with
// the vectorised one the fast engine's links use (convolveInto), in impulse multiplications per
// second.
func BenchmarkConvolve(b *testing.B) {
	for _, size := range [][2]int{{64, 256}, {256, 1024}} {
		r := rand.New(rand.NewPCG(1, 1))
		x := randomPMF(r, 2, 1, size[0])
		y := randomPMF(r, 100, 1, size[1])
		b.Run(fmt.Sprintf("textbook/%dx%d", size[0], size[1]), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Convolve(x, y); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(size[0]*size[1])*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gmul/s")
		})
		b.Run(fmt.Sprintf("vectorised/%dx%d", size[0], size[1]), func(b *testing.B) {
			out := make([]float64, size[0]+size[1]-1)
			var pad []float64
			for b.Loop() {
				clear(out)
				convolveInto(out, x.p, y.p, &pad)
			}
			b.ReportMetric(float64(size[0]*size[1])*float64(b.N)/b.Elapsed().Seconds()/1e9, "Gmul/s")
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
// and kept (AppendStatsTable), under evict.
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
				_, _, _ = AppendStatsTable(Evict, exec, et, pt, d, false)
			}
		})
	}
}
