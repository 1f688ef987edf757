package petbuild

import (
	"math"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/trace"
)

// pointPET is a PET in ms whose cells are point masses at means[task][machine].
func pointPET(t *testing.T, means [][]float64) *PET {
	t.Helper()
	var cells []Cell
	for _, row := range means {
		for _, m := range row {
			d, _, err := pmf.FromWeights(m, 10, []float64{1})
			if err != nil {
				t.Fatal(err)
			}
			cells = append(cells, Cell{PMF: d})
		}
	}
	p, err := New([]string{"a", "b"}, []string{"cpu", "gpu"}, "ms", cells)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// The expected loads are worked out by hand from point-mass cells: on machines cpu, gpu, gpu,
// type a takes (10+20+20)/3 = 50/3 ms on average and type b (30+50+50)/3 = 130/3 ms.
func TestMeanExec(t *testing.T) {
	p := pointPET(t, [][]float64{{10, 20}, {30, 50}})
	machines := []int{0, 1, 1}
	cases := []struct {
		name    string
		weights map[string]float64
		want    float64
		wantErr bool
	}{
		{"even", nil, (50.0/3 + 130.0/3) / 2, false},
		{"mix 3:1", map[string]float64{"a": 3, "b": 1}, (3*50.0/3 + 130.0/3) / 4, false},
		{"unknown type", map[string]float64{"zip": 1}, 0, true},
		{"no tasks", map[string]float64{"a": 0}, 0, true},
	}
	for _, c := range cases {
		got, err := p.MeanExec(machines, c.weights)
		if (err != nil) != c.wantErr || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: MeanExec = %v, %v; want %v (error %v)", c.name, got, err, c.want, c.wantErr)
		}
	}
	if _, err := p.MeanExec(nil, nil); err == nil {
		t.Error("MeanExec without machines: no error")
	}
}

func TestTraceLoad(t *testing.T) {
	p := pointPET(t, [][]float64{{10, 20}, {30, 50}})
	machines := []int{0, 1, 1}
	task := func(typ string, at float64) trace.Task { return trace.Task{Type: typ, Arrival: at} }
	// In seconds: 4 tasks over 4 s, rate 3/4; mix a:3 b:1, E[x] = 70/3 ms = 0.07/3 s.
	busy := &trace.Trace{Name: "busy", Unit: trace.Second, Tasks: []trace.Task{task("a", 0), task("a", 1), task("b", 2), task("a", 4)}}
	lone := &trace.Trace{Name: "lone", Unit: trace.Second, Tasks: []trace.Task{task("a", 3)}}
	rho, rate, mean, err := p.TraceLoad([]*trace.Trace{busy, lone}, trace.Second, machines)
	if err != nil {
		t.Fatal(err)
	}
	wantMean := 0.07 / 3
	if math.Abs(rate-0.75) > 1e-12 || math.Abs(mean-wantMean) > 1e-12 || math.Abs(rho-0.75*wantMean/3) > 1e-12 {
		t.Errorf("TraceLoad = %v, %v, %v; want %v, 0.75, %v", rho, rate, mean, 0.75*wantMean/3, wantMean)
	}
	if rho, _, _, err := p.TraceLoad([]*trace.Trace{lone}, trace.Second, machines); err != nil || !math.IsNaN(rho) {
		t.Errorf("one task: rho %v, %v; want NaN", rho, err)
	}
	bad := &trace.Trace{Name: "bad", Tasks: []trace.Task{task("zip", 0), task("a", 1)}}
	if _, _, _, err := p.TraceLoad([]*trace.Trace{bad}, trace.Millisecond, machines); err == nil {
		t.Error("unknown type: no error")
	}
}

func TestFarFromStudies(t *testing.T) {
	for _, c := range []struct {
		rho  float64
		want bool
	}{{0.039, false}, {0.03, true}, {47, false}, {48, true}, {2.49, false}, {math.NaN(), true}} {
		if got := FarFromStudies(c.rho); got != c.want {
			t.Errorf("FarFromStudies(%v) = %v, want %v", c.rho, got, c.want)
		}
	}
}

// TestLoadWords: the load line with its terms, and the warning only far from the studies'
// loads, saying which way (0.39 ÷ 10 and 4.7 × 10 are the bounds).
func TestLoadWords(t *testing.T) {
	if got, want := LoadLine(0.5, 0.04, 25, 2, "ms"), "offered load ρ = 0.5 (0.04 tasks per ms × mean execution time 25 ms ÷ 2 machines)"; got != want {
		t.Errorf("LoadLine = %q, want %q", got, want)
	}
	for _, c := range []struct {
		rho  float64
		want string // a part of the warning, "" for none
	}{{2.49, ""}, {0.03, "ρ = 0.03 is far outside the 0.39 to 4.7 of the HCW19 trials, so the machines would idle"}, {48, "ρ = 48 is far outside the 0.39 to 4.7 of the HCW19 trials, so the machines are swamped"}} {
		got := LoadWarning(c.rho)
		if (c.want == "") != (got == "") || !strings.Contains(got, c.want) {
			t.Errorf("LoadWarning(%v) = %q, want one with %q", c.rho, got, c.want)
		}
	}
}

// TestWriteTraceLoad: TestTraceLoad's traces as a line, over two traces with one rate (the
// lone one has none), with the warning of a load far below the studies'; and the line for
// traces with no rate, with no warning.
func TestWriteTraceLoad(t *testing.T) {
	p := pointPET(t, [][]float64{{10, 20}, {30, 50}})
	task := func(typ string, at float64) trace.Task { return trace.Task{Type: typ, Arrival: at} }
	busy := &trace.Trace{Name: "busy", Unit: trace.Second, Tasks: []trace.Task{task("a", 0), task("a", 1), task("b", 2), task("a", 4)}}
	lone := &trace.Trace{Name: "lone", Unit: trace.Second, Tasks: []trace.Task{task("a", 3)}}
	var b strings.Builder
	// ρ = 0.75 × (0.07/3) ÷ 3 = 0.005833: below 0.039, far from the studies.
	w, err := p.WriteTraceLoad(&b, []*trace.Trace{busy, lone}, trace.Second, []int{0, 1, 1})
	if err != nil {
		t.Fatal(err)
	}
	want := "offered load ρ = 0.005833 (0.75 tasks per s × mean execution time 0.02333 s ÷ 3 machines); rate = (tasks − 1) / (last − first arrival), the mean over the trace's task types, mean of 2 traces\n"
	if b.String() != want || !strings.Contains(w, "far outside") {
		t.Errorf("line %q, warning %q; want %q and a far-load warning", b.String(), w, want)
	}
	b.Reset()
	if w, err := p.WriteTraceLoad(&b, []*trace.Trace{lone}, trace.Second, []int{0}); err != nil || w != "" ||
		b.String() != "offered load: no trace has two arrivals apart, so no rate\n" {
		t.Errorf("no rate: %q, %q, %v", b.String(), w, err)
	}
}

// TestTraceLoadMeans: the means over several traces with a rate, in ms on machines cpu and gpu,
// where type a takes (10 + 20)/2 = 15 ms and b (30 + 50)/2 = 40 ms. "a" arrives at 100 and 104:
// rate 1/4, ρ = 0.25 · 15 ÷ 2 = 1.875; "b" at 10 and 20: rate 1/10, ρ = 0.1 · 40 ÷ 2 = 2; two
// tasks at one time have no rate and are left out. One trace's line says nothing of a mean.
func TestTraceLoadMeans(t *testing.T) {
	p := pointPET(t, [][]float64{{10, 20}, {30, 50}})
	task := func(typ string, at float64) trace.Task { return trace.Task{Type: typ, Arrival: at} }
	a := &trace.Trace{Name: "a", Tasks: []trace.Task{task("a", 100), task("a", 104)}}
	b := &trace.Trace{Name: "b", Tasks: []trace.Task{task("b", 10), task("b", 20)}}
	same := &trace.Trace{Name: "same", Tasks: []trace.Task{task("a", 5), task("a", 5)}}
	rho, rate, mean, err := p.TraceLoad([]*trace.Trace{a, b, same}, trace.Millisecond, []int{0, 1})
	if err != nil || math.Abs(rho-1.9375) > 1e-12 || math.Abs(rate-0.175) > 1e-12 || math.Abs(mean-27.5) > 1e-12 {
		t.Errorf("TraceLoad = %v, %v, %v, %v; want 1.9375, 0.175, 27.5", rho, rate, mean, err)
	}
	var out strings.Builder
	if _, err := p.WriteTraceLoad(&out, []*trace.Trace{a}, trace.Millisecond, []int{0, 1}); err != nil ||
		!strings.HasPrefix(out.String(), "offered load ρ = 1.875 ") || strings.Contains(out.String(), "mean of") {
		t.Errorf("one trace: %q, %v; want ρ = 1.875 and no mean of traces", out.String(), err)
	}
}
