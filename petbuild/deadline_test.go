package petbuild

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/trace"
)

// meansPET has point-mass cells, so each cell's mean is its time: task a runs 3, 1, 2 on x, y,
// z; task b runs 10, 40, 20.
func meansPET(t *testing.T) *PET {
	t.Helper()
	var cells []Cell
	for _, at := range []float64{3, 1, 2, 10, 40, 20} {
		d, err := pmf.New(at, 1, []float64{1})
		if err != nil {
			t.Fatal(err)
		}
		cells = append(cells, Cell{PMF: d})
	}
	pet, err := New([]string{"a", "b"}, []string{"x", "y", "z"}, "ms", cells)
	if err != nil {
		t.Fatal(err)
	}
	return pet
}

func TestDeadlineRuleMeans(t *testing.T) {
	pet := meansPET(t)
	// Worked by hand from the cell times above.
	tests := []struct {
		rule      string
		a, b, all float64
	}{
		{"best:1", 1, 10, 5.5},
		{"best:2", 1.5, 15, 8.25},
		{"best:3", 2, 70.0 / 3, (2 + 70.0/3) / 2},
		{"tight", 2, 70.0 / 3, (2 + 70.0/3) / 2},
		{"prop:0.5", 2, 70.0 / 3, (2 + 70.0/3) / 2},
	}
	for _, tt := range tests {
		rule, m, err := DeadlineRule(tt.rule, pet)
		if err != nil {
			t.Fatalf("%s: %v", tt.rule, err)
		}
		for _, c := range []struct {
			name      string
			got, want float64
		}{{"a", m.PerType["a"], tt.a}, {"b", m.PerType["b"], tt.b}, {"global", m.Global, tt.all}} {
			if math.Abs(c.got-c.want) > 1e-12 {
				t.Errorf("%s: mean of %s = %v, want %v", tt.rule, c.name, c.got, c.want)
			}
		}
		want := tt.rule
		if strings.HasPrefix(want, "best:") {
			want = "tight" // best:K is the tight rule on the K fastest machine types
		}
		wantRule, err := trace.ParseDeadlineRule(want)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(rule, wantRule) {
			t.Errorf("%s: rule %+v, want %+v", tt.rule, rule, wantRule)
		}
	}
}

func TestDeadlineRuleRefusesBadK(t *testing.T) {
	pet := meansPET(t)
	for _, s := range []string{"best:0", "best:4", "best:x", "best:"} {
		_, _, err := DeadlineRule(s, pet)
		if err == nil || !strings.Contains(err.Error(), "1 ≤ K ≤ 3 machine types") {
			t.Errorf("%s: error %v, want one naming 1 ≤ K ≤ 3", s, err)
		}
	}
	if _, _, err := DeadlineRule("nonsense", pet); err == nil {
		t.Error("nonsense: no error")
	}
}

func TestImplausibleSlack(t *testing.T) {
	pet := meansPET(t)
	mean := (2 + 70.0/3) / 2 // GlobalMean worked by hand: 12.67, so plausible is [0.633, 12667]
	for _, tt := range []struct {
		slacks []float64
		median float64
		bad    bool
	}{
		{nil, 0, false},
		{[]float64{0.5, 0.6, 0.7}, 0.6, true},  // seconds read as ms would look so
		{[]float64{0.7}, 0.7, false},           // just above mean/20
		{[]float64{12000}, 12000, false},       // just under mean·1000
		{[]float64{13000}, 13000, true},        // ms read as seconds
		{[]float64{100, 0.1, 0.2}, 0.2, true},  // the median of the sorted sample
		{[]float64{0.1, 100, 200}, 100, false}, // a few tight deadlines do not decide
	} {
		med, m, bad := pet.ImplausibleSlack(tt.slacks)
		if med != tt.median || bad != tt.bad || (len(tt.slacks) > 0 && math.Abs(m-mean) > 1e-12) {
			t.Errorf("%v: median %v mean %v implausible %v; want %v %v %v", tt.slacks, med, m, bad, tt.median, mean, tt.bad)
		}
	}
}

func TestUnitSeconds(t *testing.T) {
	d, err := pmf.New(1, 1, []float64{1})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		unit string
		want float64
	}{{"ms", 1e-3}, {"s", 1}, {"min", 60}, {"h", 3600}, {"us", 1e-6}} {
		pet, err := New([]string{"a"}, []string{"x"}, tt.unit, []Cell{{PMF: d}})
		if err != nil {
			t.Fatal(err)
		}
		got, err := pet.UnitSeconds()
		if err != nil || math.Abs(got-tt.want) > 1e-15*tt.want {
			t.Errorf("%s: %v, %v; want %v", tt.unit, got, err, tt.want)
		}
	}
}

// TestImplausibleSlackBounds: on a PET whose cells all take 20 ms (GlobalMean 20), a median
// slack of exactly 20/20 = 1 or 20 · 1000 = 20,000 is plausible (the rule is "under" and
// "over"), just beyond either is not; a PET whose cells all take 0 has no mean to compare with.
func TestImplausibleSlackBounds(t *testing.T) {
	twenty := pointPET(t, [][]float64{{20, 20}, {20, 20}})
	zero := pointPET(t, [][]float64{{0, 0}, {0, 0}})
	for _, c := range []struct {
		name   string
		pet    *PET
		slacks []float64
		bad    bool
	}{
		{"mean/20", twenty, []float64{1}, false},
		{"under mean/20", twenty, []float64{0.999}, true},
		{"mean·1000", twenty, []float64{20000}, false},
		{"over mean·1000", twenty, []float64{20001}, true},
		{"mean 0", zero, []float64{5}, false},
	} {
		if _, _, bad := c.pet.ImplausibleSlack(c.slacks); bad != c.bad {
			t.Errorf("%s: slacks %v implausible %v, want %v", c.name, c.slacks, bad, c.bad)
		}
	}
}
