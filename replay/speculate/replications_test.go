package speculate

import (
	"strings"
	"testing"
)

func TestParseRange(t *testing.T) {
	for _, c := range []struct {
		in     string
		lo, hi float64
		bad    bool
	}{
		{in: "1:100", lo: 1, hi: 100},
		{in: " 2 : 3.5 ", lo: 2, hi: 3.5},
		{in: "4", lo: 4, hi: 4}, // one number for both
		{in: "5:4", bad: true},  // MIN > MAX
		{in: "1:Inf", bad: true},
		{in: "NaN", bad: true},
		{in: "1:x", bad: true},
		{in: "", bad: true},
	} {
		lo, hi, err := ParseRange("--mean", c.in)
		if c.bad {
			if err == nil || !strings.HasPrefix(err.Error(), "--mean ") {
				t.Errorf("ParseRange(%q) = %v, %v, %v; want an error naming --mean", c.in, lo, hi, err)
			}
			continue
		}
		if err != nil || lo != c.lo || hi != c.hi {
			t.Errorf("ParseRange(%q) = %v, %v, %v; want %v, %v", c.in, lo, hi, err, c.lo, c.hi)
		}
	}
}

func TestSyntheticSetReplications(t *testing.T) {
	paper := SyntheticSet{Rate: 6, Horizon: 1500, Alpha: 2, Machines: 3000, Tasks: "1:100", Mean: "1:4", UnitSeconds: 1, Seed: 7, Seeds: 3}
	reps, err := paper.Replications()
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 3 {
		t.Fatalf("%d replications, want one per seed (3)", len(reps))
	}
	for k, r := range reps {
		// Seeds 7, 8, 9, each the paper's workload (PaperWorkload) on 3000 machines, not yet made.
		if want := PaperWorkload(6, uint64(7+k)); r.Synthetic != want || r.Seed != uint64(7+k) {
			t.Errorf("replication %d: %+v seed %d, want %+v", k, r.Synthetic, r.Seed, want)
		}
		if r.Workload != nil || len(r.Machines) != 3000 || r.Label != "synthetic" || r.Horizon != 1500 {
			t.Errorf("replication %d: workload %v, %d machines, label %q, horizon %g", k, r.Workload, len(r.Machines), r.Label, r.Horizon)
		}
	}
	if err := reps[0].Generate(); err != nil || reps[0].Workload == nil {
		t.Fatalf("Generate: %v", err)
	}
	for _, c := range []struct {
		edit func(*SyntheticSet)
		want string
	}{
		{func(s *SyntheticSet) { s.Tasks = "0:5" }, "--tasks 0:5: want 1 ≤ MIN ≤ MAX"},
		{func(s *SyntheticSet) { s.Tasks = "1.5:5" }, "--tasks 1.5:5: want whole numbers"},
		{func(s *SyntheticSet) { s.Mean = "4:1" }, `--mean "4:1"`},
		{func(s *SyntheticSet) { s.Machines = 0 }, "--machines 0: want 1..1000000"},
		{func(s *SyntheticSet) { s.UnitSeconds = 0 }, "--unit 0: want"},
		{func(s *SyntheticSet) { s.Alpha = 1 }, "Pareto α = 1"}, // SyntheticOptions.Check's
	} {
		s := paper
		c.edit(&s)
		if _, err := s.Replications(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error with %q", s, err, c.want)
		}
	}
}
