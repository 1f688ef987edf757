package importers

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
)

// Help describes the formats and what each gives, for a user choosing one: the long help of
// trace import.
const Help = `Reads a production trace and writes DIR/log.csv (an execution log for 'pet build'), DIR/trace.csv
(an arrival trace for 'replay') and DIR/bad-rows.csv, then prints a summary and the rows it could
not use, by reason. Rows are never dropped silently: each bad row is counted under its reason with
up to three examples naming file, line, column and value.

Formats and what they give (task type TT, machine type MT, execution time ET, arrival):

  swf              Parallel Workloads Archive: TT executable number, MT partition number,
                   ET run time of completed jobs, arrival submit time. --task-type and
                   --machine-type take any SWF field (job submit wait run procs cpu memory
                   req_procs req_time req_memory status user group executable queue partition
                   preceding think), e.g. --task-type queue when executables are -1.
  google2019       CSV exports of instance events, collection events and machine events (any
                   order): TT collection_logical_name, MT platform_id, ET FINISH - SCHEDULE,
                   arrival the instance's SUBMIT; sample by collection.
  alibaba-pai      GPU-2020 pai_task_table: TT task_name, MT gpu_type, ET end - start of
                   Terminated tasks, arrival start_time; sample by job.
  alibaba2018      v2018 batch_instance (or batch_task) and optionally machine_meta: TT task_type,
                   MT the machine's cpu_num and mem_size ("any" without machine_meta), ET end -
                   start of Terminated rows; end before start and zero times are reported.
  azure-functions  2019 invocations_per_function and function_durations_percentiles files:
                   one arrival per invocation (uniform in its minute), a PET from the duration
                   percentiles; TT the function (--task-type app, owner or trigger), MT "functions";
                   --sample thins invocations.
  azure-llm        LLM inference 2023 CSV: one arrival per TIMESTAMP; TT "code" or "conv" from
                   the file name (--task-type context: token-size classes). No execution times:
                   replay it with a PET of those types.
  e2c              E2C EET matrix (one record per cell) and workload CSVs (ext_<machine>-<r>
                   columns become records and observed durations; est_ columns are ignored).

Deadlines are synthesized with --deadline from the per-type means of the imported log; arrivals
whose task type has no execution record are left out (reported), since a PET built from the log
could not replay them. The trace starts at 0 (the first kept arrival). The arrival trace is held
in memory until it is sorted: cut large traces with --sample and --time-window.

Examples:

    hcreplay trace import --from swf KTH-SP2-1996-2.1-cln.swf.gz --out kth --time-window 0:7d
    hcreplay trace import --from google2019 instance_events.csv collection_events.csv machine_events.csv --out g --sample 0.1
    hcreplay pet build kth/log.csv --out kth/pet.json --min-samples 5
    hcreplay replay --pet kth/pet.json --trace kth/trace.csv -H MM`

// WriteSummary prints what was imported and the bad rows by reason, as trace import shows them.
func (res *Result) WriteSummary(w io.Writer) error {
	t := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithAlignment(tw.Alignment{tw.AlignLeft, tw.AlignRight}))
	t.Header("import "+string(res.Format), "")
	deadlines := res.Deadlines
	if deadlines == "" {
		deadlines = "none (give --deadline to replay)"
	}
	rows := [][2]string{
		{"files", strconv.Itoa(len(res.Sources))},
		{"rows read", strconv.FormatInt(res.Rows, 10)},
		{"log records", strconv.FormatInt(res.LogRecords, 10)},
		{"tasks (arrivals)", strconv.Itoa(res.Tasks)},
		{"task types", strconv.Itoa(len(res.TaskTypes))},
		{"machine types", strings.Join(clipList(res.MachineTypes, 8), " ")},
		{"cells with records (under 30)", fmt.Sprintf("%d (%d)", res.Cells, res.ThinCells)},
		{"arrival span", fmt.Sprintf("%.6g %s", res.Span, res.Unit)},
		{"left out by --sample", strconv.FormatInt(res.SampledOut, 10)},
		{"outside --time-window", strconv.FormatInt(res.OutOfWindow, 10)},
		{"bad rows", strconv.FormatInt(res.Bad.Total(), 10)},
		{"deadlines", deadlines},
	}
	for _, r := range rows {
		if err := t.Append(r[0], r[1]); err != nil {
			return err
		}
	}
	if err := t.Render(); err != nil {
		return err
	}
	for _, n := range res.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
	if len(res.Bad.Reasons) == 0 {
		return nil
	}
	b := tablewriter.NewTable(w, tablewriter.WithHeaderAutoFormat(tw.Off), tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithAlignment(tw.Alignment{tw.AlignLeft, tw.AlignLeft, tw.AlignRight, tw.AlignLeft}))
	b.Header("bad rows: reason", "effect", "rows", "first example")
	for _, r := range res.Bad.Reasons {
		example := ""
		if len(r.Samples) > 0 {
			example = clipText(r.Samples[0].Error(), 100)
		}
		if err := b.Append(r.Reason, string(r.Effect), strconv.FormatInt(r.Rows, 10), example); err != nil {
			return err
		}
	}
	return b.Render()
}

func clipList(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(s[:n:n], fmt.Sprintf("… (%d in all)", len(s)))
}

func clipText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
