package prune

import (
	"bytes"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/hcreplay/hcreplay/replay/heuristic"
)

func TestWrapWords(t *testing.T) {
	for _, c := range []struct {
		s     string
		width int
		want  []string
	}{
		// "aa bb" is 5 runes, "aa bb cc" 8 > 6: the break falls before cc.
		{"aa bb cc", 6, []string{"aa bb", "cc"}},
		{"aa bb cc", 8, []string{"aa bb cc"}},
		{"ρ θ λ", 3, []string{"ρ θ", "λ"}}, // runes, not bytes
		{"toolongword x", 4, []string{"toolongword", "x"}},
		{"", 10, []string{""}},
	} {
		if got := wrapWords(c.s, c.width); !slices.Equal(got, c.want) {
			t.Errorf("wrapWords(%q, %d) = %q, want %q", c.s, c.width, got, c.want)
		}
	}
}

// TestWriteList: every heuristic and preset is listed once, its parameters under the names the
// caller gives (here upper-case keys), the lines within the width.
func TestWriteList(t *testing.T) {
	var b bytes.Buffer
	if err := WriteList(&b, 90, strings.ToUpper); err != nil {
		t.Fatal(err)
	}
	list := b.String()
	for _, h := range heuristic.All() {
		if n := strings.Count(list, "\n  "+h.Name+" "); n != 1 {
			t.Errorf("%s listed %d times, want once", h.Name, n)
		}
	}
	for _, p := range Presets() {
		if !strings.Contains(list, "\n  "+p.Name+" ") {
			t.Errorf("preset %s not listed", p.Name)
		}
	}
	// MOC reads the cull (default 0.30) and candidates (3); the booleans, off, are named alone.
	if want := "flags: MOC_CULL 0.3 MOC_CANDIDATES 3 PHASE1_ALL ETC"; !strings.Contains(list, want) {
		t.Errorf("MOC's parameters: want %q in\n%s", want, list)
	}
	// An alias follows its heuristic's name in parentheses (MCT's, MECT, Smith et al. 2010 §VII);
	// a heuristic without one has no parentheses.
	if !strings.Contains(list, "\n  MCT (MECT) ") || strings.Contains(list, "()") {
		t.Errorf("want MCT listed as \"MCT (MECT)\" and no empty parentheses:\n%s", list)
	}
	// The two modes' sections, batch first, are apart by one blank line, with none before the first.
	if !strings.HasPrefix(list, "Batch mode:") || !strings.Contains(list, "\n\nImmediate mode:") {
		t.Errorf("want the batch section first, then a blank line and the immediate one:\n%s", list)
	}
	// Each heuristic is in its mode's section: MM (batch) before the immediate heading, MCT after.
	if mm, imm, mct := strings.Index(list, "\n  MM "), strings.Index(list, "Immediate mode:"), strings.Index(list, "\n  MCT "); !(mm < imm && imm < mct) {
		t.Errorf("want MM in the batch section and MCT in the immediate one:\n%s", list)
	}
	for i, line := range strings.Split(list, "\n") {
		if utf8.RuneCountInString(line) > 90 {
			t.Errorf("line %d is wider than 90: %q", i+1, line)
		}
	}
}
