package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/hcreplay/hcreplay/presets"
	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep"
)

// ReportCmd aggregates the runs of a sweep into tables, figures and two pages (SPEC §6).
type ReportCmd struct {
	Runs     []string `arg:"" help:"Run folders (holding runs.parquet) or runs.parquet files; several are merged by run key, e.g. the shards of one sweep." placeholder:"RUNS"`
	Out      string   `required:"" help:"Folder for the tables, figures, index.html and index.md." placeholder:"DIR"`
	Baseline string   `help:"Name (MM, MM-P) to take paired differences against: the runs of that name under the same options, trial by trial." placeholder:"NAME"`
	Formats  []string `default:"svg,png" help:"Figure formats: svg, png, pdf (default svg,png)." placeholder:"FORMAT"`
	Tables   []string `default:"md,csv,tex" help:"Table files besides the terminal: md, csv (also aggregate.csv with every metric), tex (default all three)." placeholder:"FORMAT"`
	Force    bool     `help:"Replace an earlier report in --out (its pages, tables and figures) instead of refusing."`
	Partial  bool     `help:"Report the runs there are when shards or runs of a sweep are missing (their manifests tell), with a warning, instead of refusing."`
	Claims   string   `help:"Check the claims of a preset's experiment against the runs (taken as run under the preset's semantics): print each with its verdict and add them to the pages. PRESET is an embedded preset or an experiment file (docs/presets.md)." placeholder:"PRESET:EXPERIMENT"`

	// checkClaims, when set, checks claims against the aggregate for the pages (figures).
	checkClaims func(*report.Aggregate) ([]report.ClaimSection, error)
}

func (c *ReportCmd) Run(ctx context.Context, con *Console) error {
	_, err := c.write(ctx, con)
	return err
}

// write writes the report and returns the aggregate it shows.
func (c *ReportCmd) write(ctx context.Context, con *Console) (*report.Aggregate, error) {
	formats, err := checkList("--formats", c.Formats, "svg", "png", "pdf")
	if err != nil {
		return nil, badInput(err)
	}
	tables, err := checkList("--tables", c.Tables, "md", "csv", "tex")
	if err != nil {
		return nil, badInput(err)
	}
	checkClaims := c.checkClaims
	if c.Claims != "" {
		p, i, err := presets.ClaimsOf(c.Claims, presets.Open)
		if err != nil {
			return nil, badInput(fmt.Errorf("--claims %s: %w", c.Claims, err))
		}
		checkClaims = p.ClaimsChecker(i, con.Logf)
	}
	paths, err := report.RunsFiles(c.Runs)
	if err != nil {
		return nil, badInput(err)
	}
	rows, held, err := sweep.MergeRuns(paths)
	if err != nil {
		return nil, err
	}
	if missing := sweep.MissingRuns(paths, held); len(missing) > 0 {
		if !c.Partial {
			return nil, badInput(fmt.Errorf("%s; give the missing folders too, or add --partial to report the runs there are (some grid points' means then cover fewer trials than others')",
				strings.Join(missing, "; ")))
		}
		for _, m := range missing {
			con.Logf("warning: %s", m)
		}
	}
	unit, err := sweep.RunsTimeUnit(paths)
	if err != nil {
		return nil, err
	}
	agg, err := report.AggregateRuns(rows, c.Baseline)
	if err != nil {
		return nil, badInput(err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var claims []report.ClaimSection
	if checkClaims != nil {
		if claims, err = checkClaims(agg); err != nil {
			return nil, badInput(err)
		}
	}
	if err := claimDir(con, "--out", c.Out, c.Force, reportResults); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return nil, err
	}
	index, figs, err := report.WriteFolder(con.Stdout, c.Out, rows, agg, report.FolderOptions{Sources: paths, Figures: formats,
		Tables: tables, Meta: report.FileMeta{TimeUnit: unit, Version: buildVersion()}, Claims: claims})
	if err != nil {
		return nil, err
	}
	if c.Claims != "" {
		if err := report.WriteClaimsMarkdown(con.Stdout, claims); err != nil {
			return nil, err
		}
	}
	names := make([]string, len(figs))
	for i, f := range figs {
		names[i] = f.Name
	}
	con.Logf("%d runs, %d grid points; figures: %s", len(rows), len(agg.Groups), strings.Join(names, ", "))
	fmt.Fprintf(con.Stdout, "report written to %s: open %s\n", c.Out, index)
	return agg, nil
}

// checkList splits comma-separated values and checks each against allowed.
func checkList(flag string, values []string, allowed ...string) ([]string, error) {
	var out []string
	for _, v := range values {
		for _, s := range strings.Split(v, ",") {
			s = strings.ToLower(strings.TrimSpace(s))
			if s == "" || slices.Contains(out, s) {
				continue
			}
			if !slices.Contains(allowed, s) {
				return nil, fmt.Errorf("%s: unknown format %q: want %s", flag, s, strings.Join(allowed, ", "))
			}
			out = append(out, s)
		}
	}
	return out, nil
}
