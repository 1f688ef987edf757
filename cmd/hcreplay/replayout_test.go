package main

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestReplayForceLeavesNoEarlierRun: replay --out --force replaces an earlier run, all of it.
// A lone run writes its files in the folder itself, several runs a subfolder each, so after a
// lone run and then two runs with --force, the folder holds the two runs' subfolders and none of
// the lone run's files; reliability.csv, which came after the rest, was left behind.
func TestReplayForceLeavesNoEarlierRun(t *testing.T) {
	isolateEnv(t)
	pet, tr := writeTiny(t, 40)
	out := filepath.Join(t.TempDir(), "run")
	mustCLI(t, "replay", "--pet", pet, "--trace", tr, "-H", "MM", "--trim", "5", "--csv", "--out", out)
	mustCLI(t, "replay", "--pet", pet, "--trace", tr, "-H", "MM", "--prune", "none,both", "--trim", "5", "--out", out, "--force")
	if got := dirNames(t, out); !slices.Equal(got, []string{"MM", "MM-P"}) {
		t.Errorf("%s holds %q after --force, want only the new runs' folders MM and MM-P", out, got)
	}
}

// dirNames lists a folder's entries by name.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
