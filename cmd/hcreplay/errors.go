package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"

	"github.com/alecthomas/kong"

	"github.com/hcreplay/hcreplay/internal/interrupt"
	"github.com/hcreplay/hcreplay/internal/kongconfig"
	"github.com/hcreplay/hcreplay/internal/outdir"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep"
)

// Exit statuses (SPEC §7).
const (
	exitOK       = 0
	exitInternal = 1   // a bug or an environment failure: not the user's fault
	exitUsage    = 2   // bad usage or bad input: the user can fix it
	exitSignal   = 130 // stopped by Ctrl-C or SIGTERM, as shells report it
)

// inputError marks an error as the user's to fix, so it exits 2.
type inputError struct{ err error }

func (e inputError) Error() string { return e.err.Error() }
func (e inputError) Unwrap() error { return e.err }

// badInput marks err as bad input (a missing file, a malformed row, a value
// out of range) so the command exits 2 instead of 1. The mark survives
// further wrapping with %w. badInput(nil) is nil.
func badInput(err error) error {
	if err == nil {
		return nil
	}
	return inputError{err}
}

// exitRequest is what the kong.Exit hook panics with. kong calls Exit after
// printing --help or --version and expects it not to return; panicking lets
// execute stop parsing and return a status without calling os.Exit.
type exitRequest int

// run parses args, runs the chosen command and returns the exit status.
// main is just os.Exit(run(...)); tests call run directly.
func run(args []string, stdout, stderr io.Writer) int {
	whole := func() int {
		var cli CLI
		return execute(&cli, &cli.Globals, args, stdout, stderr, nil)
	}
	if grammar, g := oneCommand(args); grammar != nil {
		return execute(grammar, g, args, stdout, stderr, whole)
	}
	return whole()
}

// execute is run for any grammar, so tests can drive the same machinery with
// test-only commands. g must point into grammar. When grammar or args fail to
// parse and instead is set, execute returns instead() and reports nothing.
func execute(grammar any, g *Globals, args []string, stdout, stderr io.Writer, instead func() int) (code int) {
	defer func() {
		if r := recover(); r != nil {
			code = recovered(r, stderr)
		}
	}()
	parser, err := newParser(grammar, stdout, stderr)
	if err != nil && instead != nil {
		return instead()
	}
	if err != nil {
		fmt.Fprintf(stderr, "hcreplay: internal error: %v\n", err)
		return exitInternal
	}
	kctx, err := parser.Parse(kongconfig.NegativeValues(args))
	if err == nil {
		err = repeatedFlag(kctx)
	}
	if err != nil && instead != nil {
		return instead()
	}
	if err != nil {
		fmt.Fprintf(stderr, "hcreplay: %v\n", kongconfig.UnsignedError(err))
		// Help cannot fix a bad config file.
		if !errors.As(err, new(inputError)) && !errors.As(err, new(*kongconfig.Error)) {
			fmt.Fprintf(stderr, "Run %q for usage.\n", helpCommand(err))
		}
		return exitUsage
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// After the first signal, restore the default handling so that a second
	// Ctrl-C kills a command that is slow to stop.
	context.AfterFunc(ctx, stop)
	kctx.BindTo(ctx, (*context.Context)(nil))
	finished := make(chan struct{})
	defer close(finished)
	saving := new(savings)
	go interrupt.Watch(ctx, finished, &saving.Saves, stderr, func() { os.Exit(exitSignal) })

	inflate, err := g.inflateLimit()
	if err != nil {
		fmt.Fprintf(stderr, "hcreplay: %v\n", err)
		return exitUsage
	}
	if g.MaxBatch < 0 {
		fmt.Fprintf(stderr, "hcreplay: --max-batch %d: want 0 (no limit) or more\n", g.MaxBatch)
		return exitUsage
	}
	maxBatch := g.MaxBatch
	if maxBatch == 0 {
		maxBatch = -1 // --max-batch 0: no limit
	}
	err = kctx.Run(&Console{Stdout: stdout, Stderr: stderr, Quiet: g.Quiet, Inflate: inflate, MaxBatch: maxBatch, saving: saving})
	if err != nil && ctx.Err() != nil && errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "hcreplay: interrupted")
		return exitSignal
	}
	if err != nil {
		fmt.Fprintf(stderr, "hcreplay: %v\n", err)
		if errors.As(err, new(inputError)) || badPath(err) || errors.As(err, new(*replay.TaskError)) {
			return exitUsage
		}
		return exitInternal
	}
	return exitOK
}

// savings counts the saves under way (Console.Saving), for interrupt.Watch.
type savings struct{ interrupt.Saves }

func (s *savings) hold() func() { return s.Hold() }

// badPath reports whether err is the operating system refusing a path (a missing folder, a
// file where a folder should be, no permission) or a figure path of no format we write. Every path a command opens or creates is
// the user's (its inputs and outputs; embedded data is read from memory), so such an error is
// the user's to fix, wherever it was not marked with badInput. A full disk or a failing device
// stays an internal error.
func badPath(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) ||
		errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.EISDIR) ||
		errors.Is(err, syscall.EROFS) || // an --out on a read-only file system
		errors.As(err, new(*report.FormatError)) || // --plot x.bogus
		errors.As(err, new(sweep.InputError)) || // a grid too large, a corrupt runs file on --resume
		errors.As(err, new(*outdir.InputError)) // an output of earlier results, without --force
}

// newParser builds the kong parser with the options every hcreplay grammar
// shares.
func newParser(grammar any, stdout, stderr io.Writer) (*kong.Kong, error) {
	return kong.New(grammar,
		kong.Name("hcreplay"),
		kong.Description("Replay task-arrival traces through scheduling heuristics on heterogeneous machines and report how each heuristic copes."),
		kong.ConfigureHelp(kong.HelpOptions{Compact: true, Summary: true}),
		kong.Vars{"version": "hcreplay " + buildVersion()},
		kong.DefaultEnvars("HCREPLAY"),
		kong.Writers(stdout, stderr),
		kong.Exit(func(code int) { panic(exitRequest(code)) }),
		kong.Resolvers(kongconfig.EnvEnums{}),
	)
}

// recovered turns a panic value into an exit status. Exit requests from kong
// pass through; anything else is a bug, reported in one line. The stack trace
// is only for developers, who set HCREPLAY_DEBUG=1.
func recovered(r any, stderr io.Writer) int {
	if code, ok := r.(exitRequest); ok {
		if code == exitOK {
			return exitOK
		}
		return exitUsage // kong only exits by itself over usage
	}
	fmt.Fprintf(stderr, "hcreplay: internal error: %v\n", r)
	if os.Getenv("HCREPLAY_DEBUG") == "1" {
		stderr.Write(debug.Stack())
	}
	return exitInternal
}

// repeatedFlag refuses a flag of one value given more than once on the command line. kong keeps
// the last, so "replay -H MM -H PAM" replayed PAM alone and "--seed 1 --seed 2" ran seed 2,
// both without a word; a flag of several values (-H, --prune, speculate's -s) collects them
// instead. Values from the environment and config files are not occurrences: they fill only
// what the command line left unset.
func repeatedFlag(kctx *kong.Context) error {
	seen := map[*kong.Flag]int{}
	for _, p := range kctx.Path {
		f := p.Flag
		if f == nil || p.Resolved || f.IsCumulative() || f.IsCounter() || f.IsBool() && f.Tag.Negatable == "" {
			continue // -q -q means what -q means
		}
		if seen[f]++; seen[f] == 2 {
			return &repeatError{flag: f.Name, kctx: kctx}
		}
	}
	return nil
}

// repeatError is repeatedFlag's: a usage error, with the context helpCommand reads.
type repeatError struct {
	flag string
	kctx *kong.Context
}

func (e *repeatError) Error() string {
	return fmt.Sprintf("--%s is given more than once: it takes one value", e.flag)
}

// helpCommand returns the help invocation for the command a parse error
// happened in, e.g. "hcreplay pet build --help".
func helpCommand(err error) string {
	words := []string{"hcreplay"}
	var kctx *kong.Context
	var perr *kong.ParseError
	var rerr *repeatError
	switch {
	case errors.As(err, &perr):
		kctx = perr.Context
	case errors.As(err, &rerr):
		kctx = rerr.kctx
	}
	if kctx != nil {
		for _, p := range kctx.Path {
			if p.Command != nil {
				words = append(words, p.Command.Name)
			}
		}
	}
	return strings.Join(append(words, "--help"), " ")
}
