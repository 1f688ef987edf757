package sweep

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// FlagLevels are the levels a sweep's flags give instead of a grid file's: trace levels as
// NAME=SPEC (--trace), generated ones by oversubscription label (--generate), with Trials and
// Deadline for all of them (0 and "": every file, 30 generated trials, prop:1). The errors name
// the flags.
type FlagLevels struct {
	Traces, Generate []string
	Trials           int
	Deadline         string
}

// Set replaces g's levels with those of the flags, if any; a trace spec is made absolute.
func (f FlagLevels) Set(g *Grid) error {
	if len(f.Traces) == 0 && len(f.Generate) == 0 {
		if f.Trials != 0 || f.Deadline != "" {
			return errors.New("--trials and --deadline apply to levels given by --trace or --generate; set them in the grid file's levels")
		}
		return nil
	}
	var levels []Level
	var flags []string
	for _, t := range f.Traces {
		name, spec, ok := strings.Cut(t, "=")
		if !ok || name == "" || spec == "" {
			return fmt.Errorf("--trace %s: want NAME=SPEC, e.g. 19k=constant.zip#arr/arr19k_*.dat", t)
		}
		abs, err := filepath.Abs(spec)
		if err != nil {
			return err
		}
		levels = append(levels, Level{Name: name, Trace: abs, Trials: f.Trials, Deadline: f.Deadline, Seed: 1})
		flags = append(flags, "--trace "+t)
	}
	for _, label := range f.Generate {
		gen := DefaultGenerate()
		gen.Level = label
		if f.Deadline != "" {
			gen.Deadline = f.Deadline
		}
		trials := f.Trials
		if trials == 0 {
			trials = 30
		}
		levels = append(levels, Level{Name: label, Generate: gen, Trials: trials, Seed: 1})
		flags = append(flags, "--generate "+label)
	}
	g.SetLevels(levels, flags)
	return nil
}
