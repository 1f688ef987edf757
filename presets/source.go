package presets

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hcreplay/hcreplay/sweep"
	"github.com/hcreplay/hcreplay/trace"
)

// Source is where a preset's trials come from: the HCW19 files, or the generator on a PET the
// command synthesized. HCW19Source finds the files; Source turns an experiment's level labels
// into a sweep grid's levels.
type Source struct {
	PET      string
	Constant string // HCW19 constant.zip; "" for generated trials
	Spiky    string // HCW19 spiky.zip; "" when absent
	Trials   int    // per level: the first N files (0: all of them), or N generated trials
	Tasks    int    // per generated trial
	Quick    bool
}

// Level resolves a level label: 19k is the constant-rate trials at 19k, spiky15k the spiky ones
// at 15k (HCW19: spk15k800_*.dat).
func (s Source) Level(label string) (sweep.Level, error) {
	load, spiky := strings.CutPrefix(label, "spiky")
	rate, err := trace.LevelRate(load, 0)
	if err != nil {
		return sweep.Level{}, err
	}
	if s.Constant == "" {
		gen := sweep.DefaultGenerate()
		gen.Level, gen.Tasks, gen.CV = load, s.Tasks, 1
		if spiky {
			gen.Pattern = "spiky"
		}
		return sweep.Level{Name: label, Generate: gen, Trials: s.Trials, Seed: 1}, nil
	}
	spec := s.Constant + "#arr/arr" + load + "_*.dat"
	if spiky {
		if s.Spiky == "" {
			return sweep.Level{}, fmt.Errorf("level %s needs spiky.zip next to %s", label, s.Constant)
		}
		spec = s.Spiky + "#spk/spk" + load + "800_*.dat"
	}
	return sweep.Level{Name: label, Trace: spec, Trials: s.Trials, Seed: 1, Rate: rate}, nil
}

// Levels returns an experiment's levels: its generated ones, and its labels resolved by the
// source. Quick keeps the first and the last, and cuts every level to 3 trials.
func (s Source) Levels(e Experiment) ([]sweep.Level, error) {
	var levels []sweep.Level
	for _, lv := range e.Generated {
		if s.Quick {
			lv.Trials = 3
		}
		if lv.Generate != nil && s.Tasks != 0 {
			g := *lv.Generate
			g.Tasks = s.Tasks
			lv.Generate = &g
		}
		levels = append(levels, lv)
	}
	for _, label := range e.Levels {
		lv, err := s.Level(label)
		if err != nil {
			return nil, err
		}
		levels = append(levels, lv)
	}
	if s.Quick && len(levels) > 2 {
		levels = []sweep.Level{levels[0], levels[len(levels)-1]}
	}
	return levels, nil
}

// HCW19Source sets src's files from the HCW19 data: the folder that holds constant.zip,
// spiky.zip (optional) and classes_2.etc, or the path of constant.zip. Its trials are the first
// src.Trials files of a level in Quick, else all 30. Errors start with path.
func HCW19Source(path string, src Source) (Source, error) {
	st, err := os.Stat(path)
	if err != nil {
		return src, fmt.Errorf("%s: %w", path, errors.Unwrap(err))
	}
	// The levels go into a grid file, whose relative paths are relative to its own folder.
	abs, err := filepath.Abs(path)
	if err != nil {
		return src, err
	}
	dir, constant := abs, filepath.Join(abs, "constant.zip")
	if !st.IsDir() {
		if !strings.EqualFold(filepath.Ext(path), ".zip") {
			return src, fmt.Errorf("%s: want the HCW19 folder or its constant.zip", path)
		}
		dir, constant = filepath.Dir(abs), abs
	}
	src.Constant, src.PET = constant, filepath.Join(dir, "classes_2.etc")
	for _, f := range []string{src.Constant, src.PET} {
		if _, err := os.Stat(f); err != nil {
			return src, fmt.Errorf("%s: no %s there (the HCW19 folder holds constant.zip, spiky.zip and classes_2.etc)", path, filepath.Base(f))
		}
	}
	if spiky := filepath.Join(dir, "spiky.zip"); fileExists(spiky) {
		src.Spiky = spiky
	}
	if !src.Quick {
		src.Trials = 0
	}
	return src, nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
