package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/replay/heuristic"
)

func TestHeuristicsCmd(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"heuristics"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	table := out.String()
	for _, h := range heuristic.All() {
		if !strings.Contains(table, " "+h.Name+" ") {
			t.Errorf("%s is not listed:\n%s", h.Name, table)
		}
		if h.Params != "" && !strings.Contains(table, h.Params) {
			t.Errorf("%s's parameters %q are not listed:\n%s", h.Name, h.Params, table)
		}
	}
	for _, s := range []string{"name", "mode", "source", "parameters", "MCT (MECT)", "batch", "immediate"} {
		if !strings.Contains(table, s) {
			t.Errorf("table lacks %q:\n%s", s, table)
		}
	}
}
