package outdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func touch(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestClaimFile(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "pet.json")
	touch(t, old)
	for _, c := range []struct {
		path    string
		force   bool
		refused bool
	}{
		{old, false, true},
		{old, true, false},
		{filepath.Join(dir, "new.json"), false, false},
	} {
		err := ClaimFile("--out", c.path, c.force)
		if got := err != nil; got != c.refused {
			t.Errorf("ClaimFile(%s, force %v): %v, want refused %v", c.path, c.force, err, c.refused)
		}
		if c.refused && (!errors.As(err, new(*InputError)) || !strings.HasPrefix(err.Error(), "--out "+old+": the file exists")) {
			t.Errorf("refusal %q: want an InputError naming the flag and the file", err)
		}
	}
}

// TestClaimDir: a folder of earlier results is refused without force, naming three of them and
// the count of the rest (5 results: 3 shown "and 2 more"); with force they are removed, and a
// file that is no result stays. Stale temporary files are removed either way they are found.
func TestClaimDir(t *testing.T) {
	dir := t.TempDir()
	for i := range 5 {
		touch(t, filepath.Join(dir, fmt.Sprintf("r%d.csv", i)))
	}
	touch(t, filepath.Join(dir, "notes.txt"))
	touch(t, filepath.Join(dir, "a", "b", ".tasks.csv.tmp-7")) // two levels down, as replay's mapper/trial
	results := NamesLike(nil, "r*.csv")
	var logged []string
	logf := func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) }

	err := ClaimDir("--out", dir, false, results, logf)
	want := "--out " + dir + ": the folder holds earlier results (r0.csv, r1.csv, r2.csv, and 2 more)"
	if err == nil || !strings.HasPrefix(err.Error(), want) || !errors.As(err, new(*InputError)) {
		t.Fatalf("without force: %v, want an InputError starting %q", err, want)
	}
	if len(logged) != 0 {
		t.Errorf("a refused folder was cleaned: %q", logged)
	}
	if err := ClaimDir("--out", dir, true, results, logf); err != nil {
		t.Fatal(err)
	}
	left, _ := os.ReadDir(dir)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"a", "notes.txt"}) {
		t.Errorf("left %q, want the folder a and notes.txt", names)
	}
	if _, err := os.Stat(filepath.Join(dir, "a", "b", ".tasks.csv.tmp-7")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the stale temporary file is still there: %v", err)
	}
	if want := "removed 1 temporary file an interrupted run left in " + dir; !slices.Equal(logged, []string{want}) {
		t.Errorf("logged %q, want %q", logged, want)
	}
}

func TestNamesLike(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"summary.json", "jobs-a.csv", "run/x", "other.csv"} {
		touch(t, filepath.Join(dir, f))
	}
	isDir := func(_ string, e fs.DirEntry) bool { return e.IsDir() }
	got, err := NamesLike(isDir, "summary.json", "jobs-*.csv")(dir)
	if err != nil || !slices.Equal(got, []string{"jobs-a.csv", "run", "summary.json"}) {
		t.Errorf("got %q, %v; want jobs-a.csv, run, summary.json", got, err)
	}
	if got, err := NamesLike(isDir)(filepath.Join(dir, "none")); got != nil || err != nil {
		t.Errorf("a folder that does not exist: %q, %v; want none and no error", got, err)
	}
}

func TestCheckFolder(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	touch(t, file)
	for _, c := range []struct{ path, want string }{
		{filepath.Join(dir, "out.json"), ""},
		{filepath.Join(dir, "no", "out.json"), "folder " + filepath.Join(dir, "no") + " does not exist"},
		{filepath.Join(file, "out.json"), file + " is not a folder"},
	} {
		err := CheckFolder(c.path)
		if (err == nil) != (c.want == "") || err != nil && !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("CheckFolder(%s) = %v, want %q", c.path, err, c.want)
		}
	}
}

func TestWriteJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.json")
	if err := WriteJSON(path, map[string][]int{"a": {1}}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(path)
	if want := "{\n  \"a\": [\n    1\n  ]\n}\n"; string(b) != want {
		t.Errorf("wrote %q, want %q", b, want)
	}
}
