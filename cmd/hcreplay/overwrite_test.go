package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestOverwriteRefused (issue 46 item 9, issue 49): every command that writes results refuses a
// file or a folder that holds earlier results, with exit 2, the flag and --force in the message
// and the earlier results untouched; with --force it replaces them, so that old and new never
// mix (trace gen with fewer trials leaves no trial of the earlier set behind).
func TestOverwriteRefused(t *testing.T) {
	isolateEnv(t)
	dir := t.TempDir()
	pet := filepath.Join(dir, "pet.json")
	mustCLI(t, "pet", "synth", "--out", pet, "--types", "2", "--machines", "2", "--samples", "100", "--step", "20")
	trials := filepath.Join(dir, "trials")
	gen := []string{"trace", "gen", "--pet", pet, "--out", trials, "--tasks", "60", "--level", "2k", "--format", "csv", "-q"}
	mustCLI(t, append(gen, "--trials", "3")...)
	tinyPET, tinyTrace := writeTiny(t, 40)
	replayOut := filepath.Join(dir, "run")
	replay := []string{"replay", "--pet", tinyPET, "--trace", tinyTrace, "-H", "MM", "--trim", "5", "--out", replayOut}
	mustCLI(t, replay...)
	runs := filepath.Join(dir, "runs")
	writeRuns(t, runs, sweepRows())
	reportOut := filepath.Join(dir, "report")
	report := []string{"report", runs, "--out", reportOut, "--formats", "svg", "--tables", "md"}
	mustCLI(t, report...)
	logCSV := filepath.Join(dir, "log.csv")
	writeFile(t, logCSV, "task_type,machine_type,exec_time\na,m,3\na,m,5\nb,m,4\nb,m,6\n")
	build := []string{"pet", "build", logCSV, "--out", filepath.Join(dir, "built.json"), "--min-samples", "1"}
	mustCLI(t, build...)
	e2c := filepath.Join(dir, "workload.csv")
	writeFile(t, e2c, "task_type,arrival_time,deadline,ext_m-1\nt1,0,10,2\nt1,1,12,3\nt2,2,15,4\n")
	imp := []string{"trace", "import", "--from", "e2c", e2c, "--out", filepath.Join(dir, "imported")}
	mustCLI(t, imp...)
	spec := []string{"speculate", "--rate", "0.5", "--horizon", "20", "--machines", "20", "-s", "SDA", "--out", filepath.Join(dir, "spec")}
	mustCLI(t, spec...)

	for _, c := range []struct {
		name string
		args []string
		path string // an earlier result that must survive the refusal
		flag string
	}{
		{"trace gen folder", gen, filepath.Join(trials, "arr2k_3.csv"), "--out"},
		{"replay --out", replay, filepath.Join(replayOut, "summary.json"), "--out"},
		{"report --out", report, filepath.Join(reportOut, "index.html"), "--out"},
		{"pet build --out", build, filepath.Join(dir, "built.json"), "--out"},
		{"pet synth --out", []string{"pet", "synth", "--out", pet, "--types", "2", "--machines", "2", "--samples", "100"}, pet, "--out"},
		{"pet convert", []string{"pet", "convert", pet, filepath.Join(dir, "built.json")}, filepath.Join(dir, "built.json"), "OUT"},
		{"trace import", imp, filepath.Join(dir, "imported", "trace.csv"), "--out"},
		{"trace convert", []string{"trace", "convert", tinyTrace, filepath.Join(dir, "imported", "trace.csv")}, filepath.Join(dir, "imported", "trace.csv"), "OUT"},
		{"speculate --out", spec, filepath.Join(dir, "spec", "summaries.json"), "--out"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before, err := os.ReadFile(c.path)
			if err != nil {
				t.Fatal(err)
			}
			code, _, stderr := cli(t, c.args...)
			if code != exitUsage || !strings.Contains(stderr, c.flag) || !strings.Contains(stderr, "--force") {
				t.Errorf("exit %d, want %d and a message naming %s and --force:\n%s", code, exitUsage, c.flag, stderr)
			}
			if after, err := os.ReadFile(c.path); err != nil || string(after) != string(before) {
				t.Errorf("%s changed by the refused command (%v)", c.path, err)
			}
			if code, _, stderr := cli(t, append(c.args, "--force")...); code != 0 {
				t.Errorf("--force: exit %d:\n%s", code, stderr)
			}
		})
	}
	// trace gen --force with fewer trials: the folder holds the new set only.
	mustCLI(t, append(gen, "--trials", "2", "--force")...)
	if names := dirNames(t, trials); !slices.Equal(names, []string{"arr2k_1.csv", "arr2k_2.csv"}) {
		t.Errorf("trials after --force with 2 trials: %q", names)
	}
	// Files beside the trials that are not trials (a PET, a log) are not an earlier set: kept by
	// --force, and no reason to refuse.
	writeFile(t, filepath.Join(trials, "pet.parquet"), "not a trace")
	writeFile(t, filepath.Join(trials, "log.csv"), "task_type,machine_type,exec_time\n")
	mustCLI(t, append(gen, "--trials", "1", "--force")...)
	for _, keep := range []string{"pet.parquet", "log.csv"} {
		if _, err := os.Stat(filepath.Join(trials, keep)); err != nil {
			t.Errorf("trace gen --force removed %s: %v", keep, err)
		}
	}
	if _, err := os.Stat(filepath.Join(trials, "arr2k_2.csv")); err == nil {
		t.Error("trace gen --force with 1 trial left arr2k_2.csv of the earlier set")
	}
	// trials named by a load (load1.5_1.dat) are an earlier set too.
	loads := filepath.Join(dir, "loads")
	byLoad := []string{"trace", "gen", "--pet", pet, "--out", loads, "--tasks", "60", "--load", "1.5", "--trials", "2", "-q"}
	mustCLI(t, byLoad...)
	if code, _, stderr := cli(t, byLoad...); code != exitUsage || !strings.Contains(stderr, "load1.5_1.dat") {
		t.Errorf("trace gen --load into its own earlier set: exit %d:\n%s", code, stderr)
	}
	// A new folder, or one without trials (a PET in it), needs no --force.
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(empty, "pet.parquet"), "not a trace")
	mustCLI(t, "trace", "gen", "--pet", pet, "--out", empty, "--tasks", "60", "--trials", "1", "-q")
	mustCLI(t, "trace", "gen", "--pet", pet, "--out", filepath.Join(dir, "new"), "--tasks", "60", "--trials", "1", "-q")
}

// TestStaleTempFilesRemoved (issue 49 item 12): the temporary files a killed replay left in its
// --out, in the folder and in its run subfolders, are removed by the next run into it, which says
// so; a file of another name is left alone.
func TestStaleTempFilesRemoved(t *testing.T) {
	isolateEnv(t)
	pet, tr := writeTiny(t, 40)
	out := filepath.Join(t.TempDir(), "run")
	stale := []string{filepath.Join(out, ".tasks.parquet.tmp-123"), filepath.Join(out, "MM-P", ".tasks.csv.tmp-9")}
	for _, f := range stale {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, f, "half a file")
	}
	mine := filepath.Join(out, "notes.txt")
	writeFile(t, mine, "mine")
	code, _, stderr := cli(t, "replay", "--pet", pet, "--trace", tr, "-H", "MM", "--prune", "none,both", "--trim", "5", "--out", out)
	if code != 0 || !strings.Contains(stderr, "removed 2 temporary files") {
		t.Errorf("exit %d, want 0 and a note of the 2 files removed:\n%s", code, stderr)
	}
	for _, f := range stale {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s is still there", f)
		}
	}
	if _, err := os.Stat(mine); err != nil {
		t.Errorf("notes.txt: %v", err)
	}
}

// TestReportForceLeavesNoEarlierCalibration: report --out --force replaces an earlier report,
// all of it: the calibration table (calibration.csv) of runs that carried predicted chances is
// gone once the report of runs that carry none is written over it, and so is every other file
// of the earlier report (each dated 2001 before the second report: none may be left so dated).
func TestReportForceLeavesNoEarlierCalibration(t *testing.T) {
	isolateEnv(t)
	dir := t.TempDir()
	calibrated := sweepRows()
	bins := "[[0,0,0],[0,0,0],[0,0,0],[10,4,3.5],[0,0,0],[0,0,0],[0,0,0],[0,0,0],[0,0,0],[0,0,0]]"
	for i := range calibrated {
		calibrated[i].Reliability = bins
	}
	out := filepath.Join(dir, "report")
	mustCLI(t, "report", writeRuns(t, filepath.Join(dir, "calibrated"), calibrated), "--out", out, "--formats", "svg", "--tables", "md")
	if _, err := os.Stat(filepath.Join(out, "calibration.csv")); err != nil {
		t.Fatalf("the first report wrote no calibration table: %v", err)
	}
	old := time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, name := range dirNames(t, out) {
		if err := os.Chtimes(filepath.Join(out, name), old, old); err != nil {
			t.Fatal(err)
		}
	}
	mustCLI(t, "report", writeRuns(t, filepath.Join(dir, "plain"), sweepRows()), "--out", out, "--formats", "svg", "--tables", "md", "--force")
	if _, err := os.Stat(filepath.Join(out, "calibration.csv")); err == nil {
		t.Error("report --force left the earlier report's calibration.csv beside the new report")
	}
	for _, name := range dirNames(t, out) {
		if st, err := os.Stat(filepath.Join(out, name)); err != nil || st.ModTime().Equal(old) {
			t.Errorf("report --force left the earlier report's %s (%v)", name, err)
		}
	}
}
