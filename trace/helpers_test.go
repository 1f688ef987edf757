package trace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/internal/hcw19"
)

// hcw19Dir is the HCW19 data folder, or skips the test without it.
func hcw19Dir(t testing.TB) string { return hcw19.Dir(t, "constant.zip", "spiky.zip", "classes_2.etc") }

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
