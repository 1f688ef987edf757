package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// tiny holds every operator the mutator types make mutate runs change. Columns count bytes from
// 1, a tab being one:
//
//	line 5  "\tx := -a + b*2"                   - at 7 (unary), + at 10, * at 13
//	line 6  "\tif a < b && b >= 0 || a == b {"  < at 7, && at 11, >= at 16, == at 26
//	line 7  "\t\tx--"                            -- at 4
//	line 9  "\tfor i := 0; i != b; i++ {"       != at 16, ++ at 23
//	line 10 "\t\tx = x/2 - x%3"                  / at 8, - at 11 (binary), % at 14
const tiny = `package tiny

// F mixes the operators.
func F(a, b int) int {
	x := -a + b*2
	if a < b && b >= 0 || a == b {
		x--
	}
	for i := 0; i != b; i++ {
		x = x/2 - x%3
	}
	return x
}
`

// TestMutate: each mutant of tiny against its source written by hand from gremlins's table. A
// minus is turned into a plus by both INVERT_NEGATIVES and ARITHMETIC_BASE, unary or binary, as
// gremlins maps the token whatever the node.
func TestMutate(t *testing.T) {
	for _, c := range []struct {
		kind          string
		line, column  int
		before, after string
	}{
		{"INVERT_NEGATIVES", 5, 7, "x := -a + b*2", "x := +a + b*2"},
		{"ARITHMETIC_BASE", 5, 7, "x := -a + b*2", "x := +a + b*2"},
		{"ARITHMETIC_BASE", 5, 10, "x := -a + b*2", "x := -a - b*2"},
		{"ARITHMETIC_BASE", 5, 13, "x := -a + b*2", "x := -a + b/2"},
		{"CONDITIONALS_BOUNDARY", 6, 7, "a < b &&", "a <= b &&"},
		{"CONDITIONALS_NEGATION", 6, 7, "a < b &&", "a >= b &&"},
		{"CONDITIONALS_BOUNDARY", 6, 16, "b >= 0", "b > 0"},
		{"CONDITIONALS_NEGATION", 6, 16, "b >= 0", "b < 0"},
		{"CONDITIONALS_NEGATION", 6, 26, "a == b", "a != b"},
		{"INCREMENT_DECREMENT", 7, 4, "x--", "x++"},
		{"CONDITIONALS_NEGATION", 9, 16, "i != b", "i == b"},
		{"INCREMENT_DECREMENT", 9, 23, "i++", "i--"},
		{"ARITHMETIC_BASE", 10, 8, "x = x/2 - x%3", "x = x*2 - x%3"},
		{"INVERT_NEGATIVES", 10, 11, "x = x/2 - x%3", "x = x/2 + x%3"},
		{"ARITHMETIC_BASE", 10, 11, "x = x/2 - x%3", "x = x/2 + x%3"},
		{"ARITHMETIC_BASE", 10, 14, "x = x/2 - x%3", "x = x/2 - x*3"},
	} {
		if strings.Count(tiny, c.before) != 1 {
			t.Fatalf("%q is not once in tiny", c.before)
		}
		want := strings.Replace(tiny, c.before, c.after, 1)
		got, err := mutate("tiny.go", []byte(tiny), c.line, c.column, c.kind)
		if err != nil {
			t.Errorf("%s at %d:%d: %v", c.kind, c.line, c.column, err)
			continue
		}
		if string(got) != want {
			t.Errorf("%s at %d:%d:\n%s\nwant\n%s", c.kind, c.line, c.column, got, want)
		}
	}
}

// TestMutateRefuses: no mutant where the type has no row for the token there, where no
// operator is, or of a type make mutate does not run.
func TestMutateRefuses(t *testing.T) {
	for _, c := range []struct {
		kind         string
		line, column int
	}{
		{"CONDITIONALS_BOUNDARY", 6, 26}, // ==
		{"INVERT_NEGATIVES", 5, 10},      // +
		{"ARITHMETIC_BASE", 5, 8},        // the a of -a
		{"ARITHMETIC_BASE", 6, 7},        // <
		{"INVERT_LOGICAL", 6, 11},        // &&: gremlins has it, off by default
	} {
		if got, err := mutate("tiny.go", []byte(tiny), c.line, c.column, c.kind); err == nil {
			t.Errorf("%s at %d:%d accepted:\n%s", c.kind, c.line, c.column, got)
		}
	}
}

// TestMutateAsGremlins: the mutated files gremlins v0.6.0 itself writes for a small package,
// caught by the package's own test, which copies its source out while gremlins runs it on each
// mutant, are the files mutate gives for the mutants of gremlins's result. Needs the gremlins
// binary: $GREMLINS, or the one make mutate installs.
func TestMutateAsGremlins(t *testing.T) {
	bin := gremlinsBinary(t)
	// Comments, an aligned block and a grouped declaration, which go/printer lays out; no loop,
	// which a mutant could make endless.
	const src = `package calc

import "math"

const (
	one   = 1 // the unit
	seven = 7
)

// Mix mixes.
func Mix(a, b float64, n int) float64 {
	x := -a*seven + b/one // trailing comment
	n++
	if x >= math.Pi || a != b && n < 3 {
		x -= 1
	}
	return x
}
`
	dir := t.TempDir()
	dump := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":  "module calc\n\ngo 1.22\n",
		"calc.go": src,
		"calc_test.go": `package calc

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestDump(t *testing.T) {
	Mix(1, 2, 3)
	b, err := os.ReadFile("calc.go")
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(os.Getenv("MUTANTS_DUMP"), fmt.Sprintf("%x.go", sha256.Sum256(b)))
	if err := os.WriteFile(name, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
`,
	})
	out := filepath.Join(t.TempDir(), "result.json")
	cmd := exec.Command(bin, "unleash", ".", "--workers", "1", "--timeout-coefficient", "30", "-o", out)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "MUTANTS_DUMP="+dump)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gremlins: %v\n%s", err, b)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res result
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	ours := map[string]bool{}
	for _, f := range res.Files {
		for _, m := range f.Mutations {
			if m.Status != "LIVED" {
				t.Errorf("%s at %d:%d %s: the dumping test passes on every mutant", m.Type, m.Line, m.Column, m.Status)
				continue
			}
			got, err := mutate("calc.go", []byte(src), m.Line, m.Column, m.Type)
			if err != nil {
				t.Fatal(err)
			}
			ours[digest(got)] = true
			if _, err := os.Stat(filepath.Join(dump, digest(got)+".go")); err != nil {
				t.Errorf("%s at %d:%d: gremlins wrote no such file:\n%s", m.Type, m.Line, m.Column, got)
			}
		}
	}
	// The dumps also hold the unmutated source, from gremlins's coverage run.
	theirs, err := filepath.Glob(filepath.Join(dump, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ours) < 8 || len(theirs) != len(ours)+1 {
		t.Errorf("%d distinct mutated files from mutate, %d files from gremlins (the original included)", len(ours), len(theirs))
	}
}

// writeFiles writes files, by path relative to dir, with their folders.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// gremlinsBinary is the gremlins binary for a test that runs it: $GREMLINS, or the one make
// mutate installs. The test skips under -short (a build and a test run per mutant) or without it.
func gremlinsBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("a gremlins run: a build and a test run per mutant")
	}
	bin := os.Getenv("GREMLINS")
	if bin == "" {
		bin, _ = filepath.Abs("../../bin/gremlins-v0.6.0/gremlins")
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skip("no gremlins binary (set GREMLINS, or make mutate installs it):", err)
	}
	return bin
}
