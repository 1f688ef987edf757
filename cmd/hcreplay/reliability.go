package main

import (
	"encoding/csv"
	"io"
	"math"
	"strconv"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/report"
)

// writeReliability writes a run's reliability table (replay.Summary.Reliability) as CSV: one row
// per bin of predicted chance with its tasks, mean predicted chance, observed on-time rate and
// that rate's 95% interval; empty cells for a bin without tasks.
func writeReliability(path string, rows []replay.ReliabilityBin) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		meta := report.FileMeta{Version: buildVersion()} // chances and counts: no times
		if _, err := io.WriteString(w, meta.CSVComment()); err != nil {
			return err
		}
		c := csv.NewWriter(w)
		if err := c.Write([]string{"bin_low", "bin_high", "tasks", "on_time", "predicted_mean", "observed_on_time", "ci_low", "ci_high"}); err != nil {
			return err
		}
		for _, r := range rows {
			rec := []string{num(r.BinLow), num(r.BinHigh), strconv.Itoa(r.Tasks), strconv.Itoa(r.OnTime),
				num(float64(r.Predicted)), num(float64(r.Observed)), num(float64(r.IntervalLow)), num(float64(r.IntervalHigh))}
			if err := c.Write(rec); err != nil {
				return err
			}
		}
		c.Flush()
		return c.Error()
	})
}

// num formats a number for the CSV, NaN as an empty cell.
func num(x float64) string {
	if math.IsNaN(x) {
		return ""
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}
