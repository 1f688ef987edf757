package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
)

// TestReplayStreamsSortedTraces: a trace file in arrival order with increasing task ids is
// replayed as it is read, one out of order is loaded and sorted, and both give the same task
// outcomes, byte for byte, with deadlines in the file or drawn by the urgency rule (whose random
// draws must come in the same order either way). The trace is longer than the chunks a streamed
// replay reads ahead (prefetch), so that their seams are crossed. The pair out of order is near
// the start, which the pass that checks the file finds before the replay that started beside it
// is far, or near the end, which it may find after that replay has ended: either way the
// streamed replay's outputs must not be kept.
func TestReplayStreamsSortedTraces(t *testing.T) {
	pet, _ := writeTiny(t, 1)
	dir := t.TempDir()
	const n = 2600
	write := func(name string, withDeadline bool, swap int) string {
		var rows []string
		for i := range n {
			at := float64(i) * 0.7
			row := []string{fmt.Sprint(i), []string{"0", "1"}[i%3%2], ftoa(at)}
			if withDeadline {
				row = append(row, ftoa(at+6+float64(i%5)))
			}
			rows = append(rows, strings.Join(row, ","))
		}
		if swap > 0 {
			rows[swap], rows[swap+1] = rows[swap+1], rows[swap] // out of order: arrival 0.7(swap+1) before 0.7 swap
		}
		header := "task_id,task_type,arrival"
		if withDeadline {
			header += ",deadline"
		}
		path := filepath.Join(dir, name)
		writeFile(t, path, header+"\n"+strings.Join(rows, "\n")+"\n")
		return path
	}
	replayOut := func(trace string, extra ...string) ([]byte, string) {
		out := filepath.Join(t.TempDir(), "run")
		var stdout, stderr bytes.Buffer
		args := append([]string{"replay", "--pet", pet, "--trace", trace, "-H", "PAM", "--prune", "both", "--out", out}, extra...)
		if code := run(args, &stdout, &stderr); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
		}
		b, err := os.ReadFile(filepath.Join(out, "tasks.parquet"))
		if err != nil {
			t.Fatal(err)
		}
		return b, stderr.String()
	}
	for _, withDeadline := range []bool{true, false} {
		var extra []string
		if !withDeadline {
			extra = []string{"--deadline", "urgency", "--seed", "3"}
		}
		name := fmt.Sprintf("deadline-%v", withDeadline)
		sorted, log1 := replayOut(write(name+"-sorted.csv", withDeadline, 0), extra...)
		if !strings.Contains(log1, fmt.Sprintf("%d tasks, streamed", n)) {
			t.Errorf("%s: want the sorted trace streamed; log:\n%s", name, log1)
		}
		for _, swap := range []int{40, n - 10} {
			swapped, log2 := replayOut(write(fmt.Sprintf("%s-swapped-%d.csv", name, swap), withDeadline, swap), extra...)
			if !strings.Contains(log2, fmt.Sprintf("%d tasks, loaded", n)) || strings.Contains(log2, "streamed") {
				t.Errorf("%s, swap at %d: want the trace loaded, and only loaded; log:\n%s", name, swap, log2)
			}
			if !bytes.Equal(sorted, swapped) {
				t.Errorf("%s, swap at %d: the streamed and the loaded replay wrote different tasks.parquet", name, swap)
			}
		}
	}
}

// TestReplayStreamedLateBadRows: a bad row far into a trace, which the replay streaming the
// file beside the checking pass may meet too, is reported as that pass reports it (as it was
// when the pass ran before the replay), with the line the row is on, and --out, which the
// replay made, is not left behind. A repeated task id makes the pass refuse to stream the file; the trace is then loaded,
// and the load names the repeat.
func TestReplayStreamedLateBadRows(t *testing.T) {
	pet, _ := writeTiny(t, 1)
	const n, bad = 6000, 5000 // beyond prefetch's chunks and the rows trialset's pass reads between looks at its context
	cases := []struct {
		name string
		edit func(i int, row string) string
		want []string
	}{
		{"non-numeric arrival", replaytest.RowAt(bad, fmt.Sprintf("%d,0,abc,%s", bad, ftoa(bad*0.7+6))), []string{"long.csv", fmt.Sprintf("line %d", bad+2), "arrival", `"abc"`}},
		{"repeated task id", replaytest.RowAt(bad, fmt.Sprintf("%d,0,%s,%s", bad-1, ftoa(bad*0.7), ftoa(bad*0.7+6))), []string{"long.csv", fmt.Sprintf("line %d", bad+2), "duplicate task id"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run")
			code, _, stderr := cli(t, "replay", "--pet", pet, "--trace", replaytest.LongTrace(t, n, c.edit), "-H", "MM", "--out", out, "--csv")
			if code != 2 {
				t.Fatalf("exit %d, want 2; stderr: %s", code, stderr)
			}
			for _, w := range c.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q lacks %q", stderr, w)
				}
			}
			if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("--out is there after an error (stat: %v)", err)
			}
		})
	}
}
