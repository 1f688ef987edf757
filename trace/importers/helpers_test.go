package importers

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/trace"
)

// writeFile writes content under dir and returns a Source for it.
func writeFile(t testing.TB, dir, name string, content []byte) trace.Source {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, content, 0o644); err != nil {
		t.Fatal(err)
	}
	return trace.Source{Name: p, Path: p}
}

// wantInputError checks that err is an *InputError whose text has every piece.
func wantInputError(t *testing.T, err error, pieces ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want an error containing %q, got none", pieces)
	}
	var ie *trace.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v (%T) is not an *InputError", err, err)
	}
	for _, p := range pieces {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q lacks %q", err.Error(), p)
		}
	}
}
