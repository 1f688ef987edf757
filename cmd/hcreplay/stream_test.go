package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplayStreamsSortedTraces: a trace file in arrival order with increasing task ids is
// replayed as it is read, one out of order is loaded and sorted, and both give the same task
// outcomes, byte for byte, with deadlines in the file or drawn by the urgency rule (whose random
// draws must come in the same order either way). The trace is longer than the chunks a streamed
// replay reads ahead (prefetch), so that their seams are crossed.
func TestReplayStreamsSortedTraces(t *testing.T) {
	pet, _ := writeTiny(t, 1)
	dir := t.TempDir()
	write := func(name string, withDeadline, swap bool) string {
		var rows []string
		for i := range 2600 {
			at := float64(i) * 0.7
			row := []string{fmt.Sprint(i), []string{"0", "1"}[i%3%2], ftoa(at)}
			if withDeadline {
				row = append(row, ftoa(at+6+float64(i%5)))
			}
			rows = append(rows, strings.Join(row, ","))
		}
		if swap {
			rows[40], rows[41] = rows[41], rows[40] // out of order: arrival 28.7 before 28
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
		sorted, log1 := replayOut(write(name+"-sorted.csv", withDeadline, false), extra...)
		swapped, log2 := replayOut(write(name+"-swapped.csv", withDeadline, true), extra...)
		if !strings.Contains(log1, "2600 tasks, streamed") || !strings.Contains(log2, "2600 tasks, loaded") {
			t.Errorf("%s: want the sorted trace streamed and the other loaded; logs:\n%s\n%s", name, log1, log2)
		}
		if !bytes.Equal(sorted, swapped) {
			t.Errorf("%s: the streamed and the loaded replay wrote different tasks.parquet", name)
		}
	}
}
