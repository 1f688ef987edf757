package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOneCommandAsWhole runs command lines through run, which parses with one command's
// grammar (oneCommand) and falls back to the whole, and through the whole grammar alone: the
// status, the output and the messages must be the same, for valid lines (each of which the one
// command's grammar must parse itself, without falling back) and for every kind of usage error,
// which the whole grammar reports. Timings are masked.
func TestOneCommandAsWhole(t *testing.T) {
	isolateEnv(t)
	dir := t.TempDir()
	pet := filepath.Join(dir, "pet.json")
	trials := filepath.Join(dir, "trials")
	mustCLI(t, "-q", "pet", "synth", "--out", pet, "--types", "3", "--machines", "2", "--seed", "4")
	mustCLI(t, "-q", "trace", "gen", "--pet", pet, "--out", trials, "--tasks", "60", "--trials", "2", "--seed", "5")
	trace := filepath.Join(trials, "*")
	cfg := filepath.Join(dir, "cfg.yaml")
	if err := os.WriteFile(cfg, []byte("sweep:\n  no-such-key: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	valid := [][]string{
		{"version"},
		{"-q", "version"},
		{"heuristics"},
		{"pet", "show", pet},
		{"-q", "replay", "--pet", pet, "--trace", trace, "-H", "MM,PAM", "--prune", "both", "--json"},
		{"replay", "--quiet", "--pet=" + pet, "--trace", trace, "-H", "MSD", "--seed", "3", "--json"},
		{"--max-batch=50", "replay", "--pet", pet, "--trace", trace, "-H", "EDF", "-j", "1", "--json"},
		{"replay", "--pet", pet, "--trace", trace, "-H", "MM", "--drop-model", "pending", "--json", "-q"},
		{"trace", "stats", trials},
	}
	usage := [][]string{
		{"replay"},
		{"replay", "--pet", pet},
		{"replay", "--pet", pet, "--trace", trace, "-H", "NoSuch"},
		{"replay", "--pet", pet, "--trace", trace, "-H", "MM", "--drop-model", "sideways"},
		{"replay", "--pet", pet, "--trace", trace, "-H", "MM", "--seed", "1", "--seed", "2"},
		{"replay", "--pet", pet, "--trace", trace, "-H", "MM", "--no-such-flag"},
		{"replay", "--pet", pet, "--trace", trace, "-H", "MM", "extra"},
		{"replay", "--pet", pet, "--trace", trace, "-H", "MM", "-j", "-1"},
		{"replay", "--pet", pet, "--trace", trace, "-H", "MM", "--seed", "-3"},
		{"replay", "--help"},
		{"replay", "-qh"},
		{"pet", "show", "-h"},
		{"-h"},
		{"--max-batch", "50", "replay", "--pet", pet},
		{"pet"},
		{"pet", "nosuch"},
		{"sweep", "--config", filepath.Join(dir, "none.yaml")},
		{"version", "--config", cfg}, // a wrong key of another command's section
		{"--config=" + cfg, "version"},
		{"replay", "--", "--pet"},
		{"nosuch"},
		{},
	}
	withEnv := [][]string{ // run with HCREPLAY_DROP_MODEL set, to a value and to a wrong one
		{"-q", "replay", "--pet", pet, "--trace", trace, "-H", "MM", "--json"},
		{"replay", "--pet", pet, "--trace", trace, "-H", "PAM", "--prune", "drop", "--json", "--drop-model", "evict"},
	}
	timing := regexp.MustCompile(`"timing":\{[^}]*\}|[0-9.e+-]+ ± [0-9.e+-]+ │\n`)
	mask := func(s string) string { return timing.ReplaceAllString(s, "T") }
	compare := func(args []string) {
		var out, errb bytes.Buffer
		var cli CLI
		code := execute(&cli, &cli.Globals, args, &out, &errb, nil)
		gotCode, gotOut, gotErr := runReal(t, args...)
		if gotCode != code || mask(gotOut) != mask(out.String()) || gotErr != errb.String() {
			t.Errorf("hcreplay %s: exit %d, stdout %q, stderr %q; the whole grammar: exit %d, stdout %q, stderr %q",
				strings.Join(args, " "), gotCode, gotOut, gotErr, code, out.String(), errb.String())
		}
	}
	for _, args := range append(valid, usage...) {
		compare(args)
	}
	for _, drop := range []string{"pending", "sideways"} {
		t.Setenv("HCREPLAY_DROP_MODEL", drop)
		for _, args := range withEnv {
			compare(args)
		}
	}
	t.Setenv("HCREPLAY_DROP_MODEL", "pending")
	valid = append(valid, withEnv...)
	for _, args := range valid {
		grammar, g := oneCommand(args)
		if grammar == nil {
			t.Errorf("hcreplay %s: no one-command grammar", strings.Join(args, " "))
			continue
		}
		var out, errb bytes.Buffer
		fell := false
		if code := execute(grammar, g, args, &out, &errb, func() int { fell = true; return -1 }); fell || code != 0 {
			t.Errorf("hcreplay %s: the one-command grammar fell back (%v) or exited %d: %s", strings.Join(args, " "), fell, code, errb.String())
		}
	}
}
