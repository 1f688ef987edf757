package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/internal/outdir"
	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep/trialset"
	"github.com/hcreplay/hcreplay/trace"
)

// PetCmd groups the PET matrix commands (SPEC §7).
type PetCmd struct {
	Build   PetBuildCmd   `cmd:"" help:"Fit a PET matrix to execution-time logs."`
	Show    PetShowCmd    `cmd:"" help:"Table of each cell's mean, spread, p95 and samples; --plot draws them."`
	Synth   petSynthCLI   `cmd:"" help:"Generate a gamma PET as in the journal paper (Denninnart et al. 2020 §8.1)."`
	Convert PetConvertCmd `cmd:"" help:"Convert a PET between .json, .parquet and .etc."`
}

// PetBuildCmd fits a PET to logs.
type PetBuildCmd struct {
	Logs        []string `arg:"" help:"Execution logs (CSV, JSON Lines, Parquet; globs and zip members work)." placeholder:"LOG"`
	Out         string   `required:"" help:"PET file to write (.json, .parquet or .etc)." placeholder:"PET"`
	Force       bool     `help:"Overwrite --out if it exists."`
	Binning     string   `default:"fd" help:"Bin width: fd, scott, sqrt, width:W or bins:N (one common step for the matrix)."`
	MinSamples  int      `default:"30" help:"Fewest samples a cell may be fitted from."`
	FillFrom    []string `help:"Fill thin or empty cells of machine type A from B (A=B)." placeholder:"A=B"`
	Merge       int      `help:"Merge bins by this factor after fitting." placeholder:"N"`
	MaxImpulses int      `help:"Cap the impulses per cell (merging the whole matrix evenly)." placeholder:"N"`
	Crop        string   `help:"Fold the mass outside the LOW:HIGH quantiles into the end impulses, e.g. 0.001:0.999." placeholder:"LOW:HIGH"`
	Col         []string `help:"Map a field to the file's column name (task_type=app, exec_time=runtime_ms)." placeholder:"FIELD=COLUMN"`
	TimeUnit    string   `help:"Unit of the logs' times when the file does not say (default ms); the PET is in ms." placeholder:"UNIT"`
}

func (c *PetBuildCmd) Run(ctx context.Context, con *Console) error {
	cols, err := trace.ParseColumnMap(c.Col)
	if err != nil {
		return badInput(err)
	}
	unit, err := trialset.FileUnit(c.TimeUnit)
	if err != nil {
		return badInput(err)
	}
	opt, err := petbuild.FitSpec{Binning: c.Binning, MinSamples: c.MinSamples, FillFrom: c.FillFrom, Merge: c.Merge,
		MaxImpulses: c.MaxImpulses, Crop: c.Crop}.Options(flagOf)
	if err != nil {
		return badInput(err)
	}
	if err := checkOutPath("--out", c.Out, c.Force); err != nil {
		return err
	}
	read := trace.ReadOptions{Columns: cols, FileUnit: unit, Unit: trace.Millisecond, Inflate: con.Inflate, SkipIDs: true}
	pet, stats, err := petbuild.FitLogs(ctx, c.Logs, read, opt, func(rows int) { con.Logf("read %d rows", rows) })
	var thin *petbuild.ThinCellsError
	if errors.As(err, &thin) {
		return badInput(thin.Hint(flagOf))
	}
	var span *petbuild.SpanError
	if errors.As(err, &span) { // name the logs and the flag (issue 49: "fit: cell task=0 machine=0: ..." alone)
		return badInput(fmt.Errorf("%s: %w: give --binning width:%s, or leave out the outlying rows",
			strings.Join(c.Logs, ", "), err, strconv.FormatFloat(span.MinWidth(), 'g', -1, 64)))
	}
	if err != nil {
		return badInput(err)
	}
	if w := stats.UnitWarning(); c.TimeUnit == "" && w != "" {
		con.Logf("warning: %s", w)
	}
	if note := pet.BiasNote(); note != "" {
		con.Logf("note: %s", note)
	}
	warnETC(con, c.Out, pet)
	if err := petbuild.WriteFile(c.Out, pet); err != nil {
		return err
	}
	con.Logf("wrote %s: %d task types × %d machine types, step %g %s, from %d rows",
		c.Out, pet.NumTaskTypes(), pet.NumMachineTypes(), pet.Step(), pet.TimeUnit(), stats.Rows)
	return nil
}

// PetShowCmd prints a PET's cells.
type PetShowCmd struct {
	PET  string `arg:"" type:"existingfile" help:"PET file." placeholder:"PET"`
	Plot string `help:"Also draw a heat map of the means and a grid of the PMFs to FILE (.png, .svg or .pdf; the grid goes to FILE-pmfs.EXT)." placeholder:"FILE"`
}

func (c *PetShowCmd) Run(con *Console) error {
	pet, err := loadPET(c.PET)
	if err != nil {
		return err
	}
	if err := report.WritePETTable(con.Stdout, pet); err != nil {
		return err
	}
	if c.Plot == "" {
		return nil
	}
	grid, err := report.PETPlots(pet, c.Plot)
	if err != nil {
		return err
	}
	con.Logf("wrote %s and %s", c.Plot, grid)
	return nil
}

// PetSynthCmd generates a synthetic PET.
type PetSynthCmd struct {
	Out      string  `required:"" help:"PET file to write (.json, .parquet or .etc)." placeholder:"PET"`
	Force    bool    `help:"Overwrite --out if it exists."`
	Seed     uint64  `default:"1" help:"Seed for the means, the shapes and the samples."`
	Types    int     `default:"12" help:"Task types."`
	Machines int     `default:"8" help:"Machine types."`
	Samples  int     `default:"500" help:"Gamma samples per cell."`
	Step     float64 `default:"2" help:"Bin width (the HCW19 PETs use 2)."`
}

// petSynthCLI is `pet synth` as the command line runs it: PetSynthCmd's flags, with a Run that
// takes the command's context so that Ctrl-C or SIGTERM stops a long synthesis. PetSynthCmd.Run
// stays context-free for callers inside the program (figures builds its PET with it).
type petSynthCLI struct {
	PetSynthCmd `embed:""`
}

func (c *petSynthCLI) Run(ctx context.Context, con *Console) error { return c.run(ctx, con) }

// Run synthesizes without cancellation; the sizes it is given are bounded, so it finishes.
func (c *PetSynthCmd) Run(con *Console) error { return c.run(context.Background(), con) }

func (c *PetSynthCmd) run(ctx context.Context, con *Console) error {
	if !(c.Step > 0) { // the library would take 0 for its default
		return badInput(fmt.Errorf("--step %g: want a positive bin width", c.Step))
	}
	// DefaultMeans allocates the matrix, so the sizes are checked first.
	if err := petbuild.CheckSynthSize(c.Types, c.Machines, c.Samples); err != nil {
		return badInput(fmt.Errorf("--types %d, --machines %d, --samples %d: %w", c.Types, c.Machines, c.Samples, err))
	}
	if err := checkOutPath("--out", c.Out, c.Force); err != nil {
		return err
	}
	r := rand.New(rand.NewPCG(c.Seed, 0))
	syn, err := petbuild.SynthesizeContext(ctx, r, petbuild.SynthOptions{
		Means: petbuild.DefaultMeans(r, c.Types, c.Machines), Samples: c.Samples, Step: c.Step})
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return badInput(err) // the message names the step or the cell
	}
	if err := petbuild.WriteFile(c.Out, syn.PET); err != nil {
		return err
	}
	con.Logf("wrote %s: %d task types × %d machine types, gamma shapes in [1, 20], %d samples a cell", c.Out, c.Types, c.Machines, c.Samples)
	return nil
}

// PetConvertCmd converts between PET formats.
type PetConvertCmd struct {
	In    string `arg:"" type:"existingfile" help:"PET to read." placeholder:"IN"`
	Out   string `arg:"" help:"PET to write; the extension picks the format." placeholder:"OUT"`
	Force bool   `help:"Overwrite OUT if it exists."`
}

func (c *PetConvertCmd) Run(con *Console) error {
	pet, err := loadPET(c.In)
	if err != nil {
		return err
	}
	if err := checkOutPath("OUT", c.Out, c.Force); err != nil {
		return err
	}
	warnETC(con, c.Out, pet)
	if err := petbuild.WriteFile(c.Out, pet); err != nil {
		return err
	}
	con.Logf("wrote %s", c.Out)
	return nil
}

// warnETC warns when a PET is written as .etc and the file cannot carry its type names or unit.
func warnETC(con *Console, path string, pet *petbuild.PET) {
	if f, _ := petbuild.FormatOf(path); f == petbuild.FormatETC {
		if lost := petbuild.ETCLosses(pet); lost != "" {
			con.Logf("warning: %s: the .etc format keeps no names or unit, so it loses the %s", path, lost)
		}
	}
}

// checkOutPath refuses, as bad input naming path as the user gave it, a PET output that could
// not be written: an unknown extension, a folder, or a parent folder that does not exist or is
// not a folder. Checking before the work spares a fit or a synthesis whose result would be
// lost, and keeps the writer's temporary file name out of the message.
func checkOutPath(flag, path string, force bool) error {
	if _, err := petbuild.FormatOf(path); err != nil {
		return badInput(err)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return badInput(fmt.Errorf("output %s is a folder; want a PET file", path))
	}
	if err := outdir.CheckFolder(path); err != nil {
		return badInput(err)
	}
	return outdir.ClaimFile(flag, path, force)
}
