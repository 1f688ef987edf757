package trialset

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/sweep"
)

// TestLoadInputs loads a grid of a trace level, whose relative path is the grid folder's, and a
// generated level on the tiny PET, and checks the missing file's error names its level's key.
func TestLoadInputs(t *testing.T) {
	pet := tinyPET(t)
	base := t.TempDir()
	if err := os.WriteFile(filepath.Join(base, "t_1.csv"), []byte("task_type,arrival,deadline\n0,0,9\n1,2,11\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gen := sweep.DefaultGenerate()
	gen.Level, gen.Tasks = "1k", 20
	g := sweep.NewGrid()
	g.SetLevels([]sweep.Level{{Name: "files", Trace: "t_*.csv", Seed: 1}, {Name: "1k", Generate: gen, Trials: 2, Seed: 1}},
		[]string{"--trace files=t_*.csv", "--generate 1k"})
	machines := replay.DefaultCatalog(pet.MachineTypes())
	var logs []string
	logf := func(format string, args ...any) { logs = append(logs, fmt.Sprintf(format, args...)) }
	in, err := LoadInputs(g, base, pet, machines, Reading{Logf: logf})
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Levels) != 2 || len(in.Levels["files"].Trials) != 1 || len(in.Levels["1k"].Trials) != 2 {
		t.Errorf("levels %+v: want files with 1 trial and 1k with 2", in.Levels)
	}
	// The tiny PET is in ms (an .etc file's unit): 0.001 s per time unit.
	if in.TimeUnitSeconds != 0.001 || in.TimeUnit != "ms" || len(in.Machines) != 2 {
		t.Errorf("unit %g s (%s), %d machines", in.TimeUnitSeconds, in.TimeUnit, len(in.Machines))
	}
	g.SetLevels([]sweep.Level{{Name: "gone", Trace: "missing_*.csv", Seed: 1}}, []string{"--trace gone=missing_*.csv"})
	if _, err := LoadInputs(g, base, pet, machines, Reading{Logf: logf}); err == nil || !strings.Contains(err.Error(), "--trace gone=missing_*.csv") {
		t.Errorf("missing files: %v, want the error to name the flag that gave the level", err)
	}
}

// TestWarningsShowsThree: of five warnings about one level's files, three are shown and the
// other two counted in one line; three or fewer are all shown, with no count.
func TestWarningsShowsThree(t *testing.T) {
	for _, c := range []struct{ n, lines int }{{5, 4}, {3, 3}, {0, 0}} {
		var logs []string
		w := &warnings{logf: func(f string, a ...any) { logs = append(logs, fmt.Sprintf(f, a...)) }, level: "19k"}
		for i := range c.n {
			w.add(fmt.Sprint("w", i))
		}
		w.flush()
		if len(logs) != c.lines {
			t.Errorf("%d warnings: %q, want %d lines", c.n, logs, c.lines)
		}
		if c.n == 5 && (logs[2] != "warning: w2" || logs[3] != "warning: and 2 more warnings about the files of level 19k") {
			t.Errorf("5 warnings: %q", logs)
		}
	}
}
