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
