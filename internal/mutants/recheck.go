package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
)

// result is gremlins v0.6.0's JSON result (internal/report/internal/structure.go), and the note
// a recheck adds to it.
type result struct {
	GoModule          string         `json:"go_module"`
	Files             []resultFile   `json:"files"`
	TestEfficacy      float64        `json:"test_efficacy"`
	MutationsCoverage float64        `json:"mutations_coverage"`
	MutantsTotal      int            `json:"mutants_total"`
	MutantsKilled     int            `json:"mutants_killed"`
	MutantsLived      int            `json:"mutants_lived"`
	MutantsNotViable  int            `json:"mutants_not_viable"`
	MutantsNotCovered int            `json:"mutants_not_covered"`
	ElapsedTime       float64        `json:"elapsed_time"`
	MutatorStatistics map[string]int `json:"mutator_statistics"`
	Recheck           *recheckNote   `json:"recheck,omitempty"`
}

type resultFile struct {
	Name      string           `json:"file_name"` // relative to the package directory
	Mutations []resultMutation `json:"mutations"`
}

type resultMutation struct {
	Type   string `json:"type"`
	Status string `json:"status"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
}

// recheckNote says on which commit the tests last rechecked a result's survivors, and whether
// the working tree then differed from it.
type recheckNote struct {
	Rev         string `json:"rev"`
	Uncommitted bool   `json:"uncommitted"`
}

func readResultFile(name string) (*result, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var res result
	if err := json.Unmarshal(b, &res); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &res, nil
}

// statuses counts res's mutants by status.
func (res *result) statuses() map[string]int {
	n := map[string]int{}
	for _, f := range res.Files {
		for _, m := range f.Mutations {
			n[m.Status]++
		}
	}
	return n
}

// summarise sets res's totals from its mutants' statuses with gremlins's formulas
// (internal/report/report.go): timed-out mutants count in none of them.
func (res *result) summarise() {
	n := res.statuses()
	killed, lived, notViable, notCovered := n["KILLED"], n["LIVED"], n["NOT VIABLE"], n["NOT COVERED"]
	res.MutantsKilled, res.MutantsLived, res.MutantsNotViable, res.MutantsNotCovered = killed, lived, notViable, notCovered
	res.MutantsTotal = lived + killed + notViable
	res.TestEfficacy, res.MutationsCoverage = 0, 0
	if killed > 0 {
		res.TestEfficacy = float64(killed) / float64(killed+lived) * 100
	}
	if killed+lived > 0 {
		res.MutationsCoverage = float64(killed+lived) / float64(killed+lived+notCovered) * 100
	}
}

// runRecord is kept beside a gremlins result: the commit the run was made on and the SHA-256
// of each file it mutated when it started. A recheck finds its mutants by line and column,
// which hold only while those files are as they were; for a file changed since, it carries
// their statuses over by a line diff against the file as the run saw it.
type runRecord struct {
	Rev    string            `json:"rev"`
	SHA256 map[string]string `json:"sha256"` // by path relative to the module root
	// Sources holds the files a recheck or make mutate-diff brought up to date since the
	// run, as they were then: the next change of such a file is diffed against this copy,
	// which the run's commit does not hold.
	Sources map[string]string `json:"sources,omitempty"`
}

// recordName is the name of the run record of result.
func recordName(result string) string {
	return strings.TrimSuffix(result, ".json") + ".run.json"
}

// newRunRecord records HEAD and the hashes of files (relative to the module root) as they are.
func newRunRecord(files []string) (runRecord, error) {
	rev, err := git("rev-parse", "HEAD")
	if err != nil {
		return runRecord{}, err
	}
	rec := runRecord{Rev: strings.TrimSpace(rev), SHA256: map[string]string{}}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return runRecord{}, err
		}
		rec.SHA256[f] = digest(b)
	}
	return rec, nil
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// recordOf is the run record of result, whose mutants are in files: the one the run wrote, or,
// for a run made before mutants wrote them, one made from those files at commit rev.
func recordOf(result, rev string, files []string) (rec runRecord, fromRev bool, err error) {
	b, err := os.ReadFile(recordName(result))
	if err == nil {
		if err := json.Unmarshal(b, &rec); err != nil {
			return rec, false, fmt.Errorf("%s: %w", recordName(result), err)
		}
		return rec, false, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return rec, false, err
	}
	if rev == "" {
		return rec, false, fmt.Errorf("%s has no record of the commit its run was made on (no %s): give that commit with -rev REV", result, recordName(result))
	}
	full, err := git("rev-parse", "--verify", rev+"^{commit}")
	if err != nil {
		return rec, false, err
	}
	rec = runRecord{Rev: strings.TrimSpace(full), SHA256: map[string]string{}}
	for _, f := range files {
		// ./ makes the path relative to the working directory, the module root, not the
		// repository's.
		if _, err := git("cat-file", "-e", rec.Rev+":./"+f); err != nil {
			continue // added since rev: no entry, so changed
		}
		src, err := git("show", rec.Rev+":./"+f)
		if err != nil {
			return rec, false, err
		}
		rec.SHA256[f] = digest([]byte(src))
	}
	return rec, true, nil
}

// changedSince are those of files whose content differs from rec's, which were added since
// the run (absent at its commit), or which are gone; uncovered are those rec does not name
// that were there at the run's commit: a run over some of a package's files (make mutate
// MUTATE_PKGS=DIR:FILE,…) did not mutate them, so it has no mutant of theirs to keep or
// recheck.
func changedSince(rec runRecord, files []string) (changed, uncovered []string, err error) {
	for _, f := range files {
		h, known := rec.SHA256[f]
		if !known {
			if _, err := git("cat-file", "-e", rec.Rev+":./"+f); err == nil {
				uncovered = append(uncovered, f)
				continue
			}
		}
		b, err := os.ReadFile(f)
		if errors.Is(err, os.ErrNotExist) {
			changed = append(changed, f)
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		if digest(b) != h {
			changed = append(changed, f)
		}
	}
	return changed, uncovered, nil
}

// hasRun tells whether result holds a run to carry statuses over from: the result and its run
// record, or the run's commit given as rev.
func hasRun(result, rev string) bool {
	if _, err := os.Stat(result); err != nil {
		return false
	}
	_, err := os.Stat(recordName(result))
	return err == nil || rev != ""
}

// runSource is file f as the run, or the recheck that last brought it up to date, saw it: the
// copy rec holds, or f at rec's commit. ok is false when neither has the content rec's hash
// names (a run made on uncommitted changes, or a file added since): none of the file's
// mutants can then keep its status.
func runSource(rec runRecord, f string) (src []byte, ok bool) {
	want, known := rec.SHA256[f]
	if !known {
		return nil, false
	}
	if s, has := rec.Sources[f]; has && digest([]byte(s)) == want {
		return []byte(s), true
	}
	s, err := git("show", rec.Rev+":./"+f)
	if err == nil && digest([]byte(s)) == want {
		return []byte(s), true
	}
	return nil, false
}

// resultPaths are the paths, relative to the module root, of the files of res, in package dir.
func resultPaths(res *result, dir string) []string {
	var paths []string
	for _, f := range res.Files {
		paths = append(paths, path.Join(dir, f.Name))
	}
	return paths
}

// tally counts what refresh did with a file's mutants.
type tally struct {
	tested, kept, notCovered int // to test, status kept from the run, new and reached by no test
}

// refresh brings the mutants of the files paths (relative to the module root) of package dir
// in res up to the files as they are now, testing none. gremlins lists each file's mutants (its
// dry run: RUNNABLE, or NOT COVERED when its coverage run reaches none); a mutant on a line the
// file had at the run, which retest does not name, takes the status the run gave it there
// (same mutator and column, its line moved by the line diff); the others stay RUNNABLE, for the
// tests, or NOT COVERED. The mutants of deleted lines, and of files gone, drop out. rec takes
// the files' hashes and sources as they are now.
func refresh(o options, dir string, paths []string, retest map[string]map[int]bool, res *result, rec *runRecord, resultName string) (n tally, err error) {
	var names, present []string
	now := map[string][]byte{}
	for _, p := range paths {
		names = append(names, path.Base(p))
		b, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			continue // gone
		}
		if err != nil {
			return n, err
		}
		present = append(present, path.Base(p))
		now[p] = b
	}
	fresh := &result{}
	if len(present) > 0 {
		part := strings.TrimSuffix(resultName, ".json") + ".changed.json"
		if err := runGremlins(o, dir, present, part, true); err != nil {
			return n, err
		}
		fresh, err = readResultFile(part)
		if errors.Is(err, os.ErrNotExist) {
			fresh = &result{} // gremlins writes no result when the files hold no mutant
		} else if err != nil {
			return n, err
		}
		// The part's log stays beside the result; its mutants are now in it.
		if err := os.Remove(part); err != nil && !errors.Is(err, os.ErrNotExist) {
			return n, err
		}
	}
	for i := range fresh.Files {
		f := &fresh.Files[i]
		p := path.Join(dir, f.Name)
		was := runStatuses(res, f.Name, *rec, p, now[p])
		for j := range f.Mutations {
			m := &f.Mutations[j]
			if s, ok := was[position{m.Line, m.Column, m.Type}]; ok && !retest[p][m.Line] {
				m.Status = s
				n.kept++
				continue
			}
			switch m.Status {
			case "RUNNABLE":
				n.tested++
			case "NOT COVERED":
				n.notCovered++
			default:
				return n, fmt.Errorf("%s:%d:%d: gremlins's dry run gives status %q", p, m.Line, m.Column, m.Status)
			}
		}
	}
	splice(res, fresh, names)
	if rec.Sources == nil {
		rec.Sources = map[string]string{}
	}
	for _, p := range paths {
		if b, ok := now[p]; ok {
			rec.SHA256[p], rec.Sources[p] = digest(b), string(b)
		} else {
			delete(rec.SHA256, p)
			delete(rec.Sources, p)
		}
	}
	return n, nil
}

// position is where a mutant is, and its mutator.
type position struct {
	line, column int
	kind         string
}

// runStatuses are the statuses res gives the mutants of file name (at path p), by their
// position in src, the file now: those on a line the file had at the run, moved with it.
func runStatuses(res *result, name string, rec runRecord, p string, src []byte) map[position]string {
	was := map[position]string{}
	old, ok := runSource(rec, p)
	if !ok {
		return was
	}
	at := lineMap(splitLines(old), splitLines(src))
	for _, f := range res.Files {
		if f.Name != name {
			continue
		}
		for _, m := range f.Mutations {
			if l, ok := at[m.Line]; ok {
				was[position{l, m.Column, m.Type}] = m.Status
			}
		}
	}
	return was
}

// splice replaces the mutants of the files names in res by those of fresh, a run over those
// files alone; a file of names that fresh found no mutant in leaves none.
func splice(res, fresh *result, names []string) {
	res.Files = slices.DeleteFunc(res.Files, func(f resultFile) bool { return slices.Contains(names, f.Name) })
	for _, f := range fresh.Files {
		if slices.Contains(names, f.Name) {
			res.Files = append(res.Files, f)
		}
	}
	slices.SortFunc(res.Files, func(a, b resultFile) int { return strings.Compare(a.Name, b.Name) })
}

// block is a stretch of source a coverage profile counts as run.
type block struct{ startLine, startCol, endLine, endCol int }

// covered tells, as gremlins v0.6.0 does (internal/coverage/profile.go), whether a block of
// blocks holds line:column.
func covered(blocks []block, line, column int) bool {
	for _, b := range blocks {
		switch {
		case line > b.startLine && line < b.endLine:
			return true
		case b.startLine == b.endLine && line == b.startLine && column >= b.startCol && column <= b.endCol:
			return true
		case b.startLine < b.endLine && line == b.startLine && column >= b.startCol:
			return true
		case b.startLine < b.endLine && line == b.endLine && column <= b.endCol:
			return true
		}
	}
	return false
}

// parseProfile reads the blocks run at least once of a `go test -coverprofile` profile, by
// file relative to the root of module mod.
func parseProfile(r io.Reader, mod string) (map[string][]block, error) {
	blocks := map[string][]block{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "mode:") {
			continue
		}
		// FILE:SL.SC,EL.EC STATEMENTS COUNT
		i := strings.LastIndex(line, ":")
		var b block
		var stmts, count int
		if i < 0 {
			return nil, fmt.Errorf("coverage profile line %q", line)
		}
		if _, err := fmt.Sscanf(line[i+1:], "%d.%d,%d.%d %d %d", &b.startLine, &b.startCol, &b.endLine, &b.endCol, &stmts, &count); err != nil {
			return nil, fmt.Errorf("coverage profile line %q: %w", line, err)
		}
		if count > 0 {
			f := strings.TrimPrefix(line[:i], mod+"/")
			blocks[f] = append(blocks[f], b)
		}
	}
	return blocks, sc.Err()
}

// testEnv is the environment of the tests of a mutant. The tests on the HCW19 data skip, as
// without the data: they take minutes per run, and would set every mutant's timeout from them.
func testEnv() []string {
	// -count=1: gremlins's coverage run sets every mutant's timeout, and a run the test cache
	// answers takes a fraction of a second (2.7 s logged for replay/heuristic, whose tests run
	// 25 s), so a mutant whose tests ran on a busy machine timed out and counted as detected.
	flags := strings.TrimSpace(os.Getenv("GOFLAGS") + " -count=1")
	return append(os.Environ(), "HCW19_DIR="+filepath.Join(os.TempDir(), "hcreplay-mutants-no-hcw19"), "GOFLAGS="+flags)
}

// baseline runs the tests of package dir on the unmutated code, as gremlins's coverage run
// does, for the time a mutant's tests may take and the code they reach.
func baseline(ctx context.Context, dir, mod string) (time.Duration, map[string][]block, error) {
	tmp, err := os.MkdirTemp("", "mutants-cover")
	if err != nil {
		return 0, nil, err
	}
	defer os.RemoveAll(tmp)
	profile := filepath.Join(tmp, "cover.out")
	cmd := exec.CommandContext(ctx, "go", "test", "-count=1", "-cover", "-coverprofile", profile, "./"+dir)
	cmd.Env = testEnv()
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		return 0, nil, fmt.Errorf("the tests of %s fail on the unmutated code: %w\n%s", dir, err, out)
	}
	elapsed := time.Since(start)
	f, err := os.Open(profile)
	if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	blocks, err := parseProfile(f, mod)
	return elapsed, blocks, err
}

// testMutant runs the tests of package dir with file replaced by src, mutated, through go
// test's overlay, and returns the mutant's status as gremlins v0.6.0 would set it
// (internal/engine/executor.go): TIMED OUT past timeout, LIVED when the tests pass, NOT VIABLE
// when they do not build, KILLED when they fail.
func testMutant(ctx context.Context, dir, file string, src []byte, timeout time.Duration, tmp string) (string, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return "", err
	}
	mutated, err := os.CreateTemp(tmp, "*.go")
	if err != nil {
		return "", err
	}
	if _, err := mutated.Write(src); err != nil {
		mutated.Close()
		return "", err
	}
	if err := mutated.Close(); err != nil {
		return "", err
	}
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {abs: mutated.Name()}})
	if err != nil {
		return "", err
	}
	ov := strings.TrimSuffix(mutated.Name(), ".go") + ".json"
	if err := os.WriteFile(ov, overlay, 0o644); err != nil {
		return "", err
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// As gremlins, a few seconds more for go test's own timeout, so that the context's ends
	// the run and names it timed out.
	cmd := exec.CommandContext(tctx, "go", "test", "-overlay", ov, "-failfast", "-count=1",
		"-timeout", (2*time.Second + timeout).String(), "./"+dir)
	cmd.Env = testEnv()
	cmd.WaitDelay = 5 * time.Second
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	if errors.Is(tctx.Err(), context.DeadlineExceeded) {
		return "TIMED OUT", nil
	}
	if err == nil {
		return "LIVED", nil
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		return "", err
	}
	// go test exits 1, not 2, when the package does not build: the output tells.
	if ee.ExitCode() == 2 || bytes.Contains(out, []byte("[build failed]")) || bytes.Contains(out, []byte("[setup failed]")) {
		return "NOT VIABLE", nil
	}
	if ee.ExitCode() == 1 {
		return "KILLED", nil
	}
	return "LIVED", nil
}

// recheck tests the mutants the last run of package dir (spec on the command line) left alive
// against the tests as they are now, and writes the result back: each LIVED mutant, and with
// o.notCovered each NOT COVERED one the tests now reach, is applied as gremlins applies it and
// gets the status gremlins would give it. Other mutants keep theirs: a killed mutant stays
// killed, as tests are never weakened. The mutants of a file that differs from the run's, or
// was added since, are listed again (refresh): those on lines changed since the run are tested,
// the others keep the run's status; without the gremlins binary the recheck refuses.
//
// With since (make mutate-diff) it tests only the mutants on lines changed since the merge
// base, in the files changed since, and those on lines changed since the run: the others keep
// the run's status, LIVED ones included.
func recheck(ctx context.Context, o options, spec, dir, resultName string, since *sinceBase, log io.Writer) error {
	res, err := readResultFile(resultName)
	if err != nil {
		return err
	}
	// The package's files now and those of the run (gremlins's result names only files with
	// a mutant; the record names every file the run mutated).
	_, now, err := packageFiles(spec, nil)
	if err != nil {
		return err
	}
	candidates := resultPaths(res, dir)
	for _, n := range now {
		if p := path.Join(dir, n); !slices.Contains(candidates, p) {
			candidates = append(candidates, p)
		}
	}
	rec, writeRecord, err := recordOf(resultName, o.rev, candidates)
	if err != nil {
		return err
	}
	for p := range rec.SHA256 {
		if !slices.Contains(candidates, p) {
			candidates = append(candidates, p)
		}
	}
	stale, uncovered, err := changedSince(rec, candidates)
	if err != nil {
		return err
	}
	if len(uncovered) > 0 {
		fmt.Fprintf(log, "mutants: %s not mutated by the run of %s: left out\n", strings.Join(uncovered, ", "), resultName)
	}
	var retestLines map[string]map[int]bool
	if since != nil {
		if stale, retestLines, err = sinceLines(since, candidates, uncovered, stale); err != nil {
			return err
		}
	}
	if len(stale) > 0 {
		if _, err := os.Stat(o.gremlins); o.gremlins == "" || err != nil {
			return fmt.Errorf("%s changed since the run of %s (made on %.12s): listing their mutants now needs the gremlins binary, or rerun make mutate MUTATE_PKGS=%s",
				strings.Join(stale, ", "), resultName, rec.Rev, spec)
		}
		n, err := refresh(o, dir, stale, retestLines, res, &rec, resultName)
		if err != nil {
			return err
		}
		writeRecord = true // the record now holds the files' new hashes
		what := "since the run"
		if since != nil {
			what = fmt.Sprintf("since %.12s or the run", since.rev)
		}
		fmt.Fprintf(log, "mutants: %s changed: %d of their mutants on lines changed %s to test, %d keep the run's status, %d new ones reached by no test\n",
			strings.Join(stale, ", "), n.tested, what, n.kept, n.notCovered)
	}
	st := res.statuses()
	todo := st["RUNNABLE"] > 0 || since == nil && (st["LIVED"] > 0 || o.notCovered || o.timedOut && st["TIMED OUT"] > 0)
	if !todo && len(stale) == 0 {
		fmt.Fprintf(log, "mutants: no mutant of %s to test\n", dir)
		return nil
	}
	if todo {
		if err := retest(ctx, o, dir, res, since != nil, log); err != nil {
			return err
		}
	}
	head, err := git("rev-parse", "HEAD")
	if err != nil {
		return err
	}
	status, err := git("status", "--porcelain", "--", dir)
	if err != nil {
		return err
	}
	res.Recheck = &recheckNote{Rev: strings.TrimSpace(head), Uncommitted: strings.TrimSpace(status) != ""}
	res.summarise()
	if err := writeJSON(resultName, res); err != nil {
		return err
	}
	if writeRecord { // made from -rev, or holding the files brought up to date
		return writeJSON(recordName(resultName), rec)
	}
	return nil
}

// sinceLines adds to stale, the files changed since the run, those of candidates changed since
// the merge base (but not those the run did not mutate), and gives for each of the latter the
// lines changed since the merge base, whose mutants are tested whatever the run found.
func sinceLines(since *sinceBase, candidates, uncovered, stale []string) ([]string, map[string]map[int]bool, error) {
	lines := map[string]map[int]bool{}
	for _, p := range candidates {
		if !since.files[p] || slices.Contains(uncovered, p) {
			continue
		}
		if !slices.Contains(stale, p) {
			stale = append(stale, p)
		}
		now, err := os.ReadFile(p)
		if errors.Is(err, os.ErrNotExist) {
			continue // gone: its mutants go
		}
		if err != nil {
			return nil, nil, err
		}
		var base []byte
		if _, err := git("cat-file", "-e", since.rev+":./"+p); err == nil { // else added since
			s, err := git("show", since.rev+":./"+p)
			if err != nil {
				return nil, nil, err
			}
			base = []byte(s)
		}
		lines[p] = changedLines(base, now)
	}
	return stale, lines, nil
}

// retest tests against today's tests the RUNNABLE mutants of res (on lines changed since the
// run), and unless onlyNew those survivors picks, and sets their statuses.
func retest(ctx context.Context, o options, dir string, res *result, onlyNew bool, log io.Writer) error {
	start := time.Now()
	base, blocks, err := baseline(ctx, dir, res.GoModule)
	if err != nil {
		return err
	}
	timeout := time.Duration(o.coefficient) * base
	todo, err := survivors(res, dir, blocks, o, onlyNew)
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "mutants: testing %d mutants of %s (unmutated tests %s, timeout %s each)\n", len(todo), dir, base.Round(time.Millisecond), timeout.Round(time.Millisecond))
	statuses, err := testAll(ctx, todo, dir, timeout, max(o.workers, 1), log)
	if err != nil {
		return err
	}
	counts := map[string]int{}
	for i, s := range todo {
		s.m.Status = statuses[i]
		counts[statuses[i]]++
	}
	fmt.Fprintf(log, "mutants: tested %d mutants of %s in %s: %d killed, %d lived, %d timed out, %d not viable\n",
		len(todo), dir, time.Since(start).Round(time.Second), counts["KILLED"], counts["LIVED"], counts["TIMED OUT"], counts["NOT VIABLE"])
	return nil
}

// survivor is a mutant to recheck, with the source of its file mutated.
type survivor struct {
	m    *resultMutation
	file string
	src  []byte
}

// survivors are the RUNNABLE mutants of res (listed since the run, untested) and, unless
// onlyNew, its LIVED ones, with o.timedOut the TIMED OUT ones, and with o.notCovered the NOT
// COVERED ones blocks now cover; res's files are in package dir.
func survivors(res *result, dir string, blocks map[string][]block, o options, onlyNew bool) ([]survivor, error) {
	var todo []survivor
	for i := range res.Files {
		file := path.Join(dir, res.Files[i].Name)
		var src []byte
		for j := range res.Files[i].Mutations {
			m := &res.Files[i].Mutations[j]
			if m.Status == "RUNNABLE" || !onlyNew && (m.Status == "LIVED" || o.timedOut && m.Status == "TIMED OUT" ||
				o.notCovered && m.Status == "NOT COVERED" && covered(blocks[file], m.Line, m.Column)) {
				if src == nil {
					var err error
					if src, err = os.ReadFile(file); err != nil {
						return nil, err
					}
				}
				mutated, err := mutate(file, src, m.Line, m.Column, m.Type)
				if err != nil {
					return nil, err
				}
				todo = append(todo, survivor{m, file, mutated})
			}
		}
	}
	return todo, nil
}

// testAll tests each of todo, workers at a time, and returns their new statuses, each logged
// as it comes.
func testAll(ctx context.Context, todo []survivor, dir string, timeout time.Duration, workers int, log io.Writer) ([]string, error) {
	tmp, err := os.MkdirTemp("", "mutants-recheck")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	statuses := make([]string, len(todo))
	errs := make([]error, len(todo))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range workers {
		wg.Go(func() {
			for i := range next {
				s := todo[i]
				statuses[i], errs[i] = testMutant(ctx, dir, s.file, s.src, timeout, tmp)
				if errs[i] != nil {
					continue
				}
				mu.Lock()
				fmt.Fprintf(log, "%12s %s at %s:%d:%d (was %s)\n", statuses[i], s.m.Type, s.file, s.m.Line, s.m.Column, s.m.Status)
				mu.Unlock()
			}
		})
	}
	for i := range todo {
		next <- i
	}
	close(next)
	wg.Wait()
	return statuses, errors.Join(errs...)
}

// writeJSON writes v to name, atomically.
func writeJSON(name string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return atomicfile.Write(name, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}
