package main

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
	"github.com/hcreplay/hcreplay/internal/interrupt"
)

// This file holds issue 49's hostile-input tests: each command runs in a child process (this
// test binary again, TestHelperChild) under a memory limit, on inputs a generator makes here.

// stuckCLI is a grammar with one command that starts writing an output and then neither looks
// at its context nor returns: what a command blocked in a read, or one that ignores Ctrl-C, is.
type stuckCLI struct {
	Globals
	Stuck    stuckCmd    `cmd:""`
	SlowSave slowSaveCmd `cmd:""`
}

// slowSaveCmd waits for Ctrl-C, then saves its work for longer than the grace after a signal,
// as a large sweep does, and says so when done.
type slowSaveCmd struct{}

func (c *slowSaveCmd) Run(ctx context.Context, con *Console) error {
	fmt.Fprintln(con.Stderr, "started")
	<-ctx.Done()
	done := con.Saving()
	time.Sleep(interrupt.Grace + 1500*time.Millisecond)
	done()
	con.Logf("42 runs are saved; run the same command with --resume to finish")
	return ctx.Err()
}

type stuckCmd struct {
	Out string `arg:""`
}

func (c *stuckCmd) Run() error {
	if _, err := atomicfile.Create(c.Out); err != nil {
		return err
	}
	time.Sleep(time.Hour)
	return nil
}

// TestHelperChild is not a test: runChild runs the test binary again with this test selected,
// to have a command in a process of its own, under the memory limit the parent asks for.
func TestHelperChild(t *testing.T) {
	js := os.Getenv("HCREPLAY_CHILD_ARGS")
	if js == "" {
		t.Skip("helper process of the hostile-input tests")
	}
	var args []string
	if err := json.Unmarshal([]byte(js), &args); err != nil {
		t.Fatal(err)
	}
	if mb, _ := strconv.Atoi(os.Getenv("HCREPLAY_CHILD_RLIMIT_MB")); mb > 0 {
		lim := uint64(mb) << 20
		if err := syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: lim, Max: lim}); err != nil {
			t.Fatal(err)
		}
	}
	if args[0] == "stuck" || args[0] == "slow-save" {
		var g stuckCLI
		os.Exit(execute(&g, &g.Globals, args, os.Stdout, os.Stderr, nil))
	}
	os.Exit(run(args, os.Stdout, os.Stderr))
}

// child is a command started by startChild.
type child struct {
	cmd    *exec.Cmd
	stderr *lockedBuilder
}

// lockedBuilder collects a child's stderr; a test may read it while the child still writes, so
// both go through a mutex (the race detector caught a test polling a plain strings.Builder).
type lockedBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuilder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuilder) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startChild starts `hcreplay args...` in a child process with GOMEMLIMIT and an RLIMIT_DATA
// of limitMB (0: none).
func startChild(t testing.TB, limitMB int, args ...string) *child {
	t.Helper()
	js, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperChild$")
	cmd.Env = append(os.Environ(), "HCREPLAY_CHILD_ARGS="+string(js))
	if limitMB > 0 {
		cmd.Env = append(cmd.Env, fmt.Sprintf("GOMEMLIMIT=%dMiB", limitMB/2), fmt.Sprintf("HCREPLAY_CHILD_RLIMIT_MB=%d", limitMB))
	}
	c := &child{cmd: cmd, stderr: new(lockedBuilder)}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return c
}

// wait returns the child's exit status and its peak resident memory in MiB, failing the test
// when it runs longer than limit.
func (c *child) wait(t testing.TB, limit time.Duration) (int, float64) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(limit):
		c.cmd.Process.Kill()
		<-done
		t.Fatalf("%v still running after %v; stderr:\n%s", c.cmd.Env[len(c.cmd.Env)-1], limit, c.stderr)
	}
	ru, _ := c.cmd.ProcessState.SysUsage().(*syscall.Rusage)
	rss := 0.0
	if ru != nil {
		rss = float64(ru.Maxrss) / 1024 // KiB on Linux
	}
	return c.cmd.ProcessState.ExitCode(), rss
}

// tempFiles lists the temporary files of our naming under dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp-") {
			out = append(out, path)
		}
		return nil
	})
	return out
}

// TestSignalWaitsForASave: a command saving its work after Ctrl-C (a sweep its finished runs)
// is not stopped when the grace after the signal ends, and its last line, which tells how to
// resume, is printed (a large sweep's save outlasted the grace, and the line was lost).
func TestSignalWaitsForASave(t *testing.T) {
	c := startChild(t, 0, "slow-save")
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(c.stderr.String(), "started"); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			c.cmd.Process.Kill()
			t.Fatalf("the command never started: %s", c.stderr)
		}
	}
	c.cmd.Process.Signal(os.Interrupt)
	code, _ := c.wait(t, 30*time.Second)
	if code != exitSignal {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, exitSignal, c.stderr)
	}
	if !strings.Contains(c.stderr.String(), "42 runs are saved; run the same command with --resume") {
		t.Errorf("the save's line is missing; stderr:\n%s", c.stderr)
	}
}

// TestSignalStopsAnyCommand: a command that ignores its context and is writing an output stops
// on SIGINT and on SIGTERM, with exit 130, its temporary file removed (issue 49: pet show,
// pet convert, trace gen, trace convert and report ran to their end and exited 0).
func TestSignalStopsAnyCommand(t *testing.T) {
	for _, sig := range []os.Signal{os.Interrupt, syscall.SIGTERM} {
		dir := t.TempDir()
		c := startChild(t, 0, "stuck", filepath.Join(dir, "out.csv"))
		for deadline := time.Now().Add(30 * time.Second); len(tempFiles(t, dir)) == 0; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				c.cmd.Process.Kill()
				t.Fatalf("the command never started its output: %s", c.stderr)
			}
		}
		start := time.Now()
		c.cmd.Process.Signal(sig)
		code, _ := c.wait(t, 30*time.Second)
		if code != exitSignal {
			t.Errorf("%v: exit %d, want %d; stderr:\n%s", sig, code, exitSignal, c.stderr)
		}
		if took := time.Since(start); took > interrupt.Grace+5*time.Second {
			t.Errorf("%v: stopped after %v", sig, took)
		}
		if left := tempFiles(t, dir); len(left) > 0 {
			t.Errorf("%v: temporary files left: %v", sig, left)
		}
	}
}

// TestStaleTempsCleaned: a replay into a folder removes the temporary files of our naming a
// killed run left there, and says so; a temporary file another process is still writing
// (locked) and a file of another naming stay.
func TestStaleTempsCleaned(t *testing.T) {
	dir := t.TempDir()
	pet := filepath.Join(dir, "pet.json")
	mustCLI(t, "pet", "synth", "--out", pet, "--types", "2", "--machines", "2", "--samples", "100", "--step", "20", "-q")
	tr := filepath.Join(dir, "t.csv")
	mustCLI(t, "trace", "gen", "--pet", pet, "--out", tr, "--tasks", "200", "--level", "1k", "--trials", "1", "-q")
	out := filepath.Join(dir, "o")
	os.MkdirAll(out, 0o755)
	stale := filepath.Join(out, ".tasks.parquet.tmp-12345")
	other := filepath.Join(out, ".notes.tmp-x")
	writeFile(t, stale, "half a file")
	writeFile(t, other, "not ours")
	live, err := atomicfile.Create(filepath.Join(out, "summary.json")) // being written, by "another process"
	if err != nil {
		t.Fatal(err)
	}
	defer live.Abort()
	code, _, stderr := cli(t, "replay", "--pet", pet, "--trace", tr, "-H", "MM", "--out", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the stale temporary file is still there (%v)", err)
	}
	if !strings.Contains(stderr, "removed 1 temporary file an interrupted run left in "+out) {
		t.Errorf("the replay did not say what it removed:\n%s", stderr)
	}
	for _, keep := range []string{other, live.Name()} {
		if _, err := os.Stat(keep); err != nil {
			t.Errorf("%s was removed", keep)
		}
	}
}

// hostileFixture makes a PET and the hostile inputs, each small on disk: a gzip of one 70 MiB
// line, a gzip of 16 MiB of valid rows (ratio above 100), a folder of trials holding a FIFO.
func hostileFixture(t *testing.T) (dir, pet string) {
	t.Helper()
	dir, pet = fifoFixture(t)
	gz := func(name, head, unit string, n int) {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		zw, _ := gzip.NewWriterLevel(f, gzip.BestSpeed)
		bw := bufio.NewWriterSize(zw, 1<<16)
		bw.WriteString(head)
		chunk := strings.Repeat(unit, (1<<16)/len(unit))
		for k := 0; k < n; k += len(chunk) {
			bw.WriteString(chunk)
		}
		bw.Flush()
		zw.Close()
		f.Close()
	}
	gz("line.csv.gz", "# time_unit=ms\ntask_id,task_type,arrival,deadline\n1,", "0", 70<<20)
	gz("bomb.csv.gz", "# time_unit=ms\ntask_type,arrival,deadline\n", "0,1,100\n", 16<<20)
	gz("logbomb.csv.gz", "# time_unit=ms\ntask_type,machine_type,exec_time\n", "0,0,5\n", 16<<20)
	var sim strings.Builder // 12,000 tasks at time 5
	sim.WriteString("# time_unit=ms\ntask_id,task_type,arrival,deadline\n")
	for i := range 12_000 {
		fmt.Fprintf(&sim, "%d,0,5,100\n", i)
	}
	writeFile(t, filepath.Join(dir, "sim.csv"), sim.String())
	return dir, pet
}

// fifoFixture makes a PET, a folder of trials fifo/ holding a trace a.csv and a named pipe
// b.csv, and a named pipe pfifo.json.
func fifoFixture(t *testing.T) (dir, pet string) {
	t.Helper()
	dir = t.TempDir()
	pet = filepath.Join(dir, "pet.json")
	mustCLI(t, "pet", "synth", "--out", pet, "--types", "2", "--machines", "2", "--samples", "100", "--step", "20", "-q")
	os.Mkdir(filepath.Join(dir, "fifo"), 0o755)
	writeFile(t, filepath.Join(dir, "fifo", "a.csv"), "# time_unit=ms\ntask_type,arrival,deadline\n0,1,100\n")
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo", "b.csv"), 0o600); err != nil {
		t.Skipf("no FIFOs here: %v", err)
	}
	syscall.Mkfifo(filepath.Join(dir, "pfifo.json"), 0o600)
	return dir, pet
}

// TestHostileInputs runs commands on hostile inputs in a child process under a memory limit
// (GOMEMLIMIT and RLIMIT_DATA of limitMB) and checks each exits 2 with a message naming the
// file, leaves no temporary file, and peaks under the bound. Before issue 49 the long line
// took 6 GB and the FIFO blocked forever.
func TestHostileInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 86 MiB through gzip and runs children")
	}
	const limitMB, boundMB = 1024, 768 // measured peaks: 520 MiB for the 70 MiB line, under 320 MiB for the rest
	dir, pet := hostileFixture(t)
	in := func(name string) string { return filepath.Join(dir, name) }
	cases := []struct {
		name  string
		args  []string
		names string // the file the message must name
		want  string // and what it must say
	}{
		{"csv line", []string{"replay", "--pet", pet, "--trace", in("line.csv.gz"), "-H", "MM", "--max-inflate-ratio", "0"}, "line.csv.gz", "line longer than 64 MiB"},
		{"gzip bomb replay", []string{"replay", "--pet", pet, "--trace", in("bomb.csv.gz"), "-H", "MM"}, "bomb.csv.gz", "--max-inflate-ratio"},
		{"gzip bomb stats", []string{"trace", "stats", in("bomb.csv.gz")}, "bomb.csv.gz", "--max-inflate-ratio"},
		{"gzip bomb convert", []string{"trace", "convert", in("bomb.csv.gz"), "OUT/t.parquet"}, "bomb.csv.gz", "--max-inflate-ratio"},
		{"gzip bomb cap", []string{"trace", "stats", in("bomb.csv.gz"), "--max-inflate", "1MiB"}, "bomb.csv.gz", "--max-inflate"},
		{"simultaneous", []string{"replay", "--pet", pet, "--trace", in("sim.csv"), "-H", "MM"}, "sim.csv", "more than 10000 tasks arrive at time 5"},
		{"simultaneous sweep", []string{"sweep", "--pet", pet, "--trace", "5k=" + in("sim.csv"), "-H", "MM", "--out", "OUT/s"}, "sim.csv", "--max-batch"},
		{"gzip bomb sweep cap", []string{"sweep", "--pet", pet, "--trace", "b=" + in("bomb.csv.gz"), "-H", "MM", "--out", "OUT/s", "--max-inflate", "1MiB"}, "bomb.csv.gz", "(--max-inflate raises it)"},
		{"gzip bomb pet build", []string{"pet", "build", in("logbomb.csv.gz"), "--out", "OUT/p.json"}, "logbomb.csv.gz", "--max-inflate-ratio"},
		{"fifo pet", []string{"pet", "show", in("pfifo.json")}, "pfifo.json", "not a regular file"},
		{"fifo in folder", []string{"replay", "--pet", pet, "--trace", in("fifo"), "-H", "MM"}, "b.csv", "not a regular file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{}, c.args...)
			for i, a := range args {
				args[i] = strings.Replace(a, "OUT", out, 1)
			}
			if args[0] == "replay" {
				args = append(args, "--out", out)
			}
			ch := startChild(t, limitMB, args...)
			code, rss := ch.wait(t, 120*time.Second)
			msg := ch.stderr.String()
			if code != exitUsage {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitUsage, msg)
			}
			if !strings.Contains(msg, c.names) || !strings.Contains(msg, c.want) {
				t.Errorf("stderr does not name %s and say %q:\n%s", c.names, c.want, msg)
			}
			if left := tempFiles(t, out); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
			if rss > boundMB {
				t.Errorf("peak memory %.0f MiB, want under %d", rss, boundMB)
			}
			t.Logf("peak %.0f MiB", rss)
		})
	}
}

// TestPetBuildSpanNamesFix: a log whose samples span more bins than a cell may have is refused
// naming the file, the cell, the outlying value and the flag with a width that fits: (5e9 − 1)
// / (2^20 − 2) = 4768.4, 4800 at two digits (issue 49: "fit: cell task=0 machine=0: ..." alone).
func TestPetBuildSpanNamesFix(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "span.csv")
	writeFile(t, logs, "task_type,machine_type,exec_time\na,m,1\na,m,2\na,m,3\na,m,5000000000\n")
	code, _, stderr := cli(t, "pet", "build", logs, "--out", filepath.Join(dir, "p.json"), "--binning", "width:1", "--min-samples", "1")
	if code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	for _, want := range []string{logs, "task=a machine=m", "5e+09", "--binning width:4800"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	code, _, stderr = cli(t, "pet", "build", logs, "--out", filepath.Join(dir, "p.json"), "--binning", "width:4800", "--min-samples", "1", "-q")
	if code != 0 {
		t.Errorf("the width suggested does not fit: exit %d\n%s", code, stderr)
	}
}

// TestNegativeArrivalsShiftInvariant: negative arrivals are accepted (issue 49, item 13: times
// may be measured from any origin) because a replay does not depend on where time zero is: a
// trace moved 1e9 ms into the past gives the same counts under every heuristic and pruning.
func TestNegativeArrivalsShiftInvariant(t *testing.T) {
	pet, tr := genTrace(t, 600)
	neg := filepath.Join(filepath.Dir(tr), "neg.csv")
	mapTimes(t, tr, neg, "", func(x float64) string { return strconv.FormatFloat(x-1e9, 'g', -1, 64) })
	a, b := replayCounts(t, pet, tr), replayCounts(t, pet, neg)
	if strings.Join(a, "\n") != strings.Join(b, "\n") || len(a) != 6 {
		t.Errorf("moved 1e9 ms back:\n%s\nwant\n%s", strings.Join(b, "\n"), strings.Join(a, "\n"))
	}
}

// genTrace makes a PET of 3 task types and 2 machines and one trial of n tasks in CSV (ms).
func genTrace(t *testing.T, n int) (pet, trace string) {
	t.Helper()
	dir := t.TempDir()
	pet, trace = filepath.Join(dir, "pet.json"), filepath.Join(dir, "t.csv")
	mustCLI(t, "pet", "synth", "--out", pet, "--types", "3", "--machines", "2", "--samples", "100", "--step", "20", "-q")
	mustCLI(t, "trace", "gen", "--pet", pet, "--out", trace, "--tasks", strconv.Itoa(n), "--level", "2k", "--trials", "1", "-q")
	return pet, trace
}

// mapTimes writes the CSV trace src to dst with each arrival and deadline x written as f(x),
// and its comment lines replaced by comment when that is not empty.
func mapTimes(t *testing.T, src, dst, comment string, f func(x float64) string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		c := strings.Split(line, ",")
		switch {
		case strings.HasPrefix(line, "#") && comment != "":
			out.WriteString(comment + "\n")
		case len(c) != 4 || c[0] == "task_id":
			out.WriteString(line + "\n")
		default:
			a, _ := strconv.ParseFloat(c[2], 64)
			d, _ := strconv.ParseFloat(c[3], 64)
			fmt.Fprintf(&out, "%s,%s,%s,%s\n", c[0], c[1], f(a), f(d))
		}
	}
	writeFile(t, dst, out.String())
}

// replayCounts replays the trace at path under MM, MSD and MCT, unpruned and pruned, and
// returns each run's heuristic and counts of outcomes, one line a run.
func replayCounts(t *testing.T, pet, path string) []string {
	t.Helper()
	out := mustCLI(t, "replay", "--pet", pet, "--trace", path, "-H", "MM,MSD,MCT", "--prune", "none,both", "--json", "-q")
	var rows []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var r map[string]any
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		rows = append(rows, fmt.Sprint(r["heuristic"], r["on_time"], r["late"], r["dropped_deadline"], r["dropped_pruned"], r["unfinished"]))
	}
	return rows
}

// TestSignalStopsPetShow: pet show drawing the PMF grid of a large PET (a minute's work) stops
// on Ctrl-C with exit 130 and leaves no temporary file (issue 49: it ran 16 s more and exited 0).
func TestSignalStopsPetShow(t *testing.T) {
	if testing.Short() {
		t.Skip("a child process drawing plots")
	}
	dir := t.TempDir()
	pet := filepath.Join(dir, "big.json")
	mustCLI(t, "pet", "synth", "--out", pet, "--types", "40", "--machines", "30", "--samples", "300", "-q")
	c := startChild(t, 0, "pet", "show", pet, "--plot", filepath.Join(dir, "big.png"))
	time.Sleep(time.Second)
	start := time.Now()
	c.cmd.Process.Signal(os.Interrupt)
	code, _ := c.wait(t, 60*time.Second)
	if code != exitSignal {
		t.Errorf("exit %d, want %d (after %v); stderr:\n%s", code, exitSignal, time.Since(start), c.stderr)
	}
	if left := tempFiles(t, dir); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// TestSignalStopsBlockedRead: a command blocked in an open that never returns (a catalog or a
// grid that is a named pipe no one writes to) stops on Ctrl-C within the grace period, exits 130
// and leaves no temporary file in its output folder (issue 49 item 5: a FIFO blocked forever
// and ignored SIGINT). Trace and PET paths refuse named pipes (TestHostileInputs); a catalog or a
// grid may come from a pipe (bash's <(...)), so these wait for it, and Ctrl-C must stop them.
func TestSignalStopsBlockedRead(t *testing.T) {
	if testing.Short() {
		t.Skip("child processes waiting out the grace period")
	}
	dir, pet := fifoFixture(t)
	fifo := filepath.Join(dir, "pfifo.json")
	for _, c := range []struct {
		name string
		args []string
	}{
		{"replay, catalog a named pipe", []string{"replay", "--pet", pet, "--trace", filepath.Join(dir, "fifo", "a.csv"), "--catalog", fifo, "-H", "MM", "--out", "OUT/r"}},
		{"sweep, grid a named pipe", []string{"sweep", fifo, "--out", "OUT/s"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out := t.TempDir()
			args := append([]string{}, c.args...)
			for i, a := range args {
				args[i] = strings.Replace(a, "OUT", out, 1)
			}
			ch := startChild(t, 0, args...)
			time.Sleep(1500 * time.Millisecond) // into the open
			start := time.Now()
			ch.cmd.Process.Signal(os.Interrupt)
			code, _ := ch.wait(t, 30*time.Second)
			if code != exitSignal {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitSignal, ch.stderr)
			}
			if took := time.Since(start); took > interrupt.Grace+3*time.Second {
				t.Errorf("stopped %v after the signal", took)
			}
			if left := tempFiles(t, out); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// TestStandardInputNamesTheFix: the commands cannot tell the format of standard input ("-"),
// so neither its message nor the refusal of a named pipe may send the user to it or to a format
// flag no command has; both say to give a file.
func TestStandardInputNamesTheFix(t *testing.T) {
	dir, _ := fifoFixture(t)
	for _, args := range [][]string{{"trace", "stats", "-"}, {"trace", "stats", filepath.Join(dir, "fifo")}} {
		code, _, stderr := cli(t, args...)
		if code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
		for _, bad := range []string{"give the format explicitly", "- for standard input"} {
			if strings.Contains(stderr, bad) {
				t.Errorf("%v: the message suggests %q, which no command takes:\n%s", args, bad, stderr)
			}
		}
		if !strings.Contains(stderr, "file") || !strings.Contains(stderr, ".csv") && !strings.Contains(stderr, "regular file") {
			t.Errorf("%v: the message does not say what to give:\n%s", args, stderr)
		}
	}
}

// TestSmallInputsCapped: the catalog, the grid and the config file are read whole; each stops at
// 64 MiB with a message naming the file and the limit (issue 49 item 1, "every text reader the
// same way": a 200 MB catalog line took 1.3 GB, a 200 MB grid 1.1 GB and 27 s).
func TestSmallInputsCapped(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 65 MiB file")
	}
	dir := t.TempDir()
	pet := filepath.Join(dir, "pet.json")
	mustCLI(t, "pet", "synth", "--out", pet, "--types", "2", "--machines", "2", "--samples", "100", "--step", "20", "-q")
	tr := filepath.Join(dir, "t.csv")
	writeFile(t, tr, "# time_unit=ms\ntask_type,arrival,deadline\n0,1,100\n")
	big := filepath.Join(dir, "big.yaml") // one YAML comment: valid, empty, 65 MiB
	writeFile(t, big, "# "+strings.Repeat("a", 65<<20)+"\n")
	for _, args := range [][]string{
		{"replay", "--pet", pet, "--trace", tr, "-H", "MM", "--catalog", big},
		{"sweep", big, "--out", filepath.Join(dir, "s")},
		{"replay", "--pet", pet, "--trace", tr, "-H", "MM", "--config", big},
	} {
		code, _, stderr := cli(t, args...)
		if code != exitUsage || !strings.Contains(stderr, big) || !strings.Contains(stderr, "larger than 64 MiB") {
			t.Errorf("%s: exit %d, want %d naming %s and the limit:\n%.300s", args[len(args)-2], code, exitUsage, big, stderr)
		}
	}
}
