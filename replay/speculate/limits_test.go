package speculate

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/hcreplay/hcreplay/replay"
)

// TestValidateRanges: every numeric option out of its range is refused as a *RangeError naming
// the option, before it can overflow a result (γ, unit) or take unbounded memory (window).
func TestValidateRanges(t *testing.T) {
	tests := []struct {
		name string
		set  func(*Options)
		want string
	}{
		{"huge gamma", func(o *Options) { o.Gamma = 1e308 }, "γ"},
		{"NaN gamma", func(o *Options) { o.Gamma = math.NaN() }, "γ"},
		{"huge sigma", func(o *Options) { o.Sigma = 1e308 }, "σ"},
		{"huge eta", func(o *Options) { o.Eta = 1e308 }, "η"},
		{"huge xi", func(o *Options) { o.Xi = 1e308 }, "ξ"},
		{"huge slot", func(o *Options) { o.Slot = 1e308 }, "slot length"},
		{"negative slot", func(o *Options) { o.Slot = -1 }, "slot length"},
		{"huge horizon", func(o *Options) { o.Horizon = 1e308 }, "horizon"},
		{"huge window", func(o *Options) { o.Window = 999999999999 }, "load window"},
		{"infinite unit", func(o *Options) { o.TimeUnitSeconds = math.Inf(1) }, "time unit"},
		{"tiny unit", func(o *Options) { o.TimeUnitSeconds = 1e-308 }, "time unit"},
		{"too many copies", func(o *Options) { o.MaxCopies = 65 }, "copies per task"},
		{"no strategy", func(o *Options) { o.Strategy = "" }, "unknown strategy"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions()
			tc.set(&o)
			err := o.Validate()
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, new(*RangeError)) {
				t.Errorf("Validate() = %v, want a *RangeError mentioning %q", err, tc.want)
			}
		})
	}
	if err := DefaultOptions().Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
}

// TestSyntheticCheck: a synthetic workload whose times would overflow or lose all resolution,
// or whose size would exhaust memory or time, is refused before anything is generated.
func TestSyntheticCheck(t *testing.T) {
	tests := []struct {
		name string
		set  func(*SyntheticOptions)
		want string
	}{
		{"huge alpha", func(o *SyntheticOptions) { o.Alpha = 1e308 }, "α"},
		{"huge mean", func(o *SyntheticOptions) { o.MaxMean = 1e308 }, "mean task time"},
		{"NaN mean", func(o *SyntheticOptions) { o.MaxMean = math.NaN() }, "mean task time"},
		{"tiny mean", func(o *SyntheticOptions) { o.MinMean = 1e-308 }, "mean task time"},
		{"mean range", func(o *SyntheticOptions) { o.MinMean, o.MaxMean = 1e-6, 1e6 }, "shortest mean"},
		{"horizon range", func(o *SyntheticOptions) { o.Rate, o.Horizon = 1e-9, 1e11 }, "shortest mean"},
		{"huge tasks", func(o *SyntheticOptions) { o.MaxTasks = 999999999999 }, "tasks per job"},
		{"too many tasks", func(o *SyntheticOptions) { o.MaxTasks = 1_000_000 }, "expected tasks"},
		{"too many jobs", func(o *SyntheticOptions) { o.Rate = 1e4 }, "expected jobs"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := PaperWorkload(6, 1)
			tc.set(&o)
			w, err := Synthetic(o)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, new(*RangeError)) {
				t.Errorf("Synthetic() = %d jobs, %v; want a *RangeError mentioning %q", len(w.jobsOrNil()), err, tc.want)
			}
		})
	}
}

func (w *Workload) jobsOrNil() []Job {
	if w == nil {
		return nil
	}
	return w.Jobs
}

// TestRunSlot: slot lengths the workload cannot be simulated with are refused as
// *RangeErrors; any other slot finishes in time proportional to the events, however short
// (1e-9: 10¹¹ boundaries), and a slot whose boundaries round (0.3, 0.1) decides once per
// boundary.
// A very short slot decides as soon as the event-driven run does, so with none, SCA and SDA
// their flowtimes agree (ESE, Mantri and auto also back up, one slot after a start, the
// copies just started, which the event-driven run leaves to the next event).
func TestRunSlot(t *testing.T) {
	w, err := Synthetic(SyntheticOptions{Rate: 2, Horizon: 50, MinTasks: 1, MaxTasks: 20, MinMean: 1, MaxMean: 4, Alpha: 2, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	machines := make([]replay.Machine, 100)
	run := func(st Strategy, slot float64) (*Result, error) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		o := DefaultOptions()
		o.Strategy, o.Slot, o.KeepJobs = st, slot, false
		return Run(ctx, w, machines, o)
	}
	for _, tc := range []struct {
		slot float64
		want string // error text; "" for a run that must finish
	}{
		{1e308, "slot length"},
		{1e10, "shortest mean"},
		{1e-308, "too short"},
		{0.3, ""},
		{0.1, ""},
		{1e-9, ""},
	} {
		for _, st := range Strategies() {
			res, err := run(st, tc.slot)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, new(*RangeError)) {
					t.Errorf("%s, slot %g: %v, want a *RangeError mentioning %q", st, tc.slot, err, tc.want)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s, slot %g: %v", st, tc.slot, err)
				continue
			}
			if bound := float64(res.Summary.Span)/tc.slot + 2; float64(res.Summary.Epochs) > bound {
				t.Errorf("%s, slot %g: %d decision epochs, more than the %g slot boundaries from the first arrival to the last finish (a boundary decided twice)",
					st, tc.slot, res.Summary.Epochs, bound)
			}
			if tc.slot > 1e-6 {
				continue
			}
			base, err := run(st, 0)
			if err != nil {
				t.Fatal(err)
			}
			got, want := float64(res.Summary.FlowtimeMean), float64(base.Summary.FlowtimeMean)
			same := st == None || st == SCA || st == SDA
			if same && math.Abs(got-want) > 1e-6 || res.Summary.Epochs < int64(float64(res.Summary.Span)/tc.slot/2) {
				t.Errorf("%s, slot %g: flowtime %g over %d epochs, want %g (event-driven) over about span/slot = %g",
					st, tc.slot, got, res.Summary.Epochs, want, float64(res.Summary.Span)/tc.slot)
			}
		}
	}
}
