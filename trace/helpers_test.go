package trace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hcw19Dir locates the HCW19 data next to the repository (../shared/data/hcw19
// from the module root) and skips the test when it is not there. The
// HCW19_DIR environment variable overrides the location.
func hcw19Dir(t testing.TB) string {
	t.Helper()
	d := os.Getenv("HCW19_DIR")
	if d == "" {
		dir, err := os.Getwd()
		if err != nil {
			t.Skip("no working directory")
		}
		for {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				break
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				t.Skip("module root not found")
			}
			dir = parent
		}
		d = filepath.Join(dir, "..", "shared", "data", "hcw19")
	}
	for _, f := range []string{"constant.zip", "spiky.zip", "classes_2.etc"} {
		if _, err := os.Stat(filepath.Join(d, f)); err != nil {
			t.Skipf("HCW19 data not found at %s", d)
		}
	}
	return d
}

// writeFile writes content under dir and returns a Source for it.
func writeFile(t testing.TB, dir, name string, content []byte) Source {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
	return Source{Name: p, Path: p}
}

func fileSource(p string) Source { return Source{Name: p, Path: p} }

// wantInputError checks that err is an *InputError whose text has every piece.
func wantInputError(t *testing.T, err error, pieces ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want an error containing %q, got none", pieces)
	}
	var ie *InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v (%T) is not an *InputError", err, err)
	}
	for _, p := range pieces {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q lacks %q", err.Error(), p)
		}
	}
}

// fmtSscanf reads "machine=M;task=T;".
func fmtSscanf(s string, m, t *int) (int, error) {
	return fmt.Sscanf(s, "machine=%d;task=%d;", m, t)
}
