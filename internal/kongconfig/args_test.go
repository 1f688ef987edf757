package kongconfig

import (
	"errors"
	"slices"
	"testing"
)

func TestNegativeValues(t *testing.T) {
	for _, c := range []struct{ in, want []string }{
		{[]string{"--trim", "-1", "-q", "--", "--x", "-2"}, []string{"--trim=-1", "-q", "--", "--x", "-2"}},
		{[]string{"--rho", "-.5"}, []string{"--rho=-.5"}},
		{[]string{"--seed=-1", "-q"}, []string{"--seed=-1", "-q"}}, // joined already
		{[]string{"--out", "-x"}, []string{"--out", "-x"}},         // a short flag, not a number
		{[]string{"-H", "-1"}, []string{"-H", "-1"}},               // short flags are left to kong
	} {
		if got := NegativeValues(c.in); !slices.Equal(got, c.want) {
			t.Errorf("NegativeValues(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestUnsignedError(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`--seed: expected a valid 64 bit uint but got "-1"`, "--seed -1: seed must be ≥ 0"},
		{`--max-level: expected a valid 32 bit uint but got "-2.5"`, "--max-level -2.5: max level must be ≥ 0"},
		{`--trim: expected int value but got "x"`, `--trim: expected int value but got "x"`},
	} {
		if got := UnsignedError(errors.New(c.in)).Error(); got != c.want {
			t.Errorf("UnsignedError(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
