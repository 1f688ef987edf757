package trace

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"gonum.org/v1/gonum/stat/distuv"
)

// DefaultPeriod is the period P (in time units) of the oversubscription
// labels: "19k" means 19,000 tasks per P, a rate of 19000/P tasks per time
// unit.
//
// Why 88,200: the HCW19 generator (homer_refurb_file_gen.py) spreads
// NUM_TASKS tasks over Workload_duration × TIME_UNIT = 24.5 × 3600 = 88,200
// time units and then keeps the first 800 (trimNumArrivals.py), so its label
// is tasks per 88,200 units. The data agree: measured over the 30 trials of
// each of the 17 levels of constant.zip (rate = 799 / (last − first arrival)
// of the correctly parsed tasks), P = label / rate lies between 82,000 and
// 93,700 with a median of 89,200; at 19k the rate is 0.2106 per unit
// (P ≈ 90,200), against 19000/88200 = 0.2154. With this period a generated
// "19k" trial of 800 tasks spans about 3,700 units, as the real ones do
// (3,825 on average).
const DefaultPeriod = 88200.0

// LevelRate converts an oversubscription label ("19k", "19K", "19000",
// "2.5k") into a rate in tasks per time unit, given the period (0 means
// DefaultPeriod).
func LevelRate(label string, period float64) (float64, error) {
	if period == 0 {
		period = DefaultPeriod
	}
	s := strings.TrimSpace(label)
	mult := 1.0
	if strings.HasSuffix(s, "k") || strings.HasSuffix(s, "K") {
		mult, s = 1000, s[:len(s)-1]
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) || !(period > 0) {
		return 0, fmt.Errorf("oversubscription level %q: want a positive number of tasks per period, e.g. 19k", label)
	}
	return v * mult / period, nil
}

// Pattern is the shape of the arrival rate over time.
type Pattern string

const (
	// Constant keeps the rate steady.
	Constant Pattern = "constant"
	// Spiky alternates on-peak and off-peak periods (000 §10: "within each
	// time interval, the task arrival rate switches between on-peak and
	// off-peak periods"), with the same mean rate as Constant.
	Spiky Pattern = "spiky"
)

// SpikyShape describes the spiky pattern: a cycle of OnDuration time units at
// the on-peak rate, then OffDuration units at the off-peak rate, repeated from
// time 0; the on-peak rate is PeakRatio times the off-peak one, and both are
// scaled so that the mean over a cycle is the configured rate.
//
// The defaults are the mid-points of the ranges in the original spiky
// generator (homer_refurb_file_gen_spike.py with TIME_UNIT=720): high
// intervals of 0.125–0.15 × 720 (mid 99), base intervals of 0.5–0.6 × 720
// (mid 396), rate factors 2.1–2.25 and 0.7–0.75 of the mean (ratio 3). That
// script draws a separate schedule for every task type; we use one schedule
// for all types, so that the spikes are system-wide.
type SpikyShape struct {
	OnDuration  float64
	OffDuration float64
	PeakRatio   float64
}

// DefaultSpiky returns the default spiky shape.
func DefaultSpiky() SpikyShape { return SpikyShape{OnDuration: 99, OffDuration: 396, PeakRatio: 3} }

// factors returns the on-peak and off-peak multipliers of the mean rate.
func (s SpikyShape) factors() (on, off float64) {
	off = (s.OnDuration + s.OffDuration) / (s.PeakRatio*s.OnDuration + s.OffDuration)
	return s.PeakRatio * off, off
}

// GenConfig describes synthetic arrival trials (000 §8.2, thesis §3.4.2).
//
// Each task type has its own stream of arrivals whose inter-arrival times
// are gamma distributed with mean 1/(Rate·w) for the type's share w of the
// mix, and the streams are merged. The papers say the variance of the gamma
// "is 10% of the mean"; we read that literally as var = 0.1 × mean (in time
// units), the default (VarianceRatio). That makes the streams very regular: at
// 19k with 12 types the mean is about 56 units and the coefficient of
// variation sqrt(0.1/56) ≈ 0.04. The other reading, a coefficient of
// variation of 0.1, is CV: 0.1. Note that the HCW19 files were not made this
// way: their generator draws exponential inter-arrivals (CV 1) around
// sinusoidally modulated rates, and "variance 10% of the mean" there is the
// spread of the number of tasks per type; the per-type inter-arrival CV in
// constant.zip is 1.03–1.19. Use CV: 1 for trials that resemble those files.
//
// Every stream starts in its stationary state (the first arrival is drawn
// from the forward-recurrence distribution), so that regular streams of
// different types are not in phase at time 0.
//
// The spiky pattern warps time: arrivals are generated as above in
// "operational time" and mapped through the inverse of the cumulative rate
// profile, so the on-peak periods are denser by their factor.
type GenConfig struct {
	Types   []string  // task type names, required
	Weights []float64 // relative share of each type; nil means uniform
	Rate    float64   // mean arrival rate of all types together, tasks per time unit (see LevelRate)
	Tasks   int       // tasks per trial; 0 means 800, as in HCW19
	// VarianceRatio sets var = VarianceRatio × mean for the inter-arrival
	// times, both in Unit (so the resulting CV depends on the unit and the
	// rate); 0 means 0.1. Ignored when CV is set.
	VarianceRatio float64
	CV            float64 // coefficient of variation of the inter-arrival times, if > 0
	Pattern       Pattern // "" means Constant
	Spiky         SpikyShape
	Seed          uint64
	Unit          Unit          // unit of the times; "" means ms
	Deadline      *DeadlineRule // nil: no deadlines
	Means         TypeMeans     // inputs of the deadline rule
}

// MaxGenTasks is the most tasks a generated trial may have: a trial is made in memory before
// it is written or replayed, and ten million tasks take about half a gigabyte.
const MaxGenTasks = 10_000_000

// MaxGenRate is the highest arrival rate, in tasks per time unit. A billion
// arrivals per unit is beyond any workload even in nanoseconds; much higher
// rates make the gamma parameters of the inter-arrival times underflow
// (a rate of 1e308 gives a shape of 0, which the gamma sampler rejects).
const MaxGenRate = 1e9

// MaxGenSpan bounds the expected length of a trial, Tasks/Rate time units,
// and so sets the lowest rate. Times are float64, whose spacing exceeds one
// unit past 2^53 ≈ 9e15: beyond 1e15 units, execution times added to the
// arrivals are rounded away (and a period of 1e308 makes arrivals +Inf).
const MaxGenSpan = 1e15

// MaxGenTrials is the most trials GenerateTrials makes, and the most the
// command line makes in one invocation: each trial is a file, the papers use
// 30 per level, and ten thousand files (ten seconds of work at the default
// size) are more than any folder or sweep of them handles comfortably.
const MaxGenTrials = 10_000

func (c *GenConfig) normalize() error {
	if len(c.Types) == 0 {
		return errors.New("generate: no task types")
	}
	seen := map[string]bool{}
	for _, t := range c.Types {
		if t == "" || seen[t] {
			return fmt.Errorf("generate: task type names must be non-empty and distinct (%q)", t)
		}
		seen[t] = true
	}
	if c.Weights == nil {
		c.Weights = make([]float64, len(c.Types))
		for i := range c.Weights {
			c.Weights[i] = 1
		}
	}
	if len(c.Weights) != len(c.Types) {
		return fmt.Errorf("generate: %d weights for %d types", len(c.Weights), len(c.Types))
	}
	total := 0.0
	for _, w := range c.Weights {
		if !(w >= 0) || math.IsInf(w, 0) {
			return fmt.Errorf("generate: weight %v is not a non-negative number", w)
		}
		total += w
	}
	if !(total > 0) {
		return errors.New("generate: the weights sum to zero")
	}
	if c.Tasks == 0 {
		c.Tasks = 800
	}
	if c.Tasks < 0 || c.Tasks > MaxGenTasks {
		return fmt.Errorf("generate: %d tasks per trial: want 1 to %d (a trial is made in memory)", c.Tasks, MaxGenTasks)
	}
	if minRate := float64(c.Tasks) / MaxGenSpan; !(c.Rate >= minRate && c.Rate <= MaxGenRate) {
		return fmt.Errorf("generate: rate %v tasks per time unit: want %g to %g (%d tasks must span at most %g time units)",
			c.Rate, minRate, MaxGenRate, c.Tasks, MaxGenSpan)
	}
	if c.VarianceRatio == 0 {
		c.VarianceRatio = 0.1
	}
	if !(c.VarianceRatio > 0) || math.IsInf(c.VarianceRatio, 1) {
		return fmt.Errorf("generate: variance ratio %v must be positive and finite", c.VarianceRatio)
	}
	if !(c.CV >= 0) || math.IsInf(c.CV, 1) {
		return fmt.Errorf("generate: coefficient of variation %v must be finite and ≥ 0", c.CV)
	}
	if c.Pattern == "" {
		c.Pattern = Constant
	}
	switch c.Pattern {
	case Constant:
	case Spiky:
		if c.Spiky == (SpikyShape{}) {
			c.Spiky = DefaultSpiky()
		}
		s := c.Spiky
		if !(s.OnDuration > 0) || !(s.OffDuration > 0) || !(s.PeakRatio >= 1) || math.IsInf(s.OnDuration+s.OffDuration+s.PeakRatio, 0) {
			return fmt.Errorf("generate: spiky shape %+v needs positive durations and a peak ratio ≥ 1", s)
		}
	default:
		return fmt.Errorf("generate: unknown pattern %q (want constant or spiky)", c.Pattern)
	}
	if c.Unit == "" {
		c.Unit = DefaultUnit
	}
	if !c.Unit.Valid() {
		return fmt.Errorf("generate: invalid unit %q", c.Unit)
	}
	if c.Deadline != nil {
		if err := c.Deadline.Validate(); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
	}
	return c.checkGamma()
}

// gamma returns the shape and rate of the inter-arrival times of type i.
func (c *GenConfig) gamma(i int, total float64) (shape, rate float64) {
	mean := total / (c.Weights[i] * c.Rate)
	variance := c.VarianceRatio * mean
	if c.CV > 0 {
		variance = c.CV * c.CV * mean * mean
	}
	return mean * mean / variance, mean / variance
}

// checkGamma refuses gamma parameters the sampler cannot use: a shape or rate
// that is not a positive, finite, normal float (an extreme rate, weight, CV
// or variance ratio makes them overflow or underflow; distuv.Gamma panics on
// a zero or NaN shape and divides by the shape when it is small).
func (c *GenConfig) checkGamma() error {
	total := 0.0
	for _, w := range c.Weights {
		total += w
	}
	for i, w := range c.Weights {
		if w == 0 {
			continue
		}
		shape, rate := c.gamma(i, total)
		if !normalPositive(shape) || !normalPositive(shape+1) || !normalPositive(rate) {
			return fmt.Errorf("generate: type %q: rate %v, weight %v, CV %v and variance ratio %v give inter-arrival times with gamma shape %v and rate %v, which cannot be sampled",
				c.Types[i], c.Rate, w, c.CV, c.VarianceRatio, shape, rate)
		}
	}
	return nil
}

// normalPositive reports whether x is a positive, finite, normal float64.
func normalPositive(x float64) bool { return x >= 0x1p-1022 && x <= math.MaxFloat64 }

// stream is the arrival process of one task type, in operational time.
type stream struct {
	typ  string
	gap  distuv.Gamma
	next float64
}

// Generate makes one trial. Trial t draws all its random numbers from
// rand.New(rand.NewPCG(cfg.Seed, t)), so trials are independent of each other
// and of how many are generated; number them from 1 like the HCW19 files.
func Generate(cfg GenConfig, trial int) (*Trace, error) {
	if err := cfg.normalize(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(trial)))
	streams := cfg.streams(rng)
	warp := cfg.warp()
	tr := &Trace{Name: fmt.Sprintf("trial %d", trial), Unit: cfg.Unit, Tasks: make([]Task, 0, cfg.Tasks)}
	for id := 0; id < cfg.Tasks; id++ {
		s := earliest(streams)
		a := warp(s.next)
		if !(a >= 0 && a <= math.MaxFloat64) {
			return nil, fmt.Errorf("generate: trial %d: task %d arrives at %v: the rate %v and pattern %s give no finite arrivals", trial, id, a, cfg.Rate, cfg.Pattern)
		}
		tr.Tasks = append(tr.Tasks, Task{ID: int64(id), Type: s.typ, Arrival: a, Deadline: math.NaN()})
		s.next += s.gap.Rand()
	}
	if cfg.Deadline != nil {
		// Deadline checks that each deadline is finite and not before its arrival.
		if err := AssignDeadlines(tr, *cfg.Deadline, cfg.Means, rng, true); err != nil {
			return nil, fmt.Errorf("generate: trial %d: %w", trial, err)
		}
	}
	return tr, nil
}

// GenerateTrials makes trials 1..n, all held in memory: n may be at most
// MaxGenTrials, and n times the tasks per trial at most MaxGenTasks.
func GenerateTrials(cfg GenConfig, n int) ([]*Trace, error) {
	if err := cfg.normalize(); err != nil {
		return nil, err
	}
	if n < 1 || n > MaxGenTrials || n > MaxGenTasks/cfg.Tasks {
		return nil, fmt.Errorf("generate: %d trials of %d tasks: want 1 to %d trials and at most %d tasks in all (they are held in memory)",
			n, cfg.Tasks, MaxGenTrials, MaxGenTasks)
	}
	out := make([]*Trace, 0, n)
	for t := 1; t <= n; t++ {
		tr, err := Generate(cfg, t)
		if err != nil {
			return nil, err
		}
		out = append(out, tr)
	}
	return out, nil
}

// streams sets up one gamma renewal stream per type with a positive weight.
func (c *GenConfig) streams(rng *rand.Rand) []*stream {
	total := 0.0
	for _, w := range c.Weights {
		total += w
	}
	var out []*stream
	for i, w := range c.Weights {
		if w == 0 {
			continue
		}
		shape, rate := c.gamma(i, total)
		s := &stream{typ: c.Types[i], gap: distuv.Gamma{Alpha: shape, Beta: rate, Src: rng}}
		// Stationary start: the forward-recurrence time of a renewal process
		// is U·X with X length-biased, which for Gamma(k, β) is Gamma(k+1, β).
		biased := distuv.Gamma{Alpha: shape + 1, Beta: rate, Src: rng}
		s.next = rng.Float64() * biased.Rand()
		out = append(out, s)
	}
	return out
}

func earliest(streams []*stream) *stream {
	best := streams[0]
	for _, s := range streams[1:] {
		if s.next < best.next {
			best = s
		}
	}
	return best
}

// warp maps operational time to real time: the identity for the constant
// pattern, the inverse cumulative rate profile for the spiky one.
func (c *GenConfig) warp() func(float64) float64 {
	if c.Pattern != Spiky {
		return func(s float64) float64 { return s }
	}
	on, off := c.Spiky.factors()
	don, doff := c.Spiky.OnDuration, c.Spiky.OffDuration
	cycle := don + doff // the mean factor is 1, so a cycle is as long in both times
	return func(s float64) float64 {
		k := math.Floor(s / cycle)
		rem := s - k*cycle
		if rem < on*don {
			return k*cycle + rem/on
		}
		return k*cycle + don + (rem-on*don)/off
	}
}

// ParsePattern reads "constant", "spiky", or "spiky:on=99,off=396,ratio=3"
// (any subset of the keys; the others keep DefaultSpiky's values).
func ParsePattern(s string) (Pattern, SpikyShape, error) {
	name, args, hasArgs := strings.Cut(strings.TrimSpace(s), ":")
	switch Pattern(strings.ToLower(name)) {
	case Constant:
		if hasArgs {
			return "", SpikyShape{}, fmt.Errorf("pattern %q: constant takes no parameters", s)
		}
		return Constant, SpikyShape{}, nil
	case Spiky:
		shape := DefaultSpiky()
		if !hasArgs {
			return Spiky, shape, nil
		}
		fields := map[string]*float64{"on": &shape.OnDuration, "off": &shape.OffDuration, "ratio": &shape.PeakRatio}
		for _, kv := range strings.Split(args, ",") {
			k, v, ok := strings.Cut(kv, "=")
			p, known := fields[strings.TrimSpace(k)]
			x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if !ok || !known || err != nil {
				return "", SpikyShape{}, fmt.Errorf("pattern %q: want spiky:on=D,off=D,ratio=R", s)
			}
			*p = x
		}
		if !(shape.OnDuration > 0) || !(shape.OffDuration > 0) || !(shape.PeakRatio >= 1) || math.IsInf(shape.OnDuration+shape.OffDuration+shape.PeakRatio, 0) {
			return "", SpikyShape{}, fmt.Errorf("pattern %q: durations must be positive and the ratio at least 1", s)
		}
		return Spiky, shape, nil
	}
	return "", SpikyShape{}, fmt.Errorf("unknown arrival pattern %q (want constant or spiky[:on=D,off=D,ratio=R])", s)
}

// CheckTrialPrefix refuses a trial file-name prefix that is not a plain
// name: one with a path separator, "." or "..", or a control character would
// put the trials outside their folder or fail only when the first is written.
func CheckTrialPrefix(prefix string) error {
	switch {
	case prefix == "" || prefix == "." || prefix == "..":
		return fmt.Errorf("trial file prefix %q: want a plain file name such as arr19k", prefix)
	case strings.ContainsAny(prefix, `/\`) || strings.ContainsFunc(prefix, unicode.IsControl):
		return fmt.Errorf("trial file prefix %q: want a plain file name without path separators or control characters", prefix)
	}
	return nil
}

// WriteTrials writes trial i of trials (numbered from 1) to
// dir/<prefix>_<i>.<ext>, the HCW19 naming ("arr19k_1.dat"), and returns the
// paths. For .dat output, opt.TypeIndex names the type indexes.
func WriteTrials(dir, prefix, ext string, trials []*Trace, opt WriteOptions) ([]string, error) {
	if err := CheckTrialPrefix(prefix); err != nil {
		return nil, err
	}
	paths := make([]string, 0, len(trials))
	for i, tr := range trials {
		p := filepath.Join(dir, fmt.Sprintf("%s_%d.%s", prefix, i+1, strings.TrimPrefix(ext, ".")))
		if err := WriteTrace(p, tr, opt); err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	return paths, nil
}
