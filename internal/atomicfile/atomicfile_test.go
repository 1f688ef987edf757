package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "first"); return err }); err != nil {
		t.Fatal(err)
	}
	// A failing fill leaves the previous contents and no temporary file behind.
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error { io.WriteString(w, "partial"); return boom })
	if !errors.Is(err, boom) || err.Error() != "write "+path+": boom" {
		t.Fatalf("error %v, want boom naming the file", err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "first" {
		t.Fatalf("contents %q after a failed write, want the old %q", got, "first")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("%d files in the directory, want only out.txt", len(entries))
	}
	missing := filepath.Join(dir, "missing", "x")
	err = Write(missing, func(io.Writer) error { return nil })
	if !errors.Is(err, fs.ErrNotExist) || err.Error() != "create "+missing+": no such file or directory" {
		t.Fatalf("writing into a missing directory: error %v, want one that names %s alone and is fs.ErrNotExist", err, missing)
	}
}
