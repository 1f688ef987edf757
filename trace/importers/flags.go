package importers

import (
	"fmt"
	"strings"

	"github.com/hcreplay/hcreplay/trace"
)

// Settings are an import's settings as trace import's flags give them, in text; the errors of
// Options name the flags.
type Settings struct {
	From                  string
	Sample                float64
	Seed                  uint64
	TaskType, MachineType string
	SourceUnit, TimeUnit  string
	TimeWindow            string // FROM:TO (ParseTimeWindow); "" for all
	Deadline              string // a rule of trace.ParseDeadlineRule, or none
	Samples               *int   // nil when not given
}

// Options checks the settings and returns them as Import takes them.
func (s Settings) Options() (Options, error) {
	opt := Options{Format: Format(s.From), Sample: s.Sample, Seed: s.Seed,
		TaskTypeField: s.TaskType, MachineTypeField: s.MachineType}
	var err error
	if opt.SamplesPerRow, err = s.samplesPerRow(); err != nil {
		return opt, err
	}
	if opt.Unit, err = trace.ParseUnit(s.TimeUnit); err != nil {
		return opt, err
	}
	if s.SourceUnit != "" {
		if opt.SourceUnit, err = trace.ParseUnit(s.SourceUnit); err != nil {
			return opt, err
		}
	}
	if s.Sample <= 0 || s.Sample > 1 {
		return opt, fmt.Errorf("--sample %v: want a fraction in (0, 1]", s.Sample)
	}
	if s.TimeWindow != "" {
		if opt.WindowFrom, opt.WindowTo, err = ParseTimeWindow(s.TimeWindow); err != nil {
			return opt, fmt.Errorf("--time-window: %w", err)
		}
	}
	if !strings.EqualFold(s.Deadline, "none") && s.Deadline != "" {
		rule, err := trace.ParseDeadlineRule(s.Deadline)
		if err != nil {
			return opt, fmt.Errorf("--deadline: %w", err)
		}
		opt.Deadline = &rule
	}
	return opt, nil
}

// samplesPerRow checks Samples. Only azure-functions has duration rows to sample; given with
// another format it would change nothing, which a user who typed it would not expect, so it is
// refused rather than ignored.
func (s Settings) samplesPerRow() (int, error) {
	if s.Samples == nil {
		return 0, nil
	}
	if Format(s.From) != AzureFunctions {
		return 0, fmt.Errorf("--samples applies only to --from %s, not %s", AzureFunctions, s.From)
	}
	if n := *s.Samples; n < 1 || n > MaxSamplesPerRow {
		return 0, fmt.Errorf("--samples %d: want 1 to %d execution-time samples per duration row", n, MaxSamplesPerRow)
	}
	return *s.Samples, nil
}
