// Package trialrun runs the trials of a replay command through its mappers (SPEC §5, §7): one
// trial after another, or several at a time (replay -j) with the results, log lines and output
// folders in trial order all the same; each trial streamed as its file is read when it can be,
// else loaded; and each run's outputs (tasks.parquet, summary.json, reliability.csv,
// timing.json) written to a folder of its own under --out, with the task rows written behind on
// a goroutine of their own.
//
// It does not parse flags, choose the mappers or print tables: the command line does, and hands
// over the trials (package trialset), a function that makes each mapper, and a Progress that
// draws its bars. A grid on all cores, with levels and options as axes, is package sweep's.
package trialrun

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/sweep"
	"github.com/hcreplay/hcreplay/sweep/trialset"
)

// Mapper is one mapper each trial replays through: its label (MM-P), which names its folder
// under Out, and New, which makes it afresh for each replay, as a mapper holds state.
type Mapper struct {
	Label string
	New   func() (replay.Mapper, error)
}

// Progress draws a run's progress: log lines, and a bar per replay of a trial.
type Progress interface {
	// Logf writes a log line, above the bar of runs when one is drawn.
	Logf(format string, args ...any)
	// Tasks starts the bar of one replay's tasks, labelled; a negative total is not known
	// yet (Bar.SetTotal gives it). It never returns nil.
	Tasks(total int, label string) Bar
}

// Bar is the bar of one replay's tasks, which may draw nothing.
type Bar interface {
	SetTotal(total int)
	// Counter returns a function to call once per task done, or nil.
	Counter() func()
	// Logf writes a log line above the bar, or as Progress.Logf when it draws nothing.
	Logf(format string, args ...any)
	Stop()
}

// Runner replays trials through mappers.
type Runner struct {
	Mappers []Mapper
	Base    replay.Config // the PET, machines and options; the tasks are each trial's
	// Out, when set, is the folder the runs write their files to: Out itself for a lone run,
	// else a subfolder per mapper and one per trial where there are several (runDir).
	Out     string
	CSV     bool   // also write tasks.csv
	Version string // the tool's version, which the files record
	// Jobs is how many trials replay at a time: 0 means the number of CPUs.
	Jobs     int
	Progress Progress

	dirs sync.Mutex // held while run folders are made or removed (makeDirs)
}

// Run replays each trial through each mapper and hands each result to emit, trial i through
// mapper j, in trial order whatever Jobs.
func (r *Runner) Run(ctx context.Context, trials []trialset.Trial, emit func(i, j int, res *replay.Result) error) error {
	if jobs := r.jobs(len(trials)); jobs > 1 {
		return r.parallel(ctx, trials, jobs, emit)
	}
	scratch := new(storage) // each replay reuses the storage the one before left
	for i, tr := range trials {
		if err := r.runTrial(ctx, r.Progress, tr, i, len(trials), scratch, emit); err != nil {
			return err
		}
	}
	return nil
}

// jobs is how many of trials Run replays at a time: Jobs, or the number of CPUs, never more
// than there are trials.
func (r *Runner) jobs(trials int) int {
	n := r.Jobs
	if n == 0 {
		n = runtime.NumCPU()
	}
	return min(n, trials)
}

// runDir is where the replay of trial i (of trials) through the mapper labelled label (of
// mappers) writes its files: out itself for a lone replay, else a subfolder per mapper and one
// per trial where there are several of each; "" when out is.
func runDir(out, label string, i, trials, mappers int) string {
	if out == "" {
		return ""
	}
	dir := out
	if mappers > 1 {
		dir = filepath.Join(dir, label)
	}
	if trials > 1 {
		dir = filepath.Join(dir, fmt.Sprintf("trial-%03d", i+1))
	}
	return dir
}

// storage is what one goroutine's replays, one after another, reuse: the engine's, and the
// trace's that loading a trial uses before it makes the replay's tasks.
type storage struct {
	replay replay.Scratch
	loads  trialset.Buffers
}

// runTrial replays trial tr (number i of trials) through each mapper in turn, and hands each
// result to emit as it comes: the trial's loaded tasks serve all its mappers.
func (r *Runner) runTrial(ctx context.Context, p Progress, tr trialset.Trial, i, trials int, scratch *storage, emit func(i, j int, res *replay.Result) error) error {
	var tasks []replay.Task // once a replay has loaded them, for the trial's next mappers (replayTrial)
	for j, mp := range r.Mappers {
		mapper, err := mp.New() // fresh state per replay
		if err != nil {
			return err
		}
		cfg := r.Base
		cfg.Scratch = &scratch.replay
		res, loaded, err := r.replayTrial(ctx, p, tr, tasks, &scratch.loads, mapper, cfg, runDir(r.Out, mp.Label, i, trials, len(r.Mappers)))
		if err != nil {
			return err
		}
		tasks = loaded
		if err := emit(i, j, res); err != nil {
			return err
		}
	}
	return nil
}

// replayTrial replays one trial: as its file is read when it can be (replayStreamed), else
// loaded and sorted, unless tasks holds the trial's tasks as an earlier replay loaded them. It
// returns the tasks it replayed when it loaded them, for the trial's next replays. Loading reads
// the trace with loads' storage.
func (r *Runner) replayTrial(ctx context.Context, p Progress, tr trialset.Trial, tasks []replay.Task, loads *trialset.Buffers, mapper replay.Mapper, cfg replay.Config, dir string) (*replay.Result, []replay.Task, error) {
	if tasks == nil && !tr.IsDat() {
		if res, streamed, err := r.replayStreamed(ctx, p, tr, mapper, cfg, dir); streamed {
			return res, nil, err
		}
	}
	if tasks == nil {
		var err error
		if tasks, err = tr.LoadTasksInto(loads); err != nil { // done with before the worker's next trial
			return nil, nil, err
		}
	}
	cfg.Tasks = tasks
	p.Logf("replaying %s (%d tasks, loaded) with %s", tr.Name(), len(tasks), mapper.Name())
	bar := p.Tasks(len(tasks), filepath.Base(tr.Name()))
	res, err := r.replayOne(ctx, mapper, cfg, tr.PET(), tr.Name(), dir, bar.Counter(), nil)
	bar.Stop()
	return res, tasks, replayError(tr, err)
}

// replayStreamed replays a trial as its file is read (Trial.Stream), while Trial.Streamable checks
// the file on another core: the replay does not wait for that pass (1.1 s of 7.2 s on a million
// tasks), but its outputs are kept only once the pass has found the file streamable. When the
// pass finds it is not, the replay is stopped and streamed is false: the trial is to be loaded.
// A bad row is reported as the pass finds it, whatever the replay made of it, so the error is
// the one the pass gave when it ran before the replay.
func (r *Runner) replayStreamed(ctx context.Context, p Progress, tr trialset.Trial, mapper replay.Mapper, cfg replay.Config, dir string) (res *replay.Result, streamed bool, err error) {
	src, err := tr.Stream()
	if err != nil { // the pass's verdict comes first, as when it ran before the replay
		if _, ok, passErr := tr.Streamable(ctx); passErr != nil || !ok {
			return nil, passErr != nil, passErr
		}
		return nil, true, err
	}
	defer src.Close()
	cfg.Source = src

	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	bar := p.Tasks(-1, filepath.Base(tr.Name())) // the pass gives the total
	pass := trialset.StartPass(ctx, tr, stop, func(n int) {
		bar.SetTotal(n)
		bar.Logf("replaying %s (%d tasks, streamed) with %s", tr.Name(), n, mapper.Name())
	})
	res, err = r.replayOne(runCtx, mapper, cfg, tr.PET(), tr.Name(), dir, bar.Counter(), pass.Accept)
	_, ok, passErr := pass.Wait()
	bar.Stop()
	switch {
	case ctx.Err() != nil:
		return nil, true, ctx.Err()
	case passErr != nil:
		return nil, true, passErr
	case !ok:
		return nil, false, nil
	}
	return res, true, replayError(tr, err)
}

// replayError is a replay's error as the user is to see it: a task the engine refused is bad
// input (sweep.InputError), named by its trace.
func replayError(tr trialset.Trial, err error) error {
	if errors.As(err, new(*replay.TaskError)) {
		return sweep.InputError{Err: fmt.Errorf("%s: %w", tr.Name(), err)}
	}
	return err
}
