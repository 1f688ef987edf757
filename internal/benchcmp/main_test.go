package main

import (
	"bytes"
	"context"
	"fmt"
	"math/bits"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestMedianCI checks the ranks against the coverage counted over every outcome: each of n
// samples falls below the median or above it, each way with chance ½, so the interval
// [x_lo, x_hi] (0-based) holds the median exactly when more than lo and at most hi samples fall
// below. Counting the 2ⁿ patterns shares nothing with the binomial sums of medianCI. The
// interval must cover at least 95%, and the next narrower one less; n = 20 must give ranks 6 and
// 15 (1-based), the value of the published tables.
func TestMedianCI(t *testing.T) {
	coverage := func(n, lo, hi int) float64 {
		in := 0
		for pat := range 1 << n {
			below := bits.OnesCount(uint(pat))
			if below > lo && below <= hi {
				in++
			}
		}
		return float64(in) / float64(int(1)<<n)
	}
	for n := 1; n <= 18; n++ {
		lo, hi, ok := medianCI(n)
		if !ok {
			if n >= 6 {
				t.Fatalf("n=%d: no interval", n)
			}
			if c := coverage(n, 0, n-1); c >= 0.95 {
				t.Fatalf("n=%d: no interval, yet the widest covers %.4f", n, c)
			}
			continue
		}
		if lo+hi != n-1 {
			t.Fatalf("n=%d: ranks %d and %d are not symmetric", n, lo, hi)
		}
		if c := coverage(n, lo, hi); c < 0.95 {
			t.Fatalf("n=%d: [%d, %d] covers %.4f", n, lo, hi, c)
		}
		if lo+1 < hi-1 {
			if c := coverage(n, lo+1, hi-1); c >= 0.95 {
				t.Fatalf("n=%d: [%d, %d] is not the narrowest: [%d, %d] covers %.4f", n, lo, hi, lo+1, hi-1, c)
			}
		}
	}
	if lo, hi, _ := medianCI(20); lo != 5 || hi != 14 {
		t.Fatalf("n=20: ranks %d and %d (0-based), want 5 and 14", lo, hi)
	}
}

// fakeRunner plays two builds: each run of a binary prints its next scripted output, and the
// order of the runs is logged.
type fakeRunner struct {
	outputs map[string][]string
	order   []string
}

func (f *fakeRunner) run(_ context.Context, binary string, args []string) ([]byte, error) {
	if !strings.Contains(strings.Join(args, " "), "-test.bench MM -test.benchtime 5x") {
		return nil, fmt.Errorf("args %v", args)
	}
	f.order = append(f.order, binary)
	out := f.outputs[binary][0]
	f.outputs[binary] = f.outputs[binary][1:]
	return []byte(out), nil
}

// line is a benchmark result line as go test prints it.
func line(name string, ns, rate float64) string {
	return fmt.Sprintf("goos: linux\n%s-2   \t     5\t %.0f ns/op\t %.0f tasks/s\nPASS\n", name, ns, rate)
}

// TestScheduleAndCompare: three rounds run old, new; new, old; old, new; the values land in
// their rounds, and the table's speed-ups are the ones worked out by hand: per round old ÷ new
// time 120/100 = 1.2, 100/125 = 0.8, 110/100 = 1.1, median 1.1; as a rate, new ÷ old, the same.
// Too few rounds for a confidence interval: "–".
func TestScheduleAndCompare(t *testing.T) {
	f := &fakeRunner{outputs: map[string][]string{
		"old": {line("BenchmarkMM", 120, 1200), line("BenchmarkMM", 100, 1000), line("BenchmarkMM", 110, 1100)},
		"new": {line("BenchmarkMM", 100, 1440), line("BenchmarkMM", 125, 800), line("BenchmarkMM", 100, 1210)},
	}}
	c := config{old: "old", new: "new", bench: "MM", benchtime: "5x", unit: "ns/op", rounds: 3}
	r, err := schedule(context.Background(), c, f, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(f.order, " "); got != "old new new old old new" {
		t.Fatalf("order %q", got)
	}
	if fmt.Sprint(r.old["BenchmarkMM"], r.new["BenchmarkMM"]) != "[120 100 110] [100 125 100]" {
		t.Fatalf("rounds: old %v, new %v", r.old["BenchmarkMM"], r.new["BenchmarkMM"])
	}
	var out bytes.Buffer
	if err := compare(r, "ns/op").WriteTerminal(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"BenchmarkMM", "1.100×", "110", "–"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("table lacks %q:\n%s", want, out.String())
		}
	}
	// As tasks/s: new ÷ old = 1440/1200 = 1.2, 800/1000 = 0.8, 1210/1100 = 1.1.
	r2 := runs{names: []string{"BenchmarkMM"}, old: map[string][]float64{"BenchmarkMM": {1200, 1000, 1100}},
		new: map[string][]float64{"BenchmarkMM": {1440, 800, 1210}}}
	out.Reset()
	if err := compare(r2, "tasks/s").WriteTerminal(&out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "1.100×") {
		t.Fatalf("as a rate:\n%s", out.String())
	}
}

// TestScheduleErrors: a benchmark only one build reports, and a pattern no benchmark matches,
// are errors, not a table with holes.
func TestScheduleErrors(t *testing.T) {
	f := &fakeRunner{outputs: map[string][]string{
		"old": {line("BenchmarkMM", 120, 1) + line("BenchmarkPAM", 5, 1)},
		"new": {line("BenchmarkMM", 100, 1)},
	}}
	c := config{old: "old", new: "new", bench: "MM", benchtime: "5x", unit: "ns/op", rounds: 1}
	if _, err := schedule(context.Background(), c, f, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "BenchmarkPAM") {
		t.Fatalf("one-sided benchmark: %v", err)
	}
	f = &fakeRunner{outputs: map[string][]string{"old": {"PASS\n"}, "new": {"PASS\n"}}}
	if _, err := schedule(context.Background(), c, f, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "no benchmark") {
		t.Fatalf("no benchmark: %v", err)
	}
}

// patternRunner plays two builds that run whatever benchmarks the pattern names: the listing
// run (-test.benchtime 1x) prints two sub-benchmarks, and each other run prints the benchmark its
// pattern matches alone, at the binary's next scripted time. Each run is logged as the binary
// and its pattern.
type patternRunner struct {
	times map[string][]float64
	runs  []string
}

func (p *patternRunner) run(_ context.Context, binary string, args []string) ([]byte, error) {
	pattern, benchtime := args[3], args[5]
	p.runs = append(p.runs, binary+" "+pattern)
	if benchtime == "1x" {
		return []byte(line("BenchmarkReplay/fast/MM", 1, 1) + line("BenchmarkReplay/fast/PAM-P", 1, 1)), nil
	}
	name, ok := map[string]string{`^BenchmarkReplay$/^fast$/^MM$`: "BenchmarkReplay/fast/MM", `^BenchmarkReplay$/^fast$/^PAM-P$`: "BenchmarkReplay/fast/PAM-P"}[pattern]
	if !ok {
		return nil, fmt.Errorf("pattern %q matches nothing alone", pattern)
	}
	v := p.times[binary][0]
	p.times[binary] = p.times[binary][1:]
	return []byte(line(name, v, 1)), nil
}

// TestScheduleEach: with -each the new build lists the benchmarks once, and each round runs
// each benchmark alone, in the round's order of the builds (old first in even rounds), the two
// builds of one benchmark one after the other; the values land under their benchmarks. Old MM
// 100, 110 and PAM-P 300, 330 against new 50, 55 and 100, 110: speed-ups 2 and 3.
func TestScheduleEach(t *testing.T) {
	p := &patternRunner{times: map[string][]float64{"old": {100, 300, 110, 330}, "new": {50, 100, 55, 110}}}
	c := config{old: "old", new: "new", bench: "Replay/fast/(MM|PAM-P)$", benchtime: "5x", unit: "ns/op", rounds: 2, each: true}
	r, err := schedule(context.Background(), c, p, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	mm, pam := `^BenchmarkReplay$/^fast$/^MM$`, `^BenchmarkReplay$/^fast$/^PAM-P$`
	want := []string{"new Replay/fast/(MM|PAM-P)$", "old " + mm, "new " + mm, "old " + pam, "new " + pam, "new " + mm, "old " + mm, "new " + pam, "old " + pam}
	if !slices.Equal(p.runs, want) {
		t.Fatalf("runs\n%q\nwant\n%q", p.runs, want)
	}
	if fmt.Sprint(r.names, r.old, r.new) != "[BenchmarkReplay/fast/MM BenchmarkReplay/fast/PAM-P] map[BenchmarkReplay/fast/MM:[100 110] BenchmarkReplay/fast/PAM-P:[300 330]] map[BenchmarkReplay/fast/MM:[50 55] BenchmarkReplay/fast/PAM-P:[100 110]]" {
		t.Fatalf("rounds: %v old %v, new %v", r.names, r.old, r.new)
	}
}

// processRunner plays two builds of a command: each run moves the clock on by the binary's
// next scripted wall time, and logs the binary and its arguments.
type processRunner struct {
	clock time.Time
	walls map[string][]time.Duration
	runs  []string
}

func (p *processRunner) run(_ context.Context, binary string, args []string) ([]byte, error) {
	p.runs = append(p.runs, binary+" "+strings.Join(args, " "))
	p.clock = p.clock.Add(p.walls[binary][0])
	p.walls[binary] = p.walls[binary][1:]
	return []byte("a table that is no benchmark line\n"), nil
}

// TestScheduleProcess: with -process each round runs both binaries with the arguments given, in
// the same alternating order, and the row's values are their wall times: old 200, 220, 180 ms
// against new 100, 110, 100 ms, speed-ups 2, 2 and 1.8 per round, median 2.
func TestScheduleProcess(t *testing.T) {
	ms := time.Millisecond
	p := &processRunner{walls: map[string][]time.Duration{"old": {200 * ms, 220 * ms, 180 * ms}, "new": {100 * ms, 110 * ms, 100 * ms}}}
	c := config{old: "old", new: "new", unit: "ns/op", rounds: 3, process: []string{"replay", "-H", "MM"}, name: "MM replay",
		now: func() time.Time { return p.clock }}
	r, err := schedule(context.Background(), c, p, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(p.runs, "; "); got != "old replay -H MM; new replay -H MM; new replay -H MM; old replay -H MM; old replay -H MM; new replay -H MM" {
		t.Fatalf("runs %q", got)
	}
	if fmt.Sprint(r.names, r.old["MM replay"], r.new["MM replay"]) != "[MM replay] [2e+08 2.2e+08 1.8e+08] [1e+08 1.1e+08 1e+08]" {
		t.Fatalf("rounds: %v old %v, new %v", r.names, r.old["MM replay"], r.new["MM replay"])
	}
	var out bytes.Buffer
	if err := compare(r, c.unit).WriteTerminal(&out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"MM replay", "200ms", "100ms", "2.000×"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("table lacks %q:\n%s", want, out.String())
		}
	}
}
