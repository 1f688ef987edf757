package sweep

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const smallGrid = `
pet: p.json
heuristics: [MM, mect]
prune: [none, both]
levels:
  - name: a
    trace: a/*.csv
  - name: b
    generate: {level: 5k}
    trials: 2
queue_size: [4, 6]
`

func mustParse(t *testing.T, yaml string) *Grid {
	t.Helper()
	g, err := ParseGrid([]byte(yaml), "grid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGridExpansion(t *testing.T) {
	g := mustParse(t, smallGrid)
	runs, err := g.Expand(map[string]int{"a": 3, "b": 2})
	if err != nil {
		t.Fatal(err)
	}
	// (3 + 2 trials) × 2 heuristics × 2 variants × 2 queue sizes.
	if len(runs) != 40 {
		t.Fatalf("%d runs, want 40", len(runs))
	}
	const rest = "|drop_model=evict|strict=false|condition_elapsed=true|trim=100|seed=1|engine=fast|toggle=threshold:1|lambda=1|drop_threshold=0.5|rho=0|defer=gap:0.25|fairness=0|kpb_percent=50|moc_cull=0.3|defer_at=after|drop_running=evict|sufferage_expired=false"
	want := map[int]string{
		0:  "level=a|heuristic=MM|prune=none|queue_size=4" + rest + "|trial=1",
		1:  "level=a|heuristic=MM|prune=none|queue_size=4" + rest + "|trial=2",
		3:  "level=a|heuristic=MM|prune=none|queue_size=6" + rest + "|trial=1",
		6:  "level=a|heuristic=MM|prune=both|queue_size=4" + rest + "|trial=1",
		12: "level=a|heuristic=MCT|prune=none|queue_size=4" + rest + "|trial=1", // mect is MCT's alias
		24: "level=b|heuristic=MM|prune=none|queue_size=4" + rest + "|trial=1",
		39: "level=b|heuristic=MCT|prune=both|queue_size=6" + rest + "|trial=2",
	}
	for i, key := range want {
		if runs[i].Key != key {
			t.Errorf("run %d: key\n%s\nwant\n%s", i, runs[i].Key, key)
		}
	}
	seen := map[string]bool{}
	for i, r := range runs {
		if r.Index != i {
			t.Errorf("run %d has index %d", i, r.Index)
		}
		if seen[r.Key] {
			t.Errorf("key %s twice", r.Key)
		}
		seen[r.Key] = true
		if !strings.HasPrefix(r.Key, r.Point+"|trial=") {
			t.Errorf("key %s does not extend point %s", r.Key, r.Point)
		}
	}
	r := runs[39]
	if r.Heuristic != "MCT" || r.Prune.String() != "both" || r.QueueSize != 6 || r.Trial != 2 || r.Level != "b" || r.Trim != 100 || r.Seed != 1 {
		t.Errorf("run 39 resolved to %+v", r)
	}
	again, _ := mustParse(t, smallGrid).Expand(map[string]int{"a": 3, "b": 2})
	for i := range runs {
		if again[i].Key != runs[i].Key {
			t.Fatalf("second expansion differs at %d: %s", i, again[i].Key)
		}
	}
}

// TestGridTooLarge: a sweep of more than maxSweepRuns runs is refused before any run is listed,
// whether its trials or its lists make it so, and even when its lists alone multiply past what
// an int holds (nine lists of ten values: 10⁹ points, each a valid value).
func TestGridTooLarge(t *testing.T) {
	g := mustParse(t, smallGrid) // 8 grid points per trial
	if _, err := g.Expand(map[string]int{"a": maxSweepRuns / 8, "b": 1}); err == nil ||
		!strings.Contains(err.Error(), fmt.Sprintf(`level "b" makes the sweep more than %d runs (1 trials of each grid point, and 8 grid points)`, maxSweepRuns)) {
		t.Errorf("a grid of %d runs: error %v", maxSweepRuns+8, err)
	}
	var lists strings.Builder
	for _, key := range []string{"lambda", "drop_threshold", "fairness", "moc_cull", "rho", "kpb_percent", "seed", "queue_size", "trim"} {
		var xs []string
		for v := 1; v <= 10; v++ {
			xs = append(xs, fmt.Sprintf("%g", float64(v)/10)) // in [0, 1]: valid for every key up to rho
			if key == "kpb_percent" || key == "seed" || key == "queue_size" || key == "trim" {
				xs[v-1] = strconv.Itoa(v)
			}
		}
		fmt.Fprintf(&lists, "%s: [%s]\n", key, strings.Join(xs, ", "))
	}
	g = mustParse(t, "pet: p\nheuristics: MM\n"+lists.String()+"levels:\n  - name: a\n    trace: x.csv\n")
	if err := g.Validate(); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("and more than %d grid points", maxSweepRuns)) {
		t.Errorf("a grid of 10⁹ points: Validate: %v", err) // it expands the grid to check its points
	}
	if _, err := g.Expand(map[string]int{"a": 1}); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("and more than %d grid points", maxSweepRuns)) {
		t.Errorf("a grid of 10⁹ points: error %v", err)
	}
}

// TestExampleGrid keeps docs/sweep-example.yaml, which the README links, valid.
func TestExampleGrid(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "sweep-example.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	g, err := ParseGrid(b, "sweep-example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	trials := map[string]int{}
	for _, lv := range g.Levels {
		trials[lv.Name] = lv.Trials
	}
	runs, err := g.Expand(trials)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 660 { // the count its header comment states, by hand
		t.Errorf("the example expands to %d runs, its comment says 660", len(runs))
	}
	gen := g.Levels[1].Generate
	if gen == nil || gen.Seed != 7 || gen.Tasks != 800 || gen.Pattern != "spiky" || gen.Period != 88200 {
		t.Errorf("generate block read as %+v", gen)
	}
}

func TestGridErrors(t *testing.T) {
	const levels = "levels:\n  - name: a\n    trace: x.csv\n"
	tests := []struct {
		name, yaml string
		want       []string
	}{
		{"unknown heuristic", "pet: p\nheuristics: [MM, XX]\n" + levels, []string{"grid.yaml:2: heuristics", `"XX"`}},
		{"unknown key", "pet: p\nheuristics: MM\nqueue_sise: 4\n" + levels, []string{"grid.yaml:3", `unknown key "queue_sise"`, "queue_size"}},
		{"unknown level key", "pet: p\nheuristics: MM\n" + levels + "    trails: 3\n", []string{"grid.yaml:6", `"trails"`, "levels[0]"}},
		{"unknown generate key", "pet: p\nheuristics: MM\nlevels:\n  - name: a\n    trials: 2\n    generate: {levle: 5k}\n", []string{"grid.yaml:6", `"levle"`, "levels[0].generate"}},
		{"level without source", "pet: p\nheuristics: MM\nlevels:\n  - name: a\n    trials: 3\n", []string{"grid.yaml:4: levels[0]", "either trace", "or generate"}},
		{"level with both", "pet: p\nheuristics: MM\nlevels:\n  - name: a\n    trace: x\n    generate: {level: 5k}\n    trials: 3\n", []string{"grid.yaml:4: levels[0]", "not both"}},
		{"generate without trials", "pet: p\nheuristics: MM\nlevels:\n  - name: a\n    generate: {level: 5k}\n", []string{"levels[0].trials", "missing"}},
		{"generate level and rate", "pet: p\nheuristics: MM\nlevels:\n  - name: a\n    trials: 1\n    generate: {level: 5k, rate: 2}\n", []string{"grid.yaml:6: levels[0].generate", "either level"}},
		{"too many generated tasks", "pet: p\nheuristics: MM\nlevels:\n  - name: a\n    trials: 1\n    generate: {level: 5k, tasks: 10000001}\n", []string{"grid.yaml:6: levels[0].generate.tasks", "10000001 tasks: want 1 to 10000000 per trial"}},
		{"too many generated trials", "pet: p\nheuristics: MM\nlevels:\n  - name: a\n    trials: 99999999999\n    generate: {level: 5k}\n", []string{"grid.yaml:5: levels[0].trials", "99999999999 trials of 800 tasks make the generated levels more than 28000000 tasks"}},
		{"generated levels too large together", "pet: p\nheuristics: MM\nlevels:\n  - name: a\n    trials: 10\n    generate: {level: 5k, tasks: 5000000}\n  - name: b\n    trials: 11\n    generate: {level: 5k, tasks: 5000000}\n", []string{"levels[1].trials", "11 trials of 5000000 tasks"}},
		{"bad generate level", "pet: p\nheuristics: MM\nlevels:\n  - name: a\n    trials: 1\n    generate:\n      level: lots\n", []string{"grid.yaml:7: levels[0].generate.level", `"lots"`}},
		{"one set of trials under two names", "pet: p\nheuristics: MM\nlevels:\n  - {name: 19k, trace: t/*.csv}\n  - {name: 25k, trace: t/*.csv}\n", []string{"grid.yaml:5: levels[1]", `the same trials as level "19k"`}},
		{"one generator under two names", "pet: p\nheuristics: MM\nlevels:\n  - {name: a, trials: 2, generate: {level: 5k}}\n  - {name: b, trials: 2, generate: {level: 5k}}\n", []string{"levels[1]", `the same trials as level "a"`}},
		{"deadline beside generate", "pet: p\nheuristics: MM\nlevels:\n  - name: a\n    trials: 1\n    deadline: tight\n    generate: {level: 5k}\n", []string{"grid.yaml:4: levels[0]", "go under generate"}},
		{"empty heuristics", "pet: p\nheuristics: []\n" + levels, []string{"grid.yaml:2: heuristics: empty list"}},
		{"empty option list", "pet: p\nheuristics: MM\nseed: []\n" + levels, []string{"grid.yaml:3: seed: empty list"}},
		{"empty levels", "pet: p\nheuristics: MM\nlevels: []\n", []string{"grid.yaml:3: levels: empty list"}},
		{"no heuristics", "pet: p\n" + levels, []string{"grid.yaml: heuristics: missing"}},
		{"no levels", "pet: p\nheuristics: MM\n", []string{"grid.yaml: levels: missing"}},
		{"no value", "pet: p\nheuristics: MM\ntoggle:\n" + levels, []string{"grid.yaml:3: toggle: no value"}},
		{"wrong type", "pet: p\nheuristics: MM\nqueue_size: [4, six]\n" + levels, []string{"grid.yaml:3: queue_size", `"six" is not a whole number`}},
		{"out of range", "pet: p\nheuristics: MM\ndrop_threshold: [0.5, 1.5]\n" + levels, []string{"grid.yaml:3: drop_threshold", "1.5 is outside [0, 1]"}},
		{"infinite rho", "pet: p\nheuristics: MM\nrho: [0, Inf]\n" + levels, []string{"grid.yaml:3: rho", "+Inf is outside [0, ∞)"}},
		{"bad toggle", "pet: p\nheuristics: MM\ntoggle: sometimes\n" + levels, []string{"grid.yaml:3: toggle", `"sometimes"`}},
		{"bad variant", "pet: p\nheuristics: MM\nprune: [none, half]\n" + levels, []string{"grid.yaml:3: prune", `"half"`}},
		{"duplicate value", "pet: p\nheuristics: MM\ntoggle: [schmitt:1, 'schmitt:1:0.8']\n" + levels, []string{"grid.yaml:3: toggle", "schmitt:1:0.8 appears twice"}},
		{"duplicate level", "pet: p\nheuristics: MM\n" + levels + "  - name: a\n    trace: y.csv\n", []string{"grid.yaml:6: levels[1].name", `"a" appears twice`}},
		{"duplicate key", "pet: p\nheuristics: MM\nheuristics: MSD\n" + levels, []string{"grid.yaml:3", `"heuristics" appears twice`}},
		{"not a mapping", "- MM\n", []string{"grid.yaml:1", "mapping"}},
		{"bad yaml", "pet: [p\n", []string{"grid.yaml"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := ParseGrid([]byte(tt.yaml), "grid.yaml")
			if err == nil {
				err = g.Validate()
			}
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestGridSet(t *testing.T) {
	g := NewGrid()
	for _, kv := range [][3]string{{"pet", "p.json", "--pet"}, {"heuristics", "MM,PAM", "-H"}, {"queue_size", "4, 6", "--set"}} {
		if err := g.Set(kv[0], kv[1], kv[2]); err != nil {
			t.Fatal(err)
		}
	}
	g.SetLevels([]Level{{Name: "x", Trace: "t.csv"}}, []string{"--trace x=t.csv"})
	runs, err := g.Expand(map[string]int{"x": 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 4 || runs[1].QueueSize != 6 || runs[2].Heuristic != "PAM" {
		t.Errorf("runs %+v", runs)
	}
	if err := g.Set("queue_size", "4,x", "--set queue_size=4,x"); err == nil || !strings.Contains(err.Error(), `--set queue_size=4,x: "x" is not a whole number`) {
		t.Errorf("bad value: %v", err)
	}
	if err := g.Set("levels", "x", "--set levels=x"); err == nil || !strings.Contains(err.Error(), "unknown grid key") {
		t.Errorf("levels: %v", err)
	}
	g.Set("heuristics", "MM,Nope", "-H")
	if err := g.Validate(); err == nil || !strings.HasPrefix(err.Error(), "-H: ") || !strings.Contains(err.Error(), "Nope") {
		t.Errorf("a bad value from a flag names the flag: %v", err)
	}
}

func TestParseShard(t *testing.T) {
	for _, s := range []string{"1/1", "2/3", "3/3"} {
		if sh, err := ParseShard(s); err != nil || sh.String() != s {
			t.Errorf("%s: %v %v", s, sh, err)
		}
	}
	for _, s := range []string{"0/2", "3/2", "1", "a/b", "1/0", ""} {
		if _, err := ParseShard(s); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
	sh := Shard{Index: 2, Count: 3}
	var got []int
	for i := range 7 {
		if sh.Has(i) {
			got = append(got, i)
		}
	}
	if len(got) != 2 || got[0] != 1 || got[1] != 4 {
		t.Errorf("shard 2/3 of 0..6 = %v, want [1 4]", got)
	}
}

// TestReadGrid: no file is an empty grid with no base; a file's relative paths are relative
// to its folder, made absolute; a missing file and a bad key are errors naming the file.
func TestReadGrid(t *testing.T) {
	if g, base, err := ReadGrid(""); err != nil || base != "" || g == nil || len(g.Levels) != 0 {
		t.Errorf(`ReadGrid("") = %v, %q, %v; want an empty grid, no base`, g, base, err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "g.yaml")
	if err := os.WriteFile(path, []byte("pet: pet.json\nheuristics: MM\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if g, base, err := ReadGrid(path); err != nil || base != dir || g.PET != "pet.json" {
		t.Errorf("ReadGrid(%s) = %+v, %q, %v; want pet.json relative to %s", path, g, base, err, dir)
	}
	if _, _, err := ReadGrid(filepath.Join(dir, "none.yaml")); err == nil || !strings.HasPrefix(err.Error(), "read grid "+filepath.Join(dir, "none.yaml")+": ") {
		t.Errorf("missing file: %v", err)
	}
	if err := os.WriteFile(path, []byte("pett: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ReadGrid(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("unknown key: %v, want an error naming %s", err, path)
	}
}
