package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep"
	"github.com/hcreplay/hcreplay/sweep/slurm"
)

// The tests of sweep --slurm against a real Slurm run only with TEST_SLURM=1, which make
// test-slurm sets after starting a one-node Slurm (scripts/slurm-local.sh). (Not HCREPLAY_SLURM:
// that is --slurm's variable.)
func needSlurm(t *testing.T) {
	t.Helper()
	if os.Getenv("TEST_SLURM") != "1" {
		t.Skip("needs a running Slurm: make test-slurm (as root) starts a one-node one with scripts/slurm-local.sh and sets TEST_SLURM=1")
	}
	if _, err := exec.LookPath("sbatch"); err != nil {
		t.Fatal("TEST_SLURM=1 but no sbatch on PATH")
	}
}

// buildHcreplay builds the hcreplay binary the Slurm jobs run (the test binary is no hcreplay).
func buildHcreplay(t *testing.T) string {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "hcreplay")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return exe
}

// hc runs the built hcreplay and returns its exit code, stdout and stderr.
func hc(t *testing.T, exe string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command(exe, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

func mustHC(t *testing.T, exe string, args ...string) string {
	t.Helper()
	code, out, errb := hc(t, exe, args...)
	if code != 0 {
		t.Fatalf("hcreplay %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errb)
	}
	return out
}

// cancelAtEnd cancels every job of the sweep in dir when the test ends, so that none outlives
// its temporary folder.
func cancelAtEnd(t *testing.T, dir string) {
	t.Cleanup(func() {
		st, err := slurm.ReadState(dir)
		if err != nil {
			return
		}
		for _, sub := range st.Submissions {
			for _, id := range []string{sub.Array, sub.Merge} {
				if id != "" {
					exec.Command("scancel", id).Run()
				}
			}
		}
	})
}

// waitFor polls cond every half second for up to three minutes; on a timeout it fails with the
// sweep's status and logs.
func waitFor(t *testing.T, exe, dir, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(3 * time.Minute); time.Now().Before(end); time.Sleep(500 * time.Millisecond) {
		if cond() {
			return
		}
	}
	_, status, _ := hc(t, exe, "sweep", "--slurm", "--status", dir)
	logs, _ := filepath.Glob(filepath.Join(dir, slurm.LogsDir, "*"))
	var text strings.Builder
	for _, l := range logs {
		b, _ := os.ReadFile(l)
		text.WriteString("== " + l + "\n" + string(b))
	}
	t.Fatalf("timed out waiting for %s\nstatus:\n%s\n%s", what, status, text.String())
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func shardComplete(dir string, i int) bool {
	m, err := sweep.ReadManifest(slurm.ShardDir(dir, i))
	return err == nil && m.Complete
}

// TestSlurmSweepMatchesLocal: a grid in three shards through a real Slurm ends with a merged
// runs.parquet equal, row for row, to a local sweep's, and a report.
func TestSlurmSweepMatchesLocal(t *testing.T) {
	needSlurm(t)
	exe := buildHcreplay(t)
	grid := sweepFixture(t, 2)
	local := filepath.Join(t.TempDir(), "local")
	mustCLI(t, "sweep", grid, "--out", local, "-q")
	dir := filepath.Join(t.TempDir(), "slurm")
	cancelAtEnd(t, dir)
	out := mustHC(t, exe, "sweep", grid, "--out", dir, "--slurm", "--slurm-shards", "3", "--slurm-opt", "time=00:10:00")
	if !regexp.MustCompile(`submitted job array \d+ \(shards 1-3\) and merge job \d+`).MatchString(out) {
		t.Errorf("sweep --slurm printed\n%s\nwant the job ids", out)
	}
	waitFor(t, exe, dir, "the merged runs.parquet", func() bool {
		return exists(filepath.Join(dir, report.RunsFile)) && exists(filepath.Join(dir, slurm.ReportDir, "index.html"))
	})
	sameRuns(t, "slurm vs local", readRuns(t, dir), readRuns(t, local))
	for i := 1; i <= 3; i++ {
		if !shardComplete(dir, i) {
			t.Errorf("shard %d's manifest does not say complete", i)
		}
	}
	status := mustHC(t, exe, "sweep", "--slurm", "--status", dir)
	if !strings.Contains(status, "shards: 3, 3 done") || !strings.Contains(status, "merge: done") {
		t.Errorf("--status after the merge:\n%s", status)
	}
}

// TestSlurmFailedShardResumes: the trace files vanish before shard 2 runs (shards 1 and 3 have
// finished), so its array task fails; --status names it and its log, the merge job waits for
// ever; with the files back, --resume reruns shard 2 alone, and the merged rows equal a local
// sweep's, shards 1 and 3 untouched.
func TestSlurmFailedShardResumes(t *testing.T) {
	needSlurm(t)
	exe := buildHcreplay(t)
	grid := sweepFixture(t, 2)
	local := filepath.Join(t.TempDir(), "local")
	mustCLI(t, "sweep", grid, "--out", local, "-q")
	dir := filepath.Join(t.TempDir(), "slurm")
	cancelAtEnd(t, dir)
	// --hold: the jobs wait until released, so that the test decides what runs when.
	mustHC(t, exe, "sweep", grid, "--out", dir, "--slurm", "--slurm-shards", "3", "--slurm-opt", "hold")
	st, err := slurm.ReadState(dir)
	if err != nil {
		t.Fatal(err)
	}
	first := st.Submissions[0]
	release := func(ids ...string) {
		t.Helper()
		for _, id := range ids {
			if out, err := exec.Command("scontrol", "release", id).CombinedOutput(); err != nil {
				t.Fatalf("scontrol release %s: %v %s", id, err, out)
			}
		}
	}
	release(first.Array+"_1", first.Array+"_3", first.Merge)
	waitFor(t, exe, dir, "shards 1 and 3", func() bool { return shardComplete(dir, 1) && shardComplete(dir, 3) })
	before := map[int]string{}
	for _, i := range []int{1, 3} {
		before[i] = manifestStamp(t, dir, i)
	}

	trials := filepath.Join(filepath.Dir(grid), "trials")
	if err := os.Rename(trials, trials+".away"); err != nil {
		t.Fatal(err)
	}
	release(first.Array + "_2")
	var status string
	waitFor(t, exe, dir, "shard 2 to fail and the merge to wait for ever", func() bool {
		status = mustHC(t, exe, "sweep", "--slurm", "--status", dir)
		return regexp.MustCompile(`shard 002  FAILED`).MatchString(status) && strings.Contains(status, "will never start")
	})
	log := slurm.ShardLog(dir, 2)
	for _, want := range []string{"shard 2 failed", log, "--resume"} {
		if !strings.Contains(status, want) {
			t.Errorf("--status does not say %q:\n%s", want, status)
		}
	}
	if b, _ := os.ReadFile(log); !strings.Contains(string(b), "trials") {
		t.Errorf("shard 2's log does not name the missing trace files:\n%s", b)
	}

	if err := os.Rename(trials+".away", trials); err != nil {
		t.Fatal(err)
	}
	out := mustHC(t, exe, "sweep", "--slurm", "--resume", "--out", dir)
	if !strings.Contains(out, "(shards 2)") {
		t.Errorf("--resume printed\n%s\nwant shard 2 alone resubmitted", out)
	}
	if st, err = slurm.ReadState(dir); err != nil {
		t.Fatal(err)
	}
	again := st.Submissions[len(st.Submissions)-1]
	if !slices.Equal(again.Shards, []int{2}) {
		t.Fatalf("--resume submitted shards %v, want [2]", again.Shards)
	}
	if q := slurm.Queue(context.Background(), []string{first.Merge}); slurm.Active(q[first.Merge].State) {
		t.Errorf("the first merge job %s is still %s after --resume", first.Merge, q[first.Merge].State)
	}
	release(again.Array, again.Merge)
	waitFor(t, exe, dir, "the merged runs.parquet", func() bool { return exists(filepath.Join(dir, report.RunsFile)) })
	sameRuns(t, "slurm after --resume vs local", readRuns(t, dir), readRuns(t, local))
	for _, i := range []int{1, 3} {
		if now := manifestStamp(t, dir, i); now != before[i] {
			t.Errorf("shard %d was rerun by --resume: its manifest was %s, now %s", i, before[i], now)
		}
		if b, _ := os.ReadFile(slurm.ShardLog(dir, i)); strings.Count(string(b), "hcreplay: shard ") != 1 {
			t.Errorf("shard %d's log shows %d starts, want 1:\n%s", i, strings.Count(string(b), "hcreplay: shard "), b)
		}
	}
}

// manifestStamp is a shard manifest's modification time and content.
func manifestStamp(t *testing.T, dir string, i int) string {
	t.Helper()
	path := filepath.Join(slurm.ShardDir(dir, i), sweep.ManifestFile)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.ModTime().Format(time.RFC3339Nano) + " " + string(b)
}

// fakeSbatch puts an sbatch on PATH that records that it ran, and returns the record's path.
func fakeSbatch(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	record := filepath.Join(bin, "called")
	writeFile(t, filepath.Join(bin, "sbatch"), "#!/bin/sh\necho \"$@\" >> "+record+"\necho 99\n")
	if err := os.Chmod(filepath.Join(bin, "sbatch"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return record
}

// TestSlurmDryRun parses --dry-run's scripts: every #SBATCH line the layout needs and every
// --slurm-opt, the array over the shards, the shard and merge commands; nothing is submitted
// (a fake sbatch records any call) or written. Needs no Slurm.
func TestSlurmDryRun(t *testing.T) {
	record := fakeSbatch(t)
	grid := sweepFixture(t, 2)
	dir := filepath.Join(t.TempDir(), "slurm")
	opts := []string{"partition=short", "account=proj-7", "time=01:30:00", "mem=4G", "cpus-per-task=4"}
	args := []string{"sweep", grid, "--out", dir, "--slurm", "--slurm-shards", "4", "--dry-run", "--slurm-exe", "/bin/true"}
	for _, o := range opts {
		args = append(args, "--slurm-opt", o)
	}
	code, out, errb := cli(t, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errb)
	}
	if exists(record) {
		t.Error("--dry-run called sbatch")
	}
	if exists(dir) {
		t.Errorf("--dry-run created %s", dir)
	}
	scripts := map[string][]string{} // script name → its #SBATCH options
	var name string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "# /") {
			name = filepath.Base(strings.Fields(line)[1])
		}
		if o, ok := strings.CutPrefix(line, "#SBATCH "); ok {
			scripts[name] = append(scripts[name], o)
		}
	}
	wantBoth := []string{"--open-mode=append"}
	for _, o := range opts {
		wantBoth = append(wantBoth, "--"+o)
	}
	want := map[string][]string{
		slurm.ArrayFile: append([]string{"--job-name=hcreplay-shards", "--array=1-4", "--output=" + filepath.Join(dir, "logs", "shard-%3a.log")}, wantBoth...),
		slurm.MergeFile: append([]string{"--job-name=hcreplay-merge", "--output=" + filepath.Join(dir, "logs", "merge.log")}, wantBoth...),
	}
	for file, w := range want {
		got := scripts[file]
		slices.Sort(got)
		slices.Sort(w)
		if !slices.Equal(got, w) {
			t.Errorf("%s: #SBATCH lines\n%q\nwant\n%q", file, got, w)
		}
	}
	for _, want := range []string{
		`exec /bin/true sweep ` + filepath.Join(dir, "grid.yaml") + ` --out ` + filepath.Join(dir, "shards") + `/"$shard" --shard "$i"/4 --resume --jobs "${SLURM_CPUS_PER_TASK:-1}"`,
		"/bin/true sweep --slurm-merge " + dir,
		"sbatch --parsable --dependency=afterok:ARRAY_JOB_ID " + filepath.Join(dir, slurm.MergeFile),
		`"pet": "` + filepath.Join(filepath.Dir(grid), "pet.json") + `"`, // the copy's paths are absolute
	} {
		if !strings.Contains(out, want) {
			t.Errorf("--dry-run output lacks %s:\n%s", want, out)
		}
	}
}

// TestSlurmWithoutSbatch: without sbatch on PATH, --slurm exits 2, says Slurm was not found and
// how to use --dry-run, and writes nothing into --out.
func TestSlurmWithoutSbatch(t *testing.T) {
	grid := sweepFixture(t, 2)
	t.Setenv("PATH", t.TempDir())
	dir := filepath.Join(t.TempDir(), "slurm")
	code, _, errb := cli(t, "sweep", grid, "--out", dir, "--slurm", "--slurm-exe", "/bin/true")
	if code != 2 {
		t.Errorf("exit %d, want 2\n%s", code, errb)
	}
	for _, want := range []string{"Slurm was not found", "--dry-run"} {
		if !strings.Contains(errb, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errb)
		}
	}
	if exists(dir) {
		t.Errorf("%s was created", dir)
	}
}
