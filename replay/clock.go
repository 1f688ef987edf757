package replay

import "github.com/hcreplay/hcreplay/pmf"

// clock is the replay's one notion of "the same time" (package doc, "Time"). The chains count a
// time within pmf.Tolerance of a grid point as that point; clock makes the event loop and the
// deadline checks read times the same way, so that a finish at 111.71000000000001 and an arrival
// at 111.71 are one mapping event, and a task that ends a hair after its deadline by float
// rounding is on time, as its predicted chance counted it. Every comparison of two times in the
// engine goes through clock (TestTimesCompareThroughClock checks the source); comparisons of a
// time with itself (the same float, as an event's time with a later read of it) need none.
type clock struct{ tol float64 }

func newClock(step float64) clock { return clock{tol: pmf.Tolerance(step)} }

// atOrBefore reports whether time a is at or before time b: before it, or the same time.
func (c clock) atOrBefore(a, b float64) bool { return a <= b+c.tol }

// before reports whether time a is before time b and not the same time.
func (c clock) before(a, b float64) bool { return a < b-c.tol }
