package main

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/report"
)

var updateFiguresGolden = flag.Bool("update-figures-golden", false, "rewrite testdata/figures-PRESET-quick.golden from this build")

// TestFiguresMatchGoPresets compares `figures --preset NAME --quick --tasks 100` with the
// result the Go presets gave (issue 48), for the four presets of sweeps. Each
// testdata/figures-NAME-quick.golden holds that result: every runs.parquet row (key and a
// digest of its values, wall times aside) and notes.md (its paths, version and claim verdicts
// aside). They were written by -update-figures-golden from the Go presets (thesisPreset, ... in
// figures.go, deleted after): the thesis's at commit "figures: golden of the Go thesis preset",
// the others by this test on that commit's tree. So the embedded files must make the same runs
// and the same notes.md but for the claim verdicts they add.
func TestFiguresMatchGoPresets(t *testing.T) {
	if testing.Short() {
		t.Skip("whole presets: run in the full suite")
	}
	for _, name := range []string{"thesis", "journal", "conference", "batch2010"} {
		t.Run(name, func(t *testing.T) { matchGolden(t, name) })
	}
}

func matchGolden(t *testing.T, name string) {
	figuresGolden := "testdata/figures-" + name + "-quick.golden"
	out := filepath.Join(t.TempDir(), name)
	mustCLI(t, "figures", "--preset", name, "--quick", "--tasks", "100", "--out", out, "-q")
	got := figuresDigest(t, out)
	if *updateFiguresGolden {
		if err := os.WriteFile(figuresGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(figuresGolden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		g, w := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range max(len(g), len(w)) {
			gl, wl := line(g, i), line(w, i)
			if gl != wl {
				t.Fatalf("differs from the Go preset's result at line %d of %s:\ngot  %s\nwant %s", i+1, figuresGolden, gl, wl)
			}
		}
	}
}

func line(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(end)"
}

// verdictBlock is what notes.md adds per figure with claims: the heading and the table.
var verdictBlock = regexp.MustCompile(`(?m)^\*\*The paper's claims[^\n]*\n\n(\|[^\n]*\n)+\n`)

// unstable are the columns of notes.md's tables that wallTimes masks: the wall times, which
// differ between two runs, and the engine's work counters, which speed work changes without
// changing a decision (Denninnart et al. 2020 Fig 14's overhead table has both).
var unstable = []string{"mapper time (s)", "pruner time (s)", "convolutions", "impulse multiplications", "success evaluations"}

// wallTimes masks the cells of the unstable columns of notes.md's tables.
func wallTimes(notes string) string {
	var out []string
	masked := map[int]bool{}
	for _, l := range strings.Split(notes, "\n") {
		if !strings.HasPrefix(l, "|") {
			clear(masked)
			out = append(out, l)
			continue
		}
		cells := strings.Split(l, "|")
		for i, c := range cells {
			if c := strings.TrimSpace(c); slices.Contains(unstable, c) {
				masked[i] = true
			} else if masked[i] && !strings.HasPrefix(c, ":") && !strings.HasPrefix(c, "-") {
				cells[i] = " (masked) "
			}
		}
		out = append(out, strings.Join(cells, "|"))
	}
	return strings.Join(out, "\n")
}

// figuresDigest lists the rows of every runs.parquet under out (by path, in the file's order)
// and notes.md with out, the version and the verdict tables taken out.
func figuresDigest(t *testing.T, out string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.Name() != report.RunsFile {
			return err
		}
		rows, err := report.ReadRuns(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, path)
		fmt.Fprintf(&b, "== %s: %d rows\n", filepath.ToSlash(rel), len(rows))
		for _, r := range rows {
			r = r.WithoutTimes()
			// The engine's work counters measure how, not what: speed work changes them
			// without changing a decision (PAM's per-machine screen, dcdaddd).
			r.Convolutions, r.Multiplications, r.SuccessEvals = 0, 0, 0
			fmt.Fprintf(&b, "%s %x\n", r.Key, sha256.Sum256([]byte(fmt.Sprintf("%+v", r))))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	notes, err := os.ReadFile(filepath.Join(out, "notes.md"))
	if err != nil {
		t.Fatal(err)
	}
	n := strings.ReplaceAll(string(notes), out, "OUT")
	n = strings.Replace(n, "(hcreplay "+buildVersion()+")", "(hcreplay VERSION)", 1)
	n = verdictBlock.ReplaceAllString(n, "")
	n = wallTimes(n)
	b.WriteString("== notes.md\n" + n)
	return b.String()
}
