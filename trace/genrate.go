package trace

import (
	"cmp"
	"fmt"
	"math"
	"strings"
)

// RateSpec is how generated trials get their arrival rate, as trace gen's flags give it: an
// offered Load on the machines, a Rate, or else a Level label over Period (LevelRate); Load and
// Rate are nil when not given. The errors name the flags.
type RateSpec struct {
	Level      string
	Period     float64
	Rate, Load *float64
}

// Arrivals returns the arrival rate and the default file-name prefix that names it (load1.5,
// rate0.2, arr19k); perRate is the offered load of a rate of one task per time unit, which
// turns a Load into a rate.
func (s RateSpec) Arrivals(perRate float64) (float64, string, error) {
	// --period defaults to 88200, so 0 can only be given on purpose, and
	// LevelRate would read it as "the default".
	if !(s.Period > 0) || math.IsInf(s.Period, 0) {
		return 0, "", fmt.Errorf("--period %v: want a positive number of time units", s.Period)
	}
	if s.Load != nil {
		if s.Rate != nil {
			return 0, "", fmt.Errorf("--load %v and --rate %v both set the arrival rate: give one", *s.Load, *s.Rate)
		}
		if !(*s.Load > 0) || math.IsInf(*s.Load, 0) {
			return 0, "", fmt.Errorf("--load %v: want a positive utilisation (1 keeps the machines just busy)", *s.Load)
		}
		if !(perRate > 0) {
			return 0, "", fmt.Errorf("--load %v: the PET's mean execution time is 0, so no rate gives a load", *s.Load)
		}
		return *s.Load / perRate, fmt.Sprintf("load%g", *s.Load), nil
	}
	if s.Rate != nil {
		if !(*s.Rate > 0) || math.IsInf(*s.Rate, 0) {
			return 0, "", fmt.Errorf("--rate %v: want a positive number of tasks per time unit", *s.Rate)
		}
		return *s.Rate, fmt.Sprintf("rate%g", *s.Rate), nil
	}
	level := cmp.Or(s.Level, "19k")
	rate, err := LevelRate(level, s.Period)
	return rate, "arr" + strings.ToLower(level), err
}
