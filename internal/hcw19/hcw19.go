// Package hcw19 finds the HCW19 data of the original pruning study for tests: the PET matrices
// and arrival trials that live beside the repository in ../shared/data/hcw19 and are never
// copied into it. It owns only the finding and the skipping; reading the files is trace's and
// petbuild's.
package hcw19

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir is the folder of the HCW19 data: $HCW19_DIR, or ../shared/data/hcw19 from the module
// root (the folder holding go.mod above the working directory). It skips the test when the
// folder lacks any of files, so that a checkout without the data passes its tests.
func Dir(t testing.TB, files ...string) string {
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
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(d, f)); err != nil {
			t.Skipf("HCW19 data not found at %s", d)
		}
	}
	return d
}
