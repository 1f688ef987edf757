package report

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata (look at them before committing)")

// gridRuns expands grid points into runs of trials 1..trials, with the Point and Key a sweep
// would give them and made-up metrics: robustness falls with the level and rises with pruning,
// so that figures have shape, and a small deterministic jitter per trial gives the intervals
// a width.
func gridRuns(points []RunRow, trials int) []RunRow {
	var rows []RunRow
	for _, p := range points {
		var id []string
		for _, o := range options() {
			id = append(id, o.name+"="+o.value(p))
		}
		p.Point = strings.Join(id, ",")
		if p.Name == "" {
			p.Name = p.Heuristic + map[string]string{"defer": "-D", "drop": "-Drop", "both": "-P"}[p.Prune]
		}
		for t := 1; t <= trials; t++ {
			r := p
			r.Trial, r.Key = int32(t), fmt.Sprintf("%s,trial=%d", p.Point, t)
			fakeMetrics(&r)
			rows = append(rows, r)
		}
	}
	return rows
}

func fakeMetrics(r *RunRow) {
	jitter := float64((int(r.Trial)*7919+len(r.Point)*31)%17)/17 - 0.5
	load := r.LevelRate
	if !known(load) {
		load = 0.3
	}
	h := float64(len(r.Heuristic)%3) * 4
	r.Robustness = 95 - 120*load + h + 3*jitter
	if pruned(*r) {
		r.Robustness += 6 + 10*load
	}
	if t := deferThreshold(*r); !math.IsNaN(t) {
		r.Robustness -= 30 * math.Abs(t-0.7-0.1*r.DropThreshold)
	}
	if strings.HasPrefix(r.Defer, "dynamic") {
		r.Robustness += 2
	}
	if r.Toggle != "" {
		r.Robustness += 3*r.Lambda - float64(len(r.Toggle)%3)
	}
	r.FairnessVariance = 300/(1+2*r.Fairness) + 20*jitter + 3*h
	r.Robustness -= 2 * r.Fairness
	r.CostPerOnTime = 4 + 10*load + jitter
	r.EnergyPerOnTime = 900 + 2000*load + 50*jitter
	factor := map[string]float64{"reference": 40, "fast": 3, "approx": 1}[r.Engine]
	r.MapperSeconds = factor * (0.2 + load) * (1 + 0.1*jitter)
	r.Convolutions = int64(factor * 10000 * load)
	r.SuccessEvals = int64(factor * 25000 * load)
	r.Tasks, r.Scored = 800, 780
	r.OnTime = int32(r.Robustness / 100 * 780)
}

// levels are three oversubscription levels with rates, listed out of order.
func levels() []RunRow {
	return []RunRow{{Level: "34k", LevelRate: 0.385}, {Level: "19k", LevelRate: 0.215}, {Level: "25k", LevelRate: 0.283}}
}

// sweep crosses levels with the points made by each function.
func sweep(each func(lv RunRow) []RunRow) []RunRow {
	var pts []RunRow
	for _, lv := range levels() {
		pts = append(pts, each(lv)...)
	}
	return pts
}

func pruneDefaults(r RunRow) RunRow {
	r.Toggle, r.Lambda, r.DropThreshold, r.Defer = "threshold:1", 1, 0.5, "gap:0.25"
	return r
}

// figureSweeps are small sweeps that each vary what one figure kind is about.
func figureSweeps() map[string][]RunRow {
	return map[string][]RunRow{
		"robustness": sweep(func(lv RunRow) []RunRow {
			var out []RunRow
			for _, h := range []string{"MM", "MSD", "PAM"} {
				for _, pr := range []string{"none", "both"} {
					r := lv
					r.Heuristic, r.Prune, r.Engine = h, pr, "fast"
					if pr != "none" {
						r = pruneDefaults(r)
					}
					out = append(out, r)
				}
			}
			return out
		}),
		"fairness": sweep(func(lv RunRow) []RunRow {
			var out []RunRow
			if lv.Level != "25k" {
				return nil
			}
			for _, f := range []float64{0, 0.5, 1, 2} {
				for _, h := range []string{"PAM", "MM"} {
					r := pruneDefaults(lv)
					r.Heuristic, r.Prune, r.Fairness = h, "both", f
					out = append(out, r)
				}
			}
			return out
		}),
		"overhead": sweep(func(lv RunRow) []RunRow {
			var out []RunRow
			for _, e := range []string{"reference", "fast", "approx"} {
				r := pruneDefaults(lv)
				r.Heuristic, r.Prune, r.Engine = "PAM", "both", e
				out = append(out, r)
			}
			return out
		}),
		"thresholds": sweep(func(lv RunRow) []RunRow {
			var out []RunRow
			if lv.Level != "34k" {
				return nil
			}
			for _, drop := range []float64{0.25, 0.5} {
				for _, d := range []string{"static:0.3", "static:0.5", "static:0.7", "static:0.9"} {
					r := pruneDefaults(lv)
					r.Heuristic, r.Prune, r.DropThreshold, r.Defer = "MM", "both", drop, d
					out = append(out, r)
				}
			}
			return out
		}),
		"toggle": sweep(func(lv RunRow) []RunRow {
			var out []RunRow
			if lv.Level != "25k" {
				return nil
			}
			for _, tg := range []string{"threshold:1", "schmitt:1:0.8"} {
				for _, l := range []float64{0.1, 0.3, 0.6, 1} {
					r := pruneDefaults(lv)
					r.Heuristic, r.Prune, r.Toggle, r.Lambda = "MM", "drop", tg, l
					out = append(out, r)
				}
			}
			return out
		}),
		"deferring": append(sweep(func(lv RunRow) []RunRow {
			var out []RunRow
			for _, d := range []string{"static:0.5", "static:0.75", "dynamic:0.5"} {
				r := pruneDefaults(lv)
				r.Heuristic, r.Prune, r.Defer = "MM", "defer", d
				out = append(out, r)
			}
			return out
		}), func() []RunRow {
			var out []RunRow
			for _, d := range []string{"static:0.5", "static:0.75", "dynamic:0.5"} {
				r := pruneDefaults(RunRow{Level: "spiky25k", LevelRate: math.NaN()})
				r.Heuristic, r.Prune, r.Defer = "MM", "defer", d
				out = append(out, r)
			}
			return out
		}()...),
	}
}

// TestFigureKinds draws each small sweep and checks that exactly the figures whose options it
// varies are written, and that they are not empty. Robustness is always drawn; cost and energy
// whenever the machines are priced, as they are here.
func TestFigureKinds(t *testing.T) {
	always := []string{"robustness", "cost", "energy"}
	want := map[string][]string{
		"robustness": always,
		"fairness":   {"robustness", "fairness", "cost", "energy"},
		"overhead":   {"robustness", "cost", "energy", "overhead"},
		"thresholds": {"robustness", "cost", "energy", "thresholds"},
		"toggle":     {"robustness", "cost", "energy", "toggle"},
		// Static rules at 0.5 and 0.75 are also a threshold sweep.
		"deferring": {"robustness", "cost", "energy", "thresholds", "deferring"},
	}
	for name, pts := range figureSweeps() {
		a, err := AggregateRuns(gridRuns(pts, 4), "")
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		figs, err := WriteFigures(a, dir, []string{"svg"})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range figs {
			got = append(got, f.Name)
			if len(f.Files) != 1 || f.Caption == "" {
				t.Errorf("%s/%s: files %v caption %q", name, f.Name, f.Files, f.Caption)
				continue
			}
			svg, err := os.ReadFile(f.Files[0])
			// A drawn line adds a <path>.
			if err != nil || !bytes.Contains(svg, []byte("<path")) || !bytes.Contains(svg, []byte("</svg>")) {
				t.Errorf("%s/%s: %v, %d bytes", name, f.Name, err, len(svg))
			}
		}
		if strings.Join(got, " ") != strings.Join(want[name], " ") {
			t.Errorf("sweep %s: figures %v, want %v", name, got, want[name])
		}
	}
}

// TestFigureFormats writes every format asked, and a toggle figure by rule when λ is fixed.
func TestFigureFormats(t *testing.T) {
	var pts []RunRow
	for _, tg := range []string{"schmitt:1:0.8", "threshold:1", "always"} {
		r := pruneDefaults(RunRow{Level: "25k", LevelRate: 0.283})
		r.Heuristic, r.Prune, r.Toggle, r.Engine = "MM", "both", tg, "fast"
		pts = append(pts, r)
	}
	a, err := AggregateRuns(gridRuns(pts, 3), "")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	figs, err := WriteFigures(a, dir, []string{"png", "pdf", "svg"})
	if err != nil {
		t.Fatal(err)
	}
	var toggle *Figure
	for i := range figs {
		if figs[i].Name == "toggle" {
			toggle = &figs[i]
		}
	}
	if toggle == nil {
		t.Fatalf("no toggle figure among %v", figs)
	}
	for i, ext := range []string{".png", ".pdf", ".svg"} {
		st, err := os.Stat(toggle.Files[i])
		if err != nil || filepath.Ext(toggle.Files[i]) != ext || st.Size() < 1000 {
			t.Errorf("%s: %v", toggle.Files[i], err)
		}
	}
	svg, _ := os.ReadFile(toggle.Files[2])
	// Categories in rule order: always, threshold, schmitt.
	i, j, k := bytes.Index(svg, []byte(">always<")), bytes.Index(svg, []byte(">threshold:1<")), bytes.Index(svg, []byte(">schmitt:1:0.8<"))
	if i < 0 || j < i || k < j {
		t.Errorf("toggle categories at %d, %d, %d", i, j, k)
	}
}

// TestRobustnessGolden compares a small robustness figure with testdata/robustness.golden.svg
// byte for byte (drawn without embedded fonts, to keep the file small). A change in the
// figures' style, or in gonum, fails it. To accept a change, regenerate the file with
//
//	go test ./report -run TestRobustnessGolden -update
//
// and look at the new SVG in a browser before committing it: the test cannot tell a better
// figure from a broken one.
func TestRobustnessGolden(t *testing.T) {
	ch := lineChart(t)
	w, h := ch.size()
	c := vgsvg.New(w, h)
	ch.Draw(draw.New(c))
	var got bytes.Buffer
	if _, err := c.WriteTo(&got); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "robustness.golden.svg")
	if *update {
		if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: look at it before committing", golden)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		out := filepath.Join(t.TempDir(), "robustness.svg")
		os.WriteFile(out, got.Bytes(), 0o644)
		t.Errorf("robustness figure differs from %s; this run's figure is %s (-update regenerates the golden file)", golden, out)
	}
}

func TestLogTicks(t *testing.T) {
	labels := func(min, max float64) string {
		var l []string
		for _, tk := range (logTicks{}).Ticks(min, max) {
			if tk.Label != "" && tk.Value >= min && tk.Value <= max {
				l = append(l, tk.Label)
			}
		}
		return strings.Join(l, " ")
	}
	// Within two powers of ten, 2× and 5× are labelled too; across three, powers alone.
	if got := labels(5000, 90000); got != "5000 10000 20000 50000" {
		t.Errorf("5000–90000: %s", got)
	}
	if got := labels(0.05, 30); got != "0.1 1 10" {
		t.Errorf("0.05–30: %s", got)
	}
}

// TestFiguresWithoutData: runs whose metrics are all undefined still give a (blank) robustness
// figure; an empty plot once sent gonum's tick search into an endless loop.
func TestFiguresWithoutData(t *testing.T) {
	rows := gridRuns(figureSweeps()["robustness"][:2], 2)
	for i := range rows {
		rows[i].Robustness, rows[i].MapperSeconds = math.NaN(), math.NaN()
	}
	rows[0].Engine = "reference"
	a, err := AggregateRuns(rows, "")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	var figs []Figure
	go func() {
		var err error
		figs, err = WriteFigures(a, t.TempDir(), []string{"svg"})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil || len(figs) == 0 || figs[0].Name != "robustness" {
			t.Errorf("figures %v, %v", figs, err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("drawing figures without data did not finish")
	}
}
