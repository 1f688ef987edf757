package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
	"github.com/hcreplay/hcreplay/traces"
)

// DemoCmd is the main job on the embedded sample data (SPEC §7): unpack the PET and trials the
// tool generated itself (traces/generate.sh), sweep the batch heuristics with and without
// pruning across three oversubscription levels, and write a report with figures and tables.
type DemoCmd struct {
	Out    string `default:"hcreplay-demo" help:"Folder for the demo's data, runs and report." placeholder:"DIR"`
	Trials int    `default:"5" help:"Trials per level (1 to 5)."`
}

func (c *DemoCmd) Run(ctx context.Context, con *Console) error {
	if c.Trials < 1 || c.Trials > 5 {
		return badInput(fmt.Errorf("--trials %d: the sample data has 1 to 5 trials per level", c.Trials))
	}
	start := time.Now()
	data := filepath.Join(c.Out, "data")
	if err := unpack(traces.Demo(), data); err != nil {
		return err
	}
	con.Logf("sample data (12 task types × 8 machine types, trials at 9k, 19k and 34k) in %s", data)
	runs := filepath.Join(c.Out, "runs")
	if err := os.RemoveAll(runs); err != nil {
		return err
	}
	var levels []string
	for _, l := range []string{"9k", "19k", "34k"} {
		levels = append(levels, fmt.Sprintf("%s=%s", l, filepath.Join(data, "arr"+l+"_*.csv")))
	}
	sweep := SweepCmd{Out: runs, Checkpoint: 5 * time.Second, PET: filepath.Join(data, "pet.json"),
		Heuristic: []string{"MM", "MSD", "MMU", "MOC", "PAM"}, Prune: []string{"none", "both"},
		Trace: levels, Trials: c.Trials}
	if err := sweep.Run(ctx, con); err != nil {
		return err
	}
	report := filepath.Join(c.Out, "report")
	// The demo owns its folder: a second demo replaces the first one's report.
	rep := ReportCmd{Runs: []string{runs}, Out: report, Baseline: "MM", Formats: []string{"svg", "png"}, Tables: []string{"md", "csv", "tex"}, Force: true}
	if err := rep.Run(ctx, con); err != nil {
		return err
	}
	fmt.Fprintf(con.Stdout, "\nDone in %.0f s. Open %s (or %s); figures and tables are next to it.\n",
		time.Since(start).Seconds(), filepath.Join(report, "index.html"), filepath.Join(report, "index.md"))
	return nil
}

// unpack copies every file of fsys into dir.
func unpack(fsys fs.FS, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return fs.WalkDir(fsys, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		return atomicfile.Copy(fsys, path, filepath.Join(dir, path))
	})
}
