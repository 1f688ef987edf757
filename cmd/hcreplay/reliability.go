package main

import (
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/report"
)

// writeReliability writes a run's reliability table as CSV (report.WriteRunReliability); it
// holds chances and counts, so its comment line names no time unit.
func writeReliability(path string, rows []replay.ReliabilityBin) error {
	return report.WriteRunReliability(path, rows, report.FileMeta{Version: buildVersion()})
}
