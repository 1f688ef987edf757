package natural

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestCompare: each row is a list in the order a reader expects; the
// expectations are written by hand, not taken from Compare.
func TestCompare(t *testing.T) {
	cases := []struct {
		name string
		want string // space-separated, in order
	}{
		{"file names", "a a1 a01 a2 arr3k_1 arr3k_2 arr3k_10 arr10k_2 arr10k_10 b"},
		{"numbers before names", "1.5 2 10 Inf NaN a b"},
		{"numbers by value", "-3 -1 0 1e-05 0.001 0.25 0.5 2 10 1e3"},
		{"equal values by bytes", "01 1 1.0"},
		{"levels", "3k 9k 10k 19k 34k"},
		{"fractions inside names", "threshold:0.05 threshold:0.25 threshold:0.5 threshold:0.5:1 threshold:0.75"},
		{"fraction zeros", "x0.5 x0.50 x0.6"},
		{"no digits is bytes", "MM MOC MSD PAM PAM-P"},
		{"empty first", " 0 1 a"},
	}
	for _, c := range cases {
		want := strings.Split(c.want, " ")
		if c.name == "empty first" {
			want = []string{"", "0", "1", "a"}
		}
		for _, perm := range [][]string{slices.Clone(want), reversed(want), rotated(want)} {
			slices.SortFunc(perm, Compare)
			if !slices.Equal(perm, want) {
				t.Errorf("%s: got %q, want %q", c.name, perm, want)
				break
			}
		}
		// A strict order: antisymmetric, and irreflexive on equal strings only.
		for i, a := range want {
			for j, b := range want {
				if got := sign(Compare(a, b)); got != sign(i-j) {
					t.Errorf("%s: Compare(%q, %q) = %d, want sign %d", c.name, a, b, got, sign(i-j))
				}
			}
		}
	}
}

func reversed(s []string) []string {
	r := slices.Clone(s)
	slices.Reverse(r)
	return r
}

func rotated(s []string) []string {
	if len(s) < 2 {
		return slices.Clone(s)
	}
	return append(slices.Clone(s[len(s)/2:]), s[:len(s)/2]...)
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

func ExampleCompare() {
	names := []string{"arr19k_10.dat", "arr3k_2.dat", "arr19k_2.dat", "10", "2", "0.5", "MM"}
	slices.SortFunc(names, Compare)
	fmt.Println(names)
	// Output: [0.5 2 10 MM arr3k_2.dat arr19k_2.dat arr19k_10.dat]
}
