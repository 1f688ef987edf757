package report

import (
	"io"
	"path/filepath"
	"slices"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
)

// FolderOptions says what WriteFolder writes.
type FolderOptions struct {
	Sources []string       // the runs.parquet files the rows came from: the page names them and shows their manifests
	Figures []string       // figure formats: svg, png, pdf
	Tables  []string       // table files: md, csv (summary.csv and aggregate.csv), tex
	Meta    FileMeta       // the comment line of every CSV file; calibration.csv takes only its version (no times)
	Claims  []ClaimSection // a preset's claims checked against the runs, for the pages
}

// WriteFolder writes a report of rows, aggregated as agg, into the folder dir, which must
// exist: the summary table in each of opt.Tables, the figures in each of opt.Figures, the
// calibration table and figure when runs recorded their reliability (issue 51), and the two
// pages index.html and index.md that show them. It prints the summary table, and the
// calibration table, to stdout. It returns the path of index.html and the figures.
func WriteFolder(stdout io.Writer, dir string, rows []RunRow, agg *Aggregate, opt FolderOptions) (index string, figs []Figure, err error) {
	summary := SummaryTable(agg)
	if err := summary.WriteTerminal(stdout); err != nil {
		return "", nil, err
	}
	tableFiles, err := writeTables(dir, summary, agg, opt.Tables, opt.Meta)
	if err != nil {
		return "", nil, err
	}
	if figs, err = WriteFigures(agg, dir, opt.Figures); err != nil {
		return "", nil, err
	}
	if rels := Reliabilities(rows); len(rels) > 0 {
		rt := ReliabilityTable(rels)
		if err := rt.WriteTerminal(stdout); err != nil {
			return "", nil, err
		}
		path := filepath.Join(dir, "calibration.csv")
		meta := FileMeta{Version: opt.Meta.Version} // chances and counts: no times
		if err := atomicfile.Write(path, withComment(meta, rt.WriteCSV)); err != nil {
			return "", nil, err
		}
		tableFiles = append(tableFiles, path)
		f, ok, err := WriteReliabilityFigure(rels, dir, opt.Figures)
		if err != nil {
			return "", nil, err
		}
		if ok {
			figs = append(figs, f)
		}
	}
	page := Page{Title: "hcreplay report", Sources: opt.Sources, Runs: len(rows), Points: len(agg.Groups),
		Table: summary, TableFiles: tableFiles, Figures: figs, Claims: opt.Claims}
	for _, p := range opt.Sources {
		m, ok, err := ReadManifestText(p)
		if err != nil {
			return "", nil, err
		}
		if ok && !slices.ContainsFunc(page.Manifests, func(x ManifestText) bool { return x.Text == m.Text }) {
			page.Manifests = append(page.Manifests, m)
		}
	}
	index = filepath.Join(dir, "index.html")
	if err := atomicfile.Write(index, page.WriteHTML); err != nil {
		return "", nil, err
	}
	if err := atomicfile.Write(filepath.Join(dir, "index.md"), page.WriteMarkdown); err != nil {
		return "", nil, err
	}
	return index, figs, nil
}

// withComment writes meta's comment line before what fill writes.
func withComment(meta FileMeta, fill func(io.Writer) error) func(io.Writer) error {
	return func(w io.Writer) error {
		if _, err := io.WriteString(w, meta.CSVComment()); err != nil {
			return err
		}
		return fill(w)
	}
}

// writeTables writes the summary table in each format asked, and with CSV also aggregate.csv,
// which has every metric with its standard deviation and interval. CSV files start with a
// comment line of meta (time unit, version).
func writeTables(dir string, summary Table, agg *Aggregate, formats []string, meta FileMeta) ([]string, error) {
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
			if err = write("summary.csv", withComment(meta, summary.WriteCSV)); err == nil {
				err = write("aggregate.csv", withComment(meta, MetricsTable(agg).WriteCSV))
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}
