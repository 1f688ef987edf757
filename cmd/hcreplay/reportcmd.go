package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
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
	paths, err := runsFiles(c.Runs)
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
	if err := claimDir(con, "--out", c.Out, c.Force, reportResults); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return nil, err
	}
	summary := report.SummaryTable(agg)
	if err := summary.WriteTerminal(con.Stdout); err != nil {
		return nil, err
	}
	tableFiles, err := writeTables(c.Out, summary, agg, tables, report.FileMeta{TimeUnit: unit, Version: buildVersion()})
	if err != nil {
		return nil, err
	}
	figs, err := report.WriteFigures(agg, c.Out, formats)
	if err != nil {
		return nil, err
	}
	if rels := report.Reliabilities(rows); len(rels) > 0 { // calibration (issue 51)
		rt := report.ReliabilityTable(rels)
		if err := rt.WriteTerminal(con.Stdout); err != nil {
			return nil, err
		}
		path := filepath.Join(c.Out, "calibration.csv")
		meta := report.FileMeta{Version: buildVersion()} // chances and counts: no times
		if err := atomicfile.Write(path, func(w io.Writer) error {
			if _, err := io.WriteString(w, meta.CSVComment()); err != nil {
				return err
			}
			return rt.WriteCSV(w)
		}); err != nil {
			return nil, err
		}
		tableFiles = append(tableFiles, path)
		f, ok, err := report.WriteReliabilityFigure(rels, c.Out, formats)
		if err != nil {
			return nil, err
		}
		if ok {
			figs = append(figs, f)
		}
	}
	page := report.Page{Title: "hcreplay report", Sources: paths, Runs: len(rows), Points: len(agg.Groups),
		Table: summary, TableFiles: tableFiles, Figures: figs}
	for _, p := range paths {
		m, ok, err := report.ReadManifestText(p)
		if err != nil {
			return nil, err
		}
		if ok && !slices.ContainsFunc(page.Manifests, func(x report.ManifestText) bool { return x.Text == m.Text }) {
			page.Manifests = append(page.Manifests, m)
		}
	}
	index := filepath.Join(c.Out, "index.html")
	if err := atomicfile.Write(index, page.WriteHTML); err != nil {
		return nil, err
	}
	if err := atomicfile.Write(filepath.Join(c.Out, "index.md"), page.WriteMarkdown); err != nil {
		return nil, err
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

// runsFiles resolves each argument to a runs file: a folder stands for its runs.parquet.
func runsFiles(args []string) ([]string, error) {
	var paths []string
	for _, a := range args {
		st, err := os.Stat(a)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("runs %s: no such file or folder", a)
		}
		if err != nil {
			return nil, fmt.Errorf("runs %s: %w", a, err)
		}
		p := a
		if st.IsDir() {
			p = filepath.Join(a, "runs.parquet")
			if _, err := os.Stat(p); err != nil {
				hint := "hcreplay sweep writes one"
				if replayOut(a) {
					hint = "it looks like the output of hcreplay replay, which writes summary.json per run; hcreplay sweep --trace NAME=SPEC runs the same replays and writes runs.parquet"
				}
				return nil, fmt.Errorf("runs %s: the folder has no runs.parquet (%s)", a, hint)
			}
		}
		if !slices.Contains(paths, p) {
			paths = append(paths, p)
		}
	}
	return paths, nil
}

// replayOut reports whether dir holds a summary.json of hcreplay replay --out, or holds one in
// a subfolder or the subfolder of a subfolder (one per mapper, then per trial).
func replayOut(dir string) bool {
	for _, pattern := range []string{"summary.json", "*/summary.json", "*/*/summary.json"} {
		if m, _ := filepath.Glob(filepath.Join(dir, pattern)); len(m) > 0 {
			return true
		}
	}
	return false
}

// writeTables writes the summary table in each format asked, and with CSV also aggregate.csv,
// which has every metric with its standard deviation and interval. CSV files start with a
// comment line of meta (time unit, version).
func writeTables(dir string, summary report.Table, agg *report.Aggregate, formats []string, meta report.FileMeta) ([]string, error) {
	var files []string
	write := func(name string, fill func(io.Writer) error) error {
		path := filepath.Join(dir, name)
		files = append(files, path)
		return atomicfile.Write(path, fill)
	}
	for _, f := range formats {
		var err error
		switch f {
		case "md":
			err = write("summary.md", summary.WriteMarkdown)
		case "tex":
			err = write("summary.tex", summary.WriteLaTeX)
		case "csv":
			withMeta := func(fill func(io.Writer) error) func(io.Writer) error {
				return func(w io.Writer) error {
					if _, err := io.WriteString(w, meta.CSVComment()); err != nil {
						return err
					}
					return fill(w)
				}
			}
			if err = write("summary.csv", withMeta(summary.WriteCSV)); err == nil {
				err = write("aggregate.csv", withMeta(report.MetricsTable(agg).WriteCSV))
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}
