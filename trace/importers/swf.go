package importers

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hcreplay/hcreplay/trace"
)

// The Standard Workload Format of the Parallel Workloads Archive
// (https://www.cs.huji.ac.il/labs/parallel/workload/swf.html, version 2.2):
// one job per line, 18 whitespace-separated fields, -1 where a value is
// missing, and comment lines starting with ';' (the header comments such as
// "; UnixStartTime:" and "; MaxPartitions:"). Times are in seconds; submit
// times start at zero.
var swfFields = []string{
	"job", "submit", "wait", "run", "procs", "cpu", "memory", "req_procs", "req_time",
	"req_memory", "status", "user", "group", "executable", "queue", "partition", "preceding", "think",
}

// swfLabels name the fields in messages.
var swfLabels = []string{
	"job number", "submit time", "wait time", "run time", "allocated processors", "average CPU time",
	"used memory", "requested processors", "requested time", "requested memory", "status", "user ID",
	"group ID", "executable number", "queue number", "partition number", "preceding job", "think time",
}

// swfField returns the position of a field named by Options, or the
// default.
func swfField(name, def, which string) (int, error) {
	if name == "" {
		name = def
	}
	i := slices.Index(swfFields, strings.ToLower(name))
	if i < 0 {
		return 0, fmt.Errorf("swf: %s field %q: want one of %s", which, name, strings.Join(swfFields, ", "))
	}
	return i, nil
}

// importSWF maps a job to one arrival and, when it completed, one execution
// record:
//
//	task type     the executable (application) number, field 14
//	machine type  the partition number, field 16
//	arrival       the submit time, field 2
//	exec time     the run time, field 4, of jobs with status 1 (completed) or -1 (unknown);
//	              it is also the task's observed duration on its partition
//	start, end    submit + wait, start + run (when the wait time is known)
//
// A sample keeps whole jobs (by job number). Rows with a missing task type
// or submit time are skipped; failed (0), partial (2-4) or cancelled (5)
// jobs, run times of -1 or 0 and a missing partition keep the arrival but
// give no log record.
func importSWF(im *importer, in []importInput) error {
	tt, err := swfField(im.opt.TaskTypeField, "executable", "task type")
	if err != nil {
		return err
	}
	mt, err := swfField(im.opt.MachineTypeField, "partition", "machine type")
	if err != nil {
		return err
	}
	fields := make([]string, 0, 18)
	for _, input := range in {
		err := im.eachLine(input, func(b []byte, line int) error {
			s := strings.TrimSpace(string(b))
			if s == "" || s[0] == ';' {
				return nil
			}
			if err := im.row(); err != nil {
				return err
			}
			fields = splitFields(fields[:0], s)
			return im.swfJob(cells{file: input.name, line: line, rec: fields, names: swfLabels}, tt, mt)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// splitFields appends the whitespace-separated fields of s to out.
func splitFields(out []string, s string) []string {
	for s != "" {
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			return append(out, s)
		}
		if i > 0 {
			out = append(out, s[:i])
		}
		s = s[i+1:]
	}
	return out
}

func (im *importer) swfJob(c cells, ttCol, mtCol int) error {
	if len(c.rec) != len(swfFields) {
		im.bad(Skipped, fmt.Sprintf("wrong number of fields (want %d)", len(swfFields)),
			&trace.InputError{File: c.file, Line: c.line, Value: strings.Join(c.rec, " "), HasValue: true})
		return nil
	}
	job := c.text(0, "job number")
	submit := im.time(&c, 1, "submit time")
	if c.ok() && submit < 0 {
		c.fail(1, "submit time missing (-1)")
	}
	taskType := c.rec[ttCol]
	if c.ok() && taskType == "-1" {
		c.fail(ttCol, swfLabels[ttCol]+" missing (-1)")
	}
	if !c.ok() {
		im.bad(Skipped, c.reason, c.err)
		return nil
	}
	arrival := submit * im.srcScale
	if !im.keep(job) || !im.inWindow(arrival) {
		return nil
	}
	rec, ok := im.swfRun(&c, job, taskType, arrival, mtCol)
	if !ok {
		im.bad(NoLog, c.reason, c.err)
		im.task(taskType, arrival, "", nil)
		return nil
	}
	im.task(taskType, arrival, "", map[string]float64{rec.MachineType: rec.ExecTime})
	return im.log(rec)
}

// swfRun returns the job's execution record, or false with the reason in c.
func (im *importer) swfRun(c *cells, job, taskType string, arrival float64, mtCol int) (trace.LogRecord, bool) {
	run := im.time(c, 3, "run time")
	status := c.number(10, "status")
	wait := im.time(c, 2, "wait time")
	if !c.ok() {
		return trace.LogRecord{}, false
	}
	switch {
	case status == 0:
		c.fail(10, "job failed (status 0)")
	case status == 5:
		c.fail(10, "job cancelled (status 5)")
	case status >= 2 && status <= 4:
		c.fail(10, fmt.Sprintf("partial execution (status %g)", status))
	case run == -1:
		c.fail(3, "run time missing (-1)")
	case run == 0:
		c.fail(3, "run time 0 (shorter than half a second)")
	case run < 0:
		c.fail(3, "run time negative")
	case c.rec[mtCol] == "-1":
		c.fail(mtCol, swfLabels[mtCol]+" missing (-1)")
	}
	if !c.ok() {
		return trace.LogRecord{}, false
	}
	rec := trace.LogRecord{TaskType: taskType, MachineType: c.rec[mtCol], ExecTime: run * im.srcScale, TaskID: job, Start: nan(), End: nan()}
	if wait >= 0 {
		rec.Start = arrival + wait*im.srcScale
		rec.End = rec.Start + rec.ExecTime
	}
	return rec, true
}
