package main

import (
	"fmt"
	"html"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/presets"
)

// TestFiguresThesisQuick reruns the thesis preset on generated trials, as small as it goes
// (three trials of 300 tasks, two levels), and checks that every figure the preset promises is
// written in both formats and named in notes.md.
func TestFiguresThesisQuick(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole preset: runs in the full suite, not the short race pass")
	}
	out := filepath.Join(t.TempDir(), "thesis")
	stdout := mustCLI(t, "figures", "--preset", "thesis", "--quick", "--tasks", "300", "--out", out, "-q")
	if !strings.Contains(stdout, filepath.Join(out, "notes.md")) {
		t.Errorf("figures does not say where the notes are:\n%s", stdout)
	}
	notes, err := os.ReadFile(filepath.Join(out, "notes.md"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := presets.Load("thesis")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range p.Experiments {
		for _, f := range e.Figures {
			for _, ext := range presets.FigureFormats() {
				name := f.File + "." + ext
				if st, err := os.Stat(filepath.Join(out, name)); err != nil || st.Size() < 1000 {
					t.Errorf("%s: missing or empty (%v)", name, err)
				}
				if !strings.Contains(string(notes), name) {
					t.Errorf("notes.md does not mention %s", name)
				}
			}
		}
		if _, err := os.Stat(filepath.Join(out, "experiments", e.Name, "report", "aggregate.csv")); err != nil {
			t.Errorf("experiment %s: %v", e.Name, err)
		}
	}
	// The preset's semantics at the top (issue 45), and the sensitivity lines under the defaults.
	for _, want := range []string{"--quick", "34 % (toggle None)", "PAM-P", "± ", "**Semantics.** Drop model **pending**",
		"drop_model=pending", "defer_at=after", "drop_running=always", "Sensitivity: under the default semantics"} {
		if !strings.Contains(string(notes), want) {
			t.Errorf("notes.md lacks %q", want)
		}
	}
}

// TestFiguresBadInput checks that an unknown preset and a missing --trials path exit 2 with a
// message that helps: the presets there are, the path that is missing.
func TestFiguresBadInput(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := cli(t, "figures", "--preset", "nosuch", "--out", dir)
	if code != exitUsage {
		t.Errorf("unknown preset: exit %d, want %d", code, exitUsage)
	}
	for _, name := range presets.Names() {
		if !strings.Contains(stderr, name) {
			t.Errorf("unknown preset: the message does not list %s:\n%s", name, stderr)
		}
	}
	missing := filepath.Join(dir, "no-hcw19")
	code, _, stderr = cli(t, "figures", "--preset", "thesis", "--trials", missing, "--out", filepath.Join(dir, "out"))
	if code != exitUsage || !strings.Contains(stderr, missing) {
		t.Errorf("missing --trials: exit %d, want %d, naming %s:\n%s", code, exitUsage, missing, stderr)
	}
	notZip := filepath.Join(dir, "notes.txt")
	writeFile(t, notZip, "x")
	if code, _, stderr = cli(t, "figures", "--preset", "thesis", "--trials", notZip, "--out", filepath.Join(dir, "out")); code != exitUsage {
		t.Errorf("--trials naming a text file: exit %d, want %d:\n%s", code, exitUsage, stderr)
	}
}

// TestPresetTables checks every embedded preset without running it: figure files named after
// the paper's (fig…), distinct across the preset (Parse checks kinds, metrics and texts).
func TestPresetTables(t *testing.T) {
	for _, name := range presets.Names() {
		p, err := presets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		files := map[string]bool{}
		for _, e := range p.Experiments {
			if len(e.Sweeps) == 0 || len(e.Figures) == 0 {
				t.Errorf("%s/%s: no sweeps or no figures", name, e.Name)
			}
			for _, f := range e.Figures {
				if !strings.HasPrefix(f.File, "fig") || files[f.File] {
					t.Errorf("%s: figure file %q is not fig… or appears twice", name, f.File)
				}
				files[f.File] = true
			}
		}
	}
}

// hcw19Folder is ../shared/data/hcw19 from the repository root, or "" when it is absent.
func hcw19Folder() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	for dir := filepath.Dir(file); filepath.Dir(dir) != dir; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			hcw := filepath.Join(dir, "..", "shared", "data", "hcw19")
			if _, err := os.Stat(filepath.Join(hcw, "constant.zip")); err != nil {
				return ""
			}
			return hcw
		}
	}
	return ""
}

// TestFiguresUserPreset: --print writes the embedded file, which --preset FILE.yaml runs as the
// user's own; a typo'd key in it, a figure kind that does not exist or a claim over a heuristic
// its sweeps do not run exits 2 naming the file, the line and the key, before anything runs.
func TestFiguresUserPreset(t *testing.T) {
	dir := t.TempDir()
	text := mustCLI(t, "figures", "--preset", "thesis", "--print")
	want, err := presets.Embedded("thesis")
	if err != nil || text != string(want) {
		t.Fatalf("--print wrote %d bytes, the embedded file has %d (%v)", len(text), len(want), err)
	}
	// A typo'd key, a figure kind that does not exist, a claim over a heuristic not in the sweeps.
	for _, c := range []struct{ from, to, key string }{
		{"    sensitivity: true\n", "    sensitivty: true\n", `unknown key "sensitivty"`},
		{"        kind: toggle\n", "        kind: togle\n", `experiments[0].figures[0].kind: unknown figure kind "togle"`},
		{"            of: {name: PAM-P}\n", "            of: {name: PUM-P}\n", "experiments[0].figures[0].claims[0].of"},
	} {
		file := filepath.Join(dir, "my-paper.yaml")
		at := strings.Index(text, c.from)
		writeFile(t, file, text[:at]+c.to+text[at+len(c.from):])
		line := 1 + strings.Count(text[:at], "\n")
		out := filepath.Join(dir, "out")
		code, _, stderr := cli(t, "figures", "--preset", file, "--out", out)
		if wantMsg := fmt.Sprintf("%s:%d: ", file, line); code != exitUsage || !strings.Contains(stderr, wantMsg) || !strings.Contains(stderr, c.key) {
			t.Errorf("%s: exit %d, want %d with %q and %q:\n%s", strings.TrimSpace(c.to), code, exitUsage, wantMsg, c.key, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("a bad preset file made %s", out)
		}
	}
	out := filepath.Join(dir, "out")
	for _, args := range [][]string{{"--preset", "nosuch", "--print"}, {"--preset", filepath.Join(dir, "none.yaml"), "--out", out}, {"--preset", "thesis"}} {
		if code, _, stderr := cli(t, append([]string{"figures"}, args...)...); code != exitUsage {
			t.Errorf("figures %v: exit %d, want %d:\n%s", args, code, exitUsage, stderr)
		}
	}
}

// TestFiguresUserPresetRuns runs a user's experiment file: the batch2010 preset printed, renamed
// and retitled, from a path. Its notes.md carries the user's title and the figure it names.
func TestFiguresUserPresetRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a preset: the full suite")
	}
	dir := t.TempDir()
	text := mustCLI(t, "figures", "--preset", "batch2010", "--print")
	text = strings.Replace(text, "\nname: batch2010\n", "\nname: mine\n", 1)
	text = strings.Replace(text, "\ntitle: ", "\ntitle: my rerun of the ", 1)
	file := filepath.Join(dir, "mine.yaml")
	writeFile(t, file, text)
	out := filepath.Join(dir, "out")
	mustCLI(t, "figures", "--preset", file, "--quick", "--tasks", "100", "--out", out, "-q")
	notes, err := os.ReadFile(filepath.Join(out, "notes.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Figures of the my rerun of the ", "--preset " + file, "fig1-robustness.svg"} {
		if !strings.Contains(string(notes), want) {
			t.Errorf("notes.md lacks %q", want)
		}
	}
	// One evaluation, every output: each claim of verdicts.json, under the preset's semantics
	// and the defaults (batch2010's experiment has a sensitivity run), shows with the same
	// numbers and verdict in notes.md and the experiment's report.
	f, err := os.Open(filepath.Join(out, presets.VerdictsFile))
	if err != nil {
		t.Fatal(err)
	}
	v, err := presets.ReadVerdicts(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(out, "experiments", "batch", "report", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if v.Preset != "mine" || !v.Quick || len(v.Claims) != 6 {
		t.Fatalf("verdicts.json: preset %q, quick %v, %d claims, want mine, true and 3 claims × 2 semantics", v.Preset, v.Quick, len(v.Claims))
	}
	for _, c := range v.Claims {
		row := fmt.Sprintf("| `%s` | %s (%s) | %s, %s | %s | %s | **%s**: ", c.ID, c.Wording, c.Section, c.Metric, c.Level, c.Paper, c.Ours, c.Verdict)
		cell := fmt.Sprintf("<td>%s</td><td><strong>%s</strong>: ", html.EscapeString(c.Ours), c.Verdict)
		if !strings.Contains(string(notes), row) || !strings.Contains(string(page), cell) {
			t.Errorf("claim %s under %s (%s, %s): not the same in notes.md and index.html", c.ID, c.Semantics, c.Ours, c.Verdict)
		}
	}
}
