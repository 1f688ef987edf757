package sweep

import (
	"os"
	"strings"
	"testing"
)

// readmeGrid is the small grid of the README, as the README shows it.
func readmeGrid(t *testing.T) *Grid {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "A small one:\n\n```yaml\n")
	block, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("README: no grid after \"A small one:\"")
	}
	return mustParse(t, block)
}

// TestReadmeGridDedup: the README's grid (MM, MSD, PAM, PAMF × none, both × two dropping
// thresholds, at a level of 30 trials and one of 10) asks for 4 × 2 × 2 × 40 = 640 runs. By hand:
// an unpruned MM, MSD or PAM reads no dropping threshold, so each is one grid point per level, not
// two (3); their pruned runs are two each (6); PAMF prunes under none as under both, so PAMF and
// PAMF-P are one mapper, two points (2). 11 points per level × 40 trials = 440 distinct replays,
// each listed once, and no two under different labels.
func TestReadmeGridDedup(t *testing.T) {
	g := readmeGrid(t)
	runs, err := g.Expand(map[string]int{"load1.5": 30, "spiky": 10}) // the tour's trace gen makes 30 trials
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 440 {
		t.Errorf("%d runs, want 440 by hand", len(runs))
	}
	points := map[string]int{}
	replays := map[pointKey]string{}
	for i, r := range runs {
		if r.Index != i {
			t.Errorf("run %d has index %d", i, r.Index)
		}
		if r.Trial == 1 {
			points[r.label()]++
		}
		k := r.pointKey()
		if r.Trial != 1 {
			continue
		}
		if other, dup := replays[k]; dup {
			t.Errorf("%s and %s are one replay", other, r.Key)
		}
		replays[k] = r.Key
	}
	want := map[string]int{"MM": 2, "MSD": 2, "PAM": 2, "MM-P": 4, "MSD-P": 4, "PAM-P": 4, "PAMF-P": 4} // per label, over both levels
	for label, n := range want {
		if points[label] != n {
			t.Errorf("%s: %d grid points, want %d (all: %v)", label, points[label], n, points)
		}
	}
}

// TestExpandCollapsesSameMapper: names that make one mapper at a grid point are run once, under the
// first label in the grid's order: with fairness [0, 0.1], PAMF (its own 0.1 when unset) is PAM-P
// at 0.1 at both of its points; options a heuristic does not read are not crossed with it (KPB's
// percent with MM), and a preset's tuning is what the row says (PUM drops at 0.75 whatever the
// grid says).
func TestExpandCollapsesSameMapper(t *testing.T) {
	g := mustParse(t, `
pet: p.json
heuristics: [PAM, PAMF, MM, KPB, PUM]
prune: both
fairness: [0, 0.1]
kpb_percent: [25, 50]
drop_threshold: [0.25, 0.5]
levels: [{name: a, trace: x}]
`)
	runs, err := g.Expand(map[string]int{"a": 1})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, r := range runs {
		got[r.label()]++
		if r.Heuristic == "PUM" && (r.DropThreshold != 0.75 || r.Defer.String() != "static:0.3") {
			t.Errorf("PUM's row says %v and %s, but PUM runs at 0.75 and static:0.3", r.DropThreshold, r.Defer)
		}
	}
	// PAM-P: 2 fairness × 2 thresholds; PAMF: none of its own; MM-P: 2 × 2 (kpb not crossed);
	// KPB-P: 2 × 2 × 2; PUM-P: fixes the threshold, so 2 fairness.
	want := map[string]int{"PAM-P": 4, "MM-P": 4, "KPB-P": 8, "PUM-P": 2}
	if len(got) != len(want) {
		t.Errorf("labels %v, want %v", got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: %d runs, want %d (all %v)", k, got[k], n, got)
		}
	}
}
