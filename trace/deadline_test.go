package trace

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestDeadlineRulesByHand(t *testing.T) {
	means := NewTypeMeans(map[string]float64{"a": 10, "b": 30})
	if means.Global != 20 {
		t.Fatalf("global mean %v, want 20", means.Global)
	}
	cases := []struct {
		rule    string
		typ     string
		arrival float64
		want    float64
	}{
		{"tight", "a", 5, 15},                          // 5 + 10
		{"tight", "b", 0, 30},                          // 0 + 30
		{"prop", "a", 5, 35},                           // 5 + 10 + 1·20
		{"prop:0.5", "a", 5, 25},                       // 5 + 10 + 0.5·20
		{"prop:0", "b", 1, 31},                         // 1 + 30
		{"slack:2", "b", 1, 71},                        // 1 + 30 + 2·20
		{"SLACK:0.25", "a", 100, 115},                  // 100 + 10 + 5
		{"urgency:low_share=1,low_var=0", "a", 3, 23},  // 3 + 2·10
		{"urgency:low_share=0,high_var=0", "b", 3, 42}, // 3 + 1.3·30
		{"urgency:low_share=0,high_mean=0.2,high_var=0,min=0.5", "a", 1, 6}, // clamped at 0.5
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range cases {
		r, err := ParseDeadlineRule(c.rule)
		if err != nil {
			t.Fatalf("%s: %v", c.rule, err)
		}
		got, err := r.Deadline(c.typ, c.arrival, means, rng)
		if err != nil {
			t.Fatalf("%s: %v", c.rule, err)
		}
		if math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s type %s arrival %v: %v, want %v", c.rule, c.typ, c.arrival, got, c.want)
		}
		back, err := ParseDeadlineRule(r.String())
		if err != nil || back != r {
			t.Errorf("%s: String %q parses to %+v, %v", c.rule, r.String(), back, err)
		}
	}
	for _, bad := range []string{"", "loose", "tight:1", "prop:x", "prop:-1", "slack:NaN", "urgency:x=1", "urgency:low_share=2", "urgency:low_mean"} {
		if _, err := ParseDeadlineRule(bad); err == nil {
			t.Errorf("ParseDeadlineRule(%q) accepted", bad)
		}
	}
	r, _ := ParseDeadlineRule("tight")
	if _, err := r.Deadline("c", 0, means, nil); err == nil {
		t.Error("a type without a mean was accepted")
	}
	r, _ = ParseDeadlineRule("urgency")
	if _, err := r.Deadline("a", 0, means, nil); err == nil {
		t.Error("urgency without a random generator was accepted")
	}
}

// TestUrgencyDistribution checks the defaults statistically: the mean factor
// is the mixture mean of two normals clamped at 0, E[max(X,0)] = μΦ(μ/σ) +
// σφ(μ/σ), and the low-urgency share is 1/2.
func TestUrgencyDistribution(t *testing.T) {
	const n = 40000
	means := NewTypeMeans(map[string]float64{"a": 1})
	r, _ := ParseDeadlineRule("urgency")
	rng := rand.New(rand.NewPCG(7, 7))
	sum, sumSq := 0.0, 0.0
	for range n {
		f, err := r.Deadline("a", 0, means, rng)
		if err != nil {
			t.Fatal(err)
		}
		if f < 0 {
			t.Fatalf("factor %v below the floor", f)
		}
		sum += f
		sumSq += f * f
	}
	clampedMean := func(mu, variance float64) float64 {
		s := math.Sqrt(variance)
		z := mu / s
		return mu*0.5*math.Erfc(-z/math.Sqrt2) + s*math.Exp(-z*z/2)/math.Sqrt(2*math.Pi)
	}
	want := 0.5*clampedMean(2, 0.5) + 0.5*clampedMean(1.3, 0.5)
	mean := sum / n
	se := math.Sqrt((sumSq/n - mean*mean) / n)
	if math.Abs(mean-want) > 4*se {
		t.Errorf("mean factor %.4f, want %.4f ± %.4f", mean, want, 4*se)
	}

	// The class share, with the noise switched off so the class is visible.
	r, _ = ParseDeadlineRule("urgency:low_share=0.3,low_var=0,high_var=0")
	low := 0
	for range n {
		f, _ := r.Deadline("a", 0, means, rng)
		if f == 2 {
			low++
		}
	}
	p := float64(low) / n
	if tol := 4 * math.Sqrt(0.3*0.7/n); math.Abs(p-0.3) > tol {
		t.Errorf("low-urgency share %.4f, want 0.3 ± %.4f", p, tol)
	}
}

func TestAssignDeadlines(t *testing.T) {
	tr := &Trace{Tasks: []Task{
		{ID: 0, Type: "a", Arrival: 1, Deadline: math.NaN()},
		{ID: 1, Type: "b", Arrival: 2, Deadline: 99},
	}}
	means := NewTypeMeans(map[string]float64{"a": 10, "b": 30})
	rule, _ := ParseDeadlineRule("tight")
	if err := AssignDeadlines(tr, rule, means, nil, false); err != nil {
		t.Fatal(err)
	}
	if tr.Tasks[0].Deadline != 11 || tr.Tasks[1].Deadline != 99 {
		t.Errorf("deadlines %v %v, want 11 and the kept 99", tr.Tasks[0].Deadline, tr.Tasks[1].Deadline)
	}
	if err := AssignDeadlines(tr, rule, means, nil, true); err != nil || tr.Tasks[1].Deadline != 32 {
		t.Errorf("overwrite: %v %v", tr.Tasks[1].Deadline, err)
	}
}
