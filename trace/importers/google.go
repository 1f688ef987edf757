package importers

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/internal/natural"
	"github.com/hcreplay/hcreplay/trace"
)

// Google cluster-data 2019 ("ClusterData2019", trace format v3,
// https://github.com/google/cluster-data, clusterdata_trace_format_v3.proto
// and the "Google cluster-usage traces v3" document) lives in BigQuery; users
// export the columns they need to CSV with a header line. Three tables are
// read, told apart by their columns:
//
//	instance events    time, type, collection_id, instance_index, machine_id
//	collection events  collection_id, collection_logical_name (or collection_name)
//	machine events     machine_id, platform_id
//
// Times are microseconds from the trace start; 0 means before the trace
// window and 2^63-1 after it. Event types are the proto's numbers or names:
// SUBMIT 0, QUEUE 1, ENABLE 2, SCHEDULE 3, EVICT 4, FAIL 5, FINISH 6, KILL 7,
// LOST 8, UPDATE_PENDING 9, UPDATE_RUNNING 10.
var googleEvents = []string{"SUBMIT", "QUEUE", "ENABLE", "SCHEDULE", "EVICT", "FAIL", "FINISH", "KILL", "LOST", "UPDATE_PENDING", "UPDATE_RUNNING"}

const (
	gSubmit   = 0
	gSchedule = 3
	gEvict    = 4
	gFail     = 5
	gFinish   = 6
	gKill     = 7
	gLost     = 8
)

// googleInstance is what is known of an instance between its events.
type googleInstance struct {
	coll    string
	submit  float64 // first SUBMIT inside the trace, NaN when none
	sched   float64 // the SCHEDULE of the current run, NaN when not running
	machine string
}

type googleImport struct {
	*importer
	platform map[string]string // machine_id → machine type
	types    map[string]string // collection_id → task type
	pending  map[string]*googleInstance
}

// importGoogle maps each instance (a task of a job) to one arrival and each
// run that ends in FINISH to one execution record:
//
//	task type     collection_logical_name of the instance's collection (TaskTypeField:
//	              another collection events column, e.g. user or priority)
//	machine type  platform_id of the machine it ran on (MachineTypeField: another
//	              machine events column)
//	exec time     FINISH - SCHEDULE of the same run (also the observed duration)
//	arrival       the instance's first SUBMIT
//
// Runs ended by EVICT, FAIL, KILL or LOST give no record; instances
// submitted before the trace window (time 0) give a record but no arrival.
// A sample keeps whole collections (jobs). Events of one instance must come
// in time order, as an ORDER BY time export gives them.
func importGoogle(im *importer, in []importInput) error {
	g := &googleImport{importer: im, platform: map[string]string{}, types: map[string]string{}, pending: map[string]*googleInstance{}}
	kinds, err := classify(in, "a Google 2019 instance, collection or machine events export (want a header with instance_index, collection_logical_name or platform_id)",
		func(rec []string) string {
			h := newHeader(rec)
			switch {
			case h.col("instance_index") >= 0:
				return "instances"
			case h.col("platform_id") >= 0:
				return "machines"
			case h.col("collection_logical_name", "collection_name") >= 0:
				return "collections"
			}
			return ""
		})
	if err != nil {
		return err
	}
	if !slices.Contains(kinds, "collections") || !slices.Contains(kinds, "machines") {
		return &trace.InputError{File: in[0].name, Msg: "google2019 needs the collection events (for task types) and the machine events (for machine types) as well as the instance events"}
	}
	if err := inOrder(in, kinds, []string{"machines", "collections", "instances"}, g.table); err != nil {
		return err
	}
	return g.flush(in[0].name)
}

// table reads one export.
func (g *googleImport) table(kind string, input importInput) error {
	var cols []int
	var names []string
	return g.eachCSV(input, func(rec []string, line int) error {
		if cols == nil {
			var err error
			cols, names, err = g.columns(kind, input.name, line, newHeader(rec))
			return err
		}
		if err := g.row(); err != nil {
			return err
		}
		c := cells{file: input.name, line: line, rec: rec, names: names}
		switch kind {
		case "machines":
			if id, p := c.text(cols[0], "machine_id"), strings.TrimSpace(at(rec, cols[1])); c.ok() && p != "" && g.platform[id] == "" {
				g.platform[id] = p // REMOVE rows carry no platform; the first one that does names it
			}
		case "collections":
			id, tt := c.text(cols[0], "collection_id"), c.text(cols[1], names[cols[1]])
			if !c.ok() {
				g.bad(Skipped, c.reason, c.err)
			} else if _, seen := g.types[id]; !seen {
				g.types[id] = tt
			}
		default:
			return g.event(c, cols)
		}
		return nil
	})
}

// columns finds a table's columns; names holds their names for messages.
func (g *googleImport) columns(kind, file string, line int, h header) ([]int, []string, error) {
	var want []string
	switch kind {
	case "machines":
		want = []string{"machine_id", orDefault(g.opt.MachineTypeField, "platform_id")}
	case "collections":
		tt := g.opt.TaskTypeField
		if tt == "" {
			tt = "collection_logical_name"
			if h.col(tt) < 0 {
				tt = "collection_name"
			}
		}
		want = []string{"collection_id", tt}
	default:
		want = []string{"time", "type", "collection_id", "instance_index", "machine_id"}
	}
	cols, err := h.require(file, line, want...)
	if err != nil {
		return nil, nil, err
	}
	return cols, headerNames(h), nil
}

// headerNames lists a header's column names by position, for messages.
func headerNames(h header) []string {
	n := 0
	for _, i := range h {
		n = max(n, i+1)
	}
	names := make([]string, n)
	for name, i := range h {
		names[i] = name
	}
	return names
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func at(rec []string, i int) string {
	if i < 0 || i >= len(rec) {
		return ""
	}
	return rec[i]
}

// parseGoogleEvent reads an event type as a number or a name.
func parseGoogleEvent(s string) (int, bool) {
	s = strings.TrimSpace(s)
	if n, err := strconv.Atoi(s); err == nil {
		return n, n >= 0 && n < len(googleEvents)
	}
	i := slices.Index(googleEvents, strings.ToUpper(s))
	return i, i >= 0
}

// inTrace reports whether a time lies inside the trace window: 0 is "before"
// and 2^63-1 "after".
func inTrace(t float64) bool { return t > 0 && t < math.MaxInt64 }

func (g *googleImport) event(c cells, cols []int) error {
	t := c.number(cols[0], "time")
	if inTrace(t) { // 0 and 2^63-1 mark times outside the trace
		g.bound(&c, cols[0], "time", t)
	}
	typ, okType := parseGoogleEvent(at(c.rec, cols[1]))
	if c.ok() && !okType {
		c.fail(cols[1], "event type unknown")
	}
	coll := c.text(cols[2], "collection_id")
	idx := c.text(cols[3], "instance_index")
	if !c.ok() {
		g.bad(Skipped, c.reason, c.err)
		return nil
	}
	if !g.keepQuiet(coll) {
		if typ == gSubmit {
			g.res.SampledOut++
		}
		return nil
	}
	key := coll + "/" + idx
	p := g.pending[key]
	if p == nil && (typ == gSubmit || typ == gSchedule) {
		p = &googleInstance{coll: coll, submit: math.NaN(), sched: math.NaN()}
		g.pending[key] = p
	}
	switch typ {
	case gSubmit:
		if math.IsNaN(p.submit) && inTrace(t) {
			p.submit = t
		}
	case gSchedule:
		p.sched, p.machine = t, strings.TrimSpace(at(c.rec, cols[4]))
		if !inTrace(t) {
			p.sched = math.NaN()
			c.fail(cols[0], "SCHEDULE outside the trace window (time 0 or 2^63-1)")
			g.bad(NoLog, c.reason, c.err)
		}
	case gFinish:
		if p == nil || math.IsNaN(p.sched) {
			c.fail(cols[1], "FINISH without an earlier SCHEDULE")
			g.bad(NoLog, c.reason, c.err)
			return nil
		}
		delete(g.pending, key)
		return g.finish(c, cols, key, p, t)
	case gEvict, gFail, gKill, gLost:
		if p == nil {
			return nil
		}
		if !math.IsNaN(p.sched) {
			c.fail(cols[1], "run ended by "+googleEvents[typ])
			g.bad(NoLog, c.reason, c.err)
			p.sched = math.NaN()
		}
		if typ == gKill || typ == gLost { // final: the instance will not run again
			delete(g.pending, key)
			g.arrival(p, nil)
		}
	}
	return nil
}

// finish turns a SCHEDULE → FINISH run into a record and the instance's arrival.
func (g *googleImport) finish(c cells, cols []int, key string, p *googleInstance, end float64) error {
	tt, ok := g.types[p.coll]
	if !ok {
		c.fail(cols[2], "collection not in the collection events")
		g.bad(Skipped, c.reason, c.err)
		return nil
	}
	mt := g.platform[p.machine]
	switch {
	case !inTrace(end):
		c.fail(cols[0], "FINISH outside the trace window (2^63-1)")
	case end <= p.sched:
		c.fail(cols[0], "FINISH not after its SCHEDULE")
	case mt == "":
		c.fail(cols[4], "machine has no platform in the machine events")
	}
	if !c.ok() {
		g.bad(NoLog, c.reason, c.err)
		g.arrival(p, nil)
		return nil
	}
	rec := trace.LogRecord{TaskType: tt, MachineType: mt, ExecTime: (end - p.sched) * g.srcScale, TaskID: key,
		MachineID: p.machine, Start: p.sched * g.srcScale, End: end * g.srcScale}
	if math.IsNaN(p.submit) {
		c.fail(cols[2], "submitted before the trace window (time 0)")
		if !g.inWindow(rec.Start) {
			return nil
		}
		g.bad(NoArrival, c.reason, c.err)
		return g.log(rec)
	}
	if g.arrival(p, map[string]float64{mt: rec.ExecTime}) {
		return g.log(rec)
	}
	return nil
}

// arrival adds the instance's arrival when its submit time and task type are
// known and it lies in the window.
func (g *googleImport) arrival(p *googleInstance, observed map[string]float64) bool {
	tt, ok := g.types[p.coll]
	if !ok || math.IsNaN(p.submit) {
		return false
	}
	a := p.submit * g.srcScale
	if !g.inWindow(a) {
		return false
	}
	g.task(tt, a, p.coll, observed)
	return true
}

// flush adds the arrivals of instances that never finished inside the trace.
func (g *googleImport) flush(file string) error {
	keys := make([]string, 0, len(g.pending))
	for k := range g.pending {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, natural.Compare)
	for _, k := range keys {
		if g.arrival(g.pending[k], nil) {
			g.bad(NoLog, "no FINISH inside the trace (still pending or running at its end)",
				&trace.InputError{File: file, Column: "collection_id/instance_index", Value: k, HasValue: true,
					Msg: fmt.Sprintf("instance %s", k)})
		}
	}
	return nil
}
