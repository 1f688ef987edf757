package slurm

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
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

func TestLimitArgs(t *testing.T) {
	if got, want := LimitArgs(1<<30, 1000, 5000), []string{"--max-inflate", "1073741824", "--max-inflate-ratio", "1000", "--max-batch", "5000"}; !slices.Equal(got, want) {
		t.Errorf("LimitArgs = %q, want %q", got, want)
	}
	// No limit (negative, as the command holds it) is 0 on the command line.
	if got, want := LimitArgs(-1, -1, -1), []string{"--max-inflate", "0", "--max-inflate-ratio", "0", "--max-batch", "0"}; !slices.Equal(got, want) {
		t.Errorf("LimitArgs(no limits) = %q, want %q", got, want)
	}
	if got := LimitArgs(0, 2.5, 0); got[3] != "2.5" {
		t.Errorf("ratio %q, want 2.5", got[3])
	}
}
