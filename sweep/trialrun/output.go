package trialrun

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
	"github.com/hcreplay/hcreplay/internal/outdir"
	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/report"
)

// replayOne runs one trial, of the trace so named and read against pet, streaming task outcomes to dir when it is
// set; done, when set, is called as each task's outcome is known. accept, when set, is asked
// once the replay has ended whether its result may stand: its error is replayOne's, and then
// nothing is written to dir.
func (r *Runner) replayOne(ctx context.Context, mapper replay.Mapper, cfg replay.Config, pet *petbuild.PET, trace, dir string, done func(), accept func() error) (*replay.Result, error) {
	if done == nil {
		done = func() {}
	}
	if accept == nil {
		accept = func() error { return nil }
	}
	if dir == "" {
		cfg.Options.OnTask = func(replay.Outcome) { done() } // the outcomes themselves are not needed
		res, err := replay.Run(ctx, cfg, mapper)
		if err != nil {
			return nil, err
		}
		return res, accept()
	}
	undo, err := r.makeDirs(dir)
	if err != nil {
		return nil, err
	}
	res, err := r.replayInto(ctx, mapper, cfg, pet, trace, dir, done, accept)
	if err != nil {
		undo()
	}
	return res, err
}

// makeDirs is os.MkdirAll(dir) that returns a function to remove the folders it made, those
// that are still empty: a replay that fails leaves no empty --out behind. Trials replayed at
// once share their parents (out/MM of out/MM/trial-001), so the making and the removing take
// turns (Runner.dirs): a streamed trial found not streamable removed out/MM, which it had made,
// between another trial's making of out/MM and of out/MM/trial-001, and that replay failed with
// "no such file or directory" (one -j 3 run in 40 of TestReplayJobsSameOutput).
func (r *Runner) makeDirs(dir string) (undo func(), err error) {
	r.dirs.Lock()
	defer r.dirs.Unlock()
	var made []string // the innermost first
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		made = append(made, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return func() {
		r.dirs.Lock()
		defer r.dirs.Unlock()
		for _, d := range made {
			os.Remove(d) // fails, and keeps d, when something was written there
		}
	}, nil
}

// replayInto is replayOne into dir, which exists.
func (r *Runner) replayInto(ctx context.Context, mapper replay.Mapper, cfg replay.Config, pet *petbuild.PET, trace, dir string, done func(), accept func() error) (*replay.Result, error) {
	var res *replay.Result
	var runErr error // the replay's own error, which is not one of writing the file
	err := atomicfile.Write(filepath.Join(dir, "tasks.parquet"), func(pq io.Writer) error {
		var csvOut io.Writer
		var csvFile *atomicfile.File
		if r.CSV {
			f, err := atomicfile.Create(filepath.Join(dir, "tasks.csv"))
			if err != nil {
				return err
			}
			csvFile, csvOut = f, f
			defer func() {
				if csvFile != nil {
					f.Abort()
				}
			}()
		}
		w, err := report.NewTaskWriter(pq, csvOut, report.FileMeta{TimeUnit: pet.TimeUnit(), Version: r.Version})
		if err != nil {
			return err
		}
		rows := newWriteBehind(w.Write, writeBehindChunk, writeBehindChunks)
		types := pet.TaskTypes() // a copy: once, not at every task
		cfg.Options.OnTask = func(o replay.Outcome) {
			done()
			rows.add(report.TaskRowOf(o, types, cfg.Machines))
		}
		res, runErr = replay.Run(ctx, cfg, mapper)
		werr := rows.close()
		if runErr != nil {
			return runErr
		}
		if werr != nil {
			return werr
		}
		if err := accept(); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
		if f := csvFile; f != nil {
			csvFile = nil // committed or removed: not aborted again
			return f.Commit()
		}
		return nil
	})
	if runErr != nil {
		return nil, runErr
	}
	if err != nil {
		return nil, err
	}
	if err := outdir.WriteJSON(filepath.Join(dir, "summary.json"), NewRunJSON(res, trace, pet.TimeUnit(), r.Version)); err != nil {
		return nil, err
	}
	if err := report.WriteRunReliability(filepath.Join(dir, "reliability.csv"), res.Summary.Reliability, report.FileMeta{Version: r.Version}); err != nil {
		return nil, err
	}
	return res, outdir.WriteJSON(filepath.Join(dir, "timing.json"), struct {
		replay.Timing
		Tool        string `json:"tool"`
		ToolVersion string `json:"tool_version"`
	}{res.Timing, report.Tool, r.Version})
}

// RunJSON is a run's summary with the trace it replayed: summary.json, and the line replay
// --json prints less its timing. The trace tells apart the run folders of several --trace sets,
// whose trials are numbered through all of them. Embedding keeps the summary's keys in its
// order. It records the unit of the trace's times, and the tool that wrote it.
type RunJSON struct {
	replay.Summary
	Trace       string `json:"trace"`
	TimeUnit    string `json:"time_unit"`
	Tool        string `json:"tool"`
	ToolVersion string `json:"tool_version"`
}

// NewRunJSON is res's summary as summary.json and replay --json write it.
func NewRunJSON(res *replay.Result, trace, unit, version string) RunJSON {
	return RunJSON{Summary: res.Summary, Trace: trace, TimeUnit: unit, Tool: report.Tool, ToolVersion: version}
}

// WriteJSONLine writes one run as one JSON line: the summary's keys, the trace, and the timing.
func WriteJSONLine(w io.Writer, res *replay.Result, trace, unit, version string) error {
	return json.NewEncoder(w).Encode(struct {
		RunJSON
		Timing replay.Timing `json:"timing"`
	}{NewRunJSON(res, trace, unit, version), res.Timing})
}
