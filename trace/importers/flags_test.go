package importers

import (
	"strings"
	"testing"
	"time"
)

func TestSettingsOptions(t *testing.T) {
	n := 50
	base := Settings{From: "azure-functions", Sample: 0.5, Seed: 4, TimeUnit: "ms", SourceUnit: "s",
		TimeWindow: "1h:2h", Deadline: "prop:1", Samples: &n}
	opt, err := base.Options()
	if err != nil {
		t.Fatal(err)
	}
	if opt.Format != AzureFunctions || opt.Sample != 0.5 || opt.Seed != 4 || opt.Unit != "ms" || opt.SourceUnit != "s" ||
		opt.WindowFrom != time.Hour || opt.WindowTo != 2*time.Hour || opt.Deadline == nil || opt.SamplesPerRow != 50 {
		t.Errorf("options %+v", opt)
	}
	none := base
	none.Deadline, none.Samples = "None", nil
	if opt, err := none.Options(); err != nil || opt.Deadline != nil || opt.SamplesPerRow != 0 {
		t.Errorf("deadline none, no --samples: %+v, %v; want no rule and the default samples (0)", opt, err)
	}
	big := MaxSamplesPerRow + 1
	for _, c := range []struct {
		edit func(*Settings)
		want string
	}{
		{func(s *Settings) { s.From = "swf" }, "--samples applies only to --from azure-functions, not swf"},
		{func(s *Settings) { s.Samples = &big }, "--samples 10001: want 1 to 10000"},
		{func(s *Settings) { s.Sample = 0 }, "--sample 0: want a fraction in (0, 1]"},
		{func(s *Settings) { s.Sample = 1.5 }, "--sample 1.5: want"},
		{func(s *Settings) { s.TimeWindow = "2h:1h" }, "--time-window: "},
		{func(s *Settings) { s.Deadline = "bogus" }, "--deadline: "},
		{func(s *Settings) { s.TimeUnit = "fortnights" }, "time unit"},
	} {
		s := base
		c.edit(&s)
		if _, err := s.Options(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", s, err, c.want)
		}
	}
}
