package petbuild

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/hcreplay/hcreplay/trace"
)

// LogStats is what FitLogs read: its rows, and how many of them took under 1 ms.
type LogStats struct {
	Rows, SubMillisecond int
}

// UnitWarning says, when most execution times are under 1 ms, that the logs may be in seconds
// read as milliseconds (a PET 1000 times too fast makes every deadline look easy); "" when
// they are not. It matters only when the logs did not say their unit.
func (s LogStats) UnitWarning() string {
	if s.SubMillisecond*2 <= s.Rows {
		return ""
	}
	return fmt.Sprintf("%d of %d execution times are under 1 ms, read as milliseconds because the log does not say its unit: "+
		"if it is in seconds, give --time-unit s (a PET 1000 times too fast makes every deadline look easy)", s.SubMillisecond, s.Rows)
}

// logRowsStep is how many rows FitLogs reads between two calls of its progress function, and
// checks of its context.
const logRowsStep = 1_000_000

// FitLogs fits a PET to the execution-time logs of specs (files, globs, zip members: trace.Expand),
// read with read, in order. progress, when set, is called with the rows read every million
// rows, when the context is checked too. A read error is returned as the reader gave it, before
// any error of the fit (ThinCellsError, SpanError).
func FitLogs(ctx context.Context, specs []string, read trace.ReadOptions, opt FitOptions, progress func(rows int)) (*PET, LogStats, error) {
	return fitLogs(ctx, specs, read, opt, progress, logRowsStep)
}

// fitLogs is FitLogs with progress calls every step rows.
func fitLogs(ctx context.Context, specs []string, read trace.ReadOptions, opt FitOptions, progress func(rows int), step int) (*PET, LogStats, error) {
	f, err := NewFitter(opt)
	if err != nil {
		return nil, LogStats{}, err
	}
	l := &logFit{ctx: ctx, f: f, progress: progress, step: step}
	for _, spec := range specs {
		if err := trace.EachLogColumns(spec, read, l.record, l.columns); err != nil {
			return nil, l.st, err
		}
	}
	pet, err := f.PET()
	return pet, l.st, err
}

// logFit feeds the records of logs to a Fitter, one at a time or by columns, counting them.
type logFit struct {
	ctx      context.Context
	f        *Fitter
	st       LogStats
	progress func(rows int)
	step     int // rows between two progress calls
	cells    []*cellAcc
}

// row counts one more record, with a progress call and a context check every step.
func (l *logFit) row() error {
	l.st.Rows++
	if l.st.Rows%l.step == 0 {
		if l.progress != nil {
			l.progress(l.st.Rows)
		}
		if l.ctx.Err() != nil {
			return l.ctx.Err()
		}
	}
	return nil
}

func (l *logFit) record(r trace.LogRecord) error {
	if err := l.row(); err != nil {
		return err
	}
	if r.ExecTime < 1 {
		l.st.SubMillisecond++
	}
	return l.f.Add(Sample{TaskType: r.TaskType, MachineType: r.MachineType, Time: r.ExecTime})
}

// columns is record for each record of c, in order, with what it costs per record cut to a
// few loads and stores: the runs between two progress steps go to addColumns.
func (l *logFit) columns(c *trace.LogColumns) error {
	l.cells = l.cells[:0]
	for _, p := range c.Pairs {
		l.cells = append(l.cells, l.f.cells[cellKey{p.TaskType, p.MachineType}])
	}
	n := len(c.Pair)
	for i := 0; i < n; {
		j := min(n, i+l.step-1-l.st.Rows%l.step) // the records before the next step
		added, err := l.f.addColumns(c, l.cells, i, j)
		if err != nil {
			j = i + added + 1 // the record Add refused is counted, as record counts it
		}
		l.st.Rows += j - i
		for _, v := range c.ExecTime[i:j] {
			if v < 1 {
				l.st.SubMillisecond++
			}
		}
		if err != nil {
			return err
		}
		if i = j; i < n { // the record of the step
			p := c.Pairs[c.Pair[i]]
			if err := l.record(trace.LogRecord{TaskType: p.TaskType, MachineType: p.MachineType, ExecTime: c.ExecTime[i]}); err != nil {
				return err
			}
			i++
		}
	}
	return nil
}

// addColumns is Add for the records [lo, hi) of c, cells being the cells of c's pairs so far
// (nil for a pair that is not a cell yet), and returns how many it added. A cell that exists
// was made by Add, so its names passed Add's checks, and a reader's time is positive and
// finite; the records of a new cell, any time that is not, and every record when the cells
// keep histograms instead of samples are left to Add itself.
func (f *Fitter) addColumns(c *trace.LogColumns, cells []*cellAcc, lo, hi int) (int, error) {
	store := f.binning.needsSamples()
	for i := lo; i < hi; i++ {
		k, v := c.Pair[i], c.ExecTime[i]
		acc := cells[k]
		if acc == nil || !store || !(v >= 0 && v <= math.MaxFloat64) {
			p := c.Pairs[k]
			if err := f.Add(Sample{TaskType: p.TaskType, MachineType: p.MachineType, Time: v}); err != nil {
				return i - lo, err
			}
			if store {
				cells[k] = f.cells[cellKey{p.TaskType, p.MachineType}]
			}
			continue
		}
		f.added++
		acc.note(v)
		acc.times.add(v)
	}
	return hi - lo, nil
}

// BiasNote says what a fitted PET's step and compaction cost, when they cost more than the
// tolerance in some cell (Bias), with the pet build flags that cost less. Empty when every cell
// is within tolerance.
func (p *PET) BiasNote() string {
	b := p.Bias()
	var parts []string
	if b.MeanOff() {
		parts = append(parts, fmt.Sprintf("cell %s×%s has mean %.4g against its samples' %.4g (%+.1f%%)",
			b.Mean.TaskType, b.Mean.MachineType, b.Mean.Mean, b.Mean.SampleMean, 100*b.MeanBias))
	}
	if b.SpreadOff() {
		parts = append(parts, fmt.Sprintf("cell %s×%s has standard deviation %.4g against its samples' %.4g (%+.0f%%)",
			b.Spread.TaskType, b.Spread.MachineType, b.Spread.StdDev, b.Spread.SampleSD, 100*b.SpreadBias))
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("step %g %s is coarse for some cells: %s; a finer --binning width (or no --merge, --max-impulses, --crop) costs less",
		p.Step(), p.TimeUnit(), strings.Join(parts, "; "))
}

// Notes flags what a user should know about a cell, as pet show lists it: renormalised,
// cropped, borrowed, or a mean off its samples' by more than BiasTolerance.
func (s Summary) Notes() string {
	var n []string
	if s.Deficit > 1e-9 || s.Deficit < -1e-9 {
		n = append(n, fmt.Sprintf("renormalised (deficit %.4f)", s.Deficit))
	}
	if s.CutMass > 0 {
		n = append(n, fmt.Sprintf("cropped %.4f", s.CutMass))
	}
	if s.FilledFrom != "" {
		n = append(n, "filled from "+s.FilledFrom)
	}
	if b := s.MeanBias(); math.Abs(b) > BiasTolerance {
		n = append(n, fmt.Sprintf("mean %+.1f%% off the samples'", 100*b))
	}
	return strings.Join(n, "; ")
}
