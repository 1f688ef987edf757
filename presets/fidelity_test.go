package presets

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// claimRow is a row of a verdict table in docs/fidelity.md: its first cell is the claim's id.
var claimRow = regexp.MustCompile("(?m)^\\| `([^`]+)` \\|")

// TestFidelityDocVerdicts keeps the verdict tables of docs/fidelity.md in step with the preset
// files, without running a replay: every claim id of each embedded preset appears between the
// preset's markers, and no id appears there that the file no longer has. A failure means
// `make fidelity-verdicts` is due.
func TestFidelityDocVerdicts(t *testing.T) {
	b, err := os.ReadFile("../docs/fidelity.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, name := range Names() {
		p, err := Load(name)
		if err != nil {
			t.Fatal(err)
		}
		begin, end := VerdictMarkers(name)
		i, j := strings.Index(doc, begin), strings.Index(doc, end)
		if i < 0 || j < i {
			t.Errorf("%s: docs/fidelity.md lacks the lines %q and %q", name, begin, end)
			continue
		}
		var inDoc []string
		for _, m := range claimRow.FindAllStringSubmatch(doc[i:j], -1) {
			inDoc = append(inDoc, m[1])
		}
		want := p.ClaimIDs()
		for _, id := range want {
			if !slices.Contains(inDoc, id) {
				t.Errorf("%s: claim %s is not in docs/fidelity.md (make fidelity-verdicts)", name, id)
			}
		}
		for _, id := range inDoc {
			if !slices.Contains(want, id) {
				t.Errorf("%s: docs/fidelity.md lists claim %s, which the file does not have (make fidelity-verdicts)", name, id)
			}
		}
	}
}
