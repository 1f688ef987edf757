package replay

import (
	"fmt"
	"strconv"
)

// DefaultMaxBatch is the default of BatchLimit's limit (the CLI's --max-batch). A batch-mode
// heuristic's mapping event compares every task of its batch with every other: MM on 2 machine
// types took 0.95 s for 5,000 tasks arriving at once and 12 s for 20,000 (hcreplay replay -H MM
// on a generated CSV); 2,000,000 did not finish in 120 s past 2.6 GB (issue 49).
const DefaultMaxBatch = 10_000

// BatchLimit counts the tasks of a trace arriving at one instant, in file order, and refuses
// more than its limit: a trace that would make one mapping event take hours is the user's to
// spread out, not the engine's to grind through. The zero BatchLimit has no limit.
type BatchLimit struct {
	max  int // 0 or negative: no limit
	at   float64
	n    int
	name string
}

// NewBatchLimit counts the arrivals of the trace so named (for messages); limit 0 means
// DefaultMaxBatch, a negative limit none.
func NewBatchLimit(name string, limit int) *BatchLimit {
	if limit == 0 {
		limit = DefaultMaxBatch
	}
	return &BatchLimit{max: limit, name: name}
}

// Add counts a task arriving at t, the arrivals given in order; an error once more than the
// limit arrive at one instant. The message names --max-batch, the flag that raises the limit.
func (b *BatchLimit) Add(t float64) error {
	if b.n > 0 && t == b.at { // exact: a batch is the tasks the trace gives one arrival time
		b.n++
	} else {
		b.at, b.n = t, 1
	}
	if b.max > 0 && b.n > b.max {
		return fmt.Errorf("%s: more than %d tasks arrive at time %s: a mapping event's time grows as the square of its batch "+
			"(20,000 took 12 s with MM on 2 machine types); spread the arrivals, or raise --max-batch (0: no limit)",
			b.name, b.max, strconv.FormatFloat(b.at, 'g', -1, 64))
	}
	return nil
}
