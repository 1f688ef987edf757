package petbuild

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// hcw19Dir is ../shared/data/hcw19 relative to the repository root, which is found by walking
// up from this source file to go.mod, so the tests work from any working directory. It returns
// "" when the root cannot be found.
func hcw19Dir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	for dir := filepath.Dir(file); ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "data", "hcw19")
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// hcw19Path is the path of an HCW19 file, or "" when it is absent (the data has no licence
// and is never copied into the repository).
func hcw19Path(name string) string {
	dir := hcw19Dir()
	if dir == "" {
		return ""
	}
	path := filepath.Join(dir, name)
	if _, err := os.Stat(path); err != nil {
		return ""
	}
	return path
}

// hcw19File returns the path of an HCW19 file, skipping the test when it is absent.
func hcw19File(t testing.TB, name string) string {
	t.Helper()
	path := hcw19Path(name)
	if path == "" {
		t.Skipf("HCW19 file %s not available (looked in ../shared/data/hcw19 from the repository root)", name)
	}
	return path
}

// samePET fails unless a and b have the same names, unit, step and bit-identical cells.
func samePET(t *testing.T, a, b *PET, withProvenance bool) {
	t.Helper()
	if a.TimeUnit() != b.TimeUnit() || a.Step() != b.Step() {
		t.Fatalf("unit/step %q/%v vs %q/%v", a.TimeUnit(), a.Step(), b.TimeUnit(), b.Step())
	}
	if !equalStrings(a.TaskTypes(), b.TaskTypes()) || !equalStrings(a.MachineTypes(), b.MachineTypes()) {
		t.Fatalf("types %v×%v vs %v×%v", a.TaskTypes(), a.MachineTypes(), b.TaskTypes(), b.MachineTypes())
	}
	for i := range a.NumTaskTypes() {
		for j := range a.NumMachineTypes() {
			x, y := a.Cell(i, j), b.Cell(i, j)
			if x.Origin() != y.Origin() || x.Step() != y.Step() || !equalFloats(x.Probs(), y.Probs()) {
				t.Fatalf("cell (%d,%d) differs: %v vs %v", i, j, x, y)
			}
			if withProvenance && a.Provenance(i, j) != b.Provenance(i, j) {
				t.Fatalf("cell (%d,%d) provenance %+v vs %+v", i, j, a.Provenance(i, j), b.Provenance(i, j))
			}
		}
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// encode writes p in the given format to memory.
func encode(t testing.TB, p *PET, f Format) []byte {
	t.Helper()
	var buf bytes.Buffer
	var err error
	switch f {
	case FormatJSON:
		err = WriteJSON(&buf, p)
	case FormatETC:
		err = WriteETC(&buf, p)
	case FormatParquet:
		err = WriteParquet(&buf, p)
	}
	if err != nil {
		t.Fatalf("write %v: %v", f, err)
	}
	return buf.Bytes()
}

// decode reads a PET of the given format from memory.
func decode(data []byte, f Format, opt ReadOptions) (*PET, error) {
	name := "mem." + f.String()
	switch f {
	case FormatJSON:
		return ReadJSON(bytes.NewReader(data), name, opt)
	case FormatETC:
		return ReadETC(bytes.NewReader(data), name, opt)
	default:
		return ReadParquet(bytes.NewReader(data), int64(len(data)), name, opt)
	}
}

// checkCells runs the pmf invariants and the grid rule on every cell.
func checkCells(t testing.TB, p *PET) {
	t.Helper()
	for i := range p.NumTaskTypes() {
		for j := range p.NumMachineTypes() {
			d := p.Cell(i, j)
			if err := d.Check(); err != nil {
				t.Fatalf("cell (%d,%d): %v", i, j, err)
			}
			if d.Step() != p.Step() {
				t.Fatalf("cell (%d,%d): step %v, matrix step %v", i, j, d.Step(), p.Step())
			}
			if !onLattice(d.Origin(), p.Step()) {
				t.Fatalf("cell (%d,%d): origin %v off the lattice of %v", i, j, d.Origin(), p.Step())
			}
			// The grid limits, stated independently of checkGrid: a finite step a replay can
			// add to clock times, and a support whose times and grid indices stay in range.
			if s := d.Step(); !(s >= 1e-9 && s <= 1e15) {
				t.Fatalf("cell (%d,%d): step %v outside [1e-9, 1e15]", i, j, s)
			}
			if last := d.Max(); !(d.Origin() >= 0 && last <= 1e15 && last/d.Step() <= 1<<30) {
				t.Fatalf("cell (%d,%d): support [%v, %v] on step %v beyond the grid limits", i, j, d.Origin(), last, d.Step())
			}
		}
	}
}
