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
// which hold only while those files are as they were.
type runRecord struct {
	Rev    string            `json:"rev"`
	SHA256 map[string]string `json:"sha256"` // by path relative to the module root
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

// resultPaths are the paths, relative to the module root, of the files of res, in package dir.
func resultPaths(res *result, dir string) []string {
	var paths []string
	for _, f := range res.Files {
		paths = append(paths, path.Join(dir, f.Name))
	}
	return paths
}

// rerunChanged mutates again, with gremlins, the files of package dir that changed (paths
// relative to the module root) and splices their new mutants into res in place of the old:
// line and column of a changed file's mutants no longer point at their operators, so only a
// new run of those files can say which lived. rec takes the files' new hashes.
func rerunChanged(o options, dir string, changed []string, res *result, rec *runRecord, resultName string, log io.Writer) (names []string, err error) {
	for _, f := range changed {
		names = append(names, path.Base(f))
	}
	fmt.Fprintf(log, "mutants: %s changed since the run of %s: mutating them again\n", strings.Join(changed, ", "), resultName)
	part := strings.TrimSuffix(resultName, ".json") + ".changed.json"
	if err := unleash(o, dir, names, part); err != nil {
		return nil, err
	}
	fresh, err := readResultFile(part)
	if errors.Is(err, os.ErrNotExist) {
		fresh = &result{} // gremlins writes no result when the files hold no mutant
	} else if err != nil {
		return nil, err
	}
	partRec, _, err := recordOf(part, "", nil)
	if err != nil {
		return nil, err
	}
	splice(res, fresh, names)
	for _, f := range changed {
		if h, ok := partRec.SHA256[f]; ok {
			rec.SHA256[f] = h
		} else {
			delete(rec.SHA256, f) // gone
		}
	}
	// The part's log stays beside the result; its result and record are now in them.
	for _, f := range []string{part, recordName(part)} {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	return names, nil
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
// killed, as tests are never weakened. A file that differs from the run's, or was added since,
// is mutated again with gremlins (its mutants' lines and columns would no longer point at their
// operators); without the gremlins binary the recheck refuses.
func recheck(ctx context.Context, o options, spec, dir, resultName string, log io.Writer) error {
	res, err := readResultFile(resultName)
	if err != nil {
		return err
	}
	files := resultPaths(res, dir)
	// The package's files now and those of the run (gremlins's result names only files with
	// a mutant; the record names every file the run mutated).
	_, now, err := packageFiles(spec, nil)
	if err != nil {
		return err
	}
	candidates := slices.Clone(files)
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
	var rerun []string // names of the files mutated again, whose statuses are today's
	if len(stale) > 0 {
		if _, err := os.Stat(o.gremlins); o.gremlins == "" || err != nil {
			return fmt.Errorf("%s changed since the run of %s (made on %.12s): its mutants' positions no longer hold; rerun make mutate MUTATE_PKGS=%s",
				strings.Join(stale, ", "), resultName, rec.Rev, spec)
		}
		if rerun, err = rerunChanged(o, dir, stale, res, &rec, resultName, log); err != nil {
			return err
		}
		writeRecord = true // the record now holds the new files' hashes
		files = resultPaths(res, dir)
	}
	st := res.statuses()
	todo := st["LIVED"] > 0 || o.notCovered || o.timedOut && st["TIMED OUT"] > 0
	if !todo && len(rerun) == 0 {
		fmt.Fprintf(log, "mutants: no mutant of %s lived\n", dir)
		return nil
	}
	if todo {
		if err := retest(ctx, o, dir, res, files, rerun, log); err != nil {
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
	if writeRecord { // made from -rev, or holding the files mutated again
		return writeJSON(recordName(resultName), rec)
	}
	return nil
}

// retest tests again against today's tests the mutants of res that survivors picks, outside
// the files rerun (just mutated by gremlins), and sets their statuses.
func retest(ctx context.Context, o options, dir string, res *result, files, rerun []string, log io.Writer) error {
	start := time.Now()
	base, blocks, err := baseline(ctx, dir, res.GoModule)
	if err != nil {
		return err
	}
	timeout := time.Duration(o.coefficient) * base
	todo, err := survivors(res, files, blocks, o, rerun)
	if err != nil {
		return err
	}
	fmt.Fprintf(log, "mutants: rechecking %d mutants of %s (unmutated tests %s, timeout %s each)\n", len(todo), dir, base.Round(time.Millisecond), timeout.Round(time.Millisecond))
	statuses, err := testAll(ctx, todo, dir, timeout, max(o.workers, 1), log)
	if err != nil {
		return err
	}
	counts := map[string]int{}
	for i, s := range todo {
		s.m.Status = statuses[i]
		counts[statuses[i]]++
	}
	fmt.Fprintf(log, "mutants: rechecked %d mutants of %s in %s: %d killed, %d lived, %d timed out, %d not viable\n",
		len(todo), dir, time.Since(start).Round(time.Second), counts["KILLED"], counts["LIVED"], counts["TIMED OUT"], counts["NOT VIABLE"])
	return nil
}

// survivor is a mutant to recheck, with the source of its file mutated.
type survivor struct {
	m    *resultMutation
	file string
	src  []byte
}

// survivors are the LIVED mutants of res, with o.timedOut the TIMED OUT ones, and with
// o.notCovered the NOT COVERED ones blocks now cover, outside the files named in skip; files
// are the paths of res's files.
func survivors(res *result, files []string, blocks map[string][]block, o options, skip []string) ([]survivor, error) {
	var todo []survivor
	for i := range res.Files {
		if slices.Contains(skip, res.Files[i].Name) {
			continue
		}
		file := files[i]
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		for j := range res.Files[i].Mutations {
			m := &res.Files[i].Mutations[j]
			if m.Status == "LIVED" || o.timedOut && m.Status == "TIMED OUT" ||
				o.notCovered && m.Status == "NOT COVERED" && covered(blocks[file], m.Line, m.Column) {
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
