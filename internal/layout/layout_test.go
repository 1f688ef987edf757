package layout

import (
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/hcreplay/hcreplay"

// moduleImports parses the import clauses of the module's non-test Go files under root and
// returns, per package of the module, the packages of the module it imports (issue 48: the
// import graph, checked without go/packages or the go command).
func moduleImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	graph := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		if ok, err := build.Default.MatchFile(filepath.Dir(path), name); err != nil || !ok {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		pkg := module
		if rel != "." {
			pkg += "/" + filepath.ToSlash(rel)
		}
		if _, ok := graph[pkg]; !ok {
			graph[pkg] = nil
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			if (p == module || strings.HasPrefix(p, module+"/")) && !slices.Contains(graph[pkg], p) {
				graph[pkg] = append(graph[pkg], p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return graph
}

// deps is every package of the module pkg imports, directly or not.
func deps(graph map[string][]string, pkg string) map[string]bool {
	seen := map[string]bool{}
	var visit func(string)
	visit = func(p string) {
		for _, q := range graph[p] {
			if !seen[q] {
				seen[q] = true
				visit(q)
			}
		}
	}
	visit(pkg)
	return seen
}

// TestImportDirection checks SPEC §2's direction where issue 48 draws it: report reads runs and
// does not run them, so neither it nor anything it imports imports sweep (or sweep/slurm); the
// runner's lower floors (replay, petbuild, trace, pmf) do not import sweep either; and the
// command line imports no internal package but atomicfile, interrupt, kongconfig, outdir,
// progressbar and smallfile, which it needs to write its outputs by their rules (and leave none
// half-written when stopped), draw its progress and read its config and small input files, and
// gctune, which sets the collector's pace for the process (as interrupt its signals).
func TestImportDirection(t *testing.T) {
	graph := moduleImports(t, "../..")
	for _, p := range []string{"report", "sweep", "sweep/slurm", "cmd/hcreplay"} {
		if _, ok := graph[module+"/"+p]; !ok {
			t.Fatalf("package %s not found: the walk of the module is wrong", p)
		}
	}
	for _, p := range []string{"report", "replay", "petbuild", "trace", "pmf"} {
		for q := range deps(graph, module+"/"+p) {
			if q == module+"/sweep" || strings.HasPrefix(q, module+"/sweep/") {
				t.Errorf("%s imports %s (directly or not): the runner must stay above it", p, q)
			}
		}
	}
	allowed := []string{module + "/internal/atomicfile", module + "/internal/gctune", module + "/internal/interrupt", module + "/internal/kongconfig", module + "/internal/outdir", module + "/internal/progressbar", module + "/internal/smallfile"}
	for _, q := range graph[module+"/cmd/hcreplay"] {
		if strings.HasPrefix(q, module+"/internal/") && !slices.Contains(allowed, q) {
			t.Errorf("cmd/hcreplay imports %s: the command line takes from internal only what it needs for I/O and its process (%s)", q, strings.Join(allowed, ", "))
		}
	}
	// The walk sees an edge this test depends on: sweep imports report.
	if !deps(graph, module+"/sweep")[module+"/report"] {
		t.Error("sweep does not import report: the walk of the module misses imports")
	}
}
