// Package trialset opens the arrival traces a replay is given (a file, a folder, a glob, a zip
// member) as a set of trials, each read only when it is replayed: loaded whole and sorted, or
// streamed as its file is read, beside a pass that checks the file can be (Streamable, Pass).
// It fills in deadlines by a rule, repairs the HCW19 first-arrival defect, and tells the
// warnings a set tells once (an implausible time unit, the repair) through a callback, once per
// set, in trial order even when the trials replay at once (Deferred); and it loads a sweep
// level's trials (LoadLevel) and a whole grid's (LoadInputs). It owns no replay: package trialrun runs a replay command's trials
// through the engine and writes their outputs, package sweep a grid's.
package trialset

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/sweep"
	"github.com/hcreplay/hcreplay/trace"
)

// bad marks err as the user's to fix (sweep.InputError), so that the command line exits 2.
// bad(nil) is nil.
func bad(err error) error {
	if err == nil {
		return nil
	}
	return sweep.InputError{Err: err}
}

// Input says how to read arrival traces and fill in missing deadlines.
type Input struct {
	Spec     string // file, folder, glob, zip member or zip glob (trace.Expand)
	Unit     string // unit of the file's times when it does not say
	Deadline string // rule for tasks without a deadline
	Strict   bool   // arrivals out of order are an error
	Seed     uint64 // for the urgency deadline rule
	Inflate  trace.InflateLimit
	MaxBatch int // the most tasks arriving at one instant; 0 means replay.DefaultMaxBatch, negative no limit
	// Listed, when not nil, is Spec's sources as Expand listed them ahead; Open then does not
	// list them again.
	Listed *Listing
}

// Listing is a spec's sources, or the error listing them gave (trace.Expand).
type Listing struct {
	sources []trace.Source
	err     error
}

// Expand lists a spec's sources ahead of Open, which needs the PET: a command lists them while
// it reads the PET, and gives the listing to Open (Input.Listed). Listing a zip reads its
// directory (HCW19's constant.zip: 511 members, about 3 ms of a fresh 30-trial replay's 110),
// and reading the PET takes about 4 ms; neither needs the other.
func Expand(spec string) *Listing {
	srcs, err := trace.Expand(spec)
	return &Listing{srcs, err}
}

// Trial is one arrival trace of a spec, read only when it is replayed.
type Trial struct {
	src   trace.Source
	index int    // in the spec's expansion: seeds its deadline rule
	seed  uint64 // Input.Seed
	pet   *petbuild.PET
	opt   trace.ReadOptions
	rule  *trace.DeadlineRule
	means trace.TypeMeans
	warn  func(string)
	units *atomic.Bool // set once a trial of the spec was found in an implausible unit (checkUnit)
	// repairs tells the HCW19 repair once for the spec's trials, not once per file (issue 46).
	repairs *repairNote
	// onceKey is the spec's own units and repairs, which replay -j replaces per trial (see
	// Deferred): the key under which a warning told once per spec is told once.
	onceKey struct {
		units   *atomic.Bool
		repairs *repairNote
	}
	// keyed, when set, receives the warnings told once per spec with their key, instead of warn
	// (replay -j: Deferred).
	keyed func(key any, msg string)

	maxBatch int // Input.MaxBatch
}

// warnOnce is the warn function for a warning the spec tells once, under key: warn, or keyed
// when replay -j defers the trial's warnings.
func (t Trial) warnOnce(key any) func(string) {
	if t.keyed == nil {
		return t.warn
	}
	return func(msg string) { t.keyed(key, msg) }
}

// Open expands the spec and checks what applies to every trial, reading no trace yet.
func Open(in Input, pet *petbuild.PET, warn func(string)) ([]Trial, error) {
	fileUnit, err := FileUnit(in.Unit)
	if err != nil {
		return nil, bad(err)
	}
	petUnit, err := trace.ParseUnit(pet.TimeUnit())
	if err != nil {
		return nil, bad(fmt.Errorf("PET time unit: %w", err))
	}
	opt := trace.ReadOptions{
		FileUnit: fileUnit, Unit: petUnit, Strict: in.Strict,
		KnownTaskTypes: pet.TaskTypes(), KnownMachineTypes: pet.MachineTypes(),
		TypeIndex: pet.TaskTypes(), // a .dat trial's types are indexes into the PET's (as trace gen writes them)
		Warn:      func(e *trace.InputError) { warn(e.Error()) },
		Inflate:   in.Inflate,
	}
	listed := in.Listed
	if listed == nil {
		listed = Expand(in.Spec)
	}
	srcs, err := listed.sources, listed.err
	if err != nil {
		return nil, bad(err)
	}
	if slices.ContainsFunc(srcs, trace.IsDat) {
		if w := trace.DatIndexNote(pet.TaskTypes()); w != "" {
			warn(w)
		}
	}
	var rule *trace.DeadlineRule
	var means trace.TypeMeans
	if in.Deadline != "" {
		r, m, err := petbuild.DeadlineRule(in.Deadline, pet)
		if err != nil {
			return nil, bad(err)
		}
		rule, means = &r, m
	}
	ts := make([]Trial, len(srcs))
	units := new(atomic.Bool)
	repairs := &repairNote{spec: in.Spec, trials: len(srcs)}
	for i, src := range srcs {
		ts[i] = Trial{src: src, index: i, seed: in.Seed, pet: pet, opt: opt, rule: rule, means: means, warn: warn, units: units, repairs: repairs, maxBatch: in.MaxBatch}
		ts[i].onceKey.units, ts[i].onceKey.repairs = units, repairs
	}
	return ts, nil
}

// Buffers is storage that loads one after another lend each other (Trial.LoadTasks,
// Trial.LoadTasksInto): the trace's tasks and its slack sample, which no one keeps once the
// trial's replay tasks are made, and, for LoadTasksInto, the replay tasks. One goroutine's at a
// time.
type Buffers struct {
	tasks  []trace.Task
	slacks slackSample
	replay []replay.Task // LoadTasksInto's
}

// LoadTasks reads the whole trace and converts it to replay tasks: sorted by arrival when the
// file is not, the HCW19 defect repaired, deadlines given by the rule. The trace is read with
// buf's storage, which the next load with buf uses again; the replay tasks are in new storage,
// the caller's to keep.
func (t Trial) LoadTasks(buf *Buffers) ([]replay.Task, error) {
	return t.load(buf, false)
}

// LoadTasksInto is LoadTasks with the replay tasks in buf's storage too: they are valid until
// the next load with buf, for a caller that is done with a trial's tasks before it loads the
// next (a replay keeps none: its outcomes hold copies).
func (t Trial) LoadTasksInto(buf *Buffers) ([]replay.Task, error) {
	return t.load(buf, true)
}

// load is LoadTasks with buf's storage, which it keeps in buf for the next load with buf: the
// trace's, and the replay tasks' when into is set.
func (t Trial) load(buf *Buffers, into bool) ([]replay.Task, error) {
	tr, repaired, err := trace.ReadRepairedInto(t.src, t.opt, buf.tasks)
	if err != nil {
		return nil, bad(err)
	}
	buf.tasks = tr.Tasks
	if repaired {
		t.repairs.tell(t.warnOnce(t.onceKey.repairs), tr.Name)
	}
	slacks := buf.slacks[:0]
	defer func() { buf.slacks = slacks }()
	batch := replay.NewBatchLimit(tr.Name, t.maxBatch)
	for _, task := range tr.Tasks {
		slacks.add(task)
		if err := batch.Add(task.Arrival); err != nil {
			return nil, bad(err)
		}
	}
	t.checkUnit(slacks)
	if t.rule != nil {
		if err := trace.AssignDeadlines(tr, *t.rule, t.means, t.rng(), false); err != nil {
			return nil, bad(fmt.Errorf("%s: %w", tr.Name, err))
		}
	} else if !tr.HasDeadlines() {
		return nil, bad(errNoDeadline(tr.Name))
	}
	var dst []replay.Task
	if into {
		dst = buf.replay
	}
	tasks, err := sweep.ReplayTasksInto(dst, tr, t.pet)
	if err != nil {
		return nil, bad(err)
	}
	if into {
		buf.replay = tasks
	}
	return tasks, nil
}

func (t Trial) IsDat() bool { return trace.IsDat(t.src) }

// repairNote tells that the HCW19 first-arrival defect was repaired, once for a spec's trials:
// replay and sweep load the trials one at a time (and again for each mapper), so the count of a
// set is not known when the first is repaired, and thirty lines of one warning hide the others.
type repairNote struct {
	once   sync.Once
	spec   string
	trials int
}

func (r *repairNote) tell(warn func(string), name string) {
	r.once.Do(func() {
		if r.trials == 1 {
			warn(fmt.Sprintf("%s: repaired the first task's arrival (HCW19 generator defect)", name))
			return
		}
		warn(fmt.Sprintf("%s: repaired the first task's arrival (HCW19 generator defect) in %s and in every other of its %d trials that has the defect",
			r.spec, filepath.Base(name), r.trials))
	})
}

func (t Trial) rng() *rand.Rand { return rand.New(rand.NewPCG(t.seed, uint64(t.index))) }

func errNoDeadline(name string) error {
	return fmt.Errorf("%s: some tasks have no deadline: give a rule with --deadline (tight, prop:ALPHA, urgency, slack:BETA)", name)
}

// open returns a source that reads the trial's file while the replay runs, so that memory does
// not grow with the trace. It does not check that this gives what load would: streamable does,
// and replayStreamed keeps a streamed replay only once streamable has passed the file. Close the
// source when done.
func (t Trial) open() (*streamSource, error) {
	r, err := trace.OpenTasks(t.src, t.opt)
	if err != nil {
		return nil, bad(err)
	}
	execIndex, err := t.pet.MachineIndices(r.ExecTypes())
	if err != nil {
		r.Close()
		return nil, bad(fmt.Errorf("%s: %w", t.src.Name, err))
	}
	return &streamSource{Trial: t, r: r, execIndex: execIndex, draws: t.rng(), batch: replay.NewBatchLimit(t.src.Name, t.maxBatch)}, nil
}

// Streamable is a pass over the trial's file that says whether replaying it as it is read (open)
// gives what load would, and how many tasks it holds: arrivals in order, task ids increasing (so
// none repeats), every task with a deadline or a rule to give one. An HCW19 .dat trial is not
// streamable: its repair looks at the whole trace. An error is a bad row, or ctx's when it is
// cancelled; the pass looks at ctx every streamableCheck rows.
func (t Trial) Streamable(ctx context.Context) (int, bool, error) {
	if t.IsDat() {
		return 0, false, nil
	}
	r, err := trace.OpenTasks(t.src, t.opt)
	if err != nil {
		return 0, false, bad(err)
	}
	defer r.Close()
	n, lastID := 0, int64(0)
	var slacks slackSample
	for task, err := range r.All() {
		if err != nil {
			return 0, false, bad(err)
		}
		if (n > 0 && task.ID <= lastID) || (t.rule == nil && !task.HasDeadline()) {
			return 0, false, nil // load sorts, checks ids for duplicates, and says which task lacks a deadline
		}
		n, lastID = n+1, task.ID
		slacks.add(task)
		if n%streamableCheck == 0 && ctx.Err() != nil {
			return 0, false, ctx.Err()
		}
	}
	if k, _ := r.OutOfOrder(); k > 0 {
		return 0, false, nil
	}
	t.checkUnit(slacks)
	return n, true, nil
}

// slackSample holds the slack (deadline − arrival) of a trial's first tasks with a deadline in
// the file, enough to tell its time unit from the PET's (checkUnit).
type slackSample []float64

func (s *slackSample) add(t trace.Task) {
	if len(*s) < 1000 && t.HasDeadline() {
		*s = append(*s, t.Deadline-t.Arrival)
	}
}

// checkUnit warns, once per spec, when a trial's deadlines are implausible for the PET
// (petbuild.PET.ImplausibleSlack); deadlines a rule gave are left out, since the rule takes
// them from the PET.
func (t Trial) checkUnit(slacks slackSample) {
	med, mean, bad := t.pet.ImplausibleSlack(slacks)
	if !bad || t.units.Swap(true) {
		return
	}
	unit := t.pet.TimeUnit()
	t.warnOnce(t.onceKey.units)(fmt.Sprintf("%s: deadlines are a median %.3g %s after arrival, against a mean execution time of %.3g %s in the PET: "+
		"is the trace in another time unit than the PET? --time-unit gives the trace's (e.g. --time-unit s)", t.src.Name, med, unit, mean, unit))
}

// streamableCheck is how many rows streamable reads between looks at its context: a few
// milliseconds' worth.
const streamableCheck = 4096

// streamSource is a replay.TaskSource over a trial's file, read as the replay goes.
type streamSource struct {
	Trial
	r         *trace.TaskReader
	execIndex []int
	draws     *rand.Rand // the deadline rule's, from trial.rng
	n         int        // tasks read
	lastID    int64
	batch     *replay.BatchLimit
}

// Next stops with ErrNotStreamable at the first row that streamable finds not streamable: the
// replay checks that in file order itself rather than wait for the pass on another goroutine
// (on one core the pass ran late, and a replay of a file whose third row repeats an id went on
// to gigabytes before the pass said so); replayStreamed then loads the trial, which names the
// row.
func (s *streamSource) Next() (replay.Task, bool, error) {
	t, err := s.r.Next()
	if errors.Is(err, io.EOF) {
		return replay.Task{}, false, nil
	}
	if err != nil {
		return replay.Task{}, false, bad(err)
	}
	if k, _ := s.r.OutOfOrder(); (s.n > 0 && t.ID <= s.lastID) || (s.rule == nil && !t.HasDeadline()) || k > 0 {
		return replay.Task{}, false, ErrNotStreamable // as streamable decides: the trial is to be loaded
	}
	s.n, s.lastID = s.n+1, t.ID
	if err := s.batch.Add(t.Arrival); err != nil {
		return replay.Task{}, false, bad(err)
	}
	if s.rule != nil && !t.HasDeadline() {
		if t.Deadline, err = s.rule.Deadline(t.Type, t.Arrival, s.means, s.draws); err != nil {
			return replay.Task{}, false, bad(fmt.Errorf("%s: %w", s.src.Name, err))
		}
	}
	rt, err := sweep.ReplayTask(t, s.pet, s.execIndex)
	if err != nil {
		return replay.Task{}, false, bad(fmt.Errorf("%s: %w", s.src.Name, err))
	}
	return rt, true, nil
}

// Close releases the file.
func (s *streamSource) Close() error { return s.r.Close() }

// FileUnit parses a --time-unit flag for ReadOptions.FileUnit: empty when the flag is not
// given, so that a file that declares its unit (# time_unit=s, Parquet metadata) is read in
// it, and one that does not is read in ms. Passing ms for an absent flag made a file in
// seconds that says so fail with "the caller says ms".
func FileUnit(flag string) (trace.Unit, error) {
	if flag == "" {
		return "", nil
	}
	return trace.ParseUnit(flag)
}

// Name is the trial's file, as its messages name it.
func (t Trial) Name() string { return t.src.Name }

// Deferred returns t with its warnings told to warn instead of the set's callback, and those the
// set tells once to keyed, with the key of that warning, so that a caller replaying trials at
// once (replay -j) can tell each once-per-set warning for the first trial in order that has it,
// as one trial after another would. The trial's own notes replace the set's.
func (t Trial) Deferred(warn func(msg string), keyed func(key any, msg string)) Trial {
	t.warn = warn
	t.opt.Warn = func(e *trace.InputError) { warn(e.Error()) }
	t.keyed = keyed
	t.units = new(atomic.Bool)
	t.repairs = &repairNote{spec: t.repairs.spec, trials: t.repairs.trials}
	return t
}

// ErrNotStreamable stops a streamed replay's outputs from being kept (Pass.Accept).
var ErrNotStreamable = errors.New("the trace cannot be replayed as it is read")

// Stream is a replay.TaskSource over a trial's file, read as the replay goes and read ahead on
// a goroutine of its own (prefetch). It does not check that this gives what LoadTasks would:
// Streamable does, and a caller keeps a streamed replay only once Streamable has passed the
// file (Pass). Close it when done.
type Stream struct {
	src   *streamSource
	ahead *prefetch
}

// Stream opens the trial's file to be read as the replay goes.
func (t Trial) Stream() (*Stream, error) {
	src, err := t.open()
	if err != nil {
		return nil, err
	}
	return &Stream{src: src, ahead: newPrefetch(src, prefetchChunk, prefetchChunks)}, nil
}

// Next is the next task of the file.
func (s *Stream) Next() (replay.Task, bool, error) { return s.ahead.Next() }

// Close stops the reader, then releases the file.
func (s *Stream) Close() error {
	s.ahead.Close()
	return s.src.Close()
}

// Pass is Trial.Streamable run beside a streamed replay.
type Pass struct {
	done chan struct{} // closed when the fields below are set
	n    int
	ok   bool
	err  error
}

// StartPass starts Trial.Streamable on t in a goroutine of its own. When it finds the file
// streamable, streamed is called with the number of tasks; otherwise, stop is, to stop the
// replay whose result Accept will refuse.
func StartPass(ctx context.Context, t Trial, stop func(), streamed func(n int)) *Pass {
	p := &Pass{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		if p.n, p.ok, p.err = t.Streamable(ctx); p.err != nil || !p.ok {
			stop()
			return
		}
		streamed(p.n)
	}()
	return p
}

// Wait waits for the pass and returns its verdict: Trial.Streamable's.
func (p *Pass) Wait() (n int, ok bool, err error) {
	<-p.done
	return p.n, p.ok, p.err
}

// Accept waits for the pass and lets a streamed replay's result stand only if the pass found
// the file streamable: it returns ErrNotStreamable otherwise.
func (p *Pass) Accept() error {
	if _, ok, err := p.Wait(); err != nil || !ok {
		return ErrNotStreamable
	}
	return nil
}

// PET is the PET the trial's types and deadlines are read against.
func (t Trial) PET() *petbuild.PET { return t.pet }
