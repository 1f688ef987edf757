package presets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/internal/hcw19"
)

// TestHCW19Source checks that --trials finds the HCW19 files from their folder and from the path
// of constant.zip. It runs no preset: the full HCW19 presets take minutes.
func TestHCW19Source(t *testing.T) {
	dir := hcw19.Dir(t, "constant.zip")
	for _, arg := range []string{dir, filepath.Join(dir, "constant.zip")} {
		src, err := HCW19Source(arg, Source{Trials: 30})
		if err != nil {
			t.Fatalf("%s: %v", arg, err)
		}
		if filepath.Base(src.PET) != "classes_2.etc" || filepath.Base(src.Constant) != "constant.zip" || filepath.Base(src.Spiky) != "spiky.zip" || src.Trials != 0 {
			t.Errorf("%s: %+v", arg, src)
		}
		lv, err := src.Level("spiky15k")
		if err != nil || !strings.HasSuffix(lv.Trace, "spiky.zip#spk/spk15k800_*.dat") || !(lv.Rate > 0) {
			t.Errorf("%s: spiky15k is %+v, %v", arg, lv, err)
		}
	}
}

// TestHCW19SourceFiles runs HCW19Source on hand-made folders: which files it takes, what Quick
// keeps of the trials, and the message for each missing piece.
func TestHCW19SourceFiles(t *testing.T) {
	touch := func(dir string, names ...string) string {
		for _, n := range names {
			if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	full := touch(t.TempDir(), "constant.zip", "classes_2.etc")
	src, err := HCW19Source(full, Source{Trials: 3, Quick: true})
	if err != nil || src.Constant != filepath.Join(full, "constant.zip") || src.PET != filepath.Join(full, "classes_2.etc") || src.Spiky != "" || src.Trials != 3 {
		t.Errorf("no spiky.zip, quick: %+v, %v; want constant.zip and classes_2.etc, no spiky, 3 trials", src, err)
	}
	touch(full, "spiky.zip")
	if src, err := HCW19Source(filepath.Join(full, "constant.zip"), Source{Trials: 30}); err != nil || src.Spiky != filepath.Join(full, "spiky.zip") || src.Trials != 0 {
		t.Errorf("from constant.zip: %+v, %v; want spiky.zip and all trials (0)", src, err)
	}
	noPET := touch(t.TempDir(), "constant.zip")
	for _, c := range []struct{ path, want string }{
		{filepath.Join(full, "nope"), filepath.Join(full, "nope") + ": no such file or directory"},
		{filepath.Join(full, "classes_2.etc"), filepath.Join(full, "classes_2.etc") + ": want the HCW19 folder or its constant.zip"},
		{noPET, noPET + ": no classes_2.etc there (the HCW19 folder holds constant.zip, spiky.zip and classes_2.etc)"},
	} {
		if _, err := HCW19Source(c.path, Source{}); err == nil || err.Error() != c.want {
			t.Errorf("HCW19Source(%s): %v, want %q", c.path, err, c.want)
		}
	}
}

// TestOpen: a name is an embedded preset, a path (by its extension or a separator) a user's
// experiment file; each error names --preset.
func TestOpen(t *testing.T) {
	if p, err := Open("Thesis"); err != nil || p.Name != "thesis" {
		t.Fatalf("Open(Thesis) = %v, %v", p, err)
	}
	b, err := Embedded("conference")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	mine := filepath.Join(dir, "mine.yml")
	if err := os.WriteFile(mine, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if p, err := Open(mine); err != nil || p.File() != mine {
		t.Errorf("Open(%s) = %v, %v; want the file's preset, named by its path", mine, p, err)
	}
	for _, c := range []struct{ name, want string }{
		{"nosuch", `--preset "nosuch": no preset "nosuch"; the presets are `},
		{filepath.Join(dir, "gone.yaml"), "--preset " + filepath.Join(dir, "gone.yaml") + ": "},
		{filepath.Join(dir, "sub", "x"), "--preset " + filepath.Join(dir, "sub", "x") + ": "}, // a path by its separator
	} {
		if _, err := Open(c.name); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("Open(%s): %v, want %q", c.name, err, c.want)
		}
	}
}
