package trace

import (
	"strings"
	"testing"
)

func TestRateSpecArrivals(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, c := range []struct {
		spec   RateSpec
		rate   float64
		prefix string
		err    string
	}{
		// 19,000 tasks per 88,200 time units (HCW19's labels).
		{spec: RateSpec{Period: 88200}, rate: 19000.0 / 88200, prefix: "arr19k"},
		{spec: RateSpec{Level: "34K", Period: 1000}, rate: 34, prefix: "arr34k"},
		// Load 1.5 where one task per time unit offers 0.5: 3 tasks per time unit.
		{spec: RateSpec{Load: f(1.5), Period: 88200}, rate: 3, prefix: "load1.5"},
		{spec: RateSpec{Rate: f(0.25), Period: 88200}, rate: 0.25, prefix: "rate0.25"},
		{spec: RateSpec{Period: 0}, err: "--period 0: want a positive"},
		{spec: RateSpec{Load: f(1), Rate: f(2), Period: 1}, err: "--load 1 and --rate 2 both set"},
		{spec: RateSpec{Load: f(-1), Period: 1}, err: "--load -1: want a positive utilisation"},
		{spec: RateSpec{Rate: f(0), Period: 1}, err: "--rate 0: want a positive"},
		{spec: RateSpec{Level: "x", Period: 1}, err: `oversubscription level "x"`},
	} {
		rate, prefix, err := c.spec.Arrivals(0.5)
		if c.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), c.err) {
				t.Errorf("%+v: %v, want %q", c.spec, err, c.err)
			}
			continue
		}
		if err != nil || rate != c.rate || prefix != c.prefix {
			t.Errorf("%+v: %v, %q, %v; want %v, %q", c.spec, rate, prefix, err, c.rate, c.prefix)
		}
	}
	if _, _, err := (RateSpec{Load: f(1), Period: 1}).Arrivals(0); err == nil || !strings.Contains(err.Error(), "mean execution time is 0") {
		t.Errorf("load on a PET of zero means: %v", err)
	}
}
