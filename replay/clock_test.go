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
