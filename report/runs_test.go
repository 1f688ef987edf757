package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestRunsFiles resolves arguments on a hand-made tree: a folder stands for its runs.parquet, a
// file for itself, a path given twice counts once, and a folder without runs names the command
// that writes them, or hcreplay replay when it holds a replay's summary.json two levels down.
func TestRunsFiles(t *testing.T) {
	dir := t.TempDir()
	mk := func(rel string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sweep, shard := mk("sweep/runs.parquet"), mk("shard.parquet")
	mk("replay/MM/1/summary.json")
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := RunsFiles([]string{filepath.Join(dir, "sweep"), shard, sweep})
	if want := []string{sweep, shard}; err != nil || !slices.Equal(got, want) {
		t.Errorf("RunsFiles = %v, %v; want %v", got, err, want)
	}
	for _, c := range []struct{ arg, want string }{
		{"missing", "missing: no such file or folder"},
		{"empty", "empty: the folder has no runs.parquet (hcreplay sweep writes one)"},
		{"replay", "replay: the folder has no runs.parquet (it looks like the output of hcreplay replay"},
	} {
		_, err := RunsFiles([]string{filepath.Join(dir, c.arg)})
		if err == nil || !strings.HasPrefix(err.Error(), "runs "+filepath.Join(dir, c.want)) {
			t.Errorf("%s: %v, want %q", c.arg, err, c.want)
		}
	}
	if !IsReplayOutput(filepath.Join(dir, "replay")) || IsReplayOutput(filepath.Join(dir, "sweep")) {
		t.Error("IsReplayOutput: want true for the replay folder only")
	}
}
