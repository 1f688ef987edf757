package report

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/pmf"
)

// TestWritePETTable: one task type on two machine types, worked by hand. Cell x: impulses of ½
// at 1 and 2, so mean 1.5, std dev √(½·0.25 + ½·0.25) = 0.5, p95 2 (the first grid time with
// 95% of the mass), 2 impulses; no samples known, so dashes. Cell y: impulses of ¼ at 4 and ¾ at
// 6: mean 5.5, std dev √(¼·2.25 + ¾·0.25) = √0.75 = 0.87, p95 6; fitted from 40 samples of mean
// 5.25. Impulses counts the grid points, the zero at 5 among them: 3.
func TestWritePETTable(t *testing.T) {
	x, _ := pmf.New(1, 1, []float64{0.5, 0.5})
	y, _ := pmf.New(4, 1, []float64{0.25, 0, 0.75})
	pet, err := petbuild.New([]string{"a"}, []string{"x", "y"}, "ms", []petbuild.Cell{
		{PMF: x}, {PMF: y, Provenance: petbuild.Provenance{Samples: 40, SampleMean: 5.25}}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WritePETTable(&b, pet); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	cells := func(line string) []string {
		var f []string
		for _, c := range strings.Split(line, "│") {
			if c = strings.TrimSpace(c); c != "" {
				f = append(f, c)
			}
		}
		return f
	}
	var rows [][]string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, "│ a ") {
			rows = append(rows, cells(line))
		}
	}
	want := [][]string{
		{"a", "x", "1.50", "–", "0.50", "2.00", "2", "–"},
		{"a", "y", "5.50", "5.25", "0.87", "6.00", "3", "40"},
	}
	if len(rows) != 2 || !slices.Equal(rows[0][:8], want[0]) || !slices.Equal(rows[1][:8], want[1]) {
		t.Errorf("rows %q, want %q:\n%s", rows, want, out)
	}
	if !strings.HasSuffix(out, "1 task types × 2 machine types, step 1 ms\n") {
		t.Errorf("no size line at the end:\n%s", out)
	}
}
