package trace

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// RepairHCW19FirstArrival repairs a defect of the published HCW19 trials.
//
// The generator (convertWorkLoad.py) writes a provisional header
// "taskCount=2000;" without a newline, appends the tasks, then seeks back
// and overwrites the header with "taskCount=N;\n", which is one or two bytes
// longer when N has four or five digits. The extra bytes overwrite the start
// of the first task line, so its arrival lost its leading characters:
// arr19k_1.dat begins "99 10 176.42;" where the task arrived at 0.99, and
// arr3k_1.dat begins "6.47 0 191.9;" for 16.47. Those files read as "arrivals
// out of order" (316 of the 510 constant trials) or, silently, with one late
// or early task. Of the published files, 502 of the 510 constant and 102 of
// the 150 spiky trials need the repair (in the others only a leading zero was
// lost, which changes nothing).
//
// The deadline of that line is intact, and the generator's "prop" rule gives
// every task of a type the same slack (deadline − arrival). So the first task
// (ID 0, the first line of a .dat file) is repaired when the other tasks of
// its type agree on one slack, its own slack differs, and its written
// arrival is a suffix of the repaired one (as the overwrite implies). The
// trace is then re-sorted. It reports whether it changed anything.
//
// This is not done by the reader, which never alters data; call it
// explicitly for HCW19 files.
func RepairHCW19FirstArrival(tr *Trace) bool {
	first := slices.IndexFunc(tr.Tasks, func(t Task) bool { return t.ID == 0 })
	if first < 0 || !tr.Tasks[first].HasDeadline() {
		return false
	}
	t0 := tr.Tasks[first]
	slack, ok := commonSlack(tr.Tasks, t0.Type, first)
	if !ok || math.Abs(t0.Deadline-t0.Arrival-slack) <= 0.011 {
		return false
	}
	fixed := math.Round((t0.Deadline-slack)*100) / 100
	candidate := strconv.FormatFloat(fixed, 'f', 2, 64) // the generator wrote two decimals
	if fixed < 0 || !isDamagedForm(t0.Arrival, candidate) {
		return false
	}
	tr.Tasks[first].Arrival = fixed
	slices.SortStableFunc(tr.Tasks, func(a, b Task) int { return cmpFloat(a.Arrival, b.Arrival) })
	return true
}

// commonSlack returns the slack shared (within rounding) by the tasks of the
// type other than the one at skip.
func commonSlack(tasks []Task, typ string, skip int) (float64, bool) {
	n := 0
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, t := range tasks {
		if i == skip || t.Type != typ || !t.HasDeadline() {
			continue
		}
		s := t.Deadline - t.Arrival
		lo, hi = min(lo, s), max(hi, s)
		n++
	}
	if n < 2 || hi-lo > 0.011 {
		return 0, false
	}
	return (lo + hi) / 2, true
}

// isDamagedForm reports whether some way of writing v ("99", "6.5", "6.50",
// ".66") is a suffix of the original text, as losing leading bytes implies.
func isDamagedForm(v float64, original string) bool {
	for _, w := range []string{strconv.FormatFloat(v, 'f', -1, 64), strconv.FormatFloat(v, 'f', 2, 64)} {
		if strings.HasSuffix(original, w) || strings.HasSuffix(original, strings.TrimPrefix(w, "0")) {
			return true
		}
	}
	return false
}
