package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hcreplay/hcreplay/replay/heuristic"
	"github.com/hcreplay/hcreplay/replay/prune"
)

// TestHeuristicsCmd lists every heuristic and preset with its source, in at most 100 columns,
// naming the replay flags a heuristic reads rather than the Go fields behind them.
func TestHeuristicsCmd(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"heuristics"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	list := out.String()
	for _, h := range heuristic.All() {
		if !strings.Contains(list, "  "+h.Name+" ") {
			t.Errorf("%s is not listed:\n%s", h.Name, list)
		}
		if !strings.Contains(list, strings.Fields(h.Source)[0]) {
			t.Errorf("%s's source %q is not listed", h.Name, h.Source)
		}
	}
	for _, p := range prune.Presets() {
		if !strings.Contains(list, "  "+p.Name+" ") {
			t.Errorf("preset %s is not listed", p.Name)
		}
	}
	for _, s := range []string{"MCT (MECT)", "Batch mode", "Immediate mode", "--moc-cull 0.3", "--kpb-percent 50", "--global-phase2", "--phase1-all", "--etc"} {
		if !strings.Contains(list, s) {
			t.Errorf("listing lacks %q:\n%s", s, list)
		}
	}
	// Go field names (MOCCull, Phase1All, KPBPercent) mean nothing to a user of the command line.
	goField := regexp.MustCompile(`\b(KPBPercent|MOCCull|MOCCandidates|Phase1All|GlobalPhase2|[A-Z][a-z]+[A-Z][a-zA-Z]*=)`)
	for i, line := range strings.Split(list, "\n") {
		if n := utf8.RuneCountInString(line); n > listWidth {
			t.Errorf("line %d has %d columns, more than %d: %q", i+1, n, listWidth, line)
		}
		if m := goField.FindString(line); m != "" {
			t.Errorf("line %d names the Go field %q: %q", i+1, m, line)
		}
	}
}
