package speculate

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// paretoMaxMean is the oracle for E[max of m i.i.d. Pareto(mu, beta)], by numerical
// integration of P(max > t) = 1 − (1 − (mu/t)^beta)^m, written independently of the
// package's log-gamma closed form: with y = (mu/t)^beta and y = z^k (k = 2β/(β−1)) the
// integrand is smooth.
func paretoMaxMean(mu, beta float64, m int) float64 {
	k := 2 * beta / (beta - 1)
	f := func(z float64) float64 {
		if z == 0 {
			return 0
		}
		y := math.Pow(z, k)
		// 1 − (1−y)^m without cancellation for tiny y.
		return -math.Expm1(float64(m)*math.Log1p(-y)) * math.Pow(y, -1/beta-1) * k * math.Pow(z, k-1)
	}
	n := 20000
	h := 1.0 / float64(n)
	s := f(0) + f(1)
	for i := 1; i < n; i++ {
		w := 2.0
		if i%2 == 1 {
			w = 4
		}
		s += w * f(float64(i)*h)
	}
	return mu + mu/beta*s*h/3
}

// TestP2Fig1 checks P2 on the instance of 002 Fig 1 (N = 100, m = (10, 20, 5, 10),
// mu = (1, 2, 1, 2), α = 2, r = 8) against the integer optima of reference §2.3, found again
// here by brute force over {1..8}⁴ with an objective computed by numerical integration.
func TestP2Fig1(t *testing.T) {
	m := []int{10, 20, 5, 10}
	mu := []float64{1, 2, 1, 2}
	const alpha, n, r = 2.0, 100, 8
	tests := []struct {
		gamma float64
		want  []int
	}{
		{0, []int{2, 2, 2, 3}},
		{0.01, []int{2, 2, 2, 3}},
		{0.1, []int{2, 2, 2, 2}},
		{1, []int{1, 1, 1, 1}},
	}
	// The oracle's costs: E[max of m of Pareto(mu, αc)] + γ·m·c·E[min of c], where the min of
	// c copies is Pareto(mu, αc) with mean mu + mu/(αc − 1).
	cost := make([][]float64, len(m))
	for i := range m {
		cost[i] = make([]float64, r+1)
		for c := 1; c <= r; c++ {
			cost[i][c] = paretoMaxMean(mu[i], alpha*float64(c), m[i])
		}
	}
	for _, tc := range tests {
		var jobs []P2Job
		for i := range m {
			jobs = append(jobs, P2Job{Tasks: m[i], Dist: Pareto{Mu: mu[i], Alpha: alpha}})
		}
		got, _, err := SolveP2(jobs, n, r, tc.gamma)
		if err != nil {
			t.Fatal(err)
		}
		best, bestC := math.Inf(1), []int(nil)
		c := []int{1, 1, 1, 1}
		for {
			used, obj := 0, 0.0
			for i := range c {
				used += m[i] * c[i]
				beta := alpha * float64(c[i])
				obj += cost[i][c[i]] + tc.gamma*float64(m[i]*c[i])*(mu[i]+mu[i]/(beta-1))
			}
			if used <= n && obj < best-1e-12 {
				best, bestC = obj, slices.Clone(c)
			}
			k := 0
			for k < len(c) && c[k] == r {
				c[k] = 1
				k++
			}
			if k == len(c) {
				break
			}
			c[k]++
		}
		if !slices.Equal(bestC, tc.want) {
			t.Errorf("γ=%g: brute force gives %v, the notes %v", tc.gamma, bestC, tc.want)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("γ=%g: SolveP2 = %v, want %v", tc.gamma, got, tc.want)
		}
	}
}

// TestP2Infeasible checks that more waiting tasks than machines is an error, not a panic.
func TestP2Infeasible(t *testing.T) {
	if _, _, err := SolveP2([]P2Job{{Tasks: 5, Dist: Pareto{Mu: 1, Alpha: 2}}}, 4, 8, 0.01); err == nil {
		t.Error("5 tasks on 4 machines: no error")
	}
}

// TestSpanMeanAgainstIntegration checks Pareto's closed form and the discrete integrals.
func TestSpanMeanAgainstIntegration(t *testing.T) {
	for _, tc := range []struct {
		mu, alpha float64
		m, c      int
	}{{1, 2, 1, 1}, {0.5, 2, 50, 1}, {2, 2, 10, 3}, {1, 3, 100, 2}, {1.5, 1.2, 7, 1}} {
		got := Pareto{Mu: tc.mu, Alpha: tc.alpha}.SpanMean(tc.m, tc.c)
		want := paretoMaxMean(tc.mu, tc.alpha*float64(tc.c), tc.m)
		if math.Abs(got-want) > 1e-6*want {
			t.Errorf("%+v: SpanMean %v, integration %v", tc, got, want)
		}
	}
	// X = 1 or 3 with probability ½ each. Min of 2 copies: 3 only if both are 3 (¼), so
	// E = 1·¾ + 3·¼ = 1.5; E[min²] = ¾ + 9/4 = 3. Max over 2 tasks of one copy: 1 only if both
	// are 1 (¼): E = ¼ + 3·¾ = 2.5.
	d, err := newDiscrete([]float64{1, 3}, []float64{0.5, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"mean", d.Mean(), 2}, {"min of 2", d.MinMean(2), 1.5}, {"min² of 2", d.MinSecondMoment(2), 3},
		{"max of 2", d.SpanMean(2, 1), 2.5}, {"E[min(2, X)]", d.PartialMean(2), 1.5}, {"F(1)", d.CDF(1), 0.5},
		{"F(0.9)", d.CDF(0.9), 0}, {"Q(0.5)", d.Quantile(0.5), 1}, {"Q(0.51)", d.Quantile(0.51), 3},
	} {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %v, want %v", c.name, c.got, c.want)
		}
	}
}

// TestBreakEvenSigma checks σ* = u*/E[X] with u* the root of u = 2∫₀ᵘ S: 1 + √2/2 for Pareto
// α = 2 whatever mu (reference §2.4: u* = mu(2 + √2), E[X] = 2mu), and the notes' values for
// other α.
func TestBreakEvenSigma(t *testing.T) {
	tests := []struct {
		alpha, want, tol float64
	}{
		{2, 1 + math.Sqrt2/2, 1e-6},
		{1.5, 1.333, 5e-4},
		{2.5, 1.8525, 5e-5},
		{3, 1.9196, 5e-5},
		{4, 1.9725, 5e-5},
		{5, 1.9895, 5e-5},
		{10, 1.9998, 5e-5},
	}
	for _, tc := range tests {
		for _, mu := range []float64{0.5, 1, 3} {
			if got := BreakEvenSigma(Pareto{Mu: mu, Alpha: tc.alpha}); math.Abs(got-tc.want) > tc.tol {
				t.Errorf("α=%g mu=%g: σ* = %.7f, want %.7f ± %g", tc.alpha, mu, got, tc.want, tc.tol)
			}
		}
	}
	// X = 1 or 10 with probability ½: ∫₀ᵘ S = 1 + (u−1)/2 on [1, 10], so u − 2∫ = −1 there;
	// past 10, ∫ = 5.5 and the root is u* = 11; E[X] = 5.5, σ* = 2.
	d, err := newDiscrete([]float64{1, 10}, []float64{0.5, 0.5})
	if err != nil {
		t.Fatal(err)
	}
	if got := BreakEvenSigma(d); math.Abs(got-2) > 1e-9 {
		t.Errorf("two-point distribution: σ* = %v, want 2", got)
	}
}

// TestMantriThreshold: 2·F⁻¹(δ)/E[X] = 2(1−δ)^(−1/α)·(α−1)/α, the notes' 1.155 and 1.468.
func TestMantriThreshold(t *testing.T) {
	for _, tc := range []struct{ alpha, want float64 }{{2, 1.155}, {3, 1.468}, {4, 1.612}, {5, 1.695}} {
		p := Pareto{Mu: 0.7, Alpha: tc.alpha}
		if got := MantriThreshold(p, 0.25) / p.Mean(); math.Abs(got-tc.want) > 1e-3 {
			t.Errorf("α=%g: threshold %.4f·E[x], want %.3f", tc.alpha, got, tc.want)
		}
	}
}

// TestESEResourceFig4 checks Eqs 30–33 against the notes (reference §2.5: on a 0.05 grid the
// optimum is at σ ≈ 1.70, 1.90, 1.95, 2.00 for α = 2..5, where E[R]/E[x] = 0.950, 0.990,
// 0.997, 0.999), and against a Monte Carlo of the rule for α = 3.
func TestESEResourceFig4(t *testing.T) {
	tests := []struct{ alpha, sigma, ratio float64 }{{2, 1.70, 0.950}, {3, 1.90, 0.990}, {4, 1.95, 0.997}, {5, 2.00, 0.999}}
	for _, tc := range tests {
		p := ParetoWithMean(1, tc.alpha)
		bestS, best := 0.0, math.Inf(1)
		for k := 1; k <= 80; k++ {
			s := 0.05 * float64(k)
			if r := ESEResource(p, s); r < best-1e-12 {
				best, bestS = r, s
			}
		}
		// The notes' ratios come from a coarse grid: an independent double integration gives
		// 0.9540 at α = 2, σ = 1.7, so the ratio is held to 5e-3.
		if math.Abs(bestS-tc.sigma) > 0.051 || math.Abs(best-tc.ratio) > 5e-3 {
			t.Errorf("α=%g: optimum σ=%.2f with E[R]/E[x]=%.4f, want σ≈%.2f, %.3f", tc.alpha, bestS, best, tc.sigma, tc.ratio)
		}
		if r := ESEResource(p, 1e6); math.Abs(r-1) > 1e-6 {
			t.Errorf("α=%g: no backup gives E[R] = %v, want E[x] = 1", tc.alpha, r)
		}
	}
	// Monte Carlo: t ~ Pareto, asktime x ~ U[0, t]; if t − x > σE[x] the task costs
	// x + 2·min(t − x, t_new), else t.
	p := ParetoWithMean(1, 3)
	rng := rand.New(rand.NewPCG(7, 8))
	const n, sigma = 400000, 1.9
	sum, sq := 0.0, 0.0
	for range n {
		tt, x, tn := p.Quantile(rng.Float64()), 0.0, p.Quantile(rng.Float64())
		x = rng.Float64() * tt
		r := tt
		if tt-x > sigma {
			r = x + 2*math.Min(tt-x, tn)
		}
		sum += r
		sq += r * r
	}
	mean := sum / n
	se := math.Sqrt((sq/n - mean*mean) / n)
	if got := ESEResource(p, sigma); math.Abs(got-mean) > 4*se {
		t.Errorf("α=3 σ=%g: Eqs 30–33 give %.5f, Monte Carlo %.5f ± %.5f", sigma, got, mean, se)
	}
}

// TestOmegaU checks the cutoff load of Eqs 1–5 against the notes' table (reference §2.1).
func TestOmegaU(t *testing.T) {
	for _, tc := range []struct{ alpha, want float64 }{{2, 0.750}, {2.5, 0.491}, {3, 0.364}, {4, 0.252}, {5, 0.196}} {
		if got := OmegaU(Pareto{Mu: 1.3, Alpha: tc.alpha}); math.Abs(got-tc.want) > 1e-3 {
			t.Errorf("α=%g: ω^U = %.4f, want %.3f", tc.alpha, got, tc.want)
		}
	}
}

// TestFitPareto: on a discretised Pareto the Hill estimate recovers α roughly and keeps the mean.
func TestFitPareto(t *testing.T) {
	src := Pareto{Mu: 1, Alpha: 2.5}
	var ts, ps []float64
	for k := range 4000 {
		u0, u1 := float64(k)/4000, float64(k+1)/4000
		ts = append(ts, src.Quantile((u0+u1)/2))
		ps = append(ps, u1-u0)
	}
	d, err := newDiscrete(ts, ps)
	if err != nil {
		t.Fatal(err)
	}
	fit := FitPareto(d, 0.2)
	if math.Abs(fit.Alpha-2.5) > 0.25 || math.Abs(fit.Mean()-d.Mean()) > 1e-9 {
		t.Errorf("fit %+v (mean %v), want α ≈ 2.5 and mean %v", fit, fit.Mean(), d.Mean())
	}
}
