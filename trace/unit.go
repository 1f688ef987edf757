package trace

import (
	"fmt"
	"strings"
)

// Unit is a time unit. Every time value in this package (execution times,
// start and end stamps, arrivals, deadlines) is a float64 in one Unit, and
// every file the package writes records its unit (see WriteOptions).
type Unit string

// The supported units. Milliseconds are the default because the HCW19 study
// describes its execution times in ms.
const (
	Nanosecond  Unit = "ns"
	Microsecond Unit = "us"
	Millisecond Unit = "ms"
	Second      Unit = "s"
	Minute      Unit = "min"
	Hour        Unit = "h"
)

// DefaultUnit is the unit used when neither the caller nor the file says.
const DefaultUnit = Millisecond

var unitNanos = map[Unit]float64{
	Nanosecond:  1,
	Microsecond: 1e3,
	Millisecond: 1e6,
	Second:      1e9,
	Minute:      60e9,
	Hour:        3600e9,
}

// ParseUnit accepts the unit names above and a few common spellings
// ("µs", "sec", "m", "hr", ...). The empty string gives DefaultUnit.
func ParseUnit(s string) (Unit, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "":
		return DefaultUnit, nil
	case "ns", "nanosecond", "nanoseconds":
		return Nanosecond, nil
	case "us", "µs", "μs", "microsecond", "microseconds":
		return Microsecond, nil
	case "ms", "millisecond", "milliseconds":
		return Millisecond, nil
	case "s", "sec", "second", "seconds":
		return Second, nil
	case "min", "m", "minute", "minutes":
		return Minute, nil
	case "h", "hr", "hour", "hours":
		return Hour, nil
	}
	return "", fmt.Errorf("unknown time unit %q (want ns, us, ms, s, min or h)", s)
}

// orDefault returns u, or DefaultUnit when u is empty.
func (u Unit) orDefault() Unit {
	if u == "" {
		return DefaultUnit
	}
	return u
}

// Valid reports whether u is one of the supported units.
func (u Unit) Valid() bool {
	_, ok := unitNanos[u]
	return ok
}

// Factor returns the number that converts a value in unit u into unit to:
// v_to = v_u * u.Factor(to). Empty units mean DefaultUnit.
func (u Unit) Factor(to Unit) float64 {
	return unitNanos[u.orDefault()] / unitNanos[to.orDefault()]
}

// MaxSeconds bounds every time the package reads (arrivals, deadlines,
// execution times, start and end stamps), in seconds: 1e12 s is more than
// 30,000 years, three orders of magnitude above Unix times in seconds (1.7e9),
// so a larger value is corrupt. The importers (package trace/importers)
// report such rows as bad rows; the readers of logs and traces refuse the
// file with an InputError. Letting them through writes or replays a trace that spans millennia, or +Inf in a fine
// unit. Whether a time can be laid on a PET's grid is the replay's to check,
// as it depends on the grid's step.
const MaxSeconds = 1e12
