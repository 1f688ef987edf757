package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"
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

func TestCopy(t *testing.T) {
	src := fstest.MapFS{"a/fig.svg": {Data: []byte("<svg/>")}}
	to := filepath.Join(t.TempDir(), "fig1.svg")
	if err := Copy(src, "a/fig.svg", to); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(to); err != nil || string(got) != "<svg/>" {
		t.Fatalf("copied %q, %v; want the source's bytes", got, err)
	}
	if st, _ := os.Stat(to); st.Mode().Perm() != Mode {
		t.Errorf("mode %v, want %v", st.Mode().Perm(), Mode)
	}
	// A missing source names both files and leaves nothing at to.
	missing := filepath.Join(t.TempDir(), "x.png")
	err := Copy(src, "a/fig.png", missing)
	if !errors.Is(err, fs.ErrNotExist) || err.Error() != "copy a/fig.png to "+missing+": open a/fig.png: file does not exist" {
		t.Errorf("error %v", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s exists after a failed copy", missing)
	}
}
