package trialset

import (
	"fmt"

	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/sweep"
	"github.com/hcreplay/hcreplay/trace"
)

// Reading says how LoadInputs reads the levels' files: the limits on what an input may hold, and
// where its warnings go.
type Reading struct {
	Inflate  trace.InflateLimit
	MaxBatch int // as Input.MaxBatch
	Logf     func(format string, args ...any)
}

// LoadInputs reads every level's trials of g once, for all runs of a sweep to share, on the
// PET and machines the command loaded; base is the folder the grid's relative paths are
// relative to. Errors name the grid key that points at the bad file. A generated level far from
// the studies' offered load gets a warning, and each level's files at most shownWarnings.
func LoadInputs(g *sweep.Grid, base string, pet *petbuild.PET, machines []replay.Machine, r Reading) (sweep.SweepInputs, error) {
	sec, err := pet.UnitSeconds()
	if err != nil {
		return sweep.SweepInputs{}, bad(err)
	}
	in := sweep.SweepInputs{PET: pet, Machines: machines, TimeUnitSeconds: sec, TimeUnit: pet.TimeUnit(), Levels: map[string]sweep.LevelTrials{}}
	for i, lv := range g.Levels {
		at := func(key string) string { return g.Where(fmt.Sprintf("levels[%d]%s", i, key)) }
		var lt sweep.LevelTrials
		if lv.Generate != nil {
			lt, err = sweep.GenerateLevel(lv, pet, at)
			if mean, merr := pet.MeanExec(replay.MachineTypes(machines), nil); err == nil && merr == nil {
				if w := petbuild.LoadWarning(lt.Rate * mean / float64(len(machines))); w != "" {
					r.Logf("warning: %s: %s (a generated level takes generate: {rate: R})", at(".generate"), w)
				}
			}
		} else {
			w := &warnings{logf: r.Logf, level: lv.Name}
			lt, err = LoadLevel(lv, Input{Spec: sweep.GridPath(base, lv.Trace), Unit: g.TimeUnit, Inflate: r.Inflate, MaxBatch: r.MaxBatch}, pet, at, w.add)
			w.flush()
		}
		if err != nil {
			return in, err
		}
		in.Levels[lv.Name] = lt
	}
	return in, nil
}

// warnings prints the first few warnings about a level's files and counts the others: a level
// of 30 trials from one generator tends to repeat one warning 30 times.
type warnings struct {
	logf  func(format string, args ...any)
	level string
	n     int
}

const shownWarnings = 3

func (w *warnings) add(msg string) {
	if w.n++; w.n <= shownWarnings {
		w.logf("warning: %s", msg)
	}
}

func (w *warnings) flush() {
	if w.n > shownWarnings {
		w.logf("warning: and %d more warnings about the files of level %s", w.n-shownWarnings, w.level)
	}
}
