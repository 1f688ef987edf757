package corespeed

import (
	"math"
	"math/big"
	"testing"
)

// TestChain checks the loop against the generator's closed form, computed with big integers:
// after n steps x is aⁿ·x₀ + c·(aⁿ − 1)/(a − 1) modulo 2⁶⁴, the sum written as Σ_{i<n} aⁱ so
// that no division modulo 2⁶⁴ is needed. A loop the compiler had cut short, or a wrong
// constant, gives another number.
func TestChain(t *testing.T) {
	a := new(big.Int).SetUint64(6364136223846793005)
	c := new(big.Int).SetUint64(1442695040888963407)
	mod := new(big.Int).Lsh(big.NewInt(1), 64)
	for _, n := range []int{0, 1, 2, 17, 1000} {
		for _, x0 := range []uint64{1, 12345, math.MaxUint64} {
			an := new(big.Int).Exp(a, big.NewInt(int64(n)), mod)
			sum := new(big.Int) // Σ_{i<n} aⁱ mod 2⁶⁴
			pow := big.NewInt(1)
			for range n {
				sum.Add(sum, pow).Mod(sum, mod)
				pow.Mul(pow, a).Mod(pow, mod)
			}
			want := new(big.Int).Mul(an, new(big.Int).SetUint64(x0))
			want.Add(want, new(big.Int).Mul(c, sum)).Mod(want, mod)
			if got := chain(x0, n); got != want.Uint64() {
				t.Errorf("chain(%d, %d) = %d, want %d", x0, n, got, want.Uint64())
			}
		}
	}
}

// TestProbe checks that a probe reports a rate a core can have: positive and finite, and below
// one hundred multiply-adds per nanosecond, which no core doing them one after the other
// reaches (a loop the compiler had removed would report far more).
func TestProbe(t *testing.T) {
	if r := Probe(1_000_000); !(r > 0 && r < 100) {
		t.Errorf("Probe(1e6) = %v multiply-adds per ns, want within (0, 100)", r)
	}
}
