package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// writeJobTrials writes a PET and a folder of trials for replay -j: of several sizes, some
// with two rows swapped (loaded, not streamed), two with deadlines far beyond the PET's times
// (checkUnit's once-per-spec warning, which must name the first of them in trial order), one
// too short for --trim (a warning per trial), and, when bad is set, a bad row in trial bad.
func writeJobTrials(t *testing.T, bad int) (pet, glob string) {
	t.Helper()
	sizes := []int{30, 44, 8, 36, 50, 28, 41}
	pet, glob = writeTrials(t, sizes...)
	dir := filepath.Dir(glob)
	edit := func(i int, f func(lines []string)) {
		path := filepath.Join(dir, "trial-"+strconv.Itoa(i)+".csv")
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(b), "\n")
		f(lines)
		writeFile(t, path, strings.Join(lines, "\n"))
	}
	for _, i := range []int{2, 6} {
		edit(i, func(l []string) { l[5], l[6] = l[6], l[5] })
	}
	for _, i := range []int{4, 6} {
		edit(i, func(l []string) {
			for k := 1; k < len(l); k++ {
				if f := strings.Split(l[k], ","); len(f) == 3 {
					f[2] += "e6"
					l[k] = strings.Join(f, ",")
				}
			}
		})
	}
	if bad > 0 {
		edit(bad, func(l []string) { l[9] = "1,x,4" })
	}
	return pet, glob
}

// runDirFiles reads every file under dir but timing.json (wall times), by path.
func runDirFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	if dir == "" {
		return files
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == "timing.json" {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		files[rel] = b
		return err
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return files
}

// withoutTiming cuts each --json line's timing, the wall times, which are its last key.
func withoutTiming(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if k := strings.Index(l, `,"timing":{`); k >= 0 {
			lines[i] = l[:k] + "}"
		}
	}
	return strings.Join(lines, "\n")
}

// TestReplayJobsSameOutput: replay -j 3 writes what -j 1 (one trial after another) does, byte
// for byte: stdout (the tables, or the --json lines less their wall times), stderr (log lines and
// warnings in trial order, the once-per-spec warning naming the first trial in order), the exit
// status, and every file under --out but timing.json; with a bad row in a trial, the runs
// before it and its error, as -j 1 gives them.
func TestReplayJobsSameOutput(t *testing.T) {
	for _, tc := range []struct {
		name string
		bad  int
		args []string
	}{
		{"json+out", 0, []string{"--json", "--csv"}},
		{"tables", 0, nil},
		{"bad-trial", 5, []string{"--json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pet, glob := writeJobTrials(t, tc.bad)
			type result struct {
				code           int
				stdout, stderr string
				files          map[string][]byte
			}
			replay := func(jobs string) result {
				out := filepath.Join(t.TempDir(), "runs")
				args := append([]string{"replay", "--pet", pet, "--trace", glob, "-H", "MM,PAM", "--prune", "none,both",
					"--trim", "10", "--out", out, "-j", jobs}, tc.args...)
				var stdout, stderr bytes.Buffer
				code := run(args, &stdout, &stderr)
				return result{code, withoutTiming(stdout.String()), stderr.String(), runDirFiles(t, out)}
			}
			one := replay("1")
			if want := map[bool]int{true: 2, false: 0}[tc.bad > 0]; one.code != want {
				t.Fatalf("-j 1: exit %d, want %d: %s", one.code, want, one.stderr)
			}
			if tc.bad == 0 && (!strings.Contains(one.stderr, "trial-4.csv: deadlines are a median") ||
				strings.Contains(one.stderr, "trial-6.csv: deadlines") || !strings.Contains(one.stderr, "trial-3.csv: --trim 10 leaves none")) {
				t.Fatalf("-j 1 lacks the warnings the test is about:\n%s", one.stderr)
			}
			perRun := 3 // tasks.parquet, summary.json, reliability.csv (timing.json left out)
			if strings.Contains(strings.Join(tc.args, " "), "--csv") {
				perRun++
			}
			if tc.bad == 0 && len(one.files) != 4*7*perRun {
				t.Fatalf("-j 1 wrote %d files, want 4 mappers × 7 trials × %d", len(one.files), perRun)
			}
			for range 3 { // the order the trials finish in varies from run to run
				three := replay("3")
				if three.code != one.code || three.stdout != one.stdout || three.stderr != one.stderr {
					t.Fatalf("-j 3 differs from -j 1:\nexit %d / %d\nstdout:\n%s\n---\n%s\nstderr:\n%s\n---\n%s",
						three.code, one.code, three.stdout, one.stdout, three.stderr, one.stderr)
				}
				if tc.bad > 0 {
					continue // -j 3 may have written the trials after the bad one
				}
				if len(three.files) != len(one.files) {
					t.Fatalf("-j 3 wrote %d files, -j 1 %d", len(three.files), len(one.files))
				}
				for path, b := range one.files {
					if !bytes.Equal(three.files[path], b) {
						t.Errorf("%s differs between -j 3 and -j 1", path)
					}
				}
			}
		})
	}
}

func TestReplayJobsRefusesNegative(t *testing.T) {
	pet, glob := writeTrials(t, 20, 20)
	code, _, stderr := runReal(t, "replay", "--pet", pet, "--trace", glob, "-H", "MM", "--jobs=-1")
	if code != 2 || !strings.Contains(stderr, "-j -1") {
		t.Errorf("exit %d, %s; want 2 and a message naming -j", code, stderr)
	}
}
