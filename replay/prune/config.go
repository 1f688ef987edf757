package prune

import (
	"fmt"
	"math"
	"strconv"
	"strings"

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
}

// ParseDeferRule reads static:T, gap:G or dynamic:C.
func ParseDeferRule(s string) (DeferRule, error) {
	kind, val, ok := strings.Cut(s, ":")
	v, err := strconv.ParseFloat(val, 64)
	if !ok || err != nil || math.IsNaN(v) || v < 0 || v > 1 || (kind != "static" && kind != "gap" && kind != "dynamic") {
		return DeferRule{}, fmt.Errorf("deferring rule %q: want static:T, gap:G or dynamic:C with a number in [0, 1]", s)
	}
	return DeferRule{Kind: kind, Value: v}, nil
}

func (d DeferRule) String() string { return fmt.Sprintf("%s:%g", d.Kind, d.Value) }

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
	case !(c.Rho >= 0) || math.IsInf(c.Rho, 1):
		return fmt.Errorf("pruning: ρ %v must be finite and ≥ 0", c.Rho)
	}
	return c.fatal()
}
