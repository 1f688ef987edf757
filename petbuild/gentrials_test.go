package petbuild

import (
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/trace"
)

func TestTrialsSpecConfig(t *testing.T) {
	pet := meansPET(t)
	rate := 0.25
	base := TrialsSpec{Tasks: 800, Trials: 30, Pattern: "constant", Deadline: "prop:1", Seed: 3,
		Arrivals: trace.RateSpec{Rate: &rate, Period: 88200}}
	cfg, prefix, err := base.Config(pet, 1)
	if err != nil {
		t.Fatal(err)
	}
	if prefix != "rate0.25" || cfg.Rate != 0.25 || cfg.Tasks != 800 || cfg.Seed != 3 || cfg.Unit != "ms" ||
		len(cfg.Types) != 2 || cfg.Deadline == nil || cfg.Pattern != "constant" {
		t.Errorf("config %+v, prefix %q", cfg, prefix)
	}
	named := base
	named.Prefix = "mine"
	if _, prefix, err := named.Config(pet, 1); err != nil || prefix != "mine" {
		t.Errorf("--prefix mine: %q, %v", prefix, err)
	}
	for _, c := range []struct {
		edit func(*TrialsSpec)
		want string
	}{
		{func(s *TrialsSpec) { s.Tasks = 0 }, "--tasks 0: want 1 to"},
		{func(s *TrialsSpec) { s.Trials = 0 }, "--trials 0: want 1 to"},
		// 10,000 trials of 200,000 tasks: 2·10⁹ tasks, twice MaxGenTotalTasks.
		{func(s *TrialsSpec) { s.Trials, s.Tasks = 10_000, 200_000 }, "--trials 10000: want 1 to 10000, and at most 1000000000 tasks in all"},
		{func(s *TrialsSpec) { s.Prefix = "a/b" }, "--prefix: "},
		{func(s *TrialsSpec) { s.Deadline = "bogus" }, "--deadline: "},
		{func(s *TrialsSpec) { s.Arrivals.Period = -1 }, "--period -1"},
	} {
		s := base
		c.edit(&s)
		if _, _, err := s.Config(pet, 1); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", s, err, c.want)
		}
	}
}

// TestTrialsSpecConfigBounds: the bounds themselves are allowed: one trial of one task,
// trace.MaxGenTasks tasks, trace.MaxGenTrials trials, and trials × tasks exactly
// MaxGenTotalTasks (10,000 × 100,000 and 100 × 10,000,000 are both 10⁹); one more is refused.
func TestTrialsSpecConfigBounds(t *testing.T) {
	pet := meansPET(t)
	rate := 0.25
	for _, c := range []struct {
		tasks, trials int
		ok            bool
	}{
		{1, 1, true},
		{trace.MaxGenTasks, 100, true},
		{100_000, trace.MaxGenTrials, true},
		{trace.MaxGenTasks + 1, 1, false},
		{1, trace.MaxGenTrials + 1, false},
		{trace.MaxGenTasks, 101, false},
	} {
		s := TrialsSpec{Tasks: c.tasks, Trials: c.trials, Pattern: "constant", Deadline: "prop:1",
			Arrivals: trace.RateSpec{Rate: &rate, Period: 88200}}
		cfg, _, err := s.Config(pet, 1)
		if (err == nil) != c.ok || (c.ok && cfg.Tasks != c.tasks) {
			t.Errorf("%d trials of %d tasks: tasks %d, error %v; want ok %v", c.trials, c.tasks, cfg.Tasks, err, c.ok)
		}
	}
}
