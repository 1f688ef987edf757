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

// TestReplayTraceGlobAfterClaim: with --out, the --trace globs are listed once the folder is
// claimed (replay lists them beside reading the PET only without --out), so a glob into the
// folder does not list an earlier run's files that --force removes: here tasks.csv, beside the
// trace trial.csv, which t*.csv matches too.
func TestReplayTraceGlobAfterClaim(t *testing.T) {
	isolateEnv(t)
	pet, tr := writeTiny(t, 40)
	out := t.TempDir()
	b, err := os.ReadFile(tr)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(out, "trial.csv"), string(b))
	mustCLI(t, "replay", "--pet", pet, "--trace", filepath.Join(out, "trial.csv"), "-H", "MM", "--trim", "5", "--csv", "--out", out)
	if _, err := os.Stat(filepath.Join(out, "tasks.csv")); err != nil {
		t.Fatal(err)
	}
	runs := jsonRuns(t, "replay", "--pet", pet, "--trace", filepath.Join(out, "t*.csv"), "-H", "MM", "--trim", "5", "--out", out, "--force", "--json", "-q")
	if len(runs) != 1 || runs[0]["trace"] != filepath.Join(out, "trial.csv") {
		t.Errorf("runs %v, want one, of trial.csv", runs)
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
