package atomicfile

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestCleanStale: temporary files of our naming that no one writes are removed; one a File
// of this process is writing, a file of another naming and the targets stay.
func TestCleanStale(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{".a.csv.tmp-123", ".b.parquet.tmp-9", ".c.tmp-x", "d.csv", ".e.csv.tmp-"} {
		os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644)
	}
	live, err := Create(filepath.Join(dir, "f.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer live.Abort()
	removed, err := CleanStale(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{".a.csv.tmp-123", ".b.parquet.tmp-9"}; !slices.Equal(removed, want) {
		t.Errorf("removed %v, want %v", removed, want)
	}
	for _, keep := range []string{".c.tmp-x", "d.csv", ".e.csv.tmp-", filepath.Base(live.Name())} {
		if _, err := os.Stat(filepath.Join(dir, keep)); err != nil {
			t.Errorf("%s was removed", keep)
		}
	}
}

// TestRemoveLive: the temporary files of Files neither committed nor aborted are removed, and
// only those; a committed target stays.
func TestRemoveLive(t *testing.T) {
	dir := t.TempDir()
	done, _ := Create(filepath.Join(dir, "done.csv"))
	if err := done.Commit(); err != nil {
		t.Fatal(err)
	}
	open, _ := Create(filepath.Join(dir, "open.csv"))
	removed := RemoveLive()
	if !slices.Contains(removed, open.Name()) || len(removed) != 1 {
		t.Errorf("removed %v, want only %s", removed, open.Name())
	}
	if _, err := os.Stat(open.Name()); !os.IsNotExist(err) {
		t.Errorf("%s still there", open.Name())
	}
	if _, err := os.Stat(filepath.Join(dir, "done.csv")); err != nil {
		t.Errorf("the committed file: %v", err)
	}
	open.Close()
}
