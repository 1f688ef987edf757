package sweep

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/report"
)

// SweepInputs are what the runs share read-only: loaded once, never written by a run.
type SweepInputs struct {
	PET             replay.PET
	Machines        []replay.Machine
	TimeUnitSeconds float64 // length of the PET's time unit, for cost and energy
	TimeUnit        string  // the PET's time unit by name (ms, s), which the files record
	Levels          map[string]LevelTrials
}

// LevelTrials are a level's trials, in order: trial t is Trials[t-1].
type LevelTrials struct {
	Rate   float64 // tasks per time unit, NaN when unknown
	Trials []Trial
}

// Trial is one arrival trace, ready to replay.
type Trial struct {
	Source string // where it came from: a file, a zip member, or the generator's settings
	Tasks  []replay.Task
}

// Sweep is a sweep ready to run (SPEC §6): it replays every run of a Grid and writes one report.RunRow
// per run to Dir/runs.parquet, and the grid, the tool's version, the seeds and the counts to
// Dir/manifest.json.
//
// Determinism. Expand lists the runs in a fixed order and gives each a Key made only of the
// options and the trial (never of the time, the worker or the order of completion). A run
// depends on nothing but its own options and inputs: it gets a fresh mapper, the PET and the
// trials are shared read-only, and actual durations come from common random numbers seeded by
// the run's seed. Rows are written sorted by Key. So the same grid gives the same rows whatever
// --jobs, sharding or resuming did, except for the wall times MapperSeconds and PrunerSeconds.
//
// Resume. While it runs, the sweep saves the rows it has so far to Dir/runs.partial.parquet,
// atomically (write, then rename), every Checkpoint and when it stops early (Ctrl-C, an error).
// A sweep killed outright loses at most the runs since the last checkpoint. With Resume, the
// rows of runs.partial.parquet and runs.parquet whose Key is still in the grid (and whose trial
// came from a file of the same name) count as done, and only the others run. When every run is done
// the sweep writes runs.parquet and removes the partial file, so runs.parquet is only ever a
// complete sweep (or shard).
//
// Shards. Shard i/n runs the runs whose index in the expanded order is i−1 modulo n, so the
// shards of one grid are disjoint, cover it, and get a mix of every level and heuristic. Each
// shard writes its own Dir; the rows of all shards together, sorted by Key, are the rows of the
// whole grid.
type Sweep struct {
	Grid     *Grid
	Inputs   SweepInputs
	Dir      string
	Jobs     int   // replays at a time; < 1 means runtime.NumCPU()
	Shard    Shard // the zero Shard runs the whole grid
	Resume   bool  // keep the finished runs found in Dir
	Version  string
	GridFile string // for the manifest
	// InputsDigest identifies the PET and catalog the runs are made with (the command line: a
	// SHA-256 of their files). The manifest records it, and a folder whose runs were made with
	// other inputs is refused, --resume or not: a run's key names neither.
	InputsDigest string
	// Checkpoint is how often the rows so far are saved to runs.partial.parquet; 0 saves after
	// every run. A save that takes longer than a tenth of it stretches the wait before the next
	// (checkpointEvery), so that saving never takes over a large sweep.
	Checkpoint time.Duration

	// Log, if set, is told what the sweep does (runs to do, files kept or ignored).
	Log func(format string, args ...any)
	// Started, if set, is called once before the first run with the number of runs to do now.
	Started func(todo int)
	// Done, if set, is called after each run, from one goroutine.
	Done func(report.RunRow)
	// Saving, if set, is called when the sweep, stopped early, starts saving the runs finished
	// so far, and the func it returns when the save is done: a command that stops the process a
	// while after Ctrl-C can wait for the save rather than throw it away.
	Saving func() (done func())
}

// SweepStats counts the runs of a sweep.
type SweepStats struct {
	Runs     int // in the grid
	Shard    int // in this shard
	Resumed  int // done before this invocation
	Finished int // done by this invocation
	// Unscored counts the runs done by this invocation in which the trim left no task scored
	// (robustness and fairness undefined; the report leaves them out of its means), and
	// UnscoredTrim is the least trim among them.
	Unscored, UnscoredTrim int
}

// count notes a run done by this invocation.
func (st *SweepStats) count(r *report.RunRow) {
	if r.Scored == 0 && r.Tasks > 0 {
		if st.Unscored == 0 || int(r.Trim) < st.UnscoredTrim {
			st.UnscoredTrim = int(r.Trim)
		}
		st.Unscored++
	}
}

// Run runs the sweep. It returns an error wrapping context.Canceled when ctx was cancelled;
// the runs finished by then are in runs.partial.parquet.
func (s *Sweep) Run(ctx context.Context) (SweepStats, error) {
	started := time.Now()
	todo, rows, st, err := s.plan()
	if err != nil {
		return st, err
	}
	if err := s.writeManifest(st, started, time.Time{}); err != nil {
		return st, err
	}
	if s.Started != nil {
		s.Started(len(todo))
	}
	rows, err = s.execute(ctx, todo, rows, &st)
	st.Finished = len(rows) - st.Resumed
	if err != nil {
		// Keep what is done for --resume, and say how far the sweep got.
		if s.Saving != nil {
			defer s.Saving()()
		}
		return st, errors.Join(err, s.writePartial(rows), s.writeManifest(st, started, time.Now()))
	}
	return st, s.finish(rows, st, started)
}

// plan expands the grid, keeps the shard's runs, prepares the folder and splits the runs into
// those to do and the rows of those done earlier.
func (s *Sweep) plan() (todo []SweepRun, done []report.RunRow, st SweepStats, err error) {
	x, err := s.Grid.expand(s.Inputs.trialCounts())
	if err != nil {
		return nil, nil, st, InputError{err}
	}
	runs := x.runs
	for _, w := range x.notes {
		s.logf("%s", w)
	}
	if x.combinations > len(runs) {
		s.logf("sweep: the grid's %d combinations of options and trials are %d replays: %d replay as another (an option the mapper does not read, a preset's own setting, or two names of one mapper) and are run once",
			x.combinations, len(runs), x.combinations-len(runs))
	}
	var mine []SweepRun
	for _, r := range runs {
		if s.Shard.Has(r.Index) {
			mine = append(mine, r)
		}
	}
	st.Runs, st.Shard = len(runs), len(mine)
	if err := s.prepareDir(mine); err != nil {
		return nil, nil, st, err
	}
	kept, err := s.resumed(mine)
	if err != nil {
		return nil, nil, st, err
	}
	for _, r := range mine {
		if row, ok := kept[r.Key]; ok {
			done = append(done, row)
		} else {
			todo = append(todo, r)
		}
	}
	st.Resumed = len(done)
	return todo, done, st, nil
}

func (in *SweepInputs) trialCounts() map[string]int {
	n := map[string]int{}
	for name, lv := range in.Levels {
		n[name] = len(lv.Trials)
	}
	return n
}

// result is what a worker hands back.
type result struct {
	row report.RunRow
	err error
}

// execute runs todo on Jobs workers and returns rows with the new rows appended. The calling
// goroutine collects the rows, reports them and saves checkpoints, so none of that needs a
// lock. On a failed run or a cancelled ctx it stops handing out runs, lets the workers give up
// their current one, and returns the rows finished by then with the error.
func (s *Sweep) execute(ctx context.Context, todo []SweepRun, rows []report.RunRow, st *SweepStats) ([]report.RunRow, error) {
	want := len(rows) + len(todo)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	jobs := make(chan SweepRun)
	results := make(chan result)
	var wg sync.WaitGroup
	for range s.jobs(len(todo)) {
		wg.Go(func() {
			var scratch replay.Scratch // each run reuses the storage of the worker's last
			for r := range jobs {
				row, err := s.runOne(ctx, &r, &scratch)
				results <- result{row, err}
			}
		})
	}
	go func() {
		defer close(jobs)
		for _, r := range todo {
			select {
			case jobs <- r:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()

	var firstErr error
	saved, every := time.Now(), s.Checkpoint
	for res := range results {
		if res.err != nil {
			if firstErr == nil && !errors.Is(res.err, context.Canceled) {
				firstErr = res.err
			}
			cancel()
			continue
		}
		rows = append(rows, res.row)
		st.count(&res.row)
		if s.Done != nil {
			s.Done(res.row)
		}
		if firstErr == nil && time.Since(saved) >= every {
			began := time.Now()
			if err := s.writePartial(rows); err != nil {
				firstErr = err
				cancel()
			}
			saved = time.Now()
			every = checkpointEvery(s.Checkpoint, saved.Sub(began))
		}
	}
	if firstErr == nil && len(rows) < want {
		// No run failed, so the missing ones were abandoned because the caller's ctx ended.
		firstErr = fmt.Errorf("sweep stopped with %d of %d runs done: %w", len(rows), want, context.Cause(ctx))
	}
	return rows, firstErr
}

// saveShare bounds the time checkpoints take: the next save waits at least saveShare times as
// long as the last one took. A save rewrites every row so far (about 20 µs a row on 2 busy
// cores: 2 s at 100,000 rows), so at a fixed interval a large sweep would spend most of its
// time saving, the workers waiting on the collector, and the cost of all saves would grow with
// the square of the rows. With the interval stretched, saves take about 1/(saveShare+1) of the
// sweep's time, whatever its size (a little more while the rows grow: TestCheckpointEvery).
const saveShare = 10

// checkpointEvery is the wait before the next checkpoint after one that took took: interval
// (Sweep.Checkpoint), or saveShare × took when that is longer. An interval of 0 (save after
// every run) is the user's explicit choice and stays 0.
func checkpointEvery(interval, took time.Duration) time.Duration {
	if interval <= 0 {
		return 0
	}
	return max(interval, saveShare*took)
}

func (s *Sweep) jobs(todo int) int {
	n := s.Jobs
	if n < 1 {
		n = runtime.NumCPU()
	}
	return max(1, min(n, todo))
}

// runOne replays one run with its own mapper, on the storage scratch holds.
func (s *Sweep) runOne(ctx context.Context, r *SweepRun, scratch *replay.Scratch) (report.RunRow, error) {
	lv := s.Inputs.Levels[r.Level]
	tr := lv.Trials[r.Trial-1]
	mapper, err := r.mapper()
	if err != nil {
		return report.RunRow{}, fmt.Errorf("run %s: %w", r.Key, err)
	}
	cfg := replay.Config{PET: s.Inputs.PET, Machines: s.Inputs.Machines, Tasks: tr.Tasks, Options: r.options(s.Inputs.TimeUnitSeconds), Scratch: scratch}
	res, err := replay.Run(ctx, cfg, mapper)
	if err != nil {
		return report.RunRow{}, fmt.Errorf("run %s (%s): %w", r.Key, tr.Source, err)
	}
	row := r.row()
	row.LevelRate, row.Trace = lv.Rate, tr.Source
	row.SetMetrics(res.Summary, res.Timing)
	// A preset may change the variant (PAMF prunes even when asked for none): the row says
	// what ran.
	row.Prune, row.Name = res.Summary.Prune, res.Summary.Heuristic
	return row, nil
}

// sortRows orders rows by Key, the order runs.parquet is written in.
func sortRows(rows []report.RunRow) {
	slices.SortFunc(rows, func(a, b report.RunRow) int { return cmp.Compare(a.Key, b.Key) })
}

func (s *Sweep) logf(format string, args ...any) {
	if s.Log != nil {
		s.Log(format, args...)
	}
}
