package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/speculate"
)

// SpeculateRun is one speculative-execution run as summaries.json and speculate --json give it.
type SpeculateRun struct {
	Workload    string            `json:"workload"`
	Summary     speculate.Summary `json:"summary"`
	Timing      speculate.Timing  `json:"timing"`
	TimeUnit    string            `json:"time_unit"` // of the workload's times, and of the summary's
	Tool        string            `json:"tool"`
	ToolVersion string            `json:"tool_version"`
}

// WriteJobs writes a speculative run's jobs to path as CSV, one row per job after a comment
// line of meta; a time that does not apply (NaN) is an empty field. It makes path's folder.
func WriteJobs(path string, jobs []speculate.JobOutcome, meta FileMeta) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		if _, err := io.WriteString(w, meta.CSVComment()); err != nil {
			return err
		}
		cw := csv.NewWriter(w)
		if err := cw.Write([]string{"job_id", "tasks", "mean_task", "arrival", "start", "finish", "flowtime",
			"machine_time", "resource", "wasted", "cost", "copies", "extra_copies", "backups_won"}); err != nil {
			return err
		}
		g := func(x float64) string {
			if math.IsNaN(x) {
				return ""
			}
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
		for _, j := range jobs {
			if err := cw.Write([]string{j.ID, strconv.Itoa(j.Tasks), g(j.MeanTask), g(j.Arrival), g(j.Start), g(j.Finish), g(j.Flowtime),
				g(j.MachineTime), g(j.Resource), g(j.Wasted), g(j.Cost), strconv.Itoa(j.Copies), strconv.Itoa(j.ExtraCopies), strconv.Itoa(j.BackupsWon)}); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	})
}

// SpeculateTable writes one row per run: flowtime mean and percentiles, resource per job, the
// wasted share in percent, extra copies, backups that won and decision time in milliseconds.
func SpeculateTable(w io.Writer, runs []SpeculateRun) error {
	right := tw.AlignRight
	t := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithAlignment(tw.Alignment{tw.AlignLeft, tw.AlignLeft, right, right, right, right, right, right, right, right, right, right, right}))
	t.Header("workload", "strategy", "jobs", "flowtime", "p50", "p80", "p90", "p99", "resource/job", "wasted %", "extra copies", "won", "decide ms")
	f := func(x replay.Num) string { return fmt.Sprintf("%.3g", float64(x)) }
	for _, r := range runs {
		s := r.Summary
		if err := t.Append(r.Workload, s.Strategy, fmt.Sprint(s.Jobs), f(s.FlowtimeMean), f(s.FlowtimeP50), f(s.FlowtimeP80), f(s.FlowtimeP90),
			f(s.FlowtimeP99), f(s.ResourceMean), fmt.Sprintf("%.1f", 100*float64(s.WastedFraction)), fmt.Sprint(s.ExtraCopies),
			fmt.Sprint(s.BackupsWon), fmt.Sprintf("%.0f", 1000*r.Timing.DecisionSeconds)); err != nil {
			return err
		}
	}
	return t.Render()
}
