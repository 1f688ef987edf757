// Package outdir holds the rule every command that writes results follows (issue 46 item 9,
// issue 49): it does not overwrite a file of results, and does not write into a folder that
// holds earlier results, unless forced; forced, the earlier results in a folder are removed
// first, so that the results of two invocations never mix (a trace folder holding 30 old trials
// and 10 new ones). A new or empty folder, or one holding only files the command does not
// write, needs no force. It also removes the temporary files a killed run left, checks that an
// output's folder exists before any work, and writes the JSON results in their one form.
//
// It owns those rules; which files are a command's results is the caller's (Results), and
// writing a file whole is internal/atomicfile's.
package outdir

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
)

// InputError is a refusal the user can act on: an output that exists, a folder of earlier
// results, a folder that cannot be read.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// Results lists the entries of dir (not of its subfolders) that are a command's earlier results.
type Results func(dir string) ([]string, error)

// ClaimFile refuses an output file that exists, unless force; flag names it in the message.
func ClaimFile(flag, path string, force bool) error {
	if _, err := os.Stat(path); err != nil || force {
		return nil
	}
	return &InputError{fmt.Errorf("%s %s: the file exists (an earlier result?): add --force to overwrite it, or give another name", flag, path)}
}

// ClaimDir refuses an output folder that holds earlier results, the entries results lists,
// unless force; with force it removes them. flag names the folder in the message. It also
// removes the temporary files of our naming (internal/atomicfile's .NAME.tmp-*) that a killed
// run left in the folder or its run subfolders, and says so with logf.
func ClaimDir(flag, dir string, force bool, results Results, logf func(format string, args ...any)) error {
	found, err := results(dir)
	if err != nil {
		return err
	}
	if len(found) == 0 {
		return removeStale(dir, logf)
	}
	if !force {
		shown := found
		if len(shown) > 3 {
			shown = append(shown[:3:3], fmt.Sprintf("and %d more", len(found)-3))
		}
		return &InputError{fmt.Errorf("%s %s: the folder holds earlier results (%s): add --force to replace them, or give another folder",
			flag, dir, strings.Join(shown, ", "))}
	}
	for _, name := range found {
		if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return removeStale(dir, logf)
}

// removeStale removes the temporary files of our naming in dir and two levels of subfolders
// below it (replay --out's, one per mapper and per trial), and says how many it removed.
// A temporary file another command is writing right now (it holds a lock on it) is left alone
// (atomicfile.CleanStale), so that two commands writing into one folder do not harm each other.
func removeStale(dir string, logf func(format string, args ...any)) error {
	n := 0
	for _, pattern := range []string{"", "*", "*/*"} {
		dirs := []string{dir}
		if pattern != "" {
			dirs, _ = filepath.Glob(filepath.Join(dir, pattern))
		}
		for _, d := range dirs {
			if st, err := os.Stat(d); err != nil || !st.IsDir() {
				continue
			}
			removed, err := atomicfile.CleanStale(d)
			if err != nil {
				return err
			}
			n += len(removed)
		}
	}
	if n > 0 {
		files := "files"
		if n == 1 {
			files = "file"
		}
		logf("removed %d temporary %s an interrupted run left in %s", n, files, dir)
	}
	return nil
}

// NamesLike returns the Results of the entries whose names match one of patterns
// (filepath.Match) or for which match, if set, says so.
func NamesLike(match func(dir string, e fs.DirEntry) bool, patterns ...string) Results {
	return func(dir string) ([]string, error) {
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return nil, nil // a new folder, or no folder: the command's own checks say so
		}
		if err != nil {
			return nil, &InputError{fmt.Errorf("%s: %w", dir, err)}
		}
		var out []string
		for _, e := range entries {
			ok := match != nil && match(dir, e)
			for _, p := range patterns {
				if m, _ := filepath.Match(p, e.Name()); m {
					ok = true
				}
			}
			if ok {
				out = append(out, e.Name())
			}
		}
		return out, nil
	}
}

// CheckFolder tells, before anything is computed, that the folder an output file goes to is
// missing or is not a folder; the writers would report it naming their temporary file.
func CheckFolder(path string) error {
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s: folder %s does not exist", path, dir)
	case err != nil:
		return fmt.Errorf("%s: %w", path, err)
	case !fi.IsDir():
		return fmt.Errorf("%s: %s is not a folder", path, dir)
	}
	return nil
}

// WriteJSON writes v to path as indented JSON, through a temporary file.
func WriteJSON(path string, v any) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	})
}
