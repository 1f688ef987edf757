package replay

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestTimesCompareThroughClock makes the wrong comparison hard to write: in the engine's source
// (package replay, tests aside), a comparison (<, <=, >, >=, ==, !=) of an expression that names
// a time (now, an arrival, a deadline, an event's time, a start or an end, the batch's and
// queues' due times) must go through clock, or carry a comment "exact:" on its line saying why
// float order is meant there (sorting a trace, ordering a heap, picking the earliest time). A
// new `e.now >= d` fails this test until it reads `e.clock.atOrBefore(d, e.now)`.
func TestTimesCompareThroughClock(t *testing.T) {
	timeName := regexp.MustCompile(`\b(now|Now|Arrival|Deadline|deadline|time|Start|End|batchDue|queueDue|until|at|first)\b`)
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(src), "\n")
		ast.Inspect(f, func(n ast.Node) bool {
			b, ok := n.(*ast.BinaryExpr)
			if !ok {
				return true
			}
			switch b.Op {
			case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
			default:
				return true
			}
			text := string(src[fset.Position(b.Pos()).Offset:fset.Position(b.End()).Offset])
			if !timeName.MatchString(text) {
				return true
			}
			checked++
			line := fset.Position(b.Pos()).Line
			if !strings.Contains(lines[line-1], "exact:") {
				t.Errorf("%s:%d: %s compares a time without clock (or an \"exact:\" comment saying why float order is meant)", name, line, text)
			}
			return true
		})
	}
	if checked == 0 {
		t.Fatal("no comparison of a time found: the pattern no longer matches the source")
	}
}

// TestClockByHand: with a tolerance of 1/4, times within 1/4 of each other, 1/4 apart included,
// are the same time: neither is before the other, each is at or before the other. before(a, b)
// is then !atOrBefore(b, a) for every pair, on and off the tolerance's edges.
func TestClockByHand(t *testing.T) {
	c := clock{tol: 0.25}
	for _, tt := range []struct {
		a, b               float64
		atOrBefore, before bool
	}{
		{1, 1, true, false},
		{1.25, 1, true, false}, // 1/4 after: the same time
		{1.5, 1, false, false},
		{0.75, 1, true, false}, // 1/4 before: the same time
		{0.5, 1, true, true},
		{0, 1, true, true},
	} {
		if got := c.atOrBefore(tt.a, tt.b); got != tt.atOrBefore {
			t.Errorf("atOrBefore(%v, %v) = %v", tt.a, tt.b, got)
		}
		if got := c.before(tt.a, tt.b); got != tt.before {
			t.Errorf("before(%v, %v) = %v", tt.a, tt.b, got)
		}
	}
	for a := 0.0; a <= 2; a += 0.125 {
		for b := 0.0; b <= 2; b += 0.125 {
			if c.before(a, b) == c.atOrBefore(b, a) {
				t.Errorf("before(%v, %v) = %v and atOrBefore(%v, %v) = %v", a, b, c.before(a, b), b, a, c.atOrBefore(b, a))
			}
		}
	}
}
