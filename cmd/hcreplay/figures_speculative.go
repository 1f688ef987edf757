package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/hcreplay/hcreplay/internal/progressbar"
	"github.com/hcreplay/hcreplay/presets"
)

// runSpeculative runs a preset of the speculative runner (Xu & Lau 2015's job replays, package
// presets) into --out.
func (c *FiguresCmd) runSpeculative(ctx context.Context, con *Console, p *presets.Preset) error {
	if c.Trials != "" {
		return badInput(errors.New("--trials: the speculative preset runs the paper's synthetic workload; it takes no trials"))
	}
	if c.Jobs < 0 {
		return badInput(errors.New("--jobs must not be negative"))
	}
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return err
	}
	start := time.Now()
	bar := progressbar.New(con.Stderr, con.Quiet)
	notes, checked, err := p.RunSpeculative(ctx, presets.SpecRun{Out: c.Out, Jobs: c.Jobs, Quick: c.Quick, Command: c.commandLine(), Version: buildVersion(),
		Log: con.Logf, Started: func(n int) { bar.StartRuns(n, "speculative") }, Done: bar.Inc})
	bar.Stop()
	if err != nil {
		return err
	}
	head := presets.Header{Command: c.commandLine(), Version: buildVersion(), Source: presets.Source{Quick: c.Quick}}
	path, err := p.WriteResults(c.Out, notes, head, checked)
	if err != nil {
		return err
	}
	fmt.Fprintf(con.Stdout, "Done in %.0f s: 5 figures of the %s in %s; read %s.\n", time.Since(start).Seconds(), p.Title, c.Out, path)
	return nil
}
