package report

import (
	"fmt"
	"io"
	"path/filepath"
	"reflect"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/pkg/twcache"
	"github.com/olekukonko/tablewriter/tw"

	"github.com/hcreplay/hcreplay/replay"
)

// ReplayRun is one run of replay (the command, not a sweep): a trial of the trace set numbered
// Set, replayed through the mapper numbered Mapper.
type ReplayRun struct {
	Set, Mapper int
	Trace       string
	Summary     replay.Summary
}

// WriteReplayTables writes WriteReplayRuns's table and then WriteReplayMeans's, as the replay
// command prints them, through one tablewriter.Table cleared between the two. Every new table
// allocates a stringer cache of 10,240 entries (about 450 KB) that tables without a stringer
// never read, and so does clearing one (Reset purges the cache into a new one of that size): in
// a fresh process each new page of it costs a page fault. The one table here gets a cache of
// one entry, which its Reset renews for nothing.
func WriteReplayTables(w io.Writer, sets, labels []string, runs []ReplayRun) error {
	t := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithStringerCacheCustom(twcache.NewLRU[reflect.Type, reflect.Value](1)))
	if err := writeRuns(t, runs); err != nil {
		return err
	}
	t.Reset()
	return writeMeans(t, w, sets, labels, runs)
}

// WriteReplayRuns prints the key metrics of each run, a row per run.
func WriteReplayRuns(w io.Writer, runs []ReplayRun) error {
	return writeRuns(tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off)), runs)
}

// writeRuns is WriteReplayRuns in t, a table of no rows.
func writeRuns(t *tablewriter.Table, runs []ReplayRun) error {
	t.Options(tablewriter.WithAlignment(tw.Alignment{tw.AlignLeft, tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight}))
	t.Header("trace", "heuristic", "scored", "on time", "robustness %", "fairness var", "cost/on-time ($)", "events")
	for _, r := range runs {
		s := r.Summary
		if err := t.Append(filepath.Base(r.Trace), s.Heuristic, fmt.Sprint(s.Scored), fmt.Sprint(s.OnTime),
			fmt.Sprintf("%.2f", float64(s.Robustness)), fmt.Sprintf("%.1f", float64(s.FairnessVariance)),
			fmt.Sprintf("%.3g", float64(s.CostPerOnTime)), fmt.Sprint(s.MappingEvents)); err != nil {
			return err
		}
	}
	return t.Render()
}

// WriteReplayMeans prints, per trace set (named by sets) and mapper (named by labels), the mean
// over the trials of the key metrics of WriteReplayRuns and the half-width of their 95%
// intervals (EstimateOf), after a blank line and a line saying what they are over; nothing when
// there are no more trials than sets (each set a single trial: the runs' table says it all).
// Each set is its own set of trials, as if replayed alone: a level of oversubscription, say,
// whose means would mean nothing pooled with another's. The column of sets is there only when
// there are several.
func WriteReplayMeans(w io.Writer, sets, labels []string, runs []ReplayRun) error {
	return writeMeans(tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off)), w, sets, labels, runs)
}

// writeMeans is WriteReplayMeans in t, a table of no rows writing to w.
func writeMeans(t *tablewriter.Table, w io.Writer, sets, labels []string, runs []ReplayRun) error {
	trials := 0
	for _, r := range runs {
		if r.Mapper == 0 {
			trials++
		}
	}
	if trials <= len(sets) {
		return nil
	}
	over := fmt.Sprintf("the %d trials", trials)
	if len(sets) > 1 {
		over = "the trials of each --trace"
	}
	fmt.Fprintf(w, "\nMean over %s, with the half-width of its 95%% Student t interval:\n", over)
	header := []string{"heuristic", "trials", "scored", "robustness %", "fairness var", "cost/on-time ($)"}
	if len(sets) > 1 {
		header = append([]string{"trace"}, header...)
	}
	align := make(tw.Alignment, len(header))
	for i := range align {
		align[i] = tw.AlignRight
	}
	align[0], align[len(header)-6] = tw.AlignLeft, tw.AlignLeft
	t.Options(tablewriter.WithAlignment(align))
	t.Header(header)
	for set, spec := range sets {
		for j, label := range labels {
			var scored, robust, fair, cost []float64
			for _, r := range runs {
				if r.Set == set && r.Mapper == j {
					s := r.Summary
					scored = append(scored, float64(s.Scored))
					robust = append(robust, float64(s.Robustness))
					fair = append(fair, float64(s.FairnessVariance))
					cost = append(cost, float64(s.CostPerOnTime))
				}
			}
			row := []string{label, fmt.Sprint(len(robust)), fmt.Sprintf("%.1f", EstimateOf(scored).Mean),
				withUndefined(EstimateOf(robust), 2), withUndefined(EstimateOf(fair), 1), withUndefined(EstimateOf(cost), -1)}
			if len(sets) > 1 {
				row = append([]string{filepath.Base(spec)}, row...)
			}
			if err := t.Append(row); err != nil {
				return err
			}
		}
	}
	return t.Render()
}

// withUndefined is FormatEstimate (mean ± half-width to d decimals) with the number of trials
// whose value was undefined, and so left out, after it.
func withUndefined(e Estimate, d int) string {
	s := FormatEstimate(e, d)
	if e.Skipped > 0 && e.N > 0 {
		s += fmt.Sprintf(" (%d undefined)", e.Skipped)
	}
	return s
}
