// Command hcreplay replays task-arrival traces through scheduling heuristics
// on heterogeneous machines.
//
// This package owns the command line only: parsing flags, environment
// variables and config files (with kong), wiring the chosen command to the
// library packages, and turning the outcome into an exit status. It holds no
// domain logic; anything a test or another program could want belongs in the
// library packages (pmf, trace, petbuild, replay, sweep, report, presets).
//
// Every command is a struct in its own file with a Run method, listed as one
// field of CLI in main.go. A Run method asks for what it needs by type:
//
//	func (c *FooCmd) Run(ctx context.Context, con *Console) error
//
// ctx is cancelled on SIGINT or SIGTERM; con carries the output writers and
// --quiet. A Run method reports bad input (a missing file, a malformed row)
// by returning badInput(err), which exits 2; any other error exits 1.
//
// Exit status: 0 success, 2 bad usage or bad input, 1 internal error, 130 interrupted.
//
// Flag values come from, highest priority first: the command line, HCREPLAY_*
// environment variables, the --config file, and the flag's default.
package main
