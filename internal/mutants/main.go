// Command mutants runs mutation testing (gremlins) over the packages `make mutate` names, one
// package at a time, prints each package's score, and lists the mutants that lived. A mutant
// that lives must be either killed by a new test or listed, with a one-line reason, as
// equivalent (no test could tell it from the original) in the equivalents file; mutants exits 1
// when a survivor is neither, so the list cannot grow silently. With -recheck it tests the
// mutants the last run left alive against today's tests (make mutate-recheck): a full run takes
// hours, a recheck of its survivors minutes. With -base it tests only the mutants on lines
// changed since the merge base with that revision (make mutate-diff).
//
// Both keep the last run's result up to date per changed line. For a source file changed or
// added since the run (or, with -base, since the merge base), gremlins lists the file's mutants
// without testing them (its dry run); a line diff (a longest common subsequence of lines)
// against the file as the run saw it moves each mutant of an unchanged line, with its status,
// to its line now; only the mutants of changed or added lines are tested; those of deleted lines
// go. A file the run did not mutate (a run over DIR:FILE,…) is left out. The run record beside
// the result keeps each file's hash, and its source once a recheck has brought it up to date.
//
// It owns the choice of files per package, the score, the equivalents file's format, the line
// diff and the recheck. It leaves finding mutants, and testing them in a full run, to gremlins,
// whose JSON output it reads back; a recheck applies mutants itself, exactly as gremlins does,
// and runs the package's tests on each through go test -overlay.
//
// A package is given as DIR (its non-test files, not those of its subdirectories) or
// DIR:FILE,FILE (only those files: report's aggregation is report:aggregate.go).
//
// The score is the share of covered mutants the tests detect: (killed + timed out) over
// (killed + timed out + lived − equivalent). A timed-out mutant counts as detected, as a test
// run that never ends fails in CI; the timeout coefficient is set high enough that a busy
// machine alone does not time mutants out.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

func main() {
	var o options
	flag.StringVar(&o.gremlins, "gremlins", "bin/gremlins", "the gremlins binary")
	flag.StringVar(&o.equivalents, "equivalents", "internal/mutants/equivalent.txt", "the equivalents file")
	flag.StringVar(&o.out, "out", "bin/mutate", "where gremlins's JSON results and logs go")
	flag.StringVar(&o.base, "base", "", "mutate only the source files changed since the merge base with this revision")
	flag.IntVar(&o.workers, "workers", 2, "gremlins workers (the tests of one mutant each)")
	flag.IntVar(&o.coefficient, "coefficient", 10, "gremlins timeout coefficient: a mutant's test run may take this many times the coverage run")
	flag.BoolVar(&o.reuse, "reuse", false, "read the results of the last run instead of running gremlins")
	flag.BoolVar(&o.recheck, "recheck", false, "test the mutants the last run left alive against the tests as they are now, and write the result back")
	flag.BoolVar(&o.notCovered, "not-covered", false, "with -recheck, also test the mutants the last run found no test reaching, when tests now reach them")
	flag.BoolVar(&o.timedOut, "timed-out", false, "with -recheck, also test again the mutants the last run timed out (a timeout set from a cached or idle coverage run on a busy machine is no detection)")
	flag.StringVar(&o.rev, "rev", "", "with -recheck, the commit the last run was made on, for a result without its run record (runs made before mutants wrote one)")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ok, err := run(ctx, o, flag.Args(), os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

type options struct {
	gremlins, equivalents, out, base, rev string
	workers, coefficient                  int
	reuse, recheck, notCovered, timedOut  bool
}

// run mutates each package of specs in turn and reports; ok is false when a survivor is not
// listed as equivalent.
func run(ctx context.Context, o options, specs []string, w io.Writer) (ok bool, err error) {
	if len(specs) == 0 {
		return false, errors.New("no package given")
	}
	if o.recheck && (o.reuse || o.base != "") {
		return false, errors.New("-recheck rechecks the whole last run of each package: not with -reuse or -base")
	}
	eq, err := readEquivalents(o.equivalents)
	if err != nil {
		return false, err
	}
	var since *sinceBase
	var changed map[string]bool
	if o.base != "" {
		if since, err = changedFiles(o.base); err != nil {
			return false, err
		}
		changed = since.files
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return false, err
	}
	ok = true
	var total score
	for _, spec := range specs {
		dir, files, err := packageFiles(spec, changed)
		if err != nil {
			return false, err
		}
		if len(files) == 0 {
			fmt.Fprintf(w, "%-22s no source file changed since %s\n", dir, o.base)
			continue
		}
		result := filepath.Join(o.out, strings.ReplaceAll(dir, "/", "_")+".json")
		switch {
		case o.recheck:
			if err := recheck(ctx, o, spec, dir, result, nil, os.Stderr); err != nil {
				return false, fmt.Errorf("recheck of %s: %w", spec, err)
			}
		case o.reuse:
		case since != nil && hasRun(result, o.rev):
			if err := recheck(ctx, o, spec, dir, result, since, os.Stderr); err != nil {
				return false, fmt.Errorf("mutants of %s changed since %.12s: %w", spec, since.rev, err)
			}
		default:
			if since != nil {
				fmt.Fprintf(os.Stderr, "mutants: no earlier run of %s (%s and its record) to keep statuses from: mutating %s in full\n", dir, result, strings.Join(files, ", "))
			}
			if err := unleash(o, dir, files, result); err != nil {
				return false, err
			}
		}
		muts, err := readResult(result, dir)
		if err != nil {
			return false, err
		}
		s, unlisted, stale, err := assess(muts, eq)
		if err != nil {
			return false, err
		}
		total.add(s)
		fmt.Fprintf(w, "%-22s %s\n", dir, s)
		for _, m := range unlisted {
			fmt.Fprintf(w, "  LIVED  %s:%d:%d %s | %s\n", m.file, m.line, m.column, m.kind, m.source)
			ok = false
		}
		for _, e := range stale {
			fmt.Fprintf(w, "  note: %s lists %s:%d:%d %s, which did not live this run\n", o.equivalents, e.file, e.line, e.column, e.kind)
		}
	}
	fmt.Fprintf(w, "%-22s %s\n", "all", total)
	if !ok {
		fmt.Fprintf(w, "mutants that lived above: kill each with a test, or list it in %s with a one-line reason why no test can\n", o.equivalents)
	}
	return ok, nil
}

// packageFiles is the package directory of spec and the source files to mutate in it, relative
// to the directory: those spec names, or all its non-test .go files; with changed set, only
// those among them that changed.
func packageFiles(spec string, changed map[string]bool) (dir string, files []string, err error) {
	dir, only, _ := strings.Cut(spec, ":")
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", nil, fmt.Errorf("package %s: %w", spec, err)
	}
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		if only != "" && !slices.Contains(strings.Split(only, ","), n) {
			continue
		}
		if changed != nil && !changed[path.Join(dir, n)] {
			continue
		}
		files = append(files, n)
	}
	return dir, files, nil
}

// sinceBase is what changed since the merge base of HEAD with a revision (make mutate-diff).
type sinceBase struct {
	rev   string          // the merge base
	files map[string]bool // the files that differ from it, by path relative to the module root
}

// changedFiles are the files that differ between the working tree (untracked files included)
// and the merge base of HEAD with base.
func changedFiles(base string) (*sinceBase, error) {
	mb, err := git("merge-base", base, "HEAD")
	if err != nil {
		return nil, err
	}
	mb = strings.TrimSpace(mb)
	diff, err := git("diff", "--name-only", "--relative", mb)
	if err != nil {
		return nil, err
	}
	untracked, err := git("ls-files", "--others", "--exclude-standard")
	if err != nil {
		return nil, err
	}
	changed := map[string]bool{}
	for _, f := range strings.Fields(diff + "\n" + untracked) {
		changed[f] = true
	}
	return &sinceBase{mb, changed}, nil
}

func git(args ...string) (string, error) {
	out, err := exec.Command("git", args...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
	}
	return string(out), nil
}

// unleash runs gremlins over the files of package dir, every other file of the directory and
// its subdirectories excluded, and writes its JSON result to result, its log beside it and the
// run's record.
func unleash(o options, dir string, files []string, result string) error {
	var paths []string
	for _, f := range files {
		paths = append(paths, path.Join(dir, f))
	}
	rec, err := newRunRecord(paths)
	if err != nil {
		return err
	}
	if err := runGremlins(o, dir, files, result, false); err != nil {
		return err
	}
	return writeJSON(recordName(result), rec)
}

// runGremlins runs gremlins over the files of package dir, as unleash says; with dryRun it
// only lists their mutants, each RUNNABLE or NOT COVERED by its coverage run, and tests none.
func runGremlins(o options, dir string, files []string, result string, dryRun bool) error {
	args := []string{"unleash", "./" + dir, "--workers", fmt.Sprint(o.workers),
		"--timeout-coefficient", fmt.Sprint(o.coefficient), "-o", result,
		"-E", "/"} // gremlins walks subdirectories too: they are packages of their own
	if dryRun {
		args = append(args, "--dry-run")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() && strings.HasSuffix(n, ".go") && !slices.Contains(files, n) {
			args = append(args, "-E", "^"+regexp.QuoteMeta(n)+"$")
		}
	}
	log, err := os.Create(strings.TrimSuffix(result, ".json") + ".log")
	if err != nil {
		return err
	}
	defer log.Close()
	fmt.Fprintf(os.Stderr, "mutants: %s %s (log %s)\n", o.gremlins, strings.Join(args, " "), log.Name())
	cmd := exec.Command(o.gremlins, args...)
	cmd.Stdout, cmd.Stderr = log, log
	// gremlins's copies of the module, under the system's temporary folder, do not see the
	// HCW19 data beside the module anyway, while its coverage run, in the module, would.
	cmd.Env = testEnv()
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("gremlins over %s: %w (see %s)", dir, err, log.Name())
	}
	return nil
}

// mutant is one mutation gremlins tried; file is relative to the module root.
type mutant struct {
	file         string
	line, column int
	kind, status string
	source       string // the line it mutates, trimmed
}

// readResult reads gremlins's JSON result for package dir, with each mutant's source line.
func readResult(name, dir string) ([]mutant, error) {
	res, err := readResultFile(name)
	if err != nil {
		return nil, err
	}
	var muts []mutant
	for _, f := range res.Files {
		file := path.Join(dir, f.Name)
		lines, err := readLines(file)
		if err != nil {
			return nil, err
		}
		for _, m := range f.Mutations {
			src := ""
			if m.Line >= 1 && m.Line <= len(lines) {
				src = strings.TrimSpace(lines[m.Line-1])
			}
			muts = append(muts, mutant{file, m.Line, m.Column, m.Type, m.Status, src})
		}
	}
	return muts, nil
}

func readLines(name string) ([]string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return strings.Split(string(b), "\n"), nil
}

// equivalent is a line of the equivalents file:
//
//	FILE:LINE:COLUMN MUTATOR | SOURCE LINE | REASON
//
// It matches a mutant of that file, mutator and column whose source line, trimmed, is SOURCE
// LINE: the line number is for the reader, so that an edit above the line does not orphan the
// entry, while an edit of the line itself does.
type equivalent struct {
	file         string
	line, column int
	kind, source string
	reason       string
}

var equivalentLine = regexp.MustCompile(`^(\S+):(\d+):(\d+) ([A-Z_]+) \| (.*?) \| (.+)$`)

// readEquivalents reads the equivalents file; blank lines and lines starting with # are
// comments. An entry without a reason is an error.
func readEquivalents(name string) ([]equivalent, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseEquivalents(f, name)
}

func parseEquivalents(r io.Reader, name string) ([]equivalent, error) {
	var eqs []equivalent
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		m := equivalentLine.FindStringSubmatch(line)
		if m == nil || strings.TrimSpace(m[6]) == "" {
			return nil, fmt.Errorf("%s line %d: want FILE:LINE:COLUMN MUTATOR | SOURCE LINE | REASON, got %q", name, n, line)
		}
		var e equivalent
		fmt.Sscan(m[2], &e.line)
		fmt.Sscan(m[3], &e.column)
		e.file, e.kind, e.source, e.reason = m[1], m[4], strings.TrimSpace(m[5]), strings.TrimSpace(m[6])
		eqs = append(eqs, e)
	}
	return eqs, sc.Err()
}

func (e equivalent) matches(m mutant) bool {
	return e.file == m.file && e.column == m.column && e.kind == m.kind && e.source == m.source
}

// score counts a package's mutants by outcome.
type score struct {
	killed, timedOut, lived, equivalent, notCovered, notViable int
}

func (s *score) add(t score) {
	s.killed += t.killed
	s.timedOut += t.timedOut
	s.lived += t.lived
	s.equivalent += t.equivalent
	s.notCovered += t.notCovered
	s.notViable += t.notViable
}

// percent is the share of covered, non-equivalent mutants detected.
func (s score) percent() float64 {
	detected := s.killed + s.timedOut
	return 100 * float64(detected) / float64(detected+s.lived-s.equivalent)
}

func (s score) String() string {
	pct := "  n/a"
	if s.killed+s.timedOut+s.lived-s.equivalent > 0 {
		pct = fmt.Sprintf("%5.1f%%", s.percent())
	}
	return fmt.Sprintf("score %s  killed %d, timed out %d, lived %d (%d equivalent), not covered %d, not viable %d",
		pct, s.killed, s.timedOut, s.lived, s.equivalent, s.notCovered, s.notViable)
}

// assess scores muts, and returns the survivors no entry of eqs matches and the entries of eqs,
// for the files muts cover, that match no survivor (killed now, or their line changed).
func assess(muts []mutant, eqs []equivalent) (s score, unlisted []mutant, stale []equivalent, err error) {
	used := make([]bool, len(eqs))
	files := map[string]bool{}
	for _, m := range muts {
		files[m.file] = true
		switch m.status {
		case "KILLED":
			s.killed++
		case "TIMED OUT":
			s.timedOut++
		case "NOT COVERED":
			s.notCovered++
		case "NOT VIABLE":
			s.notViable++
		case "LIVED":
			s.lived++
			i := slices.IndexFunc(eqs, func(e equivalent) bool { return e.matches(m) })
			if i < 0 {
				unlisted = append(unlisted, m)
				continue
			}
			used[i] = true
			s.equivalent++
		default:
			return s, nil, nil, fmt.Errorf("%s:%d:%d: gremlins status %q (a dry run?)", m.file, m.line, m.column, m.status)
		}
	}
	for i, e := range eqs {
		if files[e.file] && !used[i] {
			stale = append(stale, e)
		}
	}
	return s, unlisted, stale, nil
}
