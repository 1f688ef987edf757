package speculate

import (
	"fmt"
	"strconv"
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

// Limits on the options. Each keeps the quantities the simulator computes from an option finite
// and its work bounded; the values are far beyond the paper's settings.
const (
	// MaxCopiesPerTask caps r: P2's knapsack costs O(jobs · machines · r) per decision and stores
	// its choice in an int8, and 64 is eight times the paper's r = 8.
	MaxCopiesPerTask = 64
	// MaxGamma caps γ: P2 stops cloning long before γ = 1 (a clone at least doubles a task's
	// machine time to save less than its mean), so 10⁶ changes no decision and keeps
	// γ × machine time finite.
	MaxGamma = 1e6
	// MaxSigma caps σ: σ* is below 2 for every distribution (u* = 2·E[min(u*, X)] ≤ 2·E[X]),
	// and no Pareto copy exceeds 2⁵³·E[x], so 10¹⁶ > 2⁵³ already means "never back up", and
	// σ·E[x] stays finite.
	MaxSigma = 1e16
	// MaxEta caps η of the small-job test m < η·N/|χ| (the paper's 0.1): at 10⁶ every job of up
	// to MaxTasksPerJob tasks already passes whenever more machines are idle than jobs wait.
	MaxEta = 1e6
	// MaxXi caps ξ, which the test compares with a mean task time, at MaxTime: every job whose
	// mean is within MaxTime already passes.
	MaxXi = MaxTime
	// MaxWindow caps the auto strategy's load window: it keeps 32 bytes per job (32 MB at
	// most), and 10⁶ arrivals already span the whole of any paper workload (at most 60,000
	// jobs) and of the largest synthetic one (MaxSyntheticJobs).
	MaxWindow = 1_000_000
	// MinTimeUnitSeconds and MaxTimeUnitSeconds bound the seconds per time unit: a nanosecond
	// to about 30 years covers every unit a trace or PET uses, and keeps cost and energy (price
	// or power × time × unit) finite for times up to MaxTime's longest copies.
	MinTimeUnitSeconds, MaxTimeUnitSeconds = 1e-9, 1e9
	// MaxSlotIndex caps the number of the slot boundary k of a time t = k·Slot: beyond 2⁵²
	// consecutive boundaries k·Slot and (k+1)·Slot are no longer distinct float64 numbers, so
	// the clock could not move from one to the next.
	MaxSlotIndex = 1 << 52
	// MaxSlotRange caps Slot at this multiple of the shortest mean task time: at the boundary
	// times of a longer slot a float64 would resolve a task time to fewer than
	// 2⁵²/10⁹ ≈ 4.5 million steps, and such a slot is one batch after the arrivals anyway.
	MaxSlotRange = 1e9
)

// RangeError reports an option or workload that is out of the range the simulator can run in
// bounded time and memory with meaningful numbers: the caller's input is at fault, not the
// simulator. Run returns it for slot lengths that only the workload can rule out.
type RangeError struct{ Msg string }

func (e *RangeError) Error() string { return e.Msg }

func rangeErrorf(format string, args ...any) error {
	return &RangeError{Msg: fmt.Sprintf(format, args...)}
}

// Validate reports the first option out of range, as a *RangeError.
func (o Options) Validate() error {
	in := func(v, hi float64) bool { return v >= 0 && v <= hi } // false for NaN
	switch {
	case o.MaxCopies < 1 || o.MaxCopies > MaxCopiesPerTask:
		return rangeErrorf("at most %d copies per task: want 1..%d", o.MaxCopies, MaxCopiesPerTask)
	case !in(o.Gamma, MaxGamma):
		return rangeErrorf("γ (gamma) = %g: want 0 ≤ γ ≤ %g", o.Gamma, float64(MaxGamma))
	case !in(o.Sigma, MaxSigma):
		return rangeErrorf("σ (sigma) = %g: want 0 ≤ σ ≤ %g (0: σ* of each job)", o.Sigma, float64(MaxSigma))
	case !in(o.Eta, MaxEta):
		return rangeErrorf("η (eta) = %g: want 0 ≤ η ≤ %g", o.Eta, float64(MaxEta))
	case !in(o.Xi, MaxXi):
		return rangeErrorf("ξ (xi) = %g: want 0 ≤ ξ ≤ %g", o.Xi, float64(MaxXi))
	case !in(o.Slot, MaxTime):
		return rangeErrorf("slot length %g: want 0 (event-driven) or a positive length up to %g", o.Slot, float64(MaxTime))
	case !in(o.Horizon, MaxTime):
		return rangeErrorf("horizon %g: want 0 ≤ horizon ≤ %g", o.Horizon, float64(MaxTime))
	case !(o.Detect >= 0 && o.Detect < 1):
		return rangeErrorf("detection fraction %g: want 0 ≤ s < 1", o.Detect)
	case !(o.Delta > 0 && o.Delta < 1):
		return rangeErrorf("δ (Mantri) = %g: want 0 < δ < 1", o.Delta)
	case o.Window < 2 || o.Window > MaxWindow:
		return rangeErrorf("load window of %d jobs: want 2..%d", o.Window, MaxWindow)
	case o.Light != SCA && o.Light != SDA:
		return rangeErrorf("light-regime strategy %q: want SCA or SDA", o.Light)
	case !(o.TimeUnitSeconds >= MinTimeUnitSeconds && o.TimeUnitSeconds <= MaxTimeUnitSeconds):
		return rangeErrorf("time unit of %g s: want %g..%g s", o.TimeUnitSeconds, MinTimeUnitSeconds, MaxTimeUnitSeconds)
	}
	if _, err := ParseStrategy(string(o.Strategy)); err != nil {
		return &RangeError{Msg: err.Error()}
	}
	return nil
}

// TimeUnitName names a time unit of sec seconds as the outputs record it: "s", "ms", or the
// number of seconds followed by s ("60s", "0.25s") for a unit of no name of ours.
func TimeUnitName(sec float64) string {
	switch sec {
	case 1:
		return "s"
	case 0.001:
		return "ms"
	}
	return strconv.FormatFloat(sec, 'g', -1, 64) + "s"
}
