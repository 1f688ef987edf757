package main

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
	"github.com/hcreplay/hcreplay/trace"
)

// The rule every command that writes results follows (issue 46 item 9, issue 49): it does not
// overwrite a file of results, and does not write into a folder that holds earlier results, unless
// --force; with --force, the earlier results in a folder are removed first, so that the results of
// two invocations never mix (a trace folder holding 30 old trials and 10 new ones). A new or
// empty folder, or one holding only files the command does not write, needs no --force.
// sweep follows its own form of the rule: --resume continues an earlier sweep of the same grid.

// claimFile refuses an output file that exists, unless force; flag names it in the message.
func claimFile(flag, path string, force bool) error {
	if _, err := os.Stat(path); err != nil || force {
		return nil
	}
	return badInput(fmt.Errorf("%s %s: the file exists (an earlier result?): add --force to overwrite it, or give another name", flag, path))
}

// claimDir refuses an output folder that holds earlier results, the entries results lists, unless
// force; with force it removes them. flag names the folder in the message. It also removes the
// temporary files of our naming (internal/atomicfile's .NAME.tmp-*) that a killed run left in the
// folder or its run subfolders, and says so on con.
func claimDir(con *Console, flag, dir string, force bool, results func(dir string) ([]string, error)) error {
	found, err := results(dir)
	if err != nil {
		return err
	}
	if len(found) == 0 {
		return removeStale(con, dir)
	}
	if !force {
		shown := found
		if len(shown) > 3 {
			shown = append(shown[:3:3], fmt.Sprintf("and %d more", len(found)-3))
		}
		return badInput(fmt.Errorf("%s %s: the folder holds earlier results (%s): add --force to replace them, or give another folder",
			flag, dir, strings.Join(shown, ", ")))
	}
	for _, name := range found {
		if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return removeStale(con, dir)
}

// removeStale removes the temporary files of our naming in dir and two levels of subfolders
// below it (replay --out's, one per mapper and per trial), and says how many it removed.
// A temporary file another command is writing right now (it holds a lock on it) is left alone
// (atomicfile.CleanStale), so that two commands writing into one folder do not harm each other.
func removeStale(con *Console, dir string) error {
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
		con.Logf("removed %d temporary %s an interrupted run left in %s", n, plural(n, "file", "files"), dir)
	}
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// namesLike returns a results function for claimDir: the entries of the folder (not its
// subfolders) whose names match one of patterns (filepath.Match) or for which match, if set, says so.
func namesLike(match func(dir string, e fs.DirEntry) bool, patterns ...string) func(dir string) ([]string, error) {
	return func(dir string) ([]string, error) {
		entries, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return nil, nil // a new folder, or no folder: the command's own checks say so
		}
		if err != nil {
			return nil, badInput(fmt.Errorf("%s: %w", dir, err))
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

// The results of each command that writes a folder, for claimDir.
var (
	// trace gen: trace files named as trials (NAME_N.EXT: arr19k_3.csv), an earlier set's; not a
	// PET or a log kept beside them.
	traceGenResults = namesLike(func(_ string, e fs.DirEntry) bool { return !e.IsDir() && trace.IsTrialFile(e.Name()) })
	// replay --out: a run's files, and the subfolders that hold runs (one per mapper, per trial).
	replayResults = namesLike(func(dir string, e fs.DirEntry) bool { return e.IsDir() && replayOut(filepath.Join(dir, e.Name())) },
		"summary.json", "timing.json", "tasks.parquet", "tasks.csv")
	// speculate --out: the summaries and the jobs of each run.
	speculateResults = namesLike(nil, "summaries.json", "jobs-*.csv")
	// trace import: the log and the trace.
	importResults = namesLike(nil, "log.csv", "log.jsonl", "log.parquet", "trace.csv", "trace.jsonl", "trace.parquet")
)

// reportResults are an earlier report's files (its pages, tables and figures), in a folder that
// holds its index.html or index.md: figures of other names are the report's only there.
func reportResults(dir string) ([]string, error) {
	pages, err := namesLike(nil, "index.html", "index.md")(dir)
	if err != nil || len(pages) == 0 {
		return nil, err
	}
	return namesLike(nil, "index.html", "index.md", "summary.md", "summary.csv", "summary.tex", "aggregate.csv", "*.svg", "*.png", "*.pdf")(dir)
}

// writeJSON writes v to path as indented JSON, through a temporary file.
func writeJSON(path string, v any) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	})
}
