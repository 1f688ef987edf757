package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDegeneratePruningRefused: a dropping threshold of 0.75 with the default gap of 0.25 defers
// at 1, which defers every task until it expires (issue 46). The replay refuses it whether the
// flags or a config file set it, and so does a sweep's grid, each naming the options in its own
// spelling and a way out; a warning case (dropping at 0) runs and says so.
func TestDegeneratePruningRefused(t *testing.T) {
	isolateEnv(t)
	pet, tr := writeTiny(t, 40)
	dir := t.TempDir()
	conf := filepath.Join(dir, "c.yaml")
	writeFile(t, conf, "replay:\n  drop-threshold: 0.75\n")
	grid := filepath.Join(dir, "grid.yaml")
	writeFile(t, grid, "pet: "+pet+"\nheuristics: [MM, PAM]\nprune: [none, both]\ndrop_threshold: [0.5, 0.75]\nlevels:\n  - {name: x, trace: "+tr+"}\ntrim: 5\n")
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"flags", []string{"replay", "--pet", pet, "--trace", tr, "-H", "MM", "--prune", "none,both", "--drop-threshold", "0.75"},
			[]string{"--drop-threshold 0.75 with --defer gap:0.25", "every task", "--defer gap:G with G < 0.25", "static:T"}},
		{"preset", []string{"replay", "--pet", pet, "--trace", tr, "-H", "PAMF", "--drop-threshold", "0.8"}, // PAMF prunes under none
			[]string{"PAMF", "--drop-threshold 0.8 with --defer gap:0.25"}},
		{"static", []string{"replay", "--pet", pet, "--trace", tr, "-H", "MM", "--prune", "defer", "--defer", "static:1"},
			[]string{"--defer static:1", "static:T with T below 1"}},
		{"config", []string{"--config", conf, "replay", "--pet", pet, "--trace", tr, "-H", "MM", "--prune", "both"},
			[]string{"--drop-threshold 0.75 with --defer gap:0.25"}},
		{"MOC cull 1", []string{"replay", "--pet", pet, "--trace", tr, "-H", "MM,MOC", "--moc-cull", "1"},
			[]string{"--moc-cull 1", "maps no task", "--moc-cull below 1"}},
		{"grid", []string{"sweep", grid, "--out", filepath.Join(dir, "runs")},
			[]string{"grid.yaml:4: drop_threshold 0.75 with defer gap:0.25", "heuristic=MM|prune=both", "defer gap:G with G < 0.25"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := cli(t, tt.args...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d:\n%s", code, exitUsage, stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q:\n%s", w, stderr)
				}
			}
		})
	}
	code, _, stderr := cli(t, "replay", "--pet", pet, "--trace", tr, "-H", "MM", "--prune", "drop", "--drop-threshold", "0", "--trim", "5")
	if code != 0 || !strings.Contains(stderr, "warning: --drop-threshold 0: a dropping threshold of 0 drops no task") {
		t.Errorf("dropping at 0: exit %d, want 0 and a warning:\n%s", code, stderr)
	}
}

// TestUnusedPruningFlagWarns: a pruning flag that no mapper reads changes nothing, which a user
// who forgot --prune would not see: replay says so. PAMF prunes under --prune none, so its flags
// are read; the deferring rule is not read by a mapper that only drops.
func TestUnusedPruningFlagWarns(t *testing.T) {
	isolateEnv(t)
	pet, tr := writeTiny(t, 40)
	for _, c := range []struct {
		args []string
		warn string // "" for none
	}{
		{[]string{"-H", "MM", "--drop-threshold", "0.3"}, "--drop-threshold 0.3 changes no replay"},
		{[]string{"-H", "MM", "--fairness", "0.2", "--toggle", "always"}, "--toggle always, --fairness 0.2 change no replay"},
		{[]string{"-H", "MM", "--prune", "drop", "--defer", "static:0.6"}, "--defer static:0.6 changes no replay"},
		{[]string{"-H", "MM", "--prune", "defer", "--drop-threshold", "0.3"}, ""}, // the gap is added to it
		{[]string{"-H", "MM", "--defer-at", "after-rejudge"}, "--defer-at after-rejudge changes no replay"},
		{[]string{"-H", "MM", "--prune", "drop", "--defer-at", "before"}, "--defer-at before changes no replay"},
		{[]string{"-H", "MM", "--prune", "defer", "--defer-at", "after-rejudge"}, ""},
		{[]string{"-H", "MM", "--prune", "defer", "--drop-running", "always"}, "--drop-running always changes no replay"},
		{[]string{"-H", "MM", "--prune", "drop", "--drop-running", "never"}, ""},
		{[]string{"-H", "PAMF", "--drop-threshold", "0.3"}, ""},
		{[]string{"-H", "MM"}, ""},
	} {
		code, _, stderr := cli(t, append([]string{"replay", "--pet", pet, "--trace", tr, "--trim", "5"}, c.args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d:\n%s", c.args, code, stderr)
		}
		if got := strings.Contains(stderr, "change no replay") || strings.Contains(stderr, "changes no replay"); got != (c.warn != "") || !strings.Contains(stderr, c.warn) {
			t.Errorf("%v: want warning %q:\n%s", c.args, c.warn, stderr)
		}
	}
}
