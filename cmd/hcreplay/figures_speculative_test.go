package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/presets"
)

// TestFiguresSpeculativeQuick runs the speculative preset in its quick form and checks that
// every figure is written in both formats and named in notes.md, with the paper's numbers
// beside ours.
func TestFiguresSpeculativeQuick(t *testing.T) {
	out := filepath.Join(t.TempDir(), "spec")
	stdout := mustCLI(t, "figures", "--preset", "speculative", "--quick", "--out", out, "-q")
	if !strings.Contains(stdout, filepath.Join(out, "notes.md")) {
		t.Errorf("figures does not say where the notes are:\n%s", stdout)
	}
	notes, err := os.ReadFile(filepath.Join(out, "notes.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, stem := range []string{"fig2-light", "fig3-sda-sigma", "fig4-ese-analysis", "fig5-single-job", "fig6-heavy"} {
		for _, ext := range presets.FigureFormats() {
			name := stem + "." + ext
			if st, err := os.Stat(filepath.Join(out, name)); err != nil || st.Size() < 1000 {
				t.Errorf("%s: missing or empty (%v)", name, err)
			}
			if !strings.Contains(string(notes), name) {
				t.Errorf("notes.md does not mention %s", name)
			}
		}
	}
	// Fig 2's comparisons are claims of the file now, in its verdict table (fig2-light/1 is SCA
	// against Mantri); Fig 6's check line stays beside its claim.
	for _, want := range []string{"--quick", "**Paper:**", "−18 %", "| `fig2-light/1` | SCA cuts the mean flowtime by 60 % against Mantri.", "| `fig6-heavy/1` |",
		"ESE against Mantri", "[2 2 2 3]", "ω = 1.26 and 1.68", "inconsistent"} {
		if !strings.Contains(string(notes), want) {
			t.Errorf("notes.md lacks %q", want)
		}
	}
	if code, _, stderr := cli(t, "figures", "--preset", "speculative", "--trials", out, "--out", out); code != exitUsage {
		t.Errorf("--trials with the speculative preset: exit %d:\n%s", code, stderr)
	}
}
