package importers

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/hcreplay/hcreplay/internal/natural"
	"github.com/hcreplay/hcreplay/trace"
)

// This file holds what every format's read function shares: the importer,
// with the sampling and window decisions, the bad-row report, the log sink
// and the arrivals it collects, and finish, which makes them a trace.

// importInput is one file of a source trace; tests and fuzz targets feed
// bytes through it without touching the file system.
type importInput struct {
	name string
	open func() (io.ReadCloser, error)
}

func sourceInputs(srcs []trace.Source) []importInput {
	in := make([]importInput, len(srcs))
	for i, s := range srcs {
		in[i] = importInput{name: s.Name, open: s.OpenRaw}
	}
	return in
}

// importer holds what every format's importer shares: the options, the
// sampling and window decisions, the bad-row report, the log sink and the
// arrivals collected for the trace.
type importer struct {
	ctx  context.Context
	opt  Options
	res  *Result
	emit func(trace.LogRecord) error

	srcScale float64 // source unit → output unit
	maxTime  float64 // MaxSeconds in the output unit
	winFrom  float64 // window in the output unit
	winTo    float64

	cells     map[[2]string]*cellStat
	tasks     []trace.Task
	execTypes []string
	execIndex map[string]int
}

type cellStat struct {
	n   int64
	sum float64
}

// newImporter prepares an import whose source times are in unit src unless
// the options override it.
func newImporter(ctx context.Context, opt Options, src trace.Unit, emit func(trace.LogRecord) error) *importer {
	if opt.SourceUnit != "" {
		src = opt.SourceUnit
	}
	if opt.BadSamples <= 0 {
		opt.BadSamples = 3
	}
	if opt.SamplesPerRow <= 0 {
		opt.SamplesPerRow = 100
	}
	out := opt.Unit
	if out == "" {
		out = trace.DefaultUnit
	}
	im := &importer{ctx: ctx, opt: opt, emit: emit, srcScale: src.Factor(out),
		res:   &Result{Format: opt.Format, Unit: out, Bad: BadRows{keep: opt.BadSamples}},
		cells: map[[2]string]*cellStat{}, execIndex: map[string]int{},
		winFrom: float64(opt.WindowFrom) * trace.Nanosecond.Factor(out), winTo: math.Inf(1),
		maxTime: trace.MaxSeconds * trace.Second.Factor(out)}
	if opt.WindowTo > 0 {
		im.winTo = float64(opt.WindowTo) * trace.Nanosecond.Factor(out)
	}
	return im
}

// keep decides by a seeded hash of the unit's key whether the unit of work
// belongs to the sample, and counts it out when not.
func (im *importer) keep(key string) bool {
	if im.keepQuiet(key) {
		return true
	}
	im.res.SampledOut++
	return false
}

// keepQuiet is keep without the count, for sources that see a unit of work
// in several rows.
func (im *importer) keepQuiet(key string) bool {
	if im.opt.Sample == 0 || im.opt.Sample >= 1 {
		return true
	}
	h := fnv.New64a()
	var seed [8]byte
	binary.LittleEndian.PutUint64(seed[:], im.opt.Seed)
	h.Write(seed[:])
	h.Write([]byte(key))
	x := h.Sum64()
	x ^= x >> 33 // splitmix-style finish: FNV's high bits mix poorly
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return float64(x>>11)/(1<<53) < im.opt.Sample
}

// time reads column i as a time in the source unit, like cells.number, and
// reports it as the row's problem when it lies beyond MaxSeconds.
func (im *importer) time(c *cells, i int, what string) float64 {
	v := c.number(i, what)
	im.bound(c, i, what, v)
	return v
}

// bound reports v (source unit, read from column i) as the row's problem
// when it lies beyond MaxSeconds.
func (im *importer) bound(c *cells, i int, what string, v float64) {
	if c.ok() && math.Abs(v*im.srcScale) > im.maxTime {
		c.fail(i, fmt.Sprintf("%s beyond %g s", what, trace.MaxSeconds))
	}
}

// inWindow reports whether t (output unit, from the source's zero) is in the
// time window, and counts the unit of work out when not.
func (im *importer) inWindow(t float64) bool {
	if t >= im.winFrom && t < im.winTo {
		return true
	}
	im.res.OutOfWindow++
	return false
}

// bad reports a row.
func (im *importer) bad(effect Effect, reason string, e *trace.InputError) {
	im.res.Bad.add(effect, reason, e)
}

// row counts a source row and, every so often, checks for cancellation and
// reports progress.
func (im *importer) row() error {
	im.res.Rows++
	if im.res.Rows%4096 == 0 {
		if err := im.ctx.Err(); err != nil {
			return err
		}
		if im.opt.Progress != nil && im.res.Rows%1_000_000 == 0 {
			im.opt.Progress(im.res.Rows)
		}
	}
	return nil
}

// log writes one execution record.
func (im *importer) log(r trace.LogRecord) error {
	if r.TaskType == "" || r.MachineType == "" || !(r.ExecTime > 0) {
		return fmt.Errorf("importer produced an invalid log record %+v", r) // a bug, not bad input
	}
	if math.IsInf(r.ExecTime, 0) || math.IsInf(r.Start, 0) || math.IsInf(r.End, 0) {
		im.bad(NoLog, "time too large for the output unit", &trace.InputError{File: r.TaskID, Value: strconv.FormatFloat(r.ExecTime, 'g', -1, 64), HasValue: true})
		return nil
	}
	k := [2]string{r.TaskType, r.MachineType}
	c := im.cells[k]
	if c == nil {
		c = &cellStat{}
		im.cells[k] = c
	}
	c.n++
	c.sum += r.ExecTime
	im.res.LogRecords++
	return im.emit(r)
}

// task collects one arrival. observed maps machine types to durations seen
// in the source (nil when none).
func (im *importer) task(taskType string, arrival float64, jobID string, observed map[string]float64) {
	if math.IsInf(arrival, 0) || math.IsNaN(arrival) {
		im.bad(Skipped, "time too large for the output unit", &trace.InputError{Column: "arrival", Value: strconv.FormatFloat(arrival, 'g', -1, 64), HasValue: true})
		return
	}
	t := trace.Task{Type: taskType, Arrival: arrival, Deadline: math.NaN(), JobID: jobID}
	maps.DeleteFunc(observed, func(_ string, v float64) bool { return math.IsInf(v, 0) })
	if len(observed) > 0 {
		for _, mt := range slices.SortedFunc(maps.Keys(observed), natural.Compare) { // map order is random
			if _, ok := im.execIndex[mt]; !ok {
				im.execIndex[mt] = len(im.execTypes)
				im.execTypes = append(im.execTypes, mt)
			}
		}
		t.Exec = make([]float64, len(im.execTypes))
		for i := range t.Exec {
			t.Exec[i] = math.NaN()
		}
		for mt, v := range observed {
			t.Exec[im.execIndex[mt]] = v
		}
	}
	im.tasks = append(im.tasks, t)
}

// finish turns the collected arrivals into the trace: tasks of types without
// any execution record are dropped (a PET built from the log could not
// replay them), the rest are sorted by arrival, shifted to start at 0,
// numbered, and given deadlines.
func (im *importer) finish(name string) (*trace.Trace, error) {
	res := im.res
	perType := map[string][2]float64{} // sum of cell means, cells
	machines := map[string]bool{}
	for k, c := range im.cells {
		p := perType[k[0]]
		perType[k[0]] = [2]float64{p[0] + c.sum/float64(c.n), p[1] + 1}
		machines[k[1]] = true
		res.Cells++
		if c.n < 30 {
			res.ThinCells++
		}
	}
	means := map[string]float64{}
	for tt, p := range perType {
		means[tt] = p[0] / p[1]
		res.TaskTypes = append(res.TaskTypes, tt)
	}
	for mt := range machines {
		res.MachineTypes = append(res.MachineTypes, mt)
	}
	slices.SortFunc(res.TaskTypes, natural.Compare)
	slices.SortFunc(res.MachineTypes, natural.Compare)

	tasks := im.tasks
	if len(im.cells) > 0 {
		tasks = slices.DeleteFunc(tasks, func(t trace.Task) bool {
			if _, ok := means[t.Type]; ok {
				return false
			}
			im.bad(Skipped, "task type has no execution record in the log (a PET built from it could not replay it)",
				&trace.InputError{File: name, Column: "task_type", Value: t.Type, HasValue: true})
			return true
		})
	} else if len(tasks) > 0 {
		res.Notes = append(res.Notes, "the source has no execution times: replay the trace with a PET of its task types and --deadline")
	}
	for i := range tasks {
		if n := len(im.execTypes); tasks[i].Exec != nil && len(tasks[i].Exec) < n {
			for len(tasks[i].Exec) < n {
				tasks[i].Exec = append(tasks[i].Exec, math.NaN())
			}
		}
	}
	slices.SortStableFunc(tasks, func(a, b trace.Task) int { return cmp.Compare(a.Arrival, b.Arrival) }) // no NaN: task refuses them
	if len(tasks) > 0 {
		res.Offset = tasks[0].Arrival
	}
	for i := range tasks {
		tasks[i].ID = int64(i)
		tasks[i].Arrival -= res.Offset
		res.Span = tasks[i].Arrival
	}
	tr := &trace.Trace{Name: name, Unit: res.Unit, Tasks: tasks}
	if len(im.execTypes) > 0 {
		tr.ExecTypes = im.execTypes
		for i := range tasks {
			if tasks[i].Exec == nil {
				tasks[i].Exec = nanSlice(len(im.execTypes))
			}
		}
	}
	res.Tasks = len(tasks)
	if im.opt.Deadline != nil && len(means) > 0 {
		rng := rand.New(rand.NewPCG(im.opt.Seed, 1))
		if err := trace.AssignDeadlines(tr, *im.opt.Deadline, trace.NewTypeMeans(means), rng, false); err != nil {
			return nil, &trace.InputError{File: name, Msg: "cannot set deadlines", Err: err}
		}
		res.Deadlines = im.opt.Deadline.String()
	}
	return tr, nil
}

func nanSlice(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = math.NaN()
	}
	return s
}

func nan() float64 { return math.NaN() }
