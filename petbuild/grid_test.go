package petbuild

import (
	"strings"
	"testing"
)

// TestCheckGridIndexLimit: a cell may reach exactly maxGridIndex = 2³⁰ steps from 0 (on step
// 1, origin 0 and 2³⁰ + 1 points end at 2³⁰, or one point at 2³⁰), not one step further.
func TestCheckGridIndexLimit(t *testing.T) {
	for _, c := range []struct {
		origin float64
		n      int
		want   string // the field the error names first, "" for none
	}{
		{0, 1<<30 + 1, ""},
		{1 << 30, 1, ""},
		{0, 1<<30 + 2, "last time "},
		{1<<30 + 1, 1, "origin "},
	} {
		err := checkGrid(c.origin, 1, c.n)
		if (c.want == "") != (err == nil) || err != nil && !(strings.HasPrefix(err.Error(), c.want) && strings.Contains(err.Error(), "beyond the 1073741824 grid points")) {
			t.Errorf("checkGrid(%v, 1, %d) = %v, want %q", c.origin, c.n, err, c.want)
		}
	}
}
