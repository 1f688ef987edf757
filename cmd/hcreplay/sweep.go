package main

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/trace"
)

// SweepCmd replays a grid of heuristics, pruning variants, levels, trials and options, and
// writes one row per run (SPEC §6). The grid, its expansion and the runner are report.Grid and
// report.Sweep; this file reads the grid's files and wires the flags and the progress bar.
type SweepCmd struct {
	Grid       string        `arg:"" optional:"" help:"Grid file (YAML; see docs/sweep-example.yaml). The flags below set or replace its keys." placeholder:"GRID.yaml"`
	Out        string        `help:"Required. Folder for runs.parquet and manifest.json (and runs.partial.parquet while the sweep runs)." placeholder:"DIR"`
	Jobs       int           `short:"j" help:"Replays at a time (default: the number of CPUs)." placeholder:"N"`
	Resume     bool          `help:"Keep the runs an earlier, interrupted sweep of the same grid and shard finished in DIR and run only the others. A folder of another shard or grid is refused."`
	Shard      string        `help:"Run only shard i of n (1-based): the runs whose position in the grid's order is i-1 modulo n. Give each shard its own --out; report merges them, and refuses while one is missing." placeholder:"i/n"`
	Checkpoint time.Duration `default:"5s" help:"How often finished runs are saved to DIR/runs.partial.parquet (0: after every run)."`

	PET       string   `name:"pet" help:"PET matrix (grid key pet)." placeholder:"PET"`
	Catalog   string   `help:"Machine catalog (grid key catalog)." placeholder:"FILE"`
	Heuristic []string `short:"H" help:"Heuristics or presets, comma-separated (grid key heuristics)." placeholder:"NAME"`
	Prune     []string `help:"Pruning variants, comma-separated: none, defer, drop, both (grid key prune)." placeholder:"VARIANT"`
	Trace     []string `sep:"none" help:"A level of trace files, NAME=SPEC (a file, a folder of trials, a glob, a zip member or a zip glob); repeat for more. Replaces the grid's levels." placeholder:"NAME=SPEC"`
	Generate  []string `sep:"none" help:"A level of generated trials at an oversubscription label such as 19k; repeat for more. Replaces the grid's levels." placeholder:"LEVEL"`
	Trials    int      `help:"Trials of the --trace levels (the first N files; default all) and --generate levels (default 30)." placeholder:"N"`
	Deadline  string   `help:"Deadline rule of the --trace levels (for files without deadlines) and --generate levels (default prop:1)." placeholder:"RULE"`
	Set       []string `sep:"none" help:"Any other grid key as KEY=V1,V2, e.g. queue_size=4,6 or drop_threshold=0.25,0.5; repeatable." placeholder:"KEY=VALUES"`

	SlurmFlags `embed:""`
}

// Help is the command's long help.
func (c *SweepCmd) Help() string {
	return `A sweep is the cross product of the grid's heuristics, pruning variants, levels (trace sets) and
option lists, times the trials of each level. It runs on --jobs cores and writes DIR/runs.parquet,
one row per run with every option and metric, sorted by the run's key, and DIR/manifest.json.
The same grid gives the same rows whatever --jobs, --shard or --resume did (wall times aside).

Finished runs are saved to DIR/runs.partial.parquet every --checkpoint and on Ctrl-C; --resume
runs only the missing ones and then writes runs.parquet. --shard i/n runs every n-th run from the
i-th, so n machines can share a sweep; each shard needs its own DIR (DIR/manifest.json says which
shard of which grid it holds, and a sweep refuses a DIR of another).

--slurm submits the sweep to a Slurm cluster instead: a job array of --slurm-shards shards and a
merge job that writes DIR/runs.parquet and DIR/report when all have succeeded; --slurm --status
DIR says how far it is, --slurm --resume --out DIR resubmits what failed (README, "Running on a
cluster").

A combination of the lists that replays as another runs once: options a mapper does not read
(the pruning options of an unpruned run) are not crossed with it, and two names of one mapper
(PAMF and PAM-P with fairness 0.1) run under the first. A point whose pruning is degenerate (a
deferring threshold of 1, which defers every task until it expires) is refused.

Examples:

    hcreplay sweep docs/sweep-example.yaml --out runs
    hcreplay sweep --pet pet.json -H MM,PAM --prune none,both --generate 15k --generate 25k --trials 10 --out runs
    hcreplay sweep docs/sweep-example.yaml --out /scratch/runs --slurm --slurm-opt time=01:00:00`
}

func (c *SweepCmd) Run(ctx context.Context, con *Console) error {
	if on, err := c.usesSlurm(); err != nil || on {
		if err != nil {
			return badInput(err)
		}
		return c.runSlurm(ctx, con)
	}
	if c.Out == "" {
		return badInput(errors.New("missing flags: --out=DIR"))
	}
	grid, base, err := c.grid()
	if err != nil {
		return badInput(err)
	}
	var shard report.Shard
	if c.Shard != "" {
		if shard, err = report.ParseShard(c.Shard); err != nil {
			return badInput(fmt.Errorf("--shard: %w", err))
		}
	}
	if c.Jobs < 0 || c.Checkpoint < 0 {
		return badInput(fmt.Errorf("--jobs and --checkpoint must not be negative"))
	}
	inputs, err := loadSweepInputs(grid, base, con)
	if err != nil {
		return err
	}
	bar := newProgress(con)
	unscored, minTrim := 0, 0 // runs whose trim left no task scored, and the least such trim
	sw := &report.Sweep{
		Grid: grid, Inputs: inputs, Dir: c.Out, Jobs: c.Jobs, Shard: shard, Resume: c.Resume,
		Version: buildVersion(), GridFile: c.Grid, Checkpoint: c.Checkpoint, Log: con.Logf,
		InputsDigest: inputsDigest(gridPath(base, grid.PET), gridPath(base, grid.Catalog)),
		Started: func(todo int) {
			con.Logf("sweep: %d runs to do in %s", todo, c.Out)
			bar.start(todo)
		},
		Done: func(r report.RunRow) {
			bar.inc()
			if r.Scored == 0 && r.Tasks > 0 {
				if unscored == 0 || int(r.Trim) < minTrim {
					minTrim = int(r.Trim)
				}
				unscored++
			}
		},
	}
	st, err := sw.Run(ctx)
	bar.stop()
	switch {
	case errors.Is(err, report.ErrSweepExists), errors.Is(err, report.ErrBadRunsFile):
		return badInput(err)
	case err != nil && ctx.Err() != nil:
		con.Logf("%d of %d runs are saved in %s; run the same command with --resume to finish",
			st.Resumed+st.Finished, st.Shard, filepath.Join(c.Out, report.PartialRunsFile))
		return err
	case err != nil:
		return err
	}
	con.Logf("wrote %s: %d runs (%d resumed) of %d in the grid, shard %s",
		filepath.Join(c.Out, report.RunsFile), st.Shard, st.Resumed, st.Runs, shard)
	if unscored > 0 {
		con.Logf("warning: in %d of the %d runs just made, a trim of %d tasks or more at each end left none scored: their robustness and fairness are undefined, and the report leaves them out of its means",
			unscored, st.Finished, minTrim)
	}
	return nil
}

// grid reads the grid file, if any, and applies the flags. base is the folder the grid's
// relative paths are relative to (the grid file's); paths from flags are made absolute.
func (c *SweepCmd) grid() (g *report.Grid, base string, err error) {
	g = report.NewGrid()
	if c.Grid != "" {
		b, err := readSmallFile(c.Grid)
		if err != nil {
			return nil, "", fmt.Errorf("read grid %s: %w", c.Grid, err)
		}
		if g, err = report.ParseGrid(b, c.Grid); err != nil {
			return nil, "", err
		}
		if base, err = filepath.Abs(filepath.Dir(c.Grid)); err != nil {
			return nil, "", err
		}
	}
	if err := c.applyFlags(g); err != nil {
		return nil, "", err
	}
	if c.Grid == "" && g.PET == "" {
		return nil, "", errors.New("give a grid file (see docs/sweep-example.yaml) or at least --pet, -H and --trace or --generate")
	}
	return g, base, g.Validate()
}

// applyFlags sets the grid keys the flags give.
func (c *SweepCmd) applyFlags(g *report.Grid) error {
	type keyFlag struct{ key, value, flag string }
	var sets []keyFlag
	for _, p := range []keyFlag{{"pet", c.PET, "--pet"}, {"catalog", c.Catalog, "--catalog"}} {
		if p.value != "" {
			abs, err := filepath.Abs(p.value)
			if err != nil {
				return err
			}
			sets = append(sets, keyFlag{p.key, abs, p.flag})
		}
	}
	if len(c.Heuristic) > 0 {
		sets = append(sets, keyFlag{"heuristics", strings.Join(c.Heuristic, ","), "--heuristic"})
	}
	if len(c.Prune) > 0 {
		sets = append(sets, keyFlag{"prune", strings.Join(c.Prune, ","), "--prune"})
	}
	for _, kv := range c.Set {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("--set %s: want KEY=VALUES, e.g. queue_size=4,6", kv)
		}
		sets = append(sets, keyFlag{strings.TrimSpace(k), v, "--set " + kv})
	}
	for _, s := range sets {
		if err := g.Set(s.key, s.value, s.flag); err != nil {
			return err
		}
	}
	return c.flagLevels(g)
}

// flagLevels replaces the grid's levels with those of --trace and --generate.
func (c *SweepCmd) flagLevels(g *report.Grid) error {
	if len(c.Trace) == 0 && len(c.Generate) == 0 {
		if c.Trials != 0 || c.Deadline != "" {
			return errors.New("--trials and --deadline apply to levels given by --trace or --generate; set them in the grid file's levels")
		}
		return nil
	}
	var levels []report.Level
	var flags []string
	for _, t := range c.Trace {
		name, spec, ok := strings.Cut(t, "=")
		if !ok || name == "" || spec == "" {
			return fmt.Errorf("--trace %s: want NAME=SPEC, e.g. 19k=constant.zip#arr/arr19k_*.dat", t)
		}
		abs, err := filepath.Abs(spec)
		if err != nil {
			return err
		}
		levels = append(levels, report.Level{Name: name, Trace: abs, Trials: c.Trials, Deadline: c.Deadline, Seed: 1})
		flags = append(flags, "--trace "+t)
	}
	for _, label := range c.Generate {
		gen := report.DefaultGenerate()
		gen.Level = label
		if c.Deadline != "" {
			gen.Deadline = c.Deadline
		}
		trials := c.Trials
		if trials == 0 {
			trials = 30
		}
		levels = append(levels, report.Level{Name: label, Generate: gen, Trials: trials, Seed: 1})
		flags = append(flags, "--generate "+label)
	}
	g.SetLevels(levels, flags)
	return nil
}

// loadSweepInputs reads the PET, the catalog and every level's trials once, for all runs to
// share. Errors name the grid key that points at the bad file.
func loadSweepInputs(g *report.Grid, base string, con *Console) (report.SweepInputs, error) {
	path := func(p string) string { return gridPath(base, p) }
	var in report.SweepInputs
	pet, err := loadPET(path(g.PET))
	if err != nil {
		return in, fmt.Errorf("%s: %w", g.Where("pet"), err)
	}
	machines, err := loadMachines(path(g.Catalog), pet)
	if err != nil {
		return in, fmt.Errorf("%s: %w", g.Where("catalog"), err)
	}
	sec, err := unitSeconds(pet)
	if err != nil {
		return in, err
	}
	in = report.SweepInputs{PET: pet, Machines: machines, TimeUnitSeconds: sec, TimeUnit: pet.TimeUnit(), Levels: map[string]report.LevelTrials{}}
	for i, lv := range g.Levels {
		at := func(key string) string { return g.Where(fmt.Sprintf("levels[%d]%s", i, key)) }
		var lt report.LevelTrials
		if lv.Generate != nil {
			lt, err = generateLevel(lv, pet, at)
			if mean, merr := meanExec(pet, machines, nil); err == nil && merr == nil {
				if w := loadWarning(lt.Rate * mean / float64(len(machines))); w != "" {
					con.Logf("warning: %s: %s (a generated level takes generate: {rate: R})", at(".generate"), w)
				}
			}
		} else {
			w := &warnings{con: con, level: lv.Name}
			lt, err = traceLevel(lv, path(lv.Trace), g.TimeUnit, pet, at, w.add, con)
			w.flush()
		}
		if err != nil {
			return in, err
		}
		in.Levels[lv.Name] = lt
	}
	return in, nil
}

// gridPath is a path of the grid, relative to the folder base unless absolute or empty.
func gridPath(base, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(base, p)
}

// inputsDigest identifies the PET and catalog files a sweep reads (report.Sweep.InputsDigest):
// a SHA-256 of their bytes, the catalog's empty for the default one. It is "" when a file cannot
// be read whole (a zip member): then no sweep is refused for its inputs.
func inputsDigest(pet, catalog string) string {
	h := sha256.New()
	for _, p := range []string{pet, catalog} {
		var b []byte
		if p != "" {
			var err error
			if b, err = os.ReadFile(p); err != nil {
				return ""
			}
		}
		fmt.Fprintf(h, "%d\n", len(b))
		h.Write(b)
	}
	return fmt.Sprintf("sha256:%x", h.Sum(nil))
}

// warnings prints the first few warnings about a level's files and counts the others: a level
// of 30 trials from one generator tends to repeat one warning 30 times.
type warnings struct {
	con   *Console
	level string
	n     int
}

const shownWarnings = 3

func (w *warnings) add(msg string) {
	if w.n++; w.n <= shownWarnings {
		w.con.Logf("warning: %s", msg)
	}
}

func (w *warnings) flush() {
	if w.n > shownWarnings {
		w.con.Logf("warning: and %d more warnings about the files of level %s", w.n-shownWarnings, w.level)
	}
}

// traceLevel reads the first lv.Trials of a level's trace files (all of them when it is 0).
// con gives the limits of --max-inflate, --max-inflate-ratio and --max-batch.
func traceLevel(lv report.Level, spec, unit string, pet *petbuild.PET, at func(string) string, warn func(string), con *Console) (report.LevelTrials, error) {
	ts, err := openTrials(traceInput{Spec: spec, Unit: unit, Deadline: lv.Deadline, Seed: lv.Seed, Inflate: con.Inflate, MaxBatch: con.MaxBatch}, pet, warn)
	if err != nil {
		return report.LevelTrials{}, fmt.Errorf("%s: %w", at(".trace"), err)
	}
	n := len(ts)
	if lv.Trials > n {
		return report.LevelTrials{}, badInput(fmt.Errorf("%s: %d trials wanted, but %s names only %d files", at(".trials"), lv.Trials, lv.Trace, n))
	}
	if lv.Trials > 0 {
		n = lv.Trials
	}
	lt := report.LevelTrials{Rate: lv.Rate, Trials: make([]report.Trial, n)}
	for i, t := range ts[:n] {
		tr, tasks, err := t.load()
		if err != nil {
			return report.LevelTrials{}, fmt.Errorf("%s: %w", at(".trace"), err)
		}
		lt.Trials[i] = report.Trial{Source: tr.Name, Tasks: tasks}
	}
	if lt.Rate == 0 {
		// A name like 19k is the level's label; other names say nothing about the rate.
		if lt.Rate, err = trace.LevelRate(lv.Name, 0); err != nil {
			lt.Rate = math.NaN()
		}
	}
	return lt, nil
}

// generateLevel makes a level's synthetic trials. Trial t depends only on the settings and t.
func generateLevel(lv report.Level, pet *petbuild.PET, at func(string) string) (report.LevelTrials, error) {
	gen := lv.Generate
	rate, err := gen.GenRate()
	if err != nil {
		return report.LevelTrials{}, badInput(fmt.Errorf("%s: %w", at(".generate"), err))
	}
	pattern, shape, err := trace.ParsePattern(gen.Pattern)
	if err != nil {
		return report.LevelTrials{}, badInput(fmt.Errorf("%s: %w", at(".generate.pattern"), err))
	}
	rule, means, err := deadlineRule(gen.Deadline, pet)
	if err != nil {
		return report.LevelTrials{}, badInput(fmt.Errorf("%s: %w", at(".generate.deadline"), err))
	}
	cfg := trace.GenConfig{Types: pet.TaskTypes(), Rate: rate, Tasks: gen.Tasks, CV: gen.CV, Pattern: pattern, Spiky: shape,
		Seed: gen.Seed, Unit: trace.Unit(pet.TimeUnit()), Deadline: &rule, Means: means}
	lt := report.LevelTrials{Rate: rate, Trials: make([]report.Trial, lv.Trials)}
	for t := 1; t <= lv.Trials; t++ {
		tr, err := trace.Generate(cfg, t)
		if err != nil {
			return report.LevelTrials{}, badInput(fmt.Errorf("%s: %w", at(".generate"), err))
		}
		tasks, err := replayTasks(tr, pet)
		if err != nil {
			return report.LevelTrials{}, err
		}
		source := fmt.Sprintf("generate rate=%g pattern=%s tasks=%d cv=%g deadline=%s seed=%d trial=%d",
			rate, gen.Pattern, gen.Tasks, gen.CV, gen.Deadline, gen.Seed, t)
		lt.Trials[t-1] = report.Trial{Source: source, Tasks: tasks}
	}
	return lt, nil
}

// progress is a command's progress bar: the sweep's runs done of the runs to do, or a replay's
// tasks done, with the rate and the time left. It draws only on a terminal, and a nil
// *progress draws nothing, so a quiet or redirected command writes no frames into logs.
type progress struct {
	p      *mpb.Progress
	bar    *mpb.Bar
	remove bool // take the bar off the screen when it stops (a replay's: one per trial)
}

func newProgress(con *Console) *progress {
	f, ok := con.Stderr.(*os.File)
	if con.Quiet || !ok || !isTerminal(f) {
		return nil
	}
	return &progress{p: mpb.New(mpb.WithOutput(f), mpb.WithWidth(40))}
}

// isTerminal says whether f is a terminal (a character device), without x/term.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func (p *progress) start(total int) { p.startRuns(total, "sweep") }

// startRuns starts a bar for total runs, labelled.
func (p *progress) startRuns(total int, label string) {
	if p == nil || total == 0 {
		return
	}
	p.bar = p.p.AddBar(int64(total),
		mpb.PrependDecorators(decor.Name(label+" "), decor.CountersNoUnit("%d/%d runs")),
		mpb.AppendDecorators(decor.AverageSpeed(0, " %.1f runs/s"), decor.Name("  ETA "), decor.AverageETA(decor.ET_STYLE_GO)))
}

// startTasks starts a bar for a replay of total tasks, labelled, that is taken off the screen
// when it stops: a trial's bar is of use only while the trial runs. A negative total is not
// known yet: setTotal gives it.
func (p *progress) startTasks(total int, label string) {
	if p == nil || total == 0 {
		return
	}
	p.remove = true
	eta := decor.AverageETA(decor.ET_STYLE_GO)
	p.bar = p.p.AddBar(int64(max(total, 0)), // mpb: a bar of total 0 takes its total from SetTotal
		mpb.PrependDecorators(decor.Name(label+" "), decor.Any(func(s decor.Statistics) string {
			if s.Total <= 0 {
				return fmt.Sprintf("%d tasks", s.Current)
			}
			return fmt.Sprintf("%d/%d tasks", s.Current, s.Total)
		})),
		mpb.AppendDecorators(decor.AverageSpeed(0, " %.0f tasks/s"), decor.Any(func(s decor.Statistics) string {
			if s.Total <= 0 {
				return "" // no time left without a total
			}
			left, _ := eta.Decor(s)
			return "  ETA " + left
		})))
}

// setTotal gives the total of a bar that startTasks started without one.
func (p *progress) setTotal(total int) {
	if p != nil && p.bar != nil {
		p.bar.SetTotal(int64(total), false)
	}
}

// logf prints a log line as con.Logf does, above the bar while one is drawn, so that the line
// does not break into the bar's frames.
func (p *progress) logf(con *Console, format string, args ...any) {
	if p == nil || p.bar == nil {
		con.Logf(format, args...)
		return
	}
	fmt.Fprintf(p.p, format+"\n", args...)
}

// counter returns a function to call once per item done, which moves the bar in steps of
// progressStep items, or nil when there is no bar. A step per task would cost a replay an
// exchange with the bar's goroutine for every task.
func (p *progress) counter() func() {
	if p == nil || p.bar == nil {
		return nil
	}
	n := 0
	return func() {
		if n++; n == progressStep {
			p.bar.IncrBy(n)
			n = 0
		}
	}
}

// progressStep is how many items counter's function counts before it moves the bar: a 200,000
// tasks/s replay moves it 200 times a second, more than the bar's 150 ms redraws need.
const progressStep = 1024

func (p *progress) inc() {
	if p != nil && p.bar != nil {
		p.bar.Increment()
	}
}

// stop leaves a sweep's bar as the last line, finished or where it was interrupted, and takes a
// replay's off the screen.
func (p *progress) stop() {
	if p == nil {
		return
	}
	if p.bar != nil && (p.remove || !p.bar.Completed()) {
		p.bar.Abort(p.remove)
	}
	p.p.Wait()
}
