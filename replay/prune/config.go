package prune

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
)

// Variant says which kinds of pruning a heuristic gets.
type Variant int

const (
	None  Variant = iota // X
	Defer                // X-D
	Drop                 // X-Drop
	Both                 // X-P
)

var variantNames = [...]string{"none", "defer", "drop", "both"}
var variantSuffix = [...]string{"", "-D", "-Drop", "-P"}

func (v Variant) String() string { return variantNames[v] }

// Suffix is the thesis's name suffix: "", "-D", "-Drop" or "-P".
func (v Variant) Suffix() string { return variantSuffix[v] }

func (v Variant) drops() bool  { return v == Drop || v == Both }
func (v Variant) defers() bool { return v == Defer || v == Both }

// ParseVariant reads none, defer, drop or both.
func ParseVariant(s string) (Variant, error) {
	for i, n := range variantNames {
		if strings.EqualFold(s, n) {
			return Variant(i), nil
		}
	}
	return 0, fmt.Errorf("pruning variant %q: want none, defer, drop or both", s)
}

// Toggle decides when dropping is engaged, from the oversubscription level d.
type Toggle struct {
	Kind    string  // "always", "never", "threshold" or "schmitt"
	On, Off float64 // threshold: On; schmitt: engage at d ≥ On, release at d ≤ Off
}

// ParseToggle reads always, never, threshold:T or schmitt:ON:OFF (schmitt:ON alone puts OFF at
// 0.8·ON, the 20% separation of 000 §5.4).
func ParseToggle(s string) (Toggle, error) {
	parts := strings.Split(s, ":")
	bad := fmt.Errorf("toggle %q: want always, never, threshold:T or schmitt:ON[:OFF]", s)
	nums := make([]float64, len(parts)-1)
	for i, p := range parts[1:] {
		v, err := strconv.ParseFloat(p, 64)
		if err != nil || v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return Toggle{}, bad
		}
		nums[i] = v
	}
	switch {
	case parts[0] == "always" && len(nums) == 0:
		return Toggle{Kind: "always"}, nil
	case parts[0] == "never" && len(nums) == 0:
		return Toggle{Kind: "never"}, nil
	case parts[0] == "threshold" && len(nums) == 1:
		return Toggle{Kind: "threshold", On: nums[0]}, nil
	case parts[0] == "schmitt" && len(nums) == 1:
		return Toggle{Kind: "schmitt", On: nums[0], Off: 0.8 * nums[0]}, nil
	case parts[0] == "schmitt" && len(nums) == 2 && nums[1] <= nums[0]:
		return Toggle{Kind: "schmitt", On: nums[0], Off: nums[1]}, nil
	}
	return Toggle{}, bad
}

func (t Toggle) String() string {
	switch t.Kind {
	case "threshold":
		return fmt.Sprintf("threshold:%g", t.On)
	case "schmitt":
		return fmt.Sprintf("schmitt:%g:%g", t.On, t.Off)
	}
	return t.Kind
}

// DeferRule sets the deferring threshold.
type DeferRule struct {
	Kind  string  // "static", "gap" or "dynamic"
	Value float64 // static: the threshold; gap: added to the dropping threshold; dynamic: c
	// Start is where the dynamic threshold starts ([IMPL]: 000 Eq 10 did not survive in any
	// source); 0 means the dropping threshold plus 0.25, where the default gap puts it.
	Start float64
}

// ParseDeferRule reads static:T, gap:G or dynamic:C[:START].
func ParseDeferRule(s string) (DeferRule, error) {
	kind, val, ok := strings.Cut(s, ":")
	start := ""
	if kind == "dynamic" {
		val, start, _ = strings.Cut(val, ":")
	}
	v, err := strconv.ParseFloat(val, 64)
	bad := !ok || err != nil || math.IsNaN(v) || v < 0 || v > 1 || (kind != "static" && kind != "gap" && kind != "dynamic")
	st := 0.0
	if start != "" {
		st, err = strconv.ParseFloat(start, 64)
		bad = bad || err != nil || !(st > 0 && st <= 1)
	}
	if bad {
		return DeferRule{}, fmt.Errorf("deferring rule %q: want static:T, gap:G or dynamic:C[:START] with numbers in [0, 1] (START above 0)", s)
	}
	return DeferRule{Kind: kind, Value: v, Start: st}, nil
}

func (d DeferRule) String() string {
	if d.Kind == "dynamic" && d.Start > 0 {
		return fmt.Sprintf("%s:%g:%g", d.Kind, d.Value, d.Start)
	}
	return fmt.Sprintf("%s:%g", d.Kind, d.Value)
}

// DeferPlace says where a retrofitted heuristic's deferring sits (thesis §4.5).
type DeferPlace int

const (
	// DeferAfter lets the heuristic choose its pairs from the whole batch, then defers, instead
	// of assigning, each pair whose chance on the chosen machine is at or below the deferring
	// threshold (thesis §4.5: "the heuristic is invoked and determines the best mapping … Prior
	// to assigning the tasks to machines, the tasks with low chance of success are deferred").
	// The slot a deferred pair would have taken stays free until the next event. The default.
	DeferAfter DeferPlace = iota
	// DeferBefore defers, before the heuristic sees the batch, every task that no machine with
	// a free slot gives a chance above the threshold, and turns each low-chance assignment into
	// a deferral as it is made, so the heuristic fills the slot with another task: PAM's own
	// ordering (thesis §4.3), applied to every heuristic.
	DeferBefore
	// DeferAfterRejudge is DeferAfter with each chosen pair judged, in the order the heuristic
	// chose them, against the queue it actually joins: the pairs deferred before it in the same
	// event are taken back first. Under DeferAfter a hopeless task at the head of a machine's
	// picks takes the pairs behind it down with it, since each was judged against a queue that
	// held the deferred task, and the machine idles until the next event. The thesis's "prior to
	// assigning the tasks to machines, the tasks with low chance of success are deferred" (§4.5)
	// reads either way: the chance of a task that is then assigned is its chance in the queue it
	// joins.
	DeferAfterRejudge
)

var placeNames = [...]string{"after", "before", "after-rejudge"}

func (d DeferPlace) String() string { return placeNames[d] }

// afterChoice reports whether the heuristic chooses from the whole batch and the deferral comes
// after its choice (DeferAfter, DeferAfterRejudge).
func (d DeferPlace) afterChoice() bool { return d == DeferAfter || d == DeferAfterRejudge }

// ParseDeferPlace reads after, before or after-rejudge.
func ParseDeferPlace(s string) (DeferPlace, error) {
	for i, n := range placeNames {
		if strings.EqualFold(s, n) {
			return DeferPlace(i), nil
		}
	}
	return 0, fmt.Errorf("deferral placement %q: want after (the thesis's retrofit), after-rejudge (the same, each pair judged in the queue it joins) or before (PAM's ordering for every heuristic)", s)
}

// RunningDrop says when the pruner's dropping phase may drop a machine's running task.
type RunningDrop int

const (
	// RunningEvict drops a running task only under the evict drop model, the one under which
	// executing tasks can be removed at all at their deadline. The default.
	RunningEvict RunningDrop = iota
	// RunningAlways drops it under every drop model: thesis Alg. 1 starts its dropping loop at
	// the executing task, whatever happens at a deadline.
	RunningAlways
	// RunningNever never drops a running task.
	RunningNever
)

var runningNames = [...]string{"evict", "always", "never"}

func (r RunningDrop) String() string { return runningNames[r] }

// ParseRunningDrop reads evict, always or never.
func ParseRunningDrop(s string) (RunningDrop, error) {
	for i, n := range runningNames {
		if strings.EqualFold(s, n) {
			return RunningDrop(i), nil
		}
	}
	return 0, fmt.Errorf("running-task dropping %q: want evict (only under --drop-model evict), always or never", s)
}

// may reports whether a running task may be dropped under drop model m.
func (r RunningDrop) may(m pmf.Model) bool {
	return r == RunningAlways || r == RunningEvict && m == pmf.Evict
}

// Config is the pruning configuration (SPEC §5.3).
type Config struct {
	Variant Variant
	Toggle  Toggle
	Lambda  float64 // weight of the current event in d_τ (000 Eq 11); 1 means no history
	// DropThreshold is the base dropping threshold θ (default 0.5); Rho weighs the skewness
	// and position adjustment of 000 Eq 7 (0 turns it off).
	DropThreshold, Rho float64
	Defer              DeferRule
	// Fairness is the sufferage factor ϑ of 000 §6.3.2 (0 turns fairness off).
	Fairness float64
	// DeferAt places a retrofitted heuristic's deferring before or after its choice (DeferPlace);
	// PAM defers between its phases either way.
	DeferAt DeferPlace
	// DropRunning says when the dropping phase may drop a running task (RunningDrop).
	DropRunning RunningDrop
	// SufferExpired counts a task that expires unmapped as unsuccessful in its type's
	// sufferage. The papers are silent (003 §V counts "an unsuccessful task", the thesis §6
	// "each time a task is dropped"); off by default, as it reproduces the journal's "a few
	// points" of robustness for PAMF best (docs/fidelity.md).
	SufferExpired bool
	// IsMiss says which exits count as deadline misses for the oversubscription level.
	IsMiss func(replay.Status) bool
}

// DefaultConfig is the pruning of the papers' main experiments: both kinds, dropping engaged
// after one miss since the last event (thesis §4.4.3: toggle 1, no history), dropping at 0.5
// (the base threshold of 000 §5.2), deferring at 0.75 (gap 0.25: the thesis's coupled 75%), no
// skewness adjustment, no fairness.
func DefaultConfig() Config {
	return Config{
		Variant:       Both,
		Toggle:        Toggle{Kind: "threshold", On: 1},
		Lambda:        1,
		DropThreshold: 0.5,
		Defer:         DeferRule{Kind: "gap", Value: 0.25},
		IsMiss:        DeadlineMiss,
	}
}

// DeadlineMiss counts tasks that left because their deadline passed (the [IMPL] default).
func DeadlineMiss(s replay.Status) bool {
	return s == replay.DroppedDeadline || s == replay.ExpiredUnmapped || s == replay.Late
}

func (c Config) validate() error {
	switch {
	case c.Lambda < 0 || c.Lambda > 1 || math.IsNaN(c.Lambda):
		return fmt.Errorf("pruning: λ %v outside [0, 1]", c.Lambda)
	case c.DropThreshold < 0 || c.DropThreshold > 1 || math.IsNaN(c.DropThreshold):
		return fmt.Errorf("pruning: dropping threshold %v outside [0, 1]", c.DropThreshold)
	case c.Fairness < 0 || c.Fairness > 1 || math.IsNaN(c.Fairness):
		return fmt.Errorf("pruning: fairness factor %v outside [0, 1]", c.Fairness)
	case c.DeferAt < DeferAfter || c.DeferAt > DeferAfterRejudge:
		return fmt.Errorf("pruning: deferral placement %d unknown", c.DeferAt)
	case c.DropRunning < RunningEvict || c.DropRunning > RunningNever:
		return fmt.Errorf("pruning: running-task dropping %d unknown", c.DropRunning)
	case !(c.Rho >= 0) || math.IsInf(c.Rho, 1):
		return fmt.Errorf("pruning: ρ %v must be finite and ≥ 0", c.Rho)
	}
	return c.fatal()
}
