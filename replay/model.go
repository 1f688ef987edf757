package replay

import (
	"fmt"
	"math"
	"strings"

	"github.com/hcreplay/hcreplay/pmf"
)

// Task is one arriving task. Type indexes the PET's task types.
type Task struct {
	ID       int64
	Type     int
	Arrival  float64
	Deadline float64
	// Observed durations per machine type (indexed like the PET's machine types), when the trace
	// has them; NaN or a short slice means "sample from the truth PET".
	Observed []float64
}

// Machine is one machine of the catalog, after counts are expanded.
type Machine struct {
	Name         string
	Type         int     // index into the PET's machine types
	PricePerHour float64 // currency units per hour of busy time
	PowerWatts   float64 // rated power
}

// PET is what the engine needs of a PET matrix: one execution-time PMF per (task type, machine
// type), all on one step.
type PET interface {
	Cell(taskType, machineType int) pmf.PMF
}

// Status is how a task left the system.
type Status int

const (
	OnTime          Status = iota // finished at or before its deadline
	Late                          // finished after its deadline (drop models pending and none)
	DroppedDeadline               // mapped, then dropped or killed at its deadline
	DroppedPruned                 // dropped by the pruner
	ExpiredUnmapped               // never mapped; its deadline passed in the batch queue
	Unfinished                    // still in the system when the replay ended
	numStatus
)

var statusNames = [...]string{"on_time", "late", "dropped_deadline", "dropped_pruned", "expired_unmapped", "unfinished"}

func (s Status) String() string {
	if s < 0 || s >= numStatus {
		return fmt.Sprintf("Status(%d)", int(s))
	}
	return statusNames[s]
}

// Mode says how a heuristic maps: batch heuristics fill bounded machine queues from a batch at
// mapping events; immediate heuristics map every task when it arrives, to unbounded queues.
type Mode int

const (
	Batch Mode = iota
	Immediate
)

func (m Mode) String() string {
	if m == Immediate {
		return "immediate"
	}
	return "batch"
}

// Options are the replay's knobs (SPEC §5.1).
type Options struct {
	QueueSize        int       // batch mode: tasks per machine, the executing one included (default 6)
	DropModel        pmf.Model // what happens at a deadline (default evict)
	Strict           bool      // success is finishing strictly before the deadline
	ConditionElapsed bool      // condition the running task's PMF on "not finished yet" (default on)
	Trim             int       // tasks not scored at each end, by exit time (default 100)
	Seed             uint64    // common random numbers for durations
	// TimeUnitSeconds converts trace time to seconds for cost and energy (default 0.001: ms).
	TimeUnitSeconds float64
	// IdlePowerFraction and ActivePowerFraction of rated power (000 §9.7: 0.25 and 0.70).
	IdlePowerFraction, ActivePowerFraction float64
	// Engine computes the chances: "fast" (default; cached tables, no convolution per query)
	// or "reference" (every chain from scratch; the oracle), which make the same decisions, or
	// "approx", the journal paper's approximations (000 §7.2): PMFs merged into buckets of
	// ApproxBucket steps, queue completion PMFs cropped at the latest deadline in the batch when
	// ApproxCrop is set, success chances by Algorithm 1.
	Engine       string
	ApproxBucket int
	ApproxCrop   bool
	// OnTask, when set, receives every task outcome as soon as it is final, so that outcomes can
	// be streamed to disk; the Result then keeps none.
	OnTask func(Outcome)
}

// DefaultOptions returns SPEC §5.1's defaults.
func DefaultOptions() Options {
	return Options{
		Engine:              "fast",
		ApproxBucket:        2,
		ApproxCrop:          true,
		QueueSize:           6,
		DropModel:           pmf.Evict,
		ConditionElapsed:    true,
		Trim:                100,
		TimeUnitSeconds:     0.001,
		IdlePowerFraction:   0.25,
		ActivePowerFraction: 0.70,
	}
}

// Validate reports every option out of range, in one error; Run refuses such options.
func (o Options) Validate() error {
	var bad []string
	if o.QueueSize < 1 {
		bad = append(bad, fmt.Sprintf("queue size %d < 1", o.QueueSize))
	}
	if o.Engine != "" && o.Engine != "fast" && o.Engine != "reference" && o.Engine != "approx" {
		bad = append(bad, fmt.Sprintf("engine %q (want fast, reference or approx)", o.Engine))
	}
	if o.ApproxBucket < 0 {
		bad = append(bad, fmt.Sprintf("approximation bucket %d < 0", o.ApproxBucket))
	}
	if o.Trim < 0 {
		bad = append(bad, fmt.Sprintf("trim %d < 0", o.Trim))
	}
	if !(o.TimeUnitSeconds > 0) || math.IsInf(o.TimeUnitSeconds, 0) {
		bad = append(bad, fmt.Sprintf("time unit %v s", o.TimeUnitSeconds))
	}
	for _, f := range []float64{o.IdlePowerFraction, o.ActivePowerFraction} {
		if f < 0 || f > 1 || math.IsNaN(f) {
			bad = append(bad, fmt.Sprintf("power fraction %v outside [0, 1]", f))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("replay options: %s", strings.Join(bad, "; "))
	}
	return nil
}

// Outcome is what happened to one task.
type Outcome struct {
	Task      Task
	Status    Status
	Machine   int     // index into the machine list; -1 if never mapped
	MapTime   float64 // NaN if never mapped
	Start     float64 // NaN if never started
	End       float64 // when it left the system: finished, dropped or expired
	Predicted float64 // success chance predicted when it was mapped; NaN if never mapped
	Deferred  int     // mapping events at which it was deferred
	Scored    bool    // not trimmed
}
