package importers

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hcreplay/hcreplay/trace"
)

// The Alibaba traces (https://github.com/alibaba/clusterdata) are CSV files
// without a header line; their columns are fixed by the schema documents
// (a header line, if someone added one, is recognised and skipped). Times
// are seconds.

// cluster-trace-gpu-v2020, pai_task_table (data/pai_task_table.header).
var paiTaskFields = []string{"job_name", "task_name", "inst_num", "status", "start_time", "end_time", "plan_cpu", "plan_mem", "plan_gpu", "gpu_type"}

// cluster-trace-v2018 (schema.txt, "The index below is aligned with the data
// column in each file"). Times count from the start of the 8-day trace; 0
// means a time before or after it.
var (
	aliTaskFields     = []string{"task_name", "instance_num", "job_name", "task_type", "status", "start_time", "end_time", "plan_cpu", "plan_mem"}
	aliInstanceFields = []string{"instance_name", "task_name", "job_name", "task_type", "status", "start_time", "end_time", "machine_id", "seq_no", "total_seq_no", "cpu_avg", "cpu_max", "mem_avg", "mem_max"}
	aliMachineFields  = []string{"machine_id", "time_stamp", "failure_domain_1", "failure_domain_2", "cpu_num", "mem_size", "status"}
)

// aliTable says how the rows of one Alibaba table map onto records.
type aliTable struct {
	fields      []string
	taskType    int
	machineType func(rec []string, c *cells) string // "" with the reason in c when unknown
	id          []int                               // columns joined with "/" into the task id
	machineID   int                                 // -1 when the table has none
}

func (t *aliTable) col(name string) int { return slices.Index(t.fields, name) }

// pickField returns the column named by an option, or def.
func (t *aliTable) pickField(name, def, which string) (int, error) {
	if name == "" {
		name = def
	}
	i := t.col(strings.ToLower(name))
	if i < 0 {
		return 0, fmt.Errorf("%s field %q: want one of %s", which, name, strings.Join(t.fields, ", "))
	}
	return i, nil
}

// fieldType returns a machineType function reading column i.
func fieldType(i int, what string) func([]string, *cells) string {
	return func(rec []string, c *cells) string { return c.text(i, what) }
}

// importPAI maps each row of pai_task_table (a task: the instances of one
// role of a job) to one arrival and, when it terminated, one record:
//
//	task type     task_name (the role: worker, ps, evaluator, ...; TaskTypeField: another column)
//	machine type  gpu_type (T4, P100, V100, MISC, ...; MachineTypeField: another column)
//	arrival       start_time (the table has no submit time)
//	exec time     end_time - start_time of Terminated tasks
//
// A sample keeps whole jobs (job_name).
func importPAI(im *importer, in []importInput) error {
	t := &aliTable{fields: paiTaskFields, id: []int{0, 1}, machineID: -1}
	var err error
	if t.taskType, err = t.pickField(im.opt.TaskTypeField, "task_name", "alibaba-pai: task type"); err != nil {
		return err
	}
	mt, err := t.pickField(im.opt.MachineTypeField, "gpu_type", "alibaba-pai: machine type")
	if err != nil {
		return err
	}
	t.machineType = fieldType(mt, t.fields[mt])
	for _, input := range in {
		if err := im.aliRows(input, t); err != nil {
			return err
		}
	}
	return nil
}

// importAlibaba2018 maps each row of batch_instance (one instance on one
// machine) or of batch_task (a whole task, when no instance table is given)
// to one arrival and, when it terminated, one record:
//
//	task type     task_type (12 types; TaskTypeField: another column)
//	machine type  cpu_num and mem_size of the machine from machine_meta, as "c96-m100";
//	              "any" when no machine_meta file is given or for batch_task, which
//	              does not say where instances ran (MachineTypeField: a column, e.g. machine_id)
//	arrival       start_time (the trace has no submit time)
//	exec time     end_time - start_time of Terminated rows
//
// The known bad rows (alibaba/clusterdata#167) are reported: start or end
// time 0, end before start, zero durations. A sample keeps whole jobs.
func importAlibaba2018(im *importer, in []importInput) error {
	tables := map[string][]string{"machine_meta": aliMachineFields, "batch_task": aliTaskFields, "batch_instance": aliInstanceFields}
	kinds, err := classify(in, "a cluster-trace-v2018 machine_meta, batch_task or batch_instance file (want 7, 9 or 14 columns)",
		func(rec []string) string {
			for kind, f := range tables {
				if len(rec) == len(f) {
					return kind
				}
			}
			return ""
		})
	if err != nil {
		return err
	}
	if slices.Contains(kinds, "batch_task") && slices.Contains(kinds, "batch_instance") {
		return &trace.InputError{File: in[0].name, Msg: "give batch_instance or batch_task files, not both: they describe the same work (instances are the finer records)"}
	}
	specs, err := im.aliMachines(in, kinds)
	if err != nil {
		return err
	}
	return inOrder(in, kinds, []string{"batch_task", "batch_instance"}, func(kind string, input importInput) error {
		t, err := im.ali2018Table(tables[kind], specs)
		if err != nil {
			return err
		}
		return im.aliRows(input, t)
	})
}

// aliMachines reads the machine_meta files into machine_id → "cCPU-mMEM";
// nil when there are none.
func (im *importer) aliMachines(in []importInput, kinds []string) (map[string]string, error) {
	var specs map[string]string
	err := inOrder(in, kinds, []string{"machine_meta"}, func(_ string, input importInput) error {
		if specs == nil {
			specs = map[string]string{}
		}
		return im.eachCSV(input, func(rec []string, line int) error {
			if line == 1 && rec[0] == "machine_id" {
				return nil
			}
			c := cells{file: input.name, line: line, rec: rec, names: aliMachineFields}
			id, cpu, mem := c.text(0, "machine_id"), c.text(4, "cpu_num"), c.text(5, "mem_size")
			if c.ok() && specs[id] == "" {
				specs[id] = "c" + cpu + "-m" + mem
			}
			return nil
		})
	})
	return specs, err
}

func (im *importer) ali2018Table(fields []string, specs map[string]string) (*aliTable, error) {
	t := &aliTable{fields: fields, machineID: -1}
	var err error
	if t.taskType, err = t.pickField(im.opt.TaskTypeField, "task_type", "alibaba2018: task type"); err != nil {
		return nil, err
	}
	if fields[0] == "task_name" {
		t.id = []int{2, 0}
	} else {
		t.id, t.machineID = []int{2, 1, 0}, 7
	}
	if im.opt.MachineTypeField != "" {
		mt, err := t.pickField(im.opt.MachineTypeField, "", "alibaba2018: machine type")
		if err != nil {
			return nil, err
		}
		t.machineType = fieldType(mt, fields[mt])
		return t, nil
	}
	t.machineType = func([]string, *cells) string { return "any" }
	if specs != nil && t.machineID >= 0 {
		t.machineType = func(rec []string, c *cells) string {
			id := c.text(t.machineID, "machine_id")
			if s := specs[id]; s != "" || !c.ok() {
				return s
			}
			c.fail(t.machineID, "machine not in machine_meta")
			return ""
		}
	}
	return t, nil
}

// aliRows streams one Alibaba table.
func (im *importer) aliRows(input importInput, t *aliTable) error {
	status, start, end, job := t.col("status"), t.col("start_time"), t.col("end_time"), t.col("job_name")
	return im.eachCSV(input, func(rec []string, line int) error {
		if line == 1 && len(rec) > 0 && rec[0] == t.fields[0] {
			return nil // a header line someone added
		}
		if err := im.row(); err != nil {
			return err
		}
		c := cells{file: input.name, line: line, rec: rec, names: t.fields}
		if len(rec) != len(t.fields) {
			im.bad(Skipped, fmt.Sprintf("wrong number of fields (want %d)", len(t.fields)), &trace.InputError{File: input.name, Line: line,
				Value: strings.Join(rec, ","), HasValue: true})
			return nil
		}
		taskType := c.text(t.taskType, t.fields[t.taskType])
		s := im.time(&c, start, "start_time")
		if c.ok() && s <= 0 {
			c.fail(start, "start_time 0 (outside the trace span)")
		}
		if !c.ok() {
			im.bad(Skipped, c.reason, c.err)
			return nil
		}
		arrival := s * im.srcScale
		if !im.keep(strings.TrimSpace(rec[job])) || !im.inWindow(arrival) {
			return nil
		}
		jobID := strings.TrimSpace(rec[job])
		rec2, ok := im.aliRun(&c, t, taskType, arrival, status, end)
		if !ok {
			im.bad(NoLog, c.reason, c.err)
			im.task(taskType, arrival, jobID, nil)
			return nil
		}
		im.task(taskType, arrival, jobID, map[string]float64{rec2.MachineType: rec2.ExecTime})
		return im.log(rec2)
	})
}

// aliRun returns the row's execution record, or false with the reason in c.
func (im *importer) aliRun(c *cells, t *aliTable, taskType string, arrival float64, status, end int) (trace.LogRecord, bool) {
	if st := strings.TrimSpace(c.rec[status]); st != "Terminated" {
		c.fail(status, "status "+orDefault(st, "missing")+" (not Terminated)")
		return trace.LogRecord{}, false
	}
	e := im.time(c, end, "end_time") * im.srcScale
	switch {
	case !c.ok():
	case e <= 0:
		c.fail(end, "end_time 0 (outside the trace span)")
	case e < arrival:
		c.fail(end, "end_time before start_time")
	case e == arrival:
		c.fail(end, "zero duration (end_time = start_time)")
	}
	mt := ""
	if c.ok() {
		mt = t.machineType(c.rec, c)
	}
	if !c.ok() {
		return trace.LogRecord{}, false
	}
	ids := make([]string, len(t.id))
	for i, col := range t.id {
		ids[i] = strings.TrimSpace(c.rec[col])
	}
	rec := trace.LogRecord{TaskType: taskType, MachineType: mt, ExecTime: e - arrival, TaskID: strings.Join(ids, "/"), Start: arrival, End: e}
	if t.machineID >= 0 {
		rec.MachineID = strings.TrimSpace(c.rec[t.machineID])
	}
	return rec, true
}
