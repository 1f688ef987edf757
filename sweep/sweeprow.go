package sweep

import "github.com/hcreplay/hcreplay/report"

// Row is the run's identity and options as its row of runs.parquet will record them, before it
// runs: with the name and the pruning variant its mapper reports (PAMF asked for without
// pruning runs as PAMF-P), which is what a preset's selectors and claims match (issue 48).
func (r *SweepRun) Row() (report.RunRow, error) {
	row := r.row()
	m, err := r.mapper()
	if err != nil {
		return report.RunRow{}, err
	}
	row.Name = m.Name()
	if v, ok := m.(interface{ Variant() string }); ok {
		row.Prune = v.Variant()
	} else {
		row.Prune = "none"
	}
	return row, nil
}
