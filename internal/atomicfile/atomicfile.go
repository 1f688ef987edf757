// Package atomicfile writes output files so that a reader never sees a partial one: the data go
// to a temporary file in the same directory, which is renamed over the target only when it is
// complete. A crash or an error leaves the old file (or none), never a truncated one.
//
// It owns nothing else: no formats, no paths beyond the one it is given.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
)

// Mode is the permission of every file the tool writes, whatever the umask: 0644.
const Mode fs.FileMode = 0o644

// Write creates path with the contents fill writes, atomically. The file gets Mode.
func Write(path string, fill func(w io.Writer) error) (err error) {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Abort()
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err = fill(bw); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = bw.Flush(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

// File is an output being written: a temporary file in the target's directory that Commit
// renames over the target and Abort removes. For writers that stream into a file they hold
// (Write is simpler when one function fills the file).
type File struct {
	*os.File
	path string
}

// Copy copies the file from of fsys to the path to, atomically (Write).
func Copy(fsys fs.FS, from, to string) error {
	in, err := fsys.Open(from)
	if err != nil {
		return fmt.Errorf("copy %s to %s: %w", from, to, err)
	}
	defer in.Close()
	return Write(to, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	})
}

// Create starts writing path.
func Create(path string) (*File, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		// The temporary file's name means nothing to the user: name the file asked for, and
		// keep the cause (a missing folder is still fs.ErrNotExist).
		if perr := new(fs.PathError); errors.As(err, &perr) {
			err = perr.Err
		}
		return nil, fmt.Errorf("create %s: %w", path, err)
	}
	lock(tmp) // held while the file is being written: CleanStale leaves it alone
	live.add(tmp.Name())
	return &File{File: tmp, path: path}, nil
}

// Commit makes the file visible under its path, with Mode, once its data are on disk. On an
// error the temporary file is removed.
func (f *File) Commit() error {
	err := f.Sync() // on disk before the rename makes it visible
	if err == nil {
		err = f.Chmod(Mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), f.path)
	}
	live.remove(f.Name())
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	return nil
}

// Abort removes the temporary file; the target is left as it was.
func (f *File) Abort() {
	f.Close()
	os.Remove(f.Name())
	live.remove(f.Name())
}

// live is the set of temporary files of this process not yet committed or aborted. It is the
// package's one piece of process-wide state, and must be: a process stopped by a signal exits
// from wherever it is (RemoveLive), and only the process as a whole knows its files.
var live = liveSet{m: map[string]bool{}}

type liveSet struct {
	sync.Mutex
	m map[string]bool
}

func (s *liveSet) add(name string) {
	s.Lock()
	s.m[name] = true
	s.Unlock()
}

func (s *liveSet) remove(name string) {
	s.Lock()
	delete(s.m, name)
	s.Unlock()
}

// RemoveLive removes the temporary files of every File not yet committed or aborted and
// returns their names, sorted: for a process about to exit on a signal, so that it leaves
// nothing behind (the targets stay as they were).
func RemoveLive() []string {
	live.Lock()
	defer live.Unlock()
	var names []string
	for name := range live.m {
		os.Remove(name)
		names = append(names, name)
	}
	clear(live.m)
	slices.Sort(names)
	return names
}

// tempName matches the names Create gives temporary files: "." + base + ".tmp-" + digits. It
// is compiled at first use, not at the start of every command.
var tempName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\..+\.tmp-[0-9]+$`) })

// CleanStale removes from dir the temporary files of our own naming that no process is
// writing (a process killed with kill -9 leaves them: up to the size of its largest output),
// and returns the names it removed. A file some process is still writing is locked by it and
// left alone, so two commands writing into one folder at once do not harm each other. Where
// files cannot be locked (not on Unix), only files untouched for an hour are removed.
func CleanStale(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !tempName().MatchString(e.Name()) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		live.Lock()
		mine := live.m[path]
		live.Unlock()
		if mine || !abandoned(path) {
			continue
		}
		if os.Remove(path) == nil {
			removed = append(removed, e.Name())
		}
	}
	return removed, nil
}
