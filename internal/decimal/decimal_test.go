package decimal

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// check compares Parse with strconv.ParseFloat, the oracle, bit for bit, where Parse takes s.
func check(t *testing.T, s string) bool {
	t.Helper()
	v, ok := Parse([]byte(s))
	if !ok {
		return false
	}
	w, err := strconv.ParseFloat(s, 64)
	if err != nil || math.Float64bits(v) != math.Float64bits(w) {
		t.Fatalf("Parse(%q) = %v (%x), strconv: %v (%x), %v", s, v, math.Float64bits(v), w, math.Float64bits(w), err)
	}
	return true
}

// TestParseIsStrconv: hand-picked forms, what Parse takes and what it leaves to strconv.
func TestParseIsStrconv(t *testing.T) {
	for _, c := range []struct {
		s    string
		take bool
	}{
		{"45", true}, {"0.00122249", true}, {"176.88", true}, {"-0", true}, {"+3", true}, {".97", true},
		{"5.", true}, {"0.1", true}, {"9007199254740991", true}, {"0.3000000000000000", true},
		{"9007199254740993", false},                                      // 2^53 + 1: past the exact mantissas
		{"12345678901234567890", false}, {"18446744073709551617", false}, // 2^64 + 1: 20 digits overflow a uint64 to 1 {"1e5", false}, {"0x1p3", false}, {"", false}, {".", false},
		{"-", false}, {"1.2.3", false}, {" 1", false}, {"inf", false}, {"NaN", false},
		{"0.00000000000000000000001", false}, // 23 decimals: 10^23 is not exact
	} {
		if got := check(t, c.s); got != c.take {
			t.Errorf("Parse(%q) ok = %v, want %v", c.s, got, c.take)
		}
	}
}

// TestParseRandomDecimals draws decimals of every length and point position and checks each
// one Parse takes against strconv.
func TestParseRandomDecimals(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	taken := 0
	for range 200_000 {
		digits := 1 + r.IntN(22)
		s := make([]byte, 0, digits+2)
		if r.IntN(4) == 0 {
			s = append(s, "-+"[r.IntN(2)])
		}
		point := r.IntN(digits + 1)
		for i := range digits {
			if i == point {
				s = append(s, '.')
			}
			s = append(s, byte('0'+r.IntN(10)))
		}
		if check(t, string(s)) {
			taken++
		}
	}
	if taken < 80_000 {
		t.Errorf("Parse took %d of 200000 decimals: the test checks too little", taken)
	}
}

// FuzzParse checks Parse against strconv.ParseFloat, bit for bit.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"1.5", "-0", ".97", "5.", "+3", "9007199254740993", "0.1", "1e5", "12345678901234567890", "0x1p3", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { check(t, s) })
}

func ExampleParse() {
	for _, s := range []string{"0.00122249", "1e-3"} {
		v, ok := Parse([]byte(s))
		fmt.Println(v, ok)
	}
	// Output:
	// 0.00122249 true
	// 0 false
}
