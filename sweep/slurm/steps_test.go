package slurm

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/sweep"
)

func TestExecutable(t *testing.T) {
	dir := t.TempDir()
	exe, plain := filepath.Join(dir, "hcreplay"), filepath.Join(dir, "notes.txt")
	if err := os.WriteFile(exe, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plain, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := Executable(exe); err != nil || got != exe {
		t.Errorf("Executable(%s) = %q, %v", exe, got, err)
	}
	// Without --slurm-exe: this process (the test binary), an absolute path.
	if got, err := Executable(""); err != nil || !filepath.IsAbs(got) {
		t.Errorf(`Executable("") = %q, %v; want this binary's absolute path`, got, err)
	}
	for _, bad := range []string{plain, dir, filepath.Join(dir, "missing")} {
		_, err := Executable(bad)
		if !errors.As(err, new(sweep.InputError)) || !strings.HasSuffix(err.Error(), ": not an executable file") {
			t.Errorf("Executable(%s): %v, want an InputError saying it is not an executable file", bad, err)
		}
	}
}
