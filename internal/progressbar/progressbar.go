// Package progressbar draws a command's progress bar on a terminal: runs done of the runs to do
// (a sweep's, a replay's of several trials) or one replay's tasks, with the rate and the time
// left, and log lines printed above the bar so that they do not break into its frames. A nil
// *Bar draws nothing, so that a quiet or redirected command writes no frames into its logs.
//
// It owns the drawing (over mpb) and the choice of whether to draw; it does not know what a run
// or a task is, nor when a command starts or stops one.
package progressbar

import (
	"fmt"
	"io"
	"os"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// Bar is one bar of a command, or nil when it draws none.
type Bar struct {
	p      *mpb.Progress
	bar    *mpb.Bar
	remove bool // take the bar off the screen when it stops (a replay's: one per trial)
}

// New returns a bar that draws on w, or nil when quiet or when w is not a terminal.
func New(w io.Writer, quiet bool) *Bar {
	f, ok := w.(*os.File)
	if quiet || !ok || !isTerminal(f) {
		return nil
	}
	return &Bar{p: mpb.New(mpb.WithOutput(f), mpb.WithWidth(40))}
}

// Draw returns a bar that draws on w whatever w is, redrawing by itself as it would on a
// terminal: for tests, which read its frames from a buffer.
func Draw(w io.Writer) *Bar {
	return &Bar{p: mpb.New(mpb.WithOutput(w), mpb.WithAutoRefresh())}
}

// isTerminal says whether f is a terminal (a character device), without x/term.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// StartRuns starts a bar for total runs, labelled.
func (b *Bar) StartRuns(total int, label string) {
	if b == nil || total == 0 {
		return
	}
	b.bar = b.p.AddBar(int64(total),
		mpb.PrependDecorators(decor.Name(label+" "), decor.CountersNoUnit("%d/%d runs")),
		mpb.AppendDecorators(decor.AverageSpeed(0, " %.1f runs/s"), decor.Name("  ETA "), decor.AverageETA(decor.ET_STYLE_GO)))
}

// StartTasks starts a bar for a replay of total tasks, labelled, that is taken off the screen
// when it stops: a trial's bar is of use only while the trial runs. A negative total is not
// known yet: SetTotal gives it.
func (b *Bar) StartTasks(total int, label string) {
	if b == nil || total == 0 {
		return
	}
	b.remove = true
	eta := decor.AverageETA(decor.ET_STYLE_GO)
	b.bar = b.p.AddBar(int64(max(total, 0)), // mpb: a bar of total 0 takes its total from SetTotal
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

// SetTotal gives the total of a bar that StartTasks started without one.
func (b *Bar) SetTotal(total int) {
	if b.Drawn() {
		b.bar.SetTotal(int64(total), false)
	}
}

// Drawn says whether b draws a bar: it was started, and is not nil.
func (b *Bar) Drawn() bool { return b != nil && b.bar != nil }

// Logf prints a log line above the bar while one is drawn, so that the line does not break
// into the bar's frames, and else with otherwise.
func (b *Bar) Logf(otherwise func(format string, args ...any), format string, args ...any) {
	if !b.Drawn() {
		otherwise(format, args...)
		return
	}
	fmt.Fprintf(b.p, format+"\n", args...)
}

// Counter returns a function to call once per item done, which moves the bar in steps of Step
// items, or nil when there is no bar. A step per task would cost a replay an exchange with the
// bar's goroutine for every task.
func (b *Bar) Counter() func() {
	if !b.Drawn() {
		return nil
	}
	n := 0
	return func() {
		if n++; n == Step {
			b.bar.IncrBy(n)
			n = 0
		}
	}
}

// Step is how many items Counter's function counts before it moves the bar: a 200,000
// tasks/s replay moves it 200 times a second, more than the bar's 150 ms redraws need.
const Step = 1024

// Inc moves the bar by one item.
func (b *Bar) Inc() {
	if b.Drawn() {
		b.bar.Increment()
	}
}

// Stop leaves a bar of runs as the last line, finished or where it was interrupted, and takes a
// bar of tasks off the screen.
func (b *Bar) Stop() {
	if b == nil {
		return
	}
	if b.bar != nil && (b.remove || !b.bar.Completed()) {
		b.bar.Abort(b.remove)
	}
	b.p.Wait()
}
