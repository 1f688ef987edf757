package main

import (
	"fmt"
	"io"
	"os"

	"github.com/alecthomas/kong"
)

// CLI is the whole command line. It lists one field per command (or command
// group); each command lives in its own file.
type CLI struct {
	Globals

	Demo       DemoCmd       `cmd:"" help:"Run the main job on the embedded sample data: sweep, report, figures (into ./hcreplay-demo)."`
	Pet        PetCmd        `cmd:"" help:"Build, inspect, synthesize and convert PET matrices."`
	Trace      TraceCmd      `cmd:"" help:"Generate, convert and summarise arrival traces."`
	Replay     ReplayCmd     `cmd:"" help:"Replay arrival traces through mapping heuristics, with and without pruning."`
	Sweep      SweepCmd      `cmd:"" help:"Replay a grid of heuristics, pruning variants, levels and options in parallel; write runs.parquet."`
	Version    VersionCmd    `cmd:"" help:"Print the version."`
	Heuristics HeuristicsCmd `cmd:"" help:"List the mapping heuristics with their mode, source and parameters."`
	Report     ReportCmd     `cmd:"" help:"Aggregate sweep runs into tables, figures and an HTML page."`
	Figures    FiguresCmd    `cmd:"" help:"Rerun a paper's experiment set end to end: sweep, report, figures named after the paper's, notes."`
	Speculate  SpeculateCmd  `cmd:"" help:"Replay job traces through speculative execution (none, SCA, SDA, ESE, Mantri, auto): flowtime, resource, copies."`
}

// Globals are the flags every command accepts.
type Globals struct {
	Config      configFlag       `help:"Read flag values from a YAML or TOML file; [command] sections apply to one command. Flags and HCREPLAY_* variables override it." placeholder:"FILE" env:"-"`
	Quiet       bool             `short:"q" help:"Print only results and errors, no progress."`
	VersionFlag kong.VersionFlag `name:"version" short:"V" help:"Print the version and exit." env:"-"`
}

// Console is what a command's Run method gets for talking to the user. Run
// methods write through it rather than to os.Stdout so tests can capture
// their output.
type Console struct {
	Stdout io.Writer // results
	Stderr io.Writer // progress and diagnostics
	Quiet  bool      // --quiet: suppress progress
}

// Logf prints a progress line on Stderr unless --quiet was given.
func (c *Console) Logf(format string, args ...any) {
	if c.Quiet {
		return
	}
	fmt.Fprintf(c.Stderr, format+"\n", args...)
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
