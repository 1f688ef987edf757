package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDemo runs the main job of the README on the embedded sample data (one trial per level in
// short mode, all five otherwise) and checks that the report names every heuristic and variant
// and that the robustness figure exists.
func TestDemo(t *testing.T) {
	out := filepath.Join(t.TempDir(), "demo")
	trials := "5"
	if testing.Short() {
		trials = "1"
	}
	stdout := mustCLI(t, "demo", "--out", out, "--trials", trials, "-q")
	if !strings.Contains(stdout, filepath.Join(out, "report", "index.html")) {
		t.Errorf("demo does not say where to look:\n%s", stdout)
	}
	html, err := os.ReadFile(filepath.Join(out, "report", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"MM-P", "MSD", "MMU-P", "MOC", "PAM-P", "34k", "<svg"} {
		if !strings.Contains(string(html), name) {
			t.Errorf("index.html lacks %q", name)
		}
	}
	if st, err := os.Stat(filepath.Join(out, "report", "robustness.png")); err != nil || st.Size() < 10000 {
		t.Errorf("robustness.png: %v", err)
	}
}
