package trace

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDeadlineRuleLimits: factors beyond MaxDeadlineFactor, negative urgency
// means and a negative min are refused by the parser, naming the parameter;
// the bounds themselves are accepted.
func TestDeadlineRuleLimits(t *testing.T) {
	cases := []struct {
		rule string
		want string // "" means accepted
	}{
		{"prop:1e308", "0 to 1e+06"},
		{"slack:1e308", "0 to 1e+06"},
		{"prop:1e6", ""},
		{"slack:1000000.5", "0 to 1e+06"},
		{"urgency:min=-1", "min -1"},
		{"urgency:min=1e308", "min 1e+308"},
		{"urgency:min=0", ""},
		{"urgency:high_mean=-1", "high_mean -1"},
		{"urgency:low_mean=-1", "low_mean -1"},
		{"urgency:low_mean=0", "low_mean 0"},
		{"urgency:high_var=1e308", "high_var 1e+308"},
		{"urgency:low_var=1e12", ""},
		{"urgency:low_share=2", "low_share 2"},
	}
	for _, c := range cases {
		_, err := ParseDeadlineRule(c.rule)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.rule, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want one with %q", c.rule, err, c.want)
		}
	}
}

// TestDeadlineChecksResult: a rule built in code is validated like a parsed
// one, and a deadline that would be infinite or before its arrival is an
// error, not a value.
func TestDeadlineChecksResult(t *testing.T) {
	tr := func() *Trace { return &Trace{Tasks: []Task{{Type: "a", Arrival: 5, Deadline: math.NaN()}}} }
	cases := []struct {
		name  string
		rule  DeadlineRule
		means TypeMeans
		want  string
	}{
		{"built alpha", DeadlineRule{Kind: "prop", Alpha: 1e308}, NewTypeMeans(map[string]float64{"a": 1}), "factor 1e+308"},
		{"built min", DeadlineRule{Kind: "urgency", Urgency: UrgencyParams{LowMean: 1, HighMean: 1, Min: -1}}, NewTypeMeans(map[string]float64{"a": 1}), "min -1"},
		{"negative mean", DeadlineRule{Kind: "tight"}, NewTypeMeans(map[string]float64{"a": -1}), "not before the arrival"},
		{"overflow", DeadlineRule{Kind: "prop", Alpha: 2}, NewTypeMeans(map[string]float64{"a": math.MaxFloat64}), "finite deadline"},
	}
	for _, c := range cases {
		x := tr()
		err := AssignDeadlines(x, c.rule, c.means, rand.New(rand.NewPCG(1, 1)), true)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q (deadline %v)", c.name, err, c.want, x.Tasks[0].Deadline)
		}
	}
}

// TestGenerateLimits: rates, weights and variances that would make the gamma
// sampler panic or the arrivals overflow are errors naming the cause.
func TestGenerateLimits(t *testing.T) {
	ab := []string{"a", "b"}
	means := NewTypeMeans(map[string]float64{"a": 1, "b": 1})
	cases := []struct {
		name string
		cfg  GenConfig
		want string
	}{
		{"rate huge", GenConfig{Types: ab, Rate: 1e308}, "rate 1e+308"},
		{"rate tiny", GenConfig{Types: ab, Rate: 1e-308}, "rate 1e-308"},
		{"span", GenConfig{Types: ab, Rate: 1e-13, Tasks: 800}, "span at most"},
		{"cv huge", GenConfig{Types: ab, Rate: 1, CV: 1e300}, "gamma shape"},
		{"cv tiny", GenConfig{Types: ab, Rate: 1, CV: 1e-300}, "gamma shape"},
		{"variance tiny", GenConfig{Types: ab, Rate: 1, VarianceRatio: 1e-308}, "gamma shape"},
		{"weight tiny", GenConfig{Types: ab, Rate: 1, Weights: []float64{1, 1e-300}}, `type "b"`},
		{"deadline factor", GenConfig{Types: ab, Rate: 1, Deadline: &DeadlineRule{Kind: "slack", Alpha: math.MaxFloat64}, Means: means}, "factor"},
		{"deadline before arrival", GenConfig{Types: ab, Rate: 1, Deadline: &DeadlineRule{Kind: "tight"},
			Means: NewTypeMeans(map[string]float64{"a": -1, "b": -1})}, "not before the arrival"},
	}
	for _, c := range cases {
		_, err := Generate(c.cfg, 1)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
	}
	if tr, err := Generate(GenConfig{Types: ab, Rate: MaxGenRate, Tasks: 10}, 1); err != nil || len(tr.Tasks) != 10 {
		t.Errorf("rate MaxGenRate: %v", err)
	}
}

// TestGenerateTrialsLimit: GenerateTrials holds every trial, so it refuses
// more than MaxGenTrials, or more than MaxGenTasks tasks in all.
func TestGenerateTrialsLimit(t *testing.T) {
	cases := []struct {
		n, tasks int
		ok       bool
	}{
		{0, 10, false},
		{MaxGenTrials + 1, 1, false},
		{MaxGenTasks/1000 + 1, 1000, false},
		{3, 10, true},
	}
	for _, c := range cases {
		trs, err := GenerateTrials(GenConfig{Types: []string{"a"}, Rate: 1, Tasks: c.tasks}, c.n)
		if c.ok && (err != nil || len(trs) != c.n) {
			t.Errorf("%d trials of %d: %d, %v", c.n, c.tasks, len(trs), err)
		}
		if !c.ok && (err == nil || !strings.Contains(err.Error(), "trials")) {
			t.Errorf("%d trials of %d: error %v, want one about trials", c.n, c.tasks, err)
		}
	}
}

// TestTrialPrefix: a prefix is a plain file name; WriteTrials writes nothing
// for any other.
func TestTrialPrefix(t *testing.T) {
	cases := []struct {
		prefix string
		ok     bool
	}{
		{"arr19k", true},
		{"a..b", true},
		{"../../etc/x", false},
		{"a/b", false},
		{`a\b`, false},
		{"..", false},
		{".", false},
		{"", false},
		{"a\x00b", false},
	}
	tr, err := Generate(GenConfig{Types: []string{"0"}, Rate: 1, Tasks: 3, Deadline: &DeadlineRule{Kind: "tight"},
		Means: NewTypeMeans(map[string]float64{"0": 1})}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		dir := t.TempDir()
		sub := filepath.Join(dir, "out")
		os.Mkdir(sub, 0o755)
		paths, err := WriteTrials(sub, c.prefix, "dat", []*Trace{tr}, WriteOptions{})
		if c.ok != (err == nil) {
			t.Errorf("prefix %q: error %v", c.prefix, err)
		}
		if !c.ok && (len(paths) > 0 || err == nil || !strings.Contains(err.Error(), "prefix")) {
			t.Errorf("prefix %q: wrote %v, error %v", c.prefix, paths, err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 1 {
			t.Errorf("prefix %q: %d entries beside the output folder", c.prefix, len(entries)-1)
		}
	}
}

// TestReadTimeBound: the readers' bound on times (MaxSeconds) is on the time itself, whatever
// the units of the file and of the values returned, and on its magnitude only: times up to it
// are read as they are, negative arrivals included.
func TestReadTimeBound(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, content string
		opt           ReadOptions
		arrival       float64 // NaN: refused
	}{
		{"negative arrival", "task_type,arrival,deadline\na,-5,3\n", ReadOptions{}, -5},
		{"at the bound in ms", "task_type,arrival,deadline\na,-1e15,1e15\n", ReadOptions{}, -1e15},
		{"past the bound in ms", "task_type,arrival,deadline\na,2e15,3e15\n", ReadOptions{}, math.NaN()},
		{"seconds at the bound", "# time_unit=s\ntask_type,arrival,deadline\na,1e12,1e12\n", ReadOptions{}, 1e15},
		{"seconds past the bound", "# time_unit=s\ntask_type,arrival,deadline\na,2e12,3e12\n", ReadOptions{}, math.NaN()},
		{"a month in ns", "task_type,arrival,deadline\na,2.6e15,2.7e15\n", ReadOptions{FileUnit: Nanosecond, Unit: Nanosecond}, 2.6e15},
		{"past the bound in ns", "task_type,arrival,deadline\na,2e21,3e21\n", ReadOptions{FileUnit: Nanosecond, Unit: Nanosecond}, math.NaN()},
		{"hours at the bound, returned in ms", "# time_unit=h\ntask_type,arrival\na,2.7e8\n", ReadOptions{}, 2.7e8 * 3.6e6},
	}
	for i, c := range cases {
		src := writeFile(t, dir, fmt.Sprintf("t%d.csv", i), []byte(c.content))
		tr, err := ReadTrace(src, c.opt)
		switch {
		case math.IsNaN(c.arrival):
			wantInputError(t, err, "beyond 1e+12 s")
		case err != nil:
			t.Errorf("%s: %v", c.name, err)
		case len(tr.Tasks) != 1 || tr.Tasks[0].Arrival != c.arrival:
			t.Errorf("%s: read %+v, want one task arriving at %g", c.name, tr.Tasks, c.arrival)
		}
	}
}
