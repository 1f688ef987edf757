package trace

import (
	"fmt"
	"strconv"
	"strings"
)

// IsDat reports whether src is an HCW19 .dat arrival file, the format whose published trials
// carry the first-arrival defect that RepairHCW19FirstArrival repairs.
func IsDat(src Source) bool { return strings.HasSuffix(strings.ToLower(src.Name), ".dat") }

// ReadRepaired is the one place a trace read from a file becomes the trial every command sees:
// the published HCW19 trials lost the first characters of their first arrival to a generator
// bug (see RepairHCW19FirstArrival), and .dat files get it repaired. Replay, sweep, trace
// convert and trace stats all read through it, so that a trial gives the same result in any
// format it is converted to. It reports whether it repaired the trial, and passes on the
// reader's warnings (opt.Warn) but the one the repair explains.
func ReadRepaired(src Source, opt ReadOptions) (*Trace, bool, error) {
	return ReadRepairedInto(src, opt, nil)
}

// ReadRepairedInto is ReadRepaired with the trace's tasks in into's storage when it is large
// enough (its length is ignored): a caller that reads trials one after another and keeps none
// past the next lends each the storage of the one before. In a fresh 30-trial replay, each
// trial's tasks in new storage were a fifth of what the process allocated, and the heap it
// grew into is paid for a page fault at a time.
func ReadRepairedInto(src Source, opt ReadOptions, into []Task) (*Trace, bool, error) {
	var held []*InputError
	warn := opt.Warn
	opt.Warn = func(e *InputError) { held = append(held, e) }
	tr, err := readTrace(src, opt, into)
	if err != nil {
		return nil, false, err
	}
	repaired := IsDat(src) && RepairHCW19FirstArrival(tr)
	for _, e := range held {
		if !(repaired && isRepairedOrder(e)) && warn != nil {
			warn(e)
		}
	}
	return tr, repaired, nil
}

// isRepairedOrder reports whether a reader's warning is the one the HCW19 defect causes and
// its repair removes: the damaged first task (line 2) is the only one out of order, found at
// line 3.
func isRepairedOrder(e *InputError) bool {
	return e.Line == 3 && e.Column == "arrival" && strings.Contains(e.Msg, "(arrivals out of order); 1 of ")
}

// ReadRepairedTraces reads every trace a spec names (Expand) through ReadRepaired: the reading
// path of the commands that read whole traces without replaying them (trace convert, trace
// stats). The repairs of a set of trials are told to warn in one line, not one per file.
func ReadRepairedTraces(spec string, opt ReadOptions, warn func(string)) ([]*Trace, error) {
	srcs, err := Expand(spec)
	if err != nil {
		return nil, err
	}
	trs := make([]*Trace, 0, len(srcs))
	var repaired []string
	for _, src := range srcs {
		tr, fixed, err := ReadRepaired(src, opt)
		if err != nil {
			return nil, err
		}
		if fixed {
			repaired = append(repaired, tr.Name)
		}
		trs = append(trs, tr)
	}
	switch {
	case len(repaired) == 1:
		warn(fmt.Sprintf("%s: repaired the first task's arrival (HCW19 generator defect)", repaired[0]))
	case len(repaired) > 1:
		warn(fmt.Sprintf("%s: repaired the first task's arrival in %d of %d trials (HCW19 generator defect)", spec, len(repaired), len(srcs)))
	}
	return trs, nil
}

// DatIndexNote is a warning for when a .dat file's type indexes and a PET's task type names
// (types, in the PET's order, as ReadOptions.TypeIndex takes them) could be read two ways: the
// PET names some task type by a number that is not its position ("1" at index 0), so the .dat's
// "1" means the PET's second type here, not the type named "1". Empty otherwise.
func DatIndexNote(types []string) string {
	for i, name := range types {
		if _, err := strconv.Atoi(name); err == nil && name != strconv.Itoa(i) {
			return fmt.Sprintf(".dat task types are read as indexes into the PET's task types (0 is %q, 1 is %q, ...), "+
				"but the PET names type %q at index %d: if the .dat files mean the names, convert the PET so that "+
				"type k is named k, or give the trials as CSV with the names", types[0], types[min(1, len(types)-1)], name, i)
		}
	}
	return ""
}
