package speculate

import (
	"fmt"
	"math"
	"strings"
)

// Strategy names a speculation strategy.
type Strategy string

const (
	None   Strategy = "none"   // no speculation (002 Fig 5's "no backup"; reference §3.5)
	SCA    Strategy = "SCA"    // Smart Cloning Algorithm (002 Algorithm 1, §IV-B)
	SDA    Strategy = "SDA"    // Straggler Detection Algorithm (002 §V-B)
	ESE    Strategy = "ESE"    // Enhanced Speculative Execution (002 Algorithm 2, §VI-A)
	Mantri Strategy = "Mantri" // the paper's baseline (002 §II, §VI)
	Auto   Strategy = "auto"   // light regime: SCA (or SDA); heavy: ESE (002 §III, Eq 5)
)

// Strategies lists every strategy, in the order reports show them.
func Strategies() []Strategy { return []Strategy{None, SCA, SDA, ESE, Mantri, Auto} }

// ParseStrategy accepts a strategy name in any case.
func ParseStrategy(s string) (Strategy, error) {
	var names []string
	for _, st := range Strategies() {
		if strings.EqualFold(s, string(st)) {
			return st, nil
		}
		names = append(names, string(st))
	}
	return "", fmt.Errorf("unknown strategy %q: want one of %s", s, strings.Join(names, ", "))
}

// CopyRecord is one copy of a task, reported when it stops.
type CopyRecord struct {
	Job, Task, Copy int
	Machine         int
	Start, End      float64
	Killed          bool // stopped because a sibling finished first
}

// Options configure a run. The zero value of a field means its default (DefaultOptions).
type Options struct {
	Strategy Strategy
	// Gamma converts machine time into the paper's resource units (002 §III: 0.01).
	Gamma float64
	// MaxCopies is r, the most copies of one task (002 Fig 1: 8; unspecified in the
	// simulations, reference §6.2).
	MaxCopies int
	// Sigma is the straggler threshold of SDA and ESE in units of E[x]; 0 means σ* of each
	// job's distribution (BreakEvenSigma; 1 + √2/2 for Pareto α = 2).
	Sigma float64
	// Detect is SDA's detection fraction s: a task is judged once its first copy has done this
	// fraction of its work. The paper does not give it (reference §6.3).
	Detect float64
	// RetryDetection makes SDA back a detected straggler up at a later decision when no
	// machine was idle at the detection instant; by default it never does (reference §6.14).
	RetryDetection bool
	// Delta is Mantri's duplication probability threshold (002: 0.25).
	Delta float64
	// Eta and Xi are ESE's small-job test m < η·N/|χ| and E[x] < ξ (002 §VI-C2: 0.1 and 1).
	Eta, Xi float64
	// Slot is the decision period; 0 decides at every arrival and completion (event-driven
	// slots, reference §6.1).
	Slot float64
	// Window is how many recent job arrivals the auto strategy estimates the load from.
	Window int
	// Light is the auto strategy's light-regime strategy: SCA (default) or SDA.
	Light Strategy
	// Seed keys the copies' durations (common random numbers) and the random idle machine.
	Seed uint64
	// Horizon is the end of the arrival window, for the count of jobs unfinished at it; 0 means
	// the last arrival.
	Horizon float64
	// SmallJob is the most tasks of a "small" job in the small/large flowtime split.
	SmallJob int
	// TimeUnitSeconds is the length of one time unit in seconds, for cost and energy.
	TimeUnitSeconds float64
	// ActivePowerFraction and IdlePowerFraction of rated power (000 §9.7: 0.70 and 0.25).
	ActivePowerFraction, IdlePowerFraction float64
	// Durations, when set, gives every copy's duration instead of drawing it (tests).
	Durations func(job, task, copy, machineType int) float64
	// OnCopy, when set, receives every copy when it stops.
	OnCopy func(CopyRecord)
	// KeepJobs keeps one JobOutcome per job in the Result (the CDFs need them).
	KeepJobs bool
}

// DefaultOptions are the paper's parameters where it gives them and the proposed defaults of
// the reference notes where it does not.
func DefaultOptions() Options {
	return Options{Strategy: None, Gamma: 0.01, MaxCopies: 8, Detect: 0.1, Delta: 0.25, Eta: 0.1, Xi: 1,
		Window: 200, Light: SCA, Seed: 1, SmallJob: 10, TimeUnitSeconds: 1,
		ActivePowerFraction: 0.70, IdlePowerFraction: 0.25, KeepJobs: true}
}

// Validate reports the first option out of range.
func (o Options) Validate() error {
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v < 0 }
	switch {
	case o.MaxCopies < 1 || o.MaxCopies > 64:
		return fmt.Errorf("at most %d copies per task: want 1..64", o.MaxCopies)
	case bad(o.Gamma) || bad(o.Sigma) || bad(o.Slot) || bad(o.Eta) || bad(o.Xi) || bad(o.Horizon):
		return fmt.Errorf("gamma %g, sigma %g, slot %g, eta %g, xi %g and horizon %g must be finite and ≥ 0", o.Gamma, o.Sigma, o.Slot, o.Eta, o.Xi, o.Horizon)
	case !(o.Detect >= 0 && o.Detect < 1):
		return fmt.Errorf("detection fraction %g: want 0 ≤ s < 1", o.Detect)
	case !(o.Delta > 0 && o.Delta < 1):
		return fmt.Errorf("δ (Mantri) = %g: want 0 < δ < 1", o.Delta)
	case o.Window < 2:
		return fmt.Errorf("load window of %d jobs: want at least 2", o.Window)
	case o.Light != SCA && o.Light != SDA:
		return fmt.Errorf("light-regime strategy %q: want SCA or SDA", o.Light)
	case !(o.TimeUnitSeconds > 0):
		return fmt.Errorf("time unit of %g s: want > 0", o.TimeUnitSeconds)
	}
	_, err := ParseStrategy(string(o.Strategy))
	return err
}
