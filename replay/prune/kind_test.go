package prune

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
)

// TestKindCoversConfig: pruningKey holds every field of Config but IsMiss, so that a field added
// to Config cannot be left out of Kind, which would make two different mappers one kind.
func TestKindCoversConfig(t *testing.T) {
	cfg, key := reflect.TypeFor[Config](), reflect.TypeFor[pruningKey]()
	want := 0
	for f := range cfg.Fields() {
		if f.Name != "IsMiss" {
			want += fieldCount(f.Type)
		}
	}
	got := 0
	for f := range key.Fields() {
		got += fieldCount(f.Type)
	}
	if got != want {
		t.Fatalf("pruningKey holds %d values, Config (without IsMiss) %d: keep KindOf in step with Config", got, want)
	}
}

// fieldCount is how many plain values a type holds: the fields of a struct, else one.
func fieldCount(t reflect.Type) int {
	if t.Kind() != reflect.Struct {
		return 1
	}
	return t.NumField()
}

// TestSameKindSameRuns: every pair of names and variants that KindOf makes one kind replays
// alike, label apart (replayed, not taken on trust); the known pairs are found (PAMF-P is PAM-P
// once the fairness factor is set, PAMND-D is PAM-D, an alias is its heuristic), and names that
// differ are not made one (PAMF-P and PAM-P without the factor, PUM-P and PAM-P).
func TestSameKindSameRuns(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	run := replay.Config{PET: replaytest.RandomPET(r, 3, 3, 5, 16), Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}},
		Tasks: replaytest.RandomTasks(r, 150, 3, 1.2, 4, 30), Options: replay.DefaultOptions()}
	run.Options.Trim = 5
	var names []string
	for _, h := range heuristic.All() {
		names = append(names, h.Name)
		if h.Alias != "" {
			names = append(names, h.Alias)
		}
	}
	for _, p := range Presets() {
		names = append(names, p.Name)
	}
	type mapper struct {
		name string
		cfg  Config
	}
	p := heuristic.DefaultParams()
	found := map[float64]map[[2]string]bool{} // by fairness factor, the pairs of labels of one kind
	for _, fairness := range []float64{0, 0.05} {
		found[fairness] = map[[2]string]bool{}
		kinds := map[Kind][]mapper{}
		for _, name := range names {
			for _, v := range []Variant{None, Defer, Drop, Both} {
				cfg := DefaultConfig()
				cfg.Variant, cfg.Fairness = v, fairness
				k := KindOf(name, p, cfg)
				kinds[k] = append(kinds[k], mapper{name, cfg})
			}
		}
		for _, ms := range kinds {
			var first []byte
			var firstLabel string
			for _, m := range ms {
				mp, err := New(m.name, p, m.cfg)
				if err != nil {
					t.Fatal(err)
				}
				label := mp.Name()
				if label == firstLabel {
					continue // a preset asked for under two variants it overrides, as New labels it
				}
				res, err := replay.Run(t.Context(), run, mp)
				if err != nil {
					t.Fatal(err)
				}
				s := res.Summary
				s.Heuristic, s.Prune = "", ""
				js, _ := json.Marshal(s)
				if first == nil {
					first, firstLabel = js, label
					continue
				}
				pair := [2]string{firstLabel, label}
				slices.Sort(pair[:])
				found[fairness][pair] = true
				if string(js) != string(first) {
					t.Errorf("fairness %v: %s and %s are one kind, but replay differently:\n%s\n%s", fairness, firstLabel, label, first, js)
				}
			}
		}
	}
	for _, c := range []struct {
		fairness float64
		a, b     string
		same     bool
	}{
		{0.05, "PAM-P", "PAMF-P", true}, {0, "PAM-P", "PAMF-P", false}, // PAMF's own factor is 0.10
		{0.05, "PAM-D", "PAMND-D", true}, {0, "PAM-D", "PAMND-D", true},
		{0.05, "PAM-P", "PUM-P", false}, {0, "PAM-P", "PUM-P", false},
	} {
		if got := found[c.fairness][[2]string{c.a, c.b}]; got != c.same {
			t.Errorf("fairness %v: %s and %s of one kind %v, want %v", c.fairness, c.a, c.b, got, c.same)
		}
	}
	if KindOf("MECT", p, DefaultConfig()) != KindOf("mct", p, DefaultConfig()) {
		t.Error("MECT and mct: two kinds, want MCT's")
	}
}
