package main

import (
	"fmt"
	"os"

	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"

	"github.com/hcreplay/hcreplay/sweep/trialrun"
)

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

// runProgress is a replay's trialrun.Progress: log lines above overall, the bar of runs, when
// there is one, and else a bar of each replay's tasks.
type runProgress struct {
	con     *Console
	overall *progress
}

func (r runProgress) Logf(format string, args ...any) { r.overall.logf(r.con, format, args...) }

func (r runProgress) Tasks(total int, label string) trialrun.Bar {
	bar := trialBar(r.con, r.overall)
	bar.startTasks(total, label)
	return taskBar{bar, r}
}

// taskBar is the bar of one replay's tasks (nil when it draws none), with the progress its log
// lines go to when it draws none.
type taskBar struct {
	p     *progress
	above runProgress
}

func (b taskBar) SetTotal(total int) { b.p.setTotal(total) }
func (b taskBar) Counter() func()    { return b.p.counter() }
func (b taskBar) Stop()              { b.p.stop() }

func (b taskBar) Logf(format string, args ...any) {
	if b.p == nil || b.p.bar == nil {
		b.above.Logf(format, args...)
		return
	}
	b.p.logf(b.above.con, format, args...)
}
