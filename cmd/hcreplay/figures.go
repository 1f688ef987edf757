package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/hcreplay/hcreplay/presets"
	"github.com/hcreplay/hcreplay/report"
)

// FiguresCmd reruns a paper's experiment set end to end (SPEC §6): for each experiment of the
// preset, a sweep and a report under DIR/experiments/NAME, then the paper's figures under the
// paper's names in DIR, and DIR/notes.md, which states the setup and puts what the paper
// reported next to our numbers and the paper's claims with their verdicts. A preset is an
// experiment file (package presets, docs/presets.md), embedded or the user's; its sweeps run
// through SweepCmd and ReportCmd, as the demo drives them, so a figure here is what a user would
// get from the same grid by hand.
type FiguresCmd struct {
	Preset string `required:"" help:"The paper: journal (Denninnart et al. 2020), thesis (Gentry 2018), conference (Gentry et al. 2019), batch2010 (Smith et al. 2010) or speculative (Xu & Lau 2015); docs/references.md lists them. Or the path of your own experiment file (FILE.yaml; docs/presets.md)." placeholder:"NAME"`
	Out    string `help:"Required. Folder for the figures, notes.md and each experiment's runs and report." placeholder:"DIR"`
	Print  bool   `help:"Write the embedded preset's file to stdout, as a starting point for your own, and run nothing."`
	Trials string `help:"The HCW19 data: its folder (constant.zip, spiky.zip, classes_2.etc) or the path of constant.zip. Without it, a synthesized PET and generated trials." placeholder:"ZIP_OR_DIR"`
	Jobs   int    `short:"j" help:"Replays at a time (default: the number of CPUs)." placeholder:"N"`
	Quick  bool   `help:"3 trials per level and at most two levels per experiment: a smoke test, not a result."`
	Tasks  int    `hidden:"" help:"Tasks per generated trial (default: the preset's)."`
}

// Help is the command's long help.
func (c *FiguresCmd) Help() string {
	return `Each preset is the experiment set of one paper: journal (Denninnart et al. 2020, Figs 8-13), thesis
(Gentry 2018, Figs 4.3-6.6), conference (Gentry et al. 2019, Figs 4-8), batch2010 (Smith et al. 2010, Fig 1) and
speculative (Xu & Lau 2015, Figs 2-6; see 'hcreplay speculate'); docs/references.md gives their titles.
A preset is an experiment file (YAML, docs/presets.md): --print writes an embedded one out, and
--preset FILE.yaml runs your own.
Every experiment is a sweep and a report
in DIR/experiments/NAME; the paper's figures are copied or redrawn from it as DIR/figN-what.svg
and .png, and DIR/notes.md gives, next to each figure, what the paper reported and our mean ±
95% interval for the same points, and each of the paper's claims with its verdict.

With --trials pointing at the HCW19 data, the levels are the original trials (constant.zip,
spiky.zip) on the original PET (classes_2.etc). Without it, the PET is synthesized as
'hcreplay pet synth' does (seed 1) and the trials are generated (deadline prop:1, inter-arrival
CV 1, which resembles the HCW19 files).

Examples:

    hcreplay figures --preset journal --out figs/journal
    hcreplay figures --preset thesis --trials ../shared/data/hcw19 --out figs/thesis
    hcreplay figures --preset thesis --print > my-paper.yaml
    hcreplay figures --preset my-paper.yaml --out figs/mine`
}

func (c *FiguresCmd) Run(ctx context.Context, con *Console) error {
	if c.Print {
		b, err := presets.Embedded(c.Preset)
		if err != nil {
			return badInput(fmt.Errorf("--preset %q: %w", c.Preset, err))
		}
		_, err = con.Stdout.Write(b)
		return err
	}
	if c.Out == "" {
		return badInput(errors.New("missing flags: --out=DIR"))
	}
	p, err := presets.Open(c.Preset)
	if err != nil {
		return badInput(err)
	}
	if p.Runner == "speculative" { // its own runner: job replays, not sweeps
		return c.runSpeculative(ctx, con, p)
	}
	if c.Jobs < 0 || c.Tasks < 0 {
		return badInput(errors.New("--jobs and --tasks must not be negative"))
	}
	start := time.Now()
	src, err := c.source(p, con)
	if err != nil {
		return err
	}
	head := presets.Header{Command: c.commandLine(), Version: buildVersion(), Source: src}
	run := experimentRunner{con: &Console{Stdout: io.Discard, Stderr: con.Stderr, Quiet: con.Quiet}, pet: src.PET, jobs: c.Jobs}
	text, checked, figures, err := p.RunExperiments(ctx, run, head, c.Out, con.Logf)
	if err != nil {
		return err
	}
	notes, err := p.WriteResults(c.Out, text, head, checked)
	if err != nil {
		return err
	}
	noun := "figures"
	if figures == 1 {
		noun = "figure"
	}
	fmt.Fprintf(con.Stdout, "Done in %.0f s: %d %s of the %s in %s; read %s.\n",
		time.Since(start).Seconds(), figures, noun, p.Title, c.Out, notes)
	return nil
}

// source checks --trials, or synthesizes the PET into DIR/data when it is not given.
func (c *FiguresCmd) source(p *presets.Preset, con *Console) (presets.Source, error) {
	src := presets.Source{Trials: p.Trials, Tasks: p.Tasks, Quick: c.Quick}
	if c.Tasks > 0 {
		src.Tasks = c.Tasks
	}
	if c.Quick {
		src.Trials = 3
	}
	if c.Trials != "" {
		src, err := presets.HCW19Source(c.Trials, src)
		if err != nil {
			return src, badInput(fmt.Errorf("--trials %w", err))
		}
		return src, nil
	}
	src.PET = filepath.Join(c.Out, "data", "pet.json")
	if err := os.MkdirAll(filepath.Dir(src.PET), 0o755); err != nil {
		return src, err
	}
	synth := PetSynthCmd{Out: src.PET, Seed: 1, Types: 12, Machines: 8, Samples: 500, Step: 2, Force: true}
	return src, synth.Run(con)
}

// experimentRunner runs a preset experiment's sweeps and report (presets.Runner) as SweepCmd
// and ReportCmd, as the demo drives them, so a figure is what a user would get from the same
// grid by hand. Their tables go nowhere: notes.md has the numbers.
type experimentRunner struct {
	con  *Console
	pet  string
	jobs int
}

func (r experimentRunner) Sweep(ctx context.Context, grid, out string, s presets.Sweep, set []string) error {
	sw := SweepCmd{Grid: grid, Out: out, Jobs: r.jobs, Checkpoint: 5 * time.Second, PET: r.pet,
		Heuristic: s.Heuristics, Prune: s.Prune, Set: set}
	return sw.Run(ctx, r.con)
}

func (r experimentRunner) Report(ctx context.Context, runs []string, out string, claims func(*report.Aggregate) ([]report.ClaimSection, error)) (*report.Aggregate, error) {
	rep := ReportCmd{Runs: runs, Out: out, Formats: presets.FigureFormats(), Tables: []string{"md", "csv", "tex"}, checkClaims: claims}
	return rep.write(ctx, r.con)
}

// commandLine is the invocation, for notes.md.
func (c *FiguresCmd) commandLine() string {
	s := "hcreplay figures --preset " + c.Preset + " --out " + c.Out
	if c.Trials != "" {
		s += " --trials " + c.Trials
	}
	if c.Quick {
		s += " --quick"
	}
	if c.Tasks > 0 {
		s += " --tasks " + strconv.Itoa(c.Tasks)
	}
	return s
}
