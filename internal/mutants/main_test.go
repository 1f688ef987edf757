package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAssess: a hand-made result of five mutants against two equivalents entries, one matching
// a survivor and one whose source line changed since it was written.
//
//	killed 1, timed out 1, lived 2 (1 listed), not covered 1
//	score = (1 + 1) / (1 + 1 + 2 − 1) = 2/3
func TestAssess(t *testing.T) {
	eqs, err := parseEquivalents(strings.NewReader(`# comment

a/x.go:10:5 CONDITIONALS_BOUNDARY | if a < b { | a == b never reaches here
a/x.go:99:7 ARITHMETIC_BASE | n := a + b | stale: the line now reads otherwise
`), "eq.txt")
	if err != nil {
		t.Fatal(err)
	}
	muts := []mutant{
		{"a/x.go", 3, 1, "ARITHMETIC_BASE", "KILLED", "x"},
		{"a/x.go", 4, 1, "ARITHMETIC_BASE", "TIMED OUT", "x"},
		{"a/x.go", 12, 5, "CONDITIONALS_BOUNDARY", "LIVED", "if a < b {"}, // moved from line 10: still listed
		{"a/x.go", 20, 7, "ARITHMETIC_BASE", "LIVED", "n := a - b"},
		{"a/x.go", 30, 1, "INVERT_NEGATIVES", "NOT COVERED", "y"},
	}
	s, unlisted, stale, err := assess(muts, eqs)
	if err != nil {
		t.Fatal(err)
	}
	want := score{killed: 1, timedOut: 1, lived: 2, equivalent: 1, notCovered: 1}
	if s != want {
		t.Errorf("score %+v, want %+v", s, want)
	}
	if p := s.percent(); p < 66.66 || p > 66.67 {
		t.Errorf("percent %v, want 66.7", p)
	}
	if len(unlisted) != 1 || unlisted[0].line != 20 {
		t.Errorf("unlisted %+v, want the mutant of line 20", unlisted)
	}
	if len(stale) != 1 || stale[0].line != 99 {
		t.Errorf("stale %+v, want the entry of line 99", stale)
	}
}

// TestEquivalentNeedsReason: an entry without a reason, or not in the format, is refused.
func TestEquivalentNeedsReason(t *testing.T) {
	for _, line := range []string{
		"a/x.go:10:5 CONDITIONALS_BOUNDARY | if a < b { |",
		"a/x.go:10:5 CONDITIONALS_BOUNDARY | if a < b { |   ",
		"a/x.go:10 CONDITIONALS_BOUNDARY | if a < b { | reason",
		"a/x.go:10:5 | if a < b { | reason",
	} {
		if _, err := parseEquivalents(strings.NewReader(line), "eq.txt"); err == nil {
			t.Errorf("%q accepted", line)
		}
	}
}

// TestPackageFiles: a package's source files, not its tests or subdirectories; only the named
// ones with DIR:FILE,FILE; only the changed ones with a change set.
func TestPackageFiles(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.go", "b.go", "a_test.go", "notes.txt", "sub/c.go"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		spec    string
		changed map[string]bool
		want    string
	}{
		{dir, nil, "a.go b.go"},
		{dir + ":b.go", nil, "b.go"},
		{dir, map[string]bool{dir + "/b.go": true, dir + "/a_test.go": true, dir + "/sub/c.go": true}, "b.go"},
		{dir + ":a.go", map[string]bool{dir + "/b.go": true}, ""},
	} {
		_, files, err := packageFiles(c.spec, c.changed)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(files, " "); got != c.want {
			t.Errorf("%s with %v changed: %q, want %q", c.spec, c.changed, got, c.want)
		}
	}
}
