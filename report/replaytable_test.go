package report

import (
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/replay"
)

// TestWriteReplayMeans: a row per set and mapper, over that set's and mapper's runs only. By
// hand: robustness 10, 20, 30 has mean 20, standard deviation 10, standard error 10/√3 = 5.7735,
// and t(0.975, 2) = 4.3027 makes the half-width 24.84; the other set's single run of 50 has no
// interval. Mapper 1's runs (robustness 90) must not pool with mapper 0's.
func TestWriteReplayMeans(t *testing.T) {
	run := func(set, mapper int, robust float64) ReplayRun {
		return ReplayRun{Set: set, Mapper: mapper, Trace: "x.csv", Summary: replay.Summary{Scored: 100, Robustness: replay.Num(robust)}}
	}
	runs := []ReplayRun{run(0, 0, 10), run(0, 1, 90), run(0, 0, 20), run(0, 0, 30), run(1, 0, 50)}
	var b strings.Builder
	if err := WriteReplayMeans(&b, []string{"dir/a*.csv", "b.csv"}, []string{"MM", "MM-P"}, runs); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"│ a*.csv │ MM        │      3 │  100.0 │ 20.00 ± 24.84 │", "│ a*.csv │ MM-P      │      1 │  100.0 │         90.00 │", "│ b.csv  │ MM        │      1 │  100.0 │         50.00 │"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("no row %q in\n%s", want, b.String())
		}
	}
	if want := "\nMean over the trials of each --trace, with the half-width of its 95% Student t interval:\n"; !strings.HasPrefix(b.String(), want) {
		t.Errorf("the table does not start with %q:\n%s", want, b.String())
	}
	// One set of 3 trials: the means are over the 3; one trial per set: no table, the runs' says it.
	b.Reset()
	if err := WriteReplayMeans(&b, []string{"a*.csv"}, []string{"MM"}, runs[:4]); err != nil || !strings.HasPrefix(b.String(), "\nMean over the 3 trials,") {
		t.Errorf("one set of 3 trials: %v\n%s", err, b.String())
	}
	b.Reset()
	if err := WriteReplayMeans(&b, []string{"a.csv", "b.csv"}, []string{"MM"}, []ReplayRun{run(0, 0, 10), run(1, 0, 50)}); err != nil || b.Len() != 0 {
		t.Errorf("a trial per set: %v, wrote\n%s", err, b.String())
	}
}

// TestWriteReplayTablesIsTwoTables: the two tables through one cleared tablewriter.Table are
// byte for byte the two written each through its own new one, with one set of trials or two
// (a column more), a trial per set (no means), and mappers whose labels are wider than a trace.
func TestWriteReplayTablesIsTwoTables(t *testing.T) {
	run := func(set, mapper int, trace string, robust float64) ReplayRun {
		return ReplayRun{Set: set, Mapper: mapper, Trace: trace, Summary: replay.Summary{Heuristic: []string{"MM", "PAM-P-with-a-long-label"}[mapper], Scored: 100 + set, OnTime: int(robust), Robustness: replay.Num(robust), MappingEvents: 7}}
	}
	for _, c := range []struct {
		sets, labels []string
		runs         []ReplayRun
	}{
		{[]string{"a*.dat"}, []string{"MM"}, []ReplayRun{run(0, 0, "a1.dat", 10), run(0, 0, "a2.dat", 20), run(0, 0, "a3.dat", 35)}},
		{[]string{"a*.dat", "dir/b*.dat"}, []string{"MM", "PAM-P-with-a-long-label"},
			[]ReplayRun{run(0, 0, "a1.dat", 10), run(0, 1, "a1.dat", 90), run(0, 0, "a2.dat", 20), run(0, 1, "a2.dat", 80), run(1, 0, "dir/b1.dat", 50), run(1, 1, "dir/b1.dat", 55), run(1, 0, "dir/b2.dat", 40), run(1, 1, "dir/b2.dat", 45)}},
		{[]string{"a.dat", "b.dat"}, []string{"MM"}, []ReplayRun{run(0, 0, "a.dat", 10), run(1, 0, "b.dat", 50)}},
	} {
		var one, two strings.Builder
		if err := WriteReplayTables(&one, c.sets, c.labels, c.runs); err != nil {
			t.Fatal(err)
		}
		if err := WriteReplayRuns(&two, c.runs); err != nil {
			t.Fatal(err)
		}
		if err := WriteReplayMeans(&two, c.sets, c.labels, c.runs); err != nil {
			t.Fatal(err)
		}
		if one.String() != two.String() || !strings.Contains(one.String(), "a1.dat") && !strings.Contains(one.String(), "a.dat") {
			t.Errorf("sets %q: through one table\n%s\nthrough two\n%s", c.sets, one.String(), two.String())
		}
	}
}
