package main

import (
	"github.com/hcreplay/hcreplay/internal/progressbar"
	"github.com/hcreplay/hcreplay/sweep/trialrun"
)

// runsBar is the one bar of a replay of several runs (trials × mappers), counting runs, or nil
// for a single run, whose bar counts its tasks (trialBar).
func runsBar(con *Console, runs int) *progressbar.Bar {
	if runs < 2 {
		return nil
	}
	b := progressbar.New(con.Stderr, con.Quiet)
	b.StartRuns(runs, "replay")
	return b
}

// trialBar is the bar of one replay's tasks, or nil while overall counts the runs of several.
func trialBar(con *Console, overall *progressbar.Bar) *progressbar.Bar {
	if overall != nil {
		return nil
	}
	return progressbar.New(con.Stderr, con.Quiet)
}

// runProgress is a replay's trialrun.Progress: log lines above overall, the bar of runs, when
// there is one, and else a bar of each replay's tasks.
type runProgress struct {
	con     *Console
	overall *progressbar.Bar
}

func (r runProgress) Logf(format string, args ...any) { r.overall.Logf(r.con.Logf, format, args...) }

func (r runProgress) Tasks(total int, label string) trialrun.Bar {
	bar := trialBar(r.con, r.overall)
	bar.StartTasks(total, label)
	return taskBar{bar, r}
}

// taskBar is the bar of one replay's tasks (nil when it draws none), whose log lines go above
// the bar of runs when it draws none.
type taskBar struct {
	*progressbar.Bar
	above runProgress
}

func (b taskBar) Logf(format string, args ...any) { b.Bar.Logf(b.above.Logf, format, args...) }
