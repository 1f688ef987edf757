package pmf

import (
	"encoding/binary"
	"math"
	"testing"
)

// floatsOf reads little-endian float64s from b.
func floatsOf(b []byte) []float64 {
	out := make([]float64, len(b)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out
}

// FuzzFromWeights builds PMFs from arbitrary floats: construction must return an error or a PMF
// that satisfies the invariants, and the operations on it must keep them. Never a panic.
func FuzzFromWeights(f *testing.F) {
	seed := func(xs ...float64) []byte {
		b := make([]byte, 8*len(xs))
		for i, x := range xs {
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
		}
		return b
	}
	f.Add(0.0, 1.0, seed(0.2, 0.3, 0.5))
	f.Add(2.0, 2.0, seed(0, 1e-300, 1, 0))
	f.Add(-5.0, 0.5, seed(math.NaN()))
	f.Add(1e308, 1e308, seed(1, -1))
	f.Fuzz(func(t *testing.T, origin, step float64, raw []byte) {
		w := floatsOf(raw)
		d, deficit, err := FromWeights(origin, step, w)
		if err != nil {
			return
		}
		if math.IsNaN(deficit) {
			t.Fatalf("deficit NaN for %v", w)
		}
		if err := d.Check(); err != nil {
			t.Fatalf("FromWeights(%v, %v, %v) broke an invariant: %v", origin, step, w, err)
		}
		if _, err := New(d.Origin(), d.Step(), d.Probs()); err != nil {
			t.Fatalf("New rejects what FromWeights made: %v", err)
		}
		if math.Abs(d.Origin()) > 1e12 || d.Step() > 1e9 || d.Step() < 1e-9 || d.Len() > 512 {
			return // keep the operations below cheap and their arithmetic exact enough
		}
		for _, m := range []PMF{d.Merge(3), d.CapImpulses(4), d.Condition(d.Mean())} {
			if err := m.Check(); err != nil {
				t.Fatalf("operation broke an invariant: %v", err)
			}
		}
		if m := d.Mean(); m < d.Min()-1e-9*math.Abs(d.Min()) || m > d.Max()+1e-9*math.Abs(d.Max()) {
			t.Fatalf("mean %v outside [%v, %v]", m, d.Min(), d.Max())
		}
	})
}
