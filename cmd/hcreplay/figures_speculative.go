package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
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
	bar := newProgress(con)
	notes, checked, err := p.RunSpeculative(ctx, presets.SpecRun{Out: c.Out, Jobs: c.Jobs, Quick: c.Quick, Command: c.commandLine(), Version: buildVersion(),
		Log: con.Logf, Started: func(n int) { bar.startRuns(n, "speculative") }, Done: bar.inc})
	bar.stop()
	if err != nil {
		return err
	}
	path := filepath.Join(c.Out, "notes.md")
	if err := atomicfile.Write(path, func(w io.Writer) error { _, err := io.WriteString(w, notes); return err }); err != nil {
		return err
	}
	head := presets.Header{Command: c.commandLine(), Version: buildVersion(), Source: presets.Source{Quick: c.Quick}}
	if err := atomicfile.Write(filepath.Join(c.Out, presets.VerdictsFile), p.NewVerdicts(head, checked).Write); err != nil {
		return err
	}
	fmt.Fprintf(con.Stdout, "Done in %.0f s: 5 figures of the %s in %s; read %s.\n", time.Since(start).Seconds(), p.Title, c.Out, path)
	return nil
}
