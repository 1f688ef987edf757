package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// calcSrc is the package a recheck is tried on. Columns count bytes from 1, a tab being one:
//
//	line 5  "\treturn a + b"  + at 11
//	line 10 "\treturn a > 0"  > at 11
//	line 15 "\treturn -a"     - at 9
const calcSrc = `package calc

// Add is a + b.
func Add(a, b int) int {
	return a + b
}

// Positive tells whether a is above zero.
func Positive(a int) bool {
	return a > 0
}

// Neg is -a.
func Neg(a int) int {
	return -a
}
`

// calcTest kills a - b (2 - 3 is not 5) and a <= 0 (Positive(5) fails), misses a >= 0 (0 is
// never asked) and never calls Neg.
const calcTest = `package calc

import "testing"

func TestAdd(t *testing.T) {
	if Add(2, 3) != 5 {
		t.Error("Add(2, 3) != 5")
	}
}

func TestPositive(t *testing.T) {
	if !Positive(5) || Positive(-5) {
		t.Error("Positive")
	}
}
`

// calcResult is a result shaped like gremlins's for calc, as a run made before calcTest's
// tests existed could have left it. Neg's ARITHMETIC_BASE is marked KILLED though no test
// kills it, to tell whether a recheck leaves killed mutants alone.
const calcResult = `{"go_module":"tiny","files":[{"file_name":"calc.go","mutations":[
{"type":"ARITHMETIC_BASE","status":"LIVED","line":5,"column":11},
{"type":"CONDITIONALS_BOUNDARY","status":"LIVED","line":10,"column":11},
{"type":"CONDITIONALS_NEGATION","status":"NOT COVERED","line":10,"column":11},
{"type":"INVERT_NEGATIVES","status":"NOT COVERED","line":15,"column":9},
{"type":"ARITHMETIC_BASE","status":"KILLED","line":15,"column":9}]}],
"test_efficacy":33.3,"mutations_coverage":60,"mutants_total":3,"mutants_killed":1,"mutants_lived":2,
"mutants_not_viable":0,"mutants_not_covered":2,"elapsed_time":12.5,"mutator_statistics":{"arithmetic_base":2}}`

// tinyModule makes the module of calc in a temporary folder, committed to a new git
// repository, with calcResult as the last run's result in out/, and makes it the working
// directory.
func tinyModule(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod":            "module tiny\n\ngo 1.22\n",
		"calc/calc.go":      calcSrc,
		"calc/calc_test.go": calcTest,
		"out/calc.json":     calcResult,
		"eq.txt":            "",
	})
	t.Chdir(dir)
	for _, args := range [][]string{
		{"init", "-q"},
		{"add", "go.mod", "calc"},
		{"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "calc"},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

func recheckOptions() options {
	return options{equivalents: "eq.txt", out: "out", workers: 2, coefficient: 20, recheck: true, rev: "HEAD"}
}

// TestRecheck: a recheck with -not-covered of calcResult against calcTest, statuses worked by
// hand from calcTest's comment:
//
//	Add's +      LIVED        → KILLED (TestAdd)
//	Positive's > BOUNDARY  LIVED        → LIVED  (a >= 0 passes both tests)
//	Positive's > NEGATION  NOT COVERED  → KILLED (now reached: Positive(5) is false under a <= 0)
//	Neg's -      INVERT    NOT COVERED  → NOT COVERED (no test calls Neg)
//	Neg's -      ARITH     KILLED       → KILLED (kept, never rerun)
//
// gremlins's totals: killed 3, lived 1, not covered 1, total 3+1 = 4, efficacy 3/4 = 75%,
// coverage 4/5 = 80%; make mutate's score 3/(3+1) = 75.0%.
func TestRecheck(t *testing.T) {
	tinyModule(t)
	o := recheckOptions()
	o.notCovered = true
	var w bytes.Buffer
	ok, err := run(context.Background(), o, []string{"calc"}, &w)
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		t.Errorf("ok with a survivor not listed as equivalent:\n%s", w.String())
	}
	res, err := readResultFile("out/calc.json")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range res.Files[0].Mutations {
		got = append(got, m.Status)
	}
	want := []string{"KILLED", "LIVED", "KILLED", "NOT COVERED", "KILLED"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("statuses %q, want %q", got, want)
	}
	if res.MutantsKilled != 3 || res.MutantsLived != 1 || res.MutantsNotCovered != 1 || res.MutantsTotal != 4 ||
		res.TestEfficacy != 75 || res.MutationsCoverage != 80 {
		t.Errorf("totals %+v", res)
	}
	if res.ElapsedTime != 12.5 || res.MutatorStatistics["arithmetic_base"] != 2 {
		t.Errorf("the run's elapsed time and statistics not kept: %v, %v", res.ElapsedTime, res.MutatorStatistics)
	}
	head, _ := git("rev-parse", "HEAD")
	if res.Recheck == nil || res.Recheck.Rev != strings.TrimSpace(head) || res.Recheck.Uncommitted {
		t.Errorf("recheck note %+v, want the commit %s", res.Recheck, head)
	}
	// The run record made from -rev, which the next recheck reads instead.
	b, err := os.ReadFile("out/calc.run.json")
	if err != nil {
		t.Fatal(err)
	}
	var rec runRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Rev != strings.TrimSpace(head) || rec.SHA256["calc/calc.go"] != digest([]byte(calcSrc)) {
		t.Errorf("run record %+v", rec)
	}
	if !strings.Contains(w.String(), "score  75.0%  killed 3, timed out 0, lived 1 (0 equivalent), not covered 1") {
		t.Errorf("report:\n%s", w.String())
	}
}

// TestRecheckTimedOut: a mutant the last run timed out (Add's +, killed by TestAdd in a second)
// is tested again only with -timed-out; Positive's > BOUNDARY, timed out too, then lives, as
// a >= 0 passes both tests. Without the flag both keep their TIMED OUT.
func TestRecheckTimedOut(t *testing.T) {
	for _, c := range []struct {
		timedOut bool
		want     string
	}{
		{false, "TIMED OUT,TIMED OUT"},
		{true, "KILLED,LIVED"},
	} {
		t.Run(fmt.Sprint(c.timedOut), func(t *testing.T) {
			tinyModule(t)
			timedOut := strings.Replace(calcResult, `"status":"LIVED"`, `"status":"TIMED OUT"`, 2)
			if err := os.WriteFile("out/calc.json", []byte(timedOut), 0o644); err != nil {
				t.Fatal(err)
			}
			o := recheckOptions()
			o.timedOut = c.timedOut
			if _, err := run(context.Background(), o, []string{"calc"}, io.Discard); err != nil {
				t.Fatal(err)
			}
			res, err := readResultFile("out/calc.json")
			if err != nil {
				t.Fatal(err)
			}
			ms := res.Files[0].Mutations
			if got := ms[0].Status + "," + ms[1].Status; got != c.want {
				t.Errorf("statuses %s, want %s", got, c.want)
			}
		})
	}
}

// TestSplice: the files rerun take fresh's mutants (b.go), a file added since the run joins
// (d.go), a file gone or without mutants now has none (e.go), the others keep theirs, in name
// order as gremlins writes them.
func TestSplice(t *testing.T) {
	m := func(status string, line int) resultMutation {
		return resultMutation{Type: "ARITHMETIC_BASE", Status: status, Line: line, Column: 1}
	}
	res := &result{Files: []resultFile{
		{"a.go", []resultMutation{m("LIVED", 1)}},
		{"b.go", []resultMutation{m("LIVED", 2), m("KILLED", 3)}},
		{"c.go", []resultMutation{m("KILLED", 4)}},
		{"e.go", []resultMutation{m("LIVED", 5)}},
	}}
	fresh := &result{Files: []resultFile{
		{"d.go", []resultMutation{m("KILLED", 6)}},
		{"b.go", []resultMutation{m("KILLED", 7)}},
	}}
	splice(res, fresh, []string{"b.go", "d.go", "e.go"})
	var got []string
	for _, f := range res.Files {
		for _, x := range f.Mutations {
			got = append(got, fmt.Sprintf("%s:%d %s", f.Name, x.Line, x.Status))
		}
	}
	want := "a.go:1 LIVED,b.go:7 KILLED,c.go:4 KILLED,d.go:6 KILLED"
	if strings.Join(got, ",") != want {
		t.Errorf("spliced %q, want %q", strings.Join(got, ","), want)
	}
}

// TestRecheckPerLine: with the gremlins binary, the mutants of a file changed since the run
// are listed again by gremlins's dry run and only those on changed lines tested; the others
// keep the run's status (calcResult's), moved with their line. By hand, against calcTest:
//
//	top:      a comment line on top moves every operator one line down and changes none: all
//	          five keep their status; Add's + LIVED is retested as a survivor (KILLED by
//	          TestAdd), Neg's ARITHMETIC_BASE keeps its made-up KILLED (a new run would say NOT
//	          COVERED: no test calls Neg)
//	positive: Positive's line becomes a > 1: its two mutants are tested, >= 1 LIVED (5 and -5
//	          answer alike), <= 1 KILLED (Positive(5) is false); the other three keep theirs
//	neg:      Neg's line becomes 0 - a: its old mutants at column 9 go, the new binary minus at
//	          column 11 gives two, NOT COVERED by the dry run (no test calls Neg), not tested
//	diff:     make mutate-diff against the run's commit, with Positive's line changed in a
//	          commit: as positive, but Add's LIVED + is not retested (its line did not change)
//	ran:      the same, the run made after the commit (calcResult's positions hold for both
//	          versions): calc.go is as the run saw it, yet Positive's line changed since the
//	          merge base and its mutants are tested (NEGATION's NOT COVERED becomes KILLED)
func TestRecheckPerLine(t *testing.T) {
	bin := gremlinsBinary(t)
	positive := strings.Replace(calcSrc, "a > 0", "a > 1", 1)
	diffWant := map[string]string{
		"5:11 ARITHMETIC_BASE":        "LIVED",
		"10:11 CONDITIONALS_BOUNDARY": "LIVED",
		"10:11 CONDITIONALS_NEGATION": "KILLED",
		"15:9 INVERT_NEGATIVES":       "NOT COVERED",
		"15:9 ARITHMETIC_BASE":        "KILLED",
	}
	for _, c := range []struct {
		name, src string
		diff      bool // make mutate-diff, the edit committed
		ranAfter  bool // the run's record made after the edit's commit
		want      map[string]string
		log       string
	}{
		{"top", "// Package calc computes.\n" + calcSrc, false, false, map[string]string{
			"6:11 ARITHMETIC_BASE":        "KILLED",
			"11:11 CONDITIONALS_BOUNDARY": "LIVED",
			"11:11 CONDITIONALS_NEGATION": "NOT COVERED",
			"16:9 INVERT_NEGATIVES":       "NOT COVERED",
			"16:9 ARITHMETIC_BASE":        "KILLED",
		}, "0 of their mutants on lines changed since the run to test, 5 keep the run's status, 0 new"},
		{"positive", positive, false, false, map[string]string{
			"5:11 ARITHMETIC_BASE":        "KILLED",
			"10:11 CONDITIONALS_BOUNDARY": "LIVED",
			"10:11 CONDITIONALS_NEGATION": "KILLED",
			"15:9 INVERT_NEGATIVES":       "NOT COVERED",
			"15:9 ARITHMETIC_BASE":        "KILLED",
		}, "2 of their mutants on lines changed since the run to test, 3 keep the run's status, 0 new"},
		{"neg", strings.Replace(calcSrc, "return -a", "return 0 - a", 1), false, false, map[string]string{
			"5:11 ARITHMETIC_BASE":        "KILLED",
			"10:11 CONDITIONALS_BOUNDARY": "LIVED",
			"10:11 CONDITIONALS_NEGATION": "NOT COVERED",
			"15:11 INVERT_NEGATIVES":      "NOT COVERED",
			"15:11 ARITHMETIC_BASE":       "NOT COVERED",
		}, "0 of their mutants on lines changed since the run to test, 3 keep the run's status, 2 new"},
		{"diff", positive, true, false, diffWant, "2 of their mutants on lines changed since"},
		{"ran", positive, true, true, diffWant, "2 of their mutants on lines changed since"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tinyModule(t)
			o := recheckOptions()
			o.gremlins = bin
			if c.diff {
				if c.ranAfter {
					commitFiles(t, map[string]string{"calc/calc.go": c.src})
				}
				rec, err := newRunRecord([]string{"calc/calc.go"})
				if err != nil {
					t.Fatal(err)
				}
				if err := writeJSON("out/calc.run.json", rec); err != nil {
					t.Fatal(err)
				}
				if !c.ranAfter {
					commitFiles(t, map[string]string{"calc/calc.go": c.src})
				}
				o.recheck, o.rev, o.base = false, "", "HEAD~1"
			} else {
				writeFiles(t, ".", map[string]string{"calc/calc.go": c.src})
			}
			log := captureStderr(t, func() {
				if _, err := run(context.Background(), o, []string{"calc"}, io.Discard); err != nil {
					t.Fatal(err)
				}
			})
			if got := statusesOf(t, "out/calc.json"); fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("statuses %v, want %v", got, c.want)
			}
			if !strings.Contains(log, c.log) {
				t.Errorf("log does not say %q:\n%s", c.log, log)
			}
			var rec runRecord
			b, err := os.ReadFile("out/calc.run.json")
			if err == nil {
				err = json.Unmarshal(b, &rec)
			}
			if err != nil || rec.SHA256["calc/calc.go"] != digest([]byte(c.src)) || rec.Sources["calc/calc.go"] != c.src {
				t.Errorf("run record %+v (%v), want the edited file's hash and source", rec, err)
			}
			if _, err := os.Stat("out/calc.changed.json"); !os.IsNotExist(err) {
				t.Errorf("the dry run's result is left behind: %v", err)
			}
		})
	}
}

// TestRecheckPerLineTwice: a second edit after a recheck is diffed against the file the recheck
// saw, kept in the run record, not against the run's commit (which lacks the first edit and so
// matches not the record's hash: every mutant would be tested afresh). First the comment line
// on top (as TestRecheckPerLine's top), then Positive's line becomes a > 1: Neg's made-up
// KILLED is still kept, and only Positive's two mutants are tested.
func TestRecheckPerLineTwice(t *testing.T) {
	bin := gremlinsBinary(t)
	tinyModule(t)
	o := recheckOptions()
	o.gremlins = bin
	top := "// Package calc computes.\n" + calcSrc
	var log string
	for _, src := range []string{top, strings.Replace(top, "a > 0", "a > 1", 1)} {
		writeFiles(t, ".", map[string]string{"calc/calc.go": src})
		log = captureStderr(t, func() {
			if _, err := run(context.Background(), o, []string{"calc"}, io.Discard); err != nil {
				t.Fatal(err)
			}
		})
	}
	want := map[string]string{
		"6:11 ARITHMETIC_BASE":        "KILLED",
		"11:11 CONDITIONALS_BOUNDARY": "LIVED",
		"11:11 CONDITIONALS_NEGATION": "KILLED",
		"16:9 INVERT_NEGATIVES":       "NOT COVERED",
		"16:9 ARITHMETIC_BASE":        "KILLED",
	}
	if got := statusesOf(t, "out/calc.json"); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("statuses %v, want %v", got, want)
	}
	if !strings.Contains(log, "2 of their mutants on lines changed since the run to test, 3 keep") {
		t.Errorf("second recheck's log:\n%s", log)
	}
}

// statusesOf reads a result's statuses by "LINE:COLUMN MUTATOR" (a single file's).
func statusesOf(t *testing.T, name string) map[string]string {
	t.Helper()
	res, err := readResultFile(name)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range res.Files {
		for _, x := range f.Mutations {
			got[fmt.Sprintf("%d:%d %s", x.Line, x.Column, x.Type)] = x.Status
		}
	}
	return got
}

// captureStderr is what f writes to os.Stderr, where run logs.
func captureStderr(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stderr
	os.Stderr = w
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(r)
		done <- string(b)
	}()
	defer func() { os.Stderr = saved }()
	f()
	w.Close()
	os.Stderr = saved
	return <-done
}

// TestRecheckFileSet: a file of the package with no mutant, which gremlins's result does not
// name, is not taken for a file added since the run while it is as it was at the run's commit
// (the recheck goes on without gremlins); a file added since is, and is named.
func TestRecheckFileSet(t *testing.T) {
	tinyModule(t)
	writeFiles(t, ".", map[string]string{"calc/doc.go": "// Package calc adds.\npackage calc\n"})
	for _, args := range [][]string{{"add", "calc/doc.go"}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "doc"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	if _, err := run(context.Background(), recheckOptions(), []string{"calc"}, io.Discard); err != nil {
		t.Fatalf("a file without mutants taken for a change: %v", err)
	}
	writeFiles(t, ".", map[string]string{"calc/sub.go": "package calc\n\nfunc Sub(a, b int) int { return a - b }\n"})
	_, err := run(context.Background(), recheckOptions(), []string{"calc"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "calc/sub.go changed since the run") {
		t.Errorf("a file added since the run: error %v, want it named", err)
	}
}

// TestRecheckSubset: a run over some of a package's files (its record names calc.go alone)
// leaves out sub.go, there at the run's commit but not mutated by that run: the recheck goes on
// without gremlins and gives sub.go no mutant. mul.go, added since the run's commit, is new
// and still needs mutating (named in the refusal without gremlins).
func TestRecheckSubset(t *testing.T) {
	tinyModule(t)
	commitFiles(t, map[string]string{"calc/sub.go": "package calc\n\nfunc Sub(a, b int) int { return a - b }\n"})
	rec, err := newRunRecord([]string{"calc/calc.go"})
	if err != nil {
		t.Fatal(err)
	}
	if err := writeJSON("out/calc.run.json", rec); err != nil {
		t.Fatal(err)
	}
	o := recheckOptions()
	o.rev = ""
	if _, err := run(context.Background(), o, []string{"calc"}, io.Discard); err != nil {
		t.Fatalf("a file the run did not mutate taken for a change: %v", err)
	}
	res, err := readResultFile("out/calc.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 1 || res.Files[0].Name != "calc.go" {
		t.Errorf("files %+v, want calc.go alone", res.Files)
	}
	writeFiles(t, ".", map[string]string{"calc/mul.go": "package calc\n\nfunc Mul(a, b int) int { return a * b }\n"})
	_, err = run(context.Background(), o, []string{"calc"}, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "calc/mul.go changed since the run") || strings.Contains(err.Error(), "sub.go") {
		t.Errorf("a file added since the run: error %v, want it named, and sub.go not", err)
	}
}

// commitFiles writes files, by path relative to the working directory, and commits those under calc/.
func commitFiles(t *testing.T, files map[string]string) {
	t.Helper()
	writeFiles(t, ".", files)
	for _, args := range [][]string{{"add", "calc"}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "edit"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
}

// TestRecheckRefusesStale: no recheck when the mutated file differs from the run's, by the run
// record or, without one, by the file at -rev; none either without a record or -rev. The
// result is left as it was.
func TestRecheckRefusesStale(t *testing.T) {
	for _, c := range []struct {
		name   string
		record bool   // write the run record of the committed files
		rev    string // -rev
		edit   bool   // add a line to calc.go after the commit
		want   string // in the error
	}{
		{"by -rev", false, "HEAD", true, "calc/calc.go changed since the run of out/calc.json"},
		{"by record", true, "", true, "calc/calc.go changed since the run of out/calc.json"},
		{"record over -rev", true, "HEAD~0", true, "rerun make mutate MUTATE_PKGS=calc"},
		{"no record, no -rev", false, "", false, "give that commit with -rev REV"},
		{"-rev unknown", false, "nosuchrev", false, "nosuchrev"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tinyModule(t)
			if c.record {
				rec, err := newRunRecord([]string{"calc/calc.go"})
				if err != nil {
					t.Fatal(err)
				}
				if err := writeJSON("out/calc.run.json", rec); err != nil {
					t.Fatal(err)
				}
			}
			if c.edit {
				writeFiles(t, ".", map[string]string{"calc/calc.go": "// Package calc adds.\n" + calcSrc})
			}
			o := recheckOptions()
			o.rev = c.rev
			_, err := run(context.Background(), o, []string{"calc"}, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one saying %q", err, c.want)
			}
			if b, _ := os.ReadFile("out/calc.json"); string(b) != calcResult {
				t.Errorf("result rewritten:\n%s", b)
			}
		})
	}
}

// TestCovered: gremlins's reading of coverage blocks, by hand. Block 3.5–3.20 on one line;
// block 5.10–8.2 over four: its first line from column 10 on, its inner lines whole, its last
// line up to column 2.
func TestCovered(t *testing.T) {
	blocks := []block{{3, 5, 3, 20}, {5, 10, 8, 2}}
	for _, c := range []struct {
		line, column int
		want         bool
	}{
		{3, 4, false}, {3, 5, true}, {3, 20, true}, {3, 21, false},
		{4, 1, false},
		{5, 9, false}, {5, 10, true}, {6, 1, true}, {7, 99, true}, {8, 2, true}, {8, 3, false},
		{9, 1, false},
	} {
		if got := covered(blocks, c.line, c.column); got != c.want {
			t.Errorf("%d:%d covered %v, want %v", c.line, c.column, got, c.want)
		}
	}
}

// TestParseProfile: a go test -coverprofile profile by hand: blocks run at least once, by
// path in the module.
func TestParseProfile(t *testing.T) {
	const profile = `mode: set
tiny/calc/calc.go:4.24,6.2 1 1
tiny/calc/calc.go:14.21,16.2 1 0
tiny/calc/other.go:1.2,1.9 2 3
`
	got, err := parseProfile(strings.NewReader(profile), "tiny")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || len(got["calc/calc.go"]) != 1 || got["calc/calc.go"][0] != (block{4, 24, 6, 2}) ||
		len(got["calc/other.go"]) != 1 || got["calc/other.go"][0] != (block{1, 2, 1, 9}) {
		t.Errorf("blocks %+v", got)
	}
}
