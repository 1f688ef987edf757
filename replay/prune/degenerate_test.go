package prune

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
)

// TestProblems: the combinations that prune every task are fatal, and Wrap refuses them; those
// that make a kind of pruning do nothing are warnings; ordinary ones, the papers' included, are
// neither. The cases are worked by hand from the rule that a task is pruned when its chance is at
// or below its threshold.
func TestProblems(t *testing.T) {
	cfg := func(v Variant, drop float64, rule string, tune ...func(*Config)) Config {
		c := DefaultConfig()
		c.Variant, c.DropThreshold = v, drop
		var err error
		if c.Defer, err = ParseDeferRule(rule); err != nil {
			t.Fatal(err)
		}
		for _, f := range tune {
			f(&c)
		}
		return c
	}
	never := func(c *Config) { c.Toggle = Toggle{Kind: "never"} }
	tests := []struct {
		name  string
		cfg   Config
		fatal bool
		warn  bool
		opts  string // the options named, comma-separated
	}{
		{"defaults", DefaultConfig(), false, false, ""},
		{"issue 46: 0.75 + gap 0.25 = 1", cfg(Both, 0.75, "gap:0.25"), true, false, "drop_threshold,defer"},
		{"0.7 + gap 0.3, 1 only on paper", cfg(Both, 0.7, "gap:0.3"), true, false, "drop_threshold,defer"},
		{"0.75 + gap 0.2 = 0.95", cfg(Both, 0.75, "gap:0.2"), false, false, ""},
		{"defer only, 0.8 + gap 0.25", cfg(Defer, 0.8, "gap:0.25"), true, false, "drop_threshold,defer"},
		{"drop only ignores the deferring rule", cfg(Drop, 0.75, "gap:0.25"), false, false, ""},
		{"static 1", cfg(Both, 0.5, "static:1"), true, false, "defer"},
		{"static 1 unpruned", cfg(None, 0.5, "static:1"), false, false, ""},
		{"the thesis: static 0.75 at 0.75", cfg(Both, 0.75, "static:0.75"), false, false, ""},
		{"dynamic from 1 that cannot move", cfg(Both, 0.75, "dynamic:0"), true, false, "drop_threshold,defer"},
		{"dynamic from 1 that moves", cfg(Both, 0.75, "dynamic:0.05"), false, false, ""},
		{"dynamic floored at 1", cfg(Defer, 1, "dynamic:0.1"), true, false, "drop_threshold,defer"},
		{"dropping at 1", cfg(Drop, 1, "static:0.5"), true, false, "drop_threshold"},
		{"dropping at 1, never engaged", cfg(Drop, 1, "static:0.5", never), false, true, "toggle"},
		{"dropping at 0", cfg(Drop, 0, "static:0.5"), false, true, "drop_threshold"},
		{"deferring at 0", cfg(Defer, 0.5, "static:0"), false, true, "defer"},
		{"deferring at 0 + 0", cfg(Both, 0, "gap:0"), false, true, "drop_threshold,defer,drop_threshold"},
		{"toggle never", cfg(Both, 0.5, "gap:0.25", never), false, true, "toggle"},
		{"λ 0 freezes the level", cfg(Drop, 0.5, "gap:0.25", func(c *Config) { c.Lambda = 0 }), false, true, "lambda,toggle"},
		{"λ 0 freezes the level below a Schmitt trigger too", cfg(Drop, 0.5, "gap:0.25", func(c *Config) { c.Lambda, c.Toggle = 0, Toggle{Kind: "schmitt", On: 1, Off: 0.8} }), false, true, "lambda,toggle"},
		{"λ 0 with toggle 0 engages", cfg(Drop, 0.5, "gap:0.25", func(c *Config) { c.Lambda, c.Toggle = 0, Toggle{Kind: "threshold"} }), false, false, ""},
		{"ρ lifts the head to 1", cfg(Drop, 0.5, "gap:0.25", func(c *Config) { c.Rho = 0.5 }), false, true, "drop_threshold,rho"},
		{"ρ below", cfg(Drop, 0.5, "gap:0.25", func(c *Config) { c.Rho = 0.4 }), false, false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var fatal, warn bool
			var opts []string
			for _, p := range tt.cfg.Problems() {
				fatal, warn = fatal || p.Fatal, warn || !p.Fatal
				opts = append(opts, p.Options...)
				if msg := p.String(); !strings.Contains(msg, p.Options[0]+" "+p.Values[0]) {
					t.Errorf("message %q does not name %s", msg, p.Options[0])
				}
			}
			if fatal != tt.fatal || warn != tt.warn || strings.Join(opts, ",") != tt.opts {
				t.Errorf("fatal %v, warning %v, options %q; want %v, %v, %q", fatal, warn, opts, tt.fatal, tt.warn, tt.opts)
			}
			_, err := Wrap(mm(t), tt.cfg)
			if (err != nil) != tt.fatal {
				t.Errorf("Wrap: %v, want an error: %v", err, tt.fatal)
			}
		})
	}
}

// TestProblemNumbers: a problem's message writes its numbers as the user would, to 1e-9:
// 0.75 + gap 0.25 reads "0.75 + 0.25 ≥ 1" and asks for "G < 0.25" (1 − 0.75); 0.7 + gap 0.3,
// 1 only on paper (0.9999999999999999), reads "0.7 + 0.3 ≥ 1" and "G < 0.3", not 1 − 0.7 =
// 0.30000000000000004. MOC's cull is named as given, 1.25 too (which Params.Validate refuses,
// but MapperProblems does not ask it to).
func TestProblemNumbers(t *testing.T) {
	for _, c := range []struct {
		drop float64
		gap  string
		want []string
	}{
		{0.75, "gap:0.25", []string{"drop_threshold 0.75 with defer gap:0.25: ", "0.75 + 0.25 ≥ 1", "G < 0.25)"}},
		{0.7, "gap:0.3", []string{"drop_threshold 0.7 with defer gap:0.3: ", "0.7 + 0.3 ≥ 1", "G < 0.3)"}},
	} {
		cfg := DefaultConfig()
		cfg.Variant, cfg.DropThreshold = Both, c.drop
		var err error
		if cfg.Defer, err = ParseDeferRule(c.gap); err != nil {
			t.Fatal(err)
		}
		ps := cfg.Problems()
		if len(ps) != 1 {
			t.Fatalf("%v + %s: problems %v, want one", c.drop, c.gap, ps)
		}
		for _, w := range c.want {
			if msg := ps[0].String(); !strings.Contains(msg, w) {
				t.Errorf("%v + %s: %q lacks %q", c.drop, c.gap, msg, w)
			}
		}
	}
	p := heuristic.DefaultParams()
	p.MOCCull = 1.25
	ps := MapperProblems("MOC", p, DefaultConfig())
	if len(ps) != 1 || !slices.Equal(ps[0].Values, []string{"1.25"}) {
		t.Errorf("MOC at cull 1.25: problems %v, want one naming moc_cull 1.25", ps)
	}
}

// TestDeferringAtOneScoresNothing is the oracle of the fatal rule, without it: a pruner built by
// hand around the check, deferring at 0.75 + 0.25, maps no task, and every task expires unmapped;
// at 0.75 + 0.2 the same workload has tasks on time.
func TestDeferringAtOneScoresNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(46, 3))
	run := replay.Config{PET: replaytest.RandomPET(r, 3, 3, 5, 16), Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}},
		Tasks: replaytest.RandomTasks(r, 150, 3, 0.5, 4, 30), Options: replay.DefaultOptions()}
	run.Options.Trim = 0
	for _, gap := range []float64{0.25, 0.2} {
		cfg := DefaultConfig()
		cfg.DropThreshold, cfg.Defer = 0.75, DeferRule{Kind: "gap", Value: gap}
		p := &Pruner{inner: mm(t), cfg: cfg, sufferage: map[int]float64{}}
		p.deferAt = p.staticDefer()
		res, err := replay.Run(t.Context(), run, p)
		if err != nil {
			t.Fatal(err)
		}
		s := res.Summary
		if degenerate := s.OnTime == 0 && s.ExpiredUnmapped == s.Tasks; degenerate != (gap == 0.25) {
			t.Errorf("gap %v: %d on time, %d of %d expired unmapped; want all expired only at a sum of 1", gap, s.OnTime, s.ExpiredUnmapped, s.Tasks)
		}
	}
}

func mm(t *testing.T) replay.Mapper {
	t.Helper()
	h, err := heuristic.Lookup("MM")
	if err != nil {
		t.Fatal(err)
	}
	return h.New(heuristic.DefaultParams())
}

// TestMOCCullOne: MOC with a cull of 1 is fatal, MOCA (its own cull, 0.75) and MM (no cull) are
// not; the oracle, without the check: MOC built with a cull of 1 maps no task of a workload that
// MOC at 0.99 serves.
func TestMOCCullOne(t *testing.T) {
	p := heuristic.DefaultParams()
	p.MOCCull = 1
	for name, fatal := range map[string]bool{"MOC": true, "moca": false, "MM": false} {
		got := false
		for _, pr := range MapperProblems(name, p, DefaultConfig()) {
			got = got || pr.Fatal
		}
		if _, err := New(name, p, DefaultConfig()); got != fatal || (err != nil) != fatal {
			t.Errorf("%s at cull 1: fatal %v, New: %v; want fatal %v", name, got, err, fatal)
		}
	}
	r := rand.New(rand.NewPCG(46, 9))
	run := replay.Config{PET: replaytest.RandomPET(r, 3, 3, 5, 16), Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}},
		Tasks: replaytest.RandomTasks(r, 100, 3, 0.3, 4, 60), Options: replay.DefaultOptions()}
	run.Options.Trim = 0
	moc, err := heuristic.Lookup("MOC")
	if err != nil {
		t.Fatal(err)
	}
	for _, cull := range []float64{1, 0.99} {
		p.MOCCull = cull
		res, err := replay.Run(t.Context(), run, moc.New(p))
		if err != nil {
			t.Fatal(err)
		}
		if s := res.Summary; (s.ExpiredUnmapped == s.Tasks) != (cull == 1) {
			t.Errorf("cull %v: %d of %d tasks expired unmapped; want all only at 1", cull, s.ExpiredUnmapped, s.Tasks)
		}
	}
}
