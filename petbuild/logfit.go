package petbuild

import (
	"context"
	"errors"
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

var errStopLogs = errors.New("stop")

// FitLogs fits a PET to the execution-time logs of specs (files, globs, zip members: trace.Expand),
// read with read, in order. progress, when set, is called with the rows read every million
// rows, when the context is checked too. A read error is returned as the reader gave it, before
// any error of the fit (ThinCellsError, SpanError).
func FitLogs(ctx context.Context, specs []string, read trace.ReadOptions, opt FitOptions, progress func(rows int)) (*PET, LogStats, error) {
	var st LogStats
	var readErr error
	samples := func(yield func(Sample) bool) {
		for _, spec := range specs {
			readErr = trace.EachLog(spec, read, func(r trace.LogRecord) error {
				st.Rows++
				if st.Rows%logRowsStep == 0 {
					if progress != nil {
						progress(st.Rows)
					}
					if ctx.Err() != nil {
						return ctx.Err()
					}
				}
				if r.ExecTime < 1 {
					st.SubMillisecond++
				}
				if !yield(Sample{TaskType: r.TaskType, MachineType: r.MachineType, Time: r.ExecTime}) {
					return errStopLogs
				}
				return nil
			})
			if readErr != nil {
				return
			}
		}
	}
	pet, err := Fit(samples, opt)
	if readErr != nil && !errors.Is(readErr, errStopLogs) {
		return nil, st, readErr
	}
	return pet, st, err
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
