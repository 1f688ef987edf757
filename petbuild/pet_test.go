package petbuild

import (
	"fmt"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// names returns n distinct type names: prefix0, prefix1, …
func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprint(prefix, i)
	}
	return out
}

// TestNewCellLimit: New takes up to maxCells = 2^20 cells. 1024 × 1024 = 2^20 is at the limit
// and passes it, so the one cell given is then counted against the 2^20 wanted; 1025 × 1024 =
// 1,049,600 is past it and refused before the cells are counted. No cell is built: the limit is
// checked first.
func TestNewCellLimit(t *testing.T) {
	one := []Cell{{PMF: pmf.Impulse(1, 1)}}
	for _, c := range []struct {
		tasks, machines int
		want            string
	}{
		{1024, 1024, "pet: 1 cells for 1024 task types × 1024 machine types, want 1048576"},
		{1025, 1024, "pet: 1025×1024 cells exceed the limit of 1048576"},
		{1024, 1025, "pet: 1024×1025 cells exceed the limit of 1048576"},
	} {
		_, err := New(names("t", c.tasks), names("m", c.machines), "", one)
		if err == nil || err.Error() != c.want {
			t.Errorf("%d×%d: error %v, want %q", c.tasks, c.machines, err, c.want)
		}
	}
}

// TestNewStepTolerance: a cell's step may differ from the matrix step by up to 10⁻⁹ of it. At a
// matrix step of 10⁹ the tolerance is float64(10⁻⁹)·10⁹, and float64(10⁻⁹) =
// 1.0000000000000000623e-9, so the product is 1 + 6.2e-17, which rounds to exactly 1 (the
// spacing of float64 near 1 is 2.2e-16). A cell of step 10⁹ + 1 (exact: an integer below 2⁵³)
// is then exactly 1 off, at the tolerance, and accepted; 10⁹ + 2 is past it.
func TestNewStepTolerance(t *testing.T) {
	cell := func(step float64) Cell {
		d, err := pmf.New(0, step, []float64{0.5, 0.5})
		if err != nil {
			t.Fatal(err)
		}
		return Cell{PMF: d}
	}
	p, err := New([]string{"a"}, []string{"x", "y"}, "", []Cell{cell(1e9), cell(1e9 + 1)})
	if err != nil {
		t.Fatalf("a step exactly 1e-9 of the matrix step off: %v", err)
	}
	if p.Step() != 1e9 || p.Cell(0, 1).Step() != 1e9+1 {
		t.Errorf("steps %v and %v, want the matrix step 1e9 and the cell's own 1e9+1", p.Step(), p.Cell(0, 1).Step())
	}
	_, err = New([]string{"a"}, []string{"x", "y"}, "", []Cell{cell(1e9), cell(1e9 + 2)})
	if want := "pet: cell task=a machine=y: step 1.000000002e+09 differs from the matrix step 1e+09"; err == nil || err.Error() != want {
		t.Errorf("a step 2e-9 of the matrix step off: error %v, want %q", err, want)
	}
}

// TestNewLatticeTolerance: an origin counts as a whole number of steps when it is within 10⁻⁶
// steps of one. With step 1, origin 10⁻⁶ is x = 10⁻⁶ steps, whose distance to round(x) = 0 is
// exactly float64(10⁻⁶) = latticeTol: on the lattice. 1.5·10⁻⁶ is past it.
func TestNewLatticeTolerance(t *testing.T) {
	cell := func(origin float64) Cell {
		d, err := pmf.New(origin, 1, []float64{1})
		if err != nil {
			t.Fatal(err)
		}
		return Cell{PMF: d}
	}
	if _, err := New([]string{"a"}, []string{"x", "y"}, "", []Cell{cell(0), cell(1e-6)}); err != nil {
		t.Errorf("origin 1e-6 steps from 0: %v", err)
	}
	_, err := New([]string{"a"}, []string{"x", "y"}, "", []Cell{cell(0), cell(1.5e-6)})
	if want := "pet: cell task=a machine=y: origin 1.5e-06 is not a whole number of steps of 1"; err == nil || err.Error() != want {
		t.Errorf("origin 1.5e-6 steps from 0: error %v, want %q", err, want)
	}
}

// TestCellOutOfRange: Cell, CellTable and Provenance panic on an index out of range with a
// message naming the cell and the matrix size. The index one past the end of either axis is out
// of range: in the 2 × 3 smallPET, (0, 3) would otherwise be read as row-major index 3, which is
// cell (1, 0), and (2, 0) as index 6, past the cells.
func TestCellOutOfRange(t *testing.T) {
	p := smallPET(t)
	for _, c := range [][2]int{{0, 3}, {2, 0}, {1, 3}, {-1, 0}, {0, -1}} {
		want := fmt.Sprintf("petbuild: cell (%d, %d) out of range 2×3", c[0], c[1])
		for name, call := range map[string]func(){
			"Cell":       func() { p.Cell(c[0], c[1]) },
			"CellTable":  func() { p.CellTable(c[0], c[1]) },
			"Provenance": func() { p.Provenance(c[0], c[1]) },
		} {
			if got := panicText(call); got != want {
				t.Errorf("%s(%d, %d): panic %q, want %q", name, c[0], c[1], got, want)
			}
		}
	}
}

// panicText runs f and returns what it panicked with, as text; "" when it did not panic.
func panicText(f func()) (s string) {
	defer func() {
		if v := recover(); v != nil {
			s = fmt.Sprint(v)
		}
	}()
	f()
	return ""
}
