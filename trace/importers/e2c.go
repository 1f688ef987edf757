package importers

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/trace"
)

// The E2C simulator (hpcclab/E2C-Sim, V1/utils/simulator.py) reads two CSV
// files with a header line, told apart by their columns:
//
//	EET matrix  ",m1,m2,..." then one row per task type: "T1,1,2,5" (expected
//	            execution time of the task type on each machine type)
//	workload    task_type (or task_type_id), arrival_time, est_<machine type> ...,
//	            ext_<machine type>-<replica> ... (the estimated time per machine type and
//	            the actual time on every machine, pre-sampled by the generator)
//
// Times are in E2C's time unit, taken as seconds unless SourceUnit says
// otherwise.

// e2cExec is one ext_ column.
type e2cExec struct {
	col     int
	machine string // machine type
	replica int
	name    string // "m1-2", the machine id
}

// importE2C maps the EET matrix to one record per cell (a PET of point
// masses; pet build --min-samples 1) and each workload row to one arrival
// and one record per machine:
//
//	task type     task_type
//	machine type  <machine type> of est_/ext_ columns, or the EET column
//	arrival       arrival_time
//	exec time     every ext_<machine type>-<replica> cell; the lowest replica's is also
//	              the task's observed duration on that machine type
//
// est_ columns are estimates and are not read. A sample keeps rows.
func importE2C(im *importer, in []importInput) error {
	if im.opt.TaskTypeField != "" || im.opt.MachineTypeField != "" {
		return fmt.Errorf("e2c: task and machine types are fixed by the files; no type fields")
	}
	for _, input := range in {
		rec, err := firstRecord(input)
		if err != nil {
			return err
		}
		if newHeader(rec).col("arrival_time") >= 0 {
			err = im.e2cWorkload(input)
		} else {
			err = im.e2cEET(input)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// e2cExecColumns finds the ext_ columns; the machine type is the name
// without its "-<replica>" suffix.
func e2cExecColumns(names []string) []e2cExec {
	var out []e2cExec
	for i, n := range names {
		m, ok := strings.CutPrefix(n, "ext_")
		if !ok || m == "" {
			continue
		}
		e := e2cExec{col: i, machine: m, replica: 1, name: m}
		if j := strings.LastIndexByte(m, '-'); j > 0 {
			if r, err := strconv.Atoi(m[j+1:]); err == nil {
				e.machine, e.replica = m[:j], r
			}
		}
		out = append(out, e)
	}
	return out
}

func (im *importer) e2cWorkload(input importInput) error {
	var cols []int
	var names []string
	var execs []e2cExec
	return im.eachCSV(input, func(rec []string, line int) error {
		if cols == nil {
			h := newHeader(rec)
			names = make([]string, len(rec)) // as written: machine type names keep their case
			for i, n := range rec {
				names[i] = strings.TrimSpace(strings.TrimPrefix(n, "\ufeff"))
			}
			tt := "task_type"
			if h.col(tt) < 0 {
				tt = "task_type_id"
			}
			var err error
			cols, err = h.require(input.name, line, tt, "arrival_time")
			execs = e2cExecColumns(names)
			return err
		}
		if err := im.row(); err != nil {
			return err
		}
		c := cells{file: input.name, line: line, rec: rec, names: names}
		tt, a := c.text(cols[0], "task_type"), im.time(&c, cols[1], "arrival_time")
		if c.ok() && a < 0 {
			c.fail(cols[1], "arrival_time negative")
		}
		if !c.ok() {
			im.bad(Skipped, c.reason, c.err)
			return nil
		}
		a *= im.srcScale
		if !im.keep(input.name+"#"+strconv.Itoa(line)) || !im.inWindow(a) {
			return nil
		}
		observed, replica := map[string]float64{}, map[string]int{}
		for _, e := range execs {
			v, ok := im.e2cValue(&c, e.col)
			if !ok {
				continue
			}
			if r, seen := replica[e.machine]; !seen || e.replica < r {
				observed[e.machine], replica[e.machine] = v, e.replica
			}
			if err := im.log(trace.LogRecord{TaskType: tt, MachineType: e.machine, ExecTime: v, TaskID: strconv.Itoa(line),
				MachineID: e.name, Start: nan(), End: nan()}); err != nil {
				return err
			}
		}
		if !c.ok() {
			im.bad(PartlyUsed, c.reason, c.err)
		}
		im.task(tt, a, "", observed)
		return nil
	})
}

// e2cValue reads an execution time cell: empty is no value, anything but a
// positive number is reported on the row.
func (im *importer) e2cValue(c *cells, col int) (float64, bool) {
	s := strings.TrimSpace(at(c.rec, col))
	if s == "" {
		return 0, false
	}
	v, err := trace.ParseNumber(s)
	if err != nil || v <= 0 {
		c.fail(col, "execution time not a positive number (cell left out)")
		return 0, false
	}
	if math.Abs(v*im.srcScale) > im.maxTime {
		c.fail(col, fmt.Sprintf("execution time beyond %g s (cell left out)", trace.MaxSeconds))
		return 0, false
	}
	return v * im.srcScale, true
}

func (im *importer) e2cEET(input importInput) error {
	var machines []string
	return im.eachCSV(input, func(rec []string, line int) error {
		if machines == nil {
			machines = make([]string, len(rec))
			for i, m := range rec {
				machines[i] = strings.TrimSpace(m)
			}
			if len(rec) < 2 {
				return &trace.InputError{File: input.name, Line: line, Msg: "not an E2C EET matrix: want a header naming machine types after the first column"}
			}
			return nil
		}
		if err := im.row(); err != nil {
			return err
		}
		c := cells{file: input.name, line: line, rec: rec, names: machines}
		tt := c.text(0, "task type")
		if c.ok() && len(rec) != len(machines) {
			c.fail(-1, fmt.Sprintf("wrong number of fields (want %d)", len(machines)))
		}
		if !c.ok() {
			im.bad(Skipped, c.reason, c.err)
			return nil
		}
		for j := 1; j < len(rec); j++ {
			v, ok := im.e2cValue(&c, j)
			if !ok || machines[j] == "" {
				continue
			}
			if err := im.log(trace.LogRecord{TaskType: tt, MachineType: machines[j], ExecTime: v, TaskID: "EET", Start: nan(), End: nan()}); err != nil {
				return err
			}
		}
		if !c.ok() {
			im.bad(PartlyUsed, c.reason, c.err)
		}
		return nil
	})
}
