package trace

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// interArrivals groups the gaps between consecutive arrivals of each type.
func interArrivals(tr *Trace) map[string][]float64 {
	last := map[string]float64{}
	gaps := map[string][]float64{}
	for _, t := range tr.Tasks {
		if prev, ok := last[t.Type]; ok {
			gaps[t.Type] = append(gaps[t.Type], t.Arrival-prev)
		}
		last[t.Type] = t.Arrival
	}
	return gaps
}

func meanVar(xs []float64) (float64, float64) {
	m := 0.0
	for _, x := range xs {
		m += x
	}
	m /= float64(len(xs))
	v := 0.0
	for _, x := range xs {
		v += (x - m) * (x - m)
	}
	return m, v / float64(len(xs)-1)
}

// TestGeneratorMatchesRequest checks rate, dispersion and mix against what
// was asked, within 4 standard errors derived from the sample sizes.
func TestGeneratorMatchesRequest(t *testing.T) {
	for _, c := range []struct {
		name string
		cfg  GenConfig
	}{
		{"literal var=0.1·mean", GenConfig{Rate: 0.2}},
		{"cv=0.1", GenConfig{Rate: 0.2, CV: 0.1}},
		{"cv=1", GenConfig{Rate: 0.2, CV: 1}},
		{"cv=2 seconds", GenConfig{Rate: 5, CV: 2, Unit: Second}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg
			cfg.Types = []string{"a", "b", "c", "d"}
			cfg.Weights = []float64{1, 2, 3, 4}
			cfg.Tasks = 24000
			cfg.Seed = 42
			tr, err := Generate(cfg, 1)
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Tasks) != cfg.Tasks {
				t.Fatalf("%d tasks", len(tr.Tasks))
			}
			for i, task := range tr.Tasks {
				if task.ID != int64(i) || (i > 0 && task.Arrival < tr.Tasks[i-1].Arrival) || task.HasDeadline() {
					t.Fatalf("task %d: %+v", i, task)
				}
			}
			gaps := interArrivals(tr)
			n := float64(cfg.Tasks)
			worstCV2 := 0.0
			for i, typ := range cfg.Types {
				w := cfg.Weights[i] / 10
				mu := 1 / (cfg.Rate * w)
				variance := 0.1 * mu
				if cfg.CV > 0 {
					variance = cfg.CV * cfg.CV * mu * mu
				}
				cv2 := variance / (mu * mu)
				worstCV2 = max(worstCV2, cv2)
				g := gaps[typ]
				k := float64(len(g))
				m, v := meanVar(g)
				if se := math.Sqrt(variance / k); math.Abs(m-mu) > 4*se {
					t.Errorf("type %s: mean gap %.5g, want %.5g ± %.3g", typ, m, mu, 4*se)
				}
				// SE of the sample variance of a gamma sample: excess kurtosis 6/shape.
				shape := 1 / cv2
				if se := variance * math.Sqrt(2/(k-1)+6/shape/k); math.Abs(v-variance) > 4*se {
					t.Errorf("type %s: gap variance %.5g, want %.5g ± %.3g", typ, v, variance, 4*se)
				}
				// Mix: counts of a renewal stream vary like Poisson × CV².
				got := float64(len(g) + 1)
				if tol := 4 * math.Sqrt(n*w*(1-w)*max(1, cv2)); math.Abs(got-n*w) > tol {
					t.Errorf("type %s: %v tasks, want %v ± %.1f", typ, got, n*w, tol)
				}
			}
			span := tr.Tasks[len(tr.Tasks)-1].Arrival - tr.Tasks[0].Arrival
			rate := (n - 1) / span
			if tol := 4 * math.Sqrt(worstCV2/n); math.Abs(rate/cfg.Rate-1) > tol {
				t.Errorf("rate %.5g, want %.5g (relative tolerance %.3g)", rate, cfg.Rate, tol)
			}
		})
	}
}

func TestGeneratorSpiky(t *testing.T) {
	cfg := GenConfig{Types: []string{"x", "y", "z"}, Rate: 0.3, Tasks: 30000, CV: 1, Pattern: Spiky, Seed: 3}
	tr, err := Generate(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := DefaultSpiky()
	cycle := s.OnDuration + s.OffDuration
	off := cycle / (s.PeakRatio*s.OnDuration + s.OffDuration)
	pOn := s.PeakRatio * off * s.OnDuration / cycle // share of arrivals in on-peak windows
	on := 0
	for _, task := range tr.Tasks {
		if math.Mod(task.Arrival, cycle) < s.OnDuration {
			on++
		}
	}
	n := float64(len(tr.Tasks))
	if tol := 4 * math.Sqrt(pOn*(1-pOn)/n); math.Abs(float64(on)/n-pOn) > tol {
		t.Errorf("share on peak %.4f, want %.4f ± %.4f", float64(on)/n, pOn, tol)
	}
	span := tr.Tasks[len(tr.Tasks)-1].Arrival - tr.Tasks[0].Arrival
	rate := (n - 1) / span
	if tol := 4/math.Sqrt(n) + cycle/span; math.Abs(rate/cfg.Rate-1) > tol {
		t.Errorf("mean rate %.5g, want %.5g (relative tolerance %.3g)", rate, cfg.Rate, tol)
	}
}

func TestGeneratorDeterminism(t *testing.T) {
	rule, _ := ParseDeadlineRule("urgency")
	cfg := GenConfig{
		Types: []string{"0", "1", "2"}, Rate: 0.05, Tasks: 500, Seed: 11, Pattern: Spiky,
		Deadline: &rule, Means: NewTypeMeans(map[string]float64{"0": 10, "1": 20, "2": 30}),
	}
	a, err := GenerateTrials(cfg, 4)
	if err != nil {
		t.Fatal(err)
	}
	b, err := GenerateTrials(cfg, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed gave different trials")
	}
	one, _ := Generate(cfg, 3)
	if !reflect.DeepEqual(one, a[2]) {
		t.Error("trial 3 depends on how many trials are generated")
	}
	if reflect.DeepEqual(a[0].Tasks, a[1].Tasks) {
		t.Error("trials 1 and 2 are equal")
	}
	cfg.Seed = 12
	c, _ := Generate(cfg, 1)
	if reflect.DeepEqual(c.Tasks, a[0].Tasks) {
		t.Error("seeds 11 and 12 gave the same trial")
	}

	// Identical files, in the HCW19 layout and natively.
	dir := t.TempDir()
	for _, ext := range []string{"dat", "csv", "parquet"} {
		p1, p2 := filepath.Join(dir, "1."+ext), filepath.Join(dir, "2."+ext)
		if err := WriteTrace(p1, a[0], WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if err := WriteTrace(p2, b[0], WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		x, _ := os.ReadFile(p1)
		y, _ := os.ReadFile(p2)
		if len(x) == 0 || !bytes.Equal(x, y) {
			t.Errorf("%s: files differ", ext)
		}
	}
}

func TestGeneratorDeadlinesAndDat(t *testing.T) {
	rule, _ := ParseDeadlineRule("prop:1")
	means := NewTypeMeans(map[string]float64{"fft": 40, "sort": 80})
	cfg := GenConfig{Types: []string{"fft", "sort"}, Rate: 0.1, Tasks: 300, Seed: 1, Deadline: &rule, Means: means}
	tr, err := Generate(cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range tr.Tasks {
		if want := task.Arrival + means.PerType[task.Type] + 60; math.Abs(task.Deadline-want) > 1e-9 {
			t.Fatalf("task %+v: deadline, want %v", task, want)
		}
	}
	// .dat stores type indexes; TypeIndex names them.
	p := filepath.Join(t.TempDir(), "trial_1.dat")
	if err := WriteTrace(p, tr, WriteOptions{}); err == nil {
		t.Error("type names that are not indexes were written to .dat without a TypeIndex")
	}
	if err := WriteTrace(p, tr, WriteOptions{TypeIndex: cfg.Types}); err != nil {
		t.Fatal(err)
	}
	back, err := ReadTrace(fileSource(p), ReadOptions{KnownTaskTypes: []string{"0", "1"}})
	if err != nil {
		t.Fatal(err)
	}
	for i, task := range back.Tasks {
		if want := map[string]string{"fft": "0", "sort": "1"}[tr.Tasks[i].Type]; task.Type != want || task.Arrival != tr.Tasks[i].Arrival {
			t.Fatalf("task %d: %+v, want type %s", i, task, want)
		}
	}
	// Read with the same TypeIndex, the .dat gives the names back; an index beyond it is an
	// error naming the index.
	named, err := ReadTrace(fileSource(p), ReadOptions{TypeIndex: cfg.Types, KnownTaskTypes: cfg.Types})
	if err != nil {
		t.Fatal(err)
	}
	for i, task := range named.Tasks {
		if task.Type != tr.Tasks[i].Type {
			t.Fatalf("task %d read with the type index: type %q, want %q", i, task.Type, tr.Tasks[i].Type)
		}
	}
	if _, err := ReadTrace(fileSource(p), ReadOptions{TypeIndex: cfg.Types[:1]}); err == nil || !strings.Contains(err.Error(), `"1" is not a task type index`) {
		t.Errorf("index 1 with a one-name TypeIndex: %v", err)
	}
}

func TestLevelRateAndConfigErrors(t *testing.T) {
	if r, err := LevelRate("19k", 0); err != nil || r != 19000/DefaultPeriod {
		t.Errorf("19k: %v %v", r, err)
	}
	if r, err := LevelRate(" 2.5K ", 1000); err != nil || r != 2.5 {
		t.Errorf("2.5K per 1000: %v %v", r, err)
	}
	if r, err := LevelRate("900", 100); err != nil || r != 9 {
		t.Errorf("900 per 100: %v %v", r, err)
	}
	for _, bad := range []string{"", "k", "x", "-1k", "0", "NaNk"} {
		if _, err := LevelRate(bad, 0); err == nil {
			t.Errorf("LevelRate(%q) accepted", bad)
		}
	}
	for name, cfg := range map[string]GenConfig{
		"no types":       {Rate: 1},
		"duplicate type": {Types: []string{"a", "a"}, Rate: 1},
		"weights":        {Types: []string{"a"}, Weights: []float64{1, 2}, Rate: 1},
		"zero weights":   {Types: []string{"a"}, Weights: []float64{0}, Rate: 1},
		"no rate":        {Types: []string{"a"}},
		"pattern":        {Types: []string{"a"}, Rate: 1, Pattern: "wavy"},
		"spiky shape":    {Types: []string{"a"}, Rate: 1, Pattern: Spiky, Spiky: SpikyShape{OnDuration: 1, OffDuration: 1, PeakRatio: 0.5}},
		"unit":           {Types: []string{"a"}, Rate: 1, Unit: "fortnight"},
		"deadline means": {Types: []string{"a"}, Rate: 1, Deadline: &DeadlineRule{Kind: "tight"}},
		"too many tasks": {Types: []string{"a"}, Rate: 1, Tasks: MaxGenTasks + 1},
		"cv NaN":         {Types: []string{"a"}, Rate: 1, CV: math.NaN()},
		"cv Inf":         {Types: []string{"a"}, Rate: 1, CV: math.Inf(1)},
		"cv negative":    {Types: []string{"a"}, Rate: 1, CV: -0.5},
		"variance Inf":   {Types: []string{"a"}, Rate: 1, VarianceRatio: math.Inf(1)},
		"spiky Inf":      {Types: []string{"a"}, Rate: 1, Pattern: Spiky, Spiky: SpikyShape{OnDuration: math.Inf(1), OffDuration: 1, PeakRatio: 2}},
	} {
		if _, err := Generate(cfg, 1); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestGeneratorStationaryStart: each type's first arrival is its stream's
// forward-recurrence time, of mean μ(1+CV²)/2: μ for Poisson streams (CV 1),
// about μ/2 for regular ones; a stream started at 0 would give μ.
func TestGeneratorStationaryStart(t *testing.T) {
	for _, cv := range []float64{1, 0.1} {
		cfg := GenConfig{Types: []string{"a", "b"}, Rate: 0.1, Tasks: 60, CV: cv, Seed: 5}
		mu := 2 / cfg.Rate
		const trials = 3000
		var firsts []float64
		for trial := 1; trial <= trials; trial++ {
			tr, err := Generate(cfg, trial)
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]bool{}
			for _, task := range tr.Tasks {
				if !seen[task.Type] {
					seen[task.Type] = true
					firsts = append(firsts, task.Arrival)
				}
			}
		}
		m, v := meanVar(firsts)
		want := mu * (1 + cv*cv) / 2
		if se := math.Sqrt(v / float64(len(firsts))); math.Abs(m-want) > 4*se {
			t.Errorf("cv %v: mean first arrival %.3f, want %.3f ± %.3f", cv, m, want, 4*se)
		}
	}
}

func TestParsePatternAndWriteTrials(t *testing.T) {
	if p, _, err := ParsePattern("constant"); err != nil || p != Constant {
		t.Errorf("constant: %v %v", p, err)
	}
	p, shape, err := ParsePattern("spiky:on=50,ratio=4")
	if err != nil || p != Spiky || shape != (SpikyShape{OnDuration: 50, OffDuration: 396, PeakRatio: 4}) {
		t.Errorf("spiky: %v %+v %v", p, shape, err)
	}
	for _, bad := range []string{"wavy", "constant:1", "spiky:on=0", "spiky:ratio=0.5", "spiky:up=3", "spiky:on"} {
		if _, _, err := ParsePattern(bad); err == nil {
			t.Errorf("ParsePattern(%q) accepted", bad)
		}
	}
	rule, _ := ParseDeadlineRule("tight")
	cfg := GenConfig{Types: []string{"0", "1"}, Rate: 0.1, Tasks: 10, Deadline: &rule, Means: NewTypeMeans(map[string]float64{"0": 1, "1": 2})}
	trials, err := GenerateTrials(cfg, 3)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	paths, err := WriteTrials(dir, "arr1k", "dat", trials, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadTraces(filepath.Join(dir, "arr1k_*.dat"), ReadOptions{Strict: true})
	if err != nil || len(paths) != 3 || len(got) != 3 || filepath.Base(paths[2]) != "arr1k_3.dat" {
		t.Fatalf("paths %v, %d traces, %v", paths, len(got), err)
	}
	for i := range got {
		if got[i].Tasks[0].Arrival != trials[i].Tasks[0].Arrival {
			t.Errorf("trial %d differs after writing", i+1)
		}
	}
}
