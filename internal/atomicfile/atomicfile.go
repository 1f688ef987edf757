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
}
