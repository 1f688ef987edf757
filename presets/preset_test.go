package presets

import (
	"fmt"
	"strings"
	"testing"
)

// TestEmbeddedLoad loads every embedded preset through the strict loader, and checks that each
// cites its paper and that each figure's claims carry the paper's wording and section.
func TestEmbeddedLoad(t *testing.T) {
	if len(Names()) != 5 {
		t.Errorf("embedded presets %v, want the four papers' and the speculative one", Names())
	}
	for _, name := range Names() {
		p, err := Load(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if p.Name != name || p.Citation.Year < 2000 || !strings.Contains(p.Title, fmt.Sprint(p.Citation.Year)) {
			t.Errorf("%s: name %q, citation %+v, title %q", name, p.Name, p.Citation, p.Title)
		}
	}
}

// TestParseErrors breaks the thesis preset one way at a time and checks that the error names
// the file, the line of the broken key (found in the broken text, independently of the
// loader) and the key.
func TestParseErrors(t *testing.T) {
	good, err := Embedded("thesis")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, from, to string // the first from becomes to
		want           string // in the message, after "thesis.yaml:LINE:"
	}{
		{"a typo'd key", "    sensitivity: true", "    sensitivty: true", `unknown key "sensitivty"`},
		{"a typo'd key in a claim", "    wording: PAM outperforms", "    wordng: PAM outperforms", `unknown key "wordng"`},
		{"an unknown figure kind", "kind: toggle", "kind: toggles", `experiments[0].figures[0].kind: unknown figure kind "toggles"`},
		{"a claim over a heuristic the sweeps do not run", "of: {name: MSD}", "of: {name: MCT}", `name "MCT" is not in the experiment's sweeps`},
		{"a claim over a variant the sweeps do not run", "of: {name: MM-D}", "of: {name: MM-Dx}", `name "MM-Dx" is not in the experiment's sweeps`},
		{"a claim at a level the experiment does not run", "level: 34k\n            of: {name: MSD}", "level: 35k\n            of: {name: MSD}", `level "35k" is not among`},
		{"an unknown claim form", "form: trend", "form: trending", `unknown claim form "trending"`},
		{"an unknown option column", "of: {name: MSD}", "of: {nme: MSD}", `unknown option column "nme"`},
		{"an unknown grid key in a sweep", "toggle: [never", "togle: [never", `unknown grid key "togle"`},
		{"a grid value a sweep refuses", "toggle: [never", "toggle: [nevr", "toggle"},
		{"an unknown metric", "metrics: [robustness, dropped_pruned]", "metrics: [robustness, droped]", `unknown metric "droped"`},
		{"an unknown check", "check: toggle", "check: togle", `experiments[0].figures[0].check: unknown check "togle"`},
		{"a check without its argument", "check: variant:defer", "check: variant", "check variant takes 1 arguments"},
		{"a check with a bad argument", "check: variant:defer", "check: variant:prune", "check variant:prune: want defer, drop or both"},
		{"a check whose factor is no number", "check: fairness:0.05", "check: fairness:x", "check fairness:x: want the chosen factor"},
	}
	for _, c := range cases {
		parseBroken(t, "thesis.yaml", good, c.name, c.from, c.to, c.want)
	}
}

// parseBroken parses good (the text of file) with its first from made to, and checks that the
// error names the file, the line of the change and want.
func parseBroken(t *testing.T, file string, good []byte, name, from, to, want string) {
	t.Helper()
	text := string(good)
	i := strings.Index(text, from)
	if i < 0 {
		t.Fatalf("%s: %q is not in %s", name, from, file)
	}
	text = text[:i] + to + text[i+len(from):]
	at := fmt.Sprintf("%s:%d:", file, strings.Count(text[:i], "\n")+1) // the line the broken key is on
	_, err := Parse([]byte(text), file)
	if err == nil || !strings.Contains(err.Error(), at) || !strings.Contains(err.Error(), want) {
		t.Errorf("%s: %v\nwant %q and %q", name, err, at, want)
	}
}

// TestParseSpeculativeErrors: the speculative block's claims are checked like an experiment's,
// against the speculative runner's figures, levels, options, strategies and metrics.
func TestParseSpeculativeErrors(t *testing.T) {
	good, err := Embedded("speculative")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, from, to, want string }{
		{"a figure the runner does not draw", "file: fig6-heavy", "file: fig7-heavy", `speculative.figures[2].file: the speculative runner draws no figure "fig7-heavy"`},
		{"an unknown strategy", "of: {strategy: ESE}", "of: {strategy: LATE}", `strategy "LATE" is not in the experiment's sweeps`},
		{"an unknown metric", "metric: flowtime_small_mean", "metric: flowtime_median", `unknown metric "flowtime_median"`},
		{"an unknown level", "level: heavy", "level: heavier", `level "heavier" is not among`},
		{"an unknown option", "axis: sigma", "axis: sigmaa", "a trend claim needs an option column as its axis"},
	} {
		parseBroken(t, "speculative.yaml", good, c.name, c.from, c.to, c.want)
	}
}
