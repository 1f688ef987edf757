// Package smallfile reads a file whole when it is one meant to be small (a catalog, a grid, a
// config file), refusing one that is not, so that a wrong path to a large file fails at once
// instead of taking gigabytes in a parser (issue 49). It owns nothing but that limit.
package smallfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Max is the most a file read whole (a catalog, a grid, a config) may hold: a catalog of
// thousands of machines or a grid listing a million seeds is a few MB, and a parser takes
// several times its file (a 200 MB catalog line took 1.3 GB, issue 49).
const Max = 64 << 20

// Read reads a file whole, refusing one larger than Max. Its errors do not name the file: the
// caller says which file it is.
func Read(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		if perr := new(fs.PathError); errors.As(err, &perr) {
			err = perr.Err
		}
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, Max+1))
	if err != nil {
		return nil, err
	}
	if len(b) > Max {
		return nil, fmt.Errorf("file is larger than %d MiB, the limit for a file read whole: is it the file meant?", Max>>20)
	}
	return b, nil
}
