package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/hcreplay/hcreplay/internal/gctune"
	"github.com/hcreplay/hcreplay/internal/kongconfig"
	"github.com/hcreplay/hcreplay/trace"
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
	Config      kongconfig.Flag  `help:"Read flag values from a YAML or TOML file; [command] sections apply to one command. Flags and HCREPLAY_* variables override it." placeholder:"FILE" env:"-"`
	Quiet       bool             `short:"q" help:"Print only results and errors, no progress."`
	MaxInflate  string           `help:"The most one compressed input (.gz, .zst, a deflated zip member) may decompress to, e.g. 8GiB; 0 for no limit (docs/limits.md)." default:"2GiB" placeholder:"SIZE"`
	MaxRatio    float64          `name:"max-inflate-ratio" help:"The most one compressed input may decompress to per compressed byte, past its first 8 MiB; 0 for no limit (docs/limits.md)." default:"100"`
	MaxBatch    int              `help:"The most tasks of a trace that may arrive at one instant: a mapping event's time grows as the square of its batch; 0 for no limit (docs/limits.md)." default:"10000" placeholder:"N"`
	VersionFlag kong.VersionFlag `name:"version" short:"V" help:"Print the version and exit." env:"-"`
}

// Console is what a command's Run method gets for talking to the user. Run
// methods write through it rather than to os.Stdout so tests can capture
// their output.
type Console struct {
	Stdout io.Writer // results
	Stderr io.Writer // progress and diagnostics
	Quiet  bool      // --quiet: suppress progress
	// Inflate is --max-inflate and --max-inflate-ratio, for the trace readers' options.
	Inflate trace.InflateLimit
	// MaxBatch is --max-batch, for the trials a replay reads: 0 means the default, negative no
	// limit (--max-batch 0).
	MaxBatch int
	// saving, if set, counts the saves under way, for which the watchdog waits (Saving).
	saving *savings
}

// Saving tells the watchdog that the command saves its work after a signal (a sweep its finished
// runs), which may take longer than the grace after a signal; call the returned func when done.
func (c *Console) Saving() (done func()) {
	if c.saving == nil {
		return func() {}
	}
	return c.saving.hold()
}

// Logf prints a progress line on Stderr unless --quiet was given.
func (c *Console) Logf(format string, args ...any) {
	if c.Quiet {
		return
	}
	fmt.Fprintf(c.Stderr, format+"\n", args...)
}

func main() {
	gctune.Start() // the process's collector pace: a short run ends before its first collection
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// inflateLimit reads --max-inflate and --max-inflate-ratio; 0 means no limit.
func (g *Globals) inflateLimit() (trace.InflateLimit, error) {
	n, err := parseByteSize(g.MaxInflate)
	if err != nil {
		return trace.InflateLimit{}, fmt.Errorf("--max-inflate: %w", err)
	}
	if g.MaxRatio < 0 || math.IsNaN(g.MaxRatio) {
		return trace.InflateLimit{}, fmt.Errorf("--max-inflate-ratio %g: want 0 (no limit) or more", g.MaxRatio)
	}
	lim := trace.InflateLimit{MaxBytes: n, MaxRatio: g.MaxRatio}
	if n == 0 {
		lim.MaxBytes = -1
	}
	if g.MaxRatio == 0 {
		lim.MaxRatio = -1
	}
	return lim, nil
}

// parseByteSize reads a size like "2GiB", "500MB", "1048576": binary (KiB, MiB, GiB, TiB) or
// decimal (kB, MB, GB, TB) units, or bytes.
func parseByteSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool { return (r < '0' || r > '9') && r != '.' })
	num, unit := s, ""
	if i >= 0 {
		num, unit = s[:i], strings.TrimSpace(s[i:])
	}
	v, err := strconv.ParseFloat(num, 64)
	mult := map[string]float64{"": 1, "b": 1, "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40,
		"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12}[strings.ToLower(unit)]
	if err != nil || mult == 0 || v < 0 || v*mult > math.MaxInt64/2 {
		return 0, fmt.Errorf("size %q: want a number of bytes with a unit, e.g. 8GiB or 500MB", s)
	}
	return int64(v * mult), nil
}
