package prune

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
)

// screeningEvent is the pruner's Event as PAM sees it.
type screeningEvent interface {
	replay.Event
	DeferThreshold(h int) float64
	Promising(h int, ms, dst []int) ([]int, bool)
}

// overScreening is the pruner's Event with Promising broken: it leaves out the first machine it
// would keep whenever it keeps two or more, as a screen that took a cut-off for a machine's
// neighbour's would.
type overScreening struct{ screeningEvent }

func (e overScreening) Promising(h int, ms, dst []int) ([]int, bool) {
	start := len(dst)
	dst, ok := e.screeningEvent.Promising(h, ms, dst)
	if ok && len(dst)-start >= 2 {
		dst = append(dst[:start], dst[start+1:]...)
	}
	return dst, ok
}

// brokenPAM is PAM seeing the pruner's Event through overScreening.
type brokenPAM struct{ heuristic.PAM }

func (b brokenPAM) Map(ev replay.Event) { b.PAM.Map(overScreening{ev.(screeningEvent)}) }

// eachScreeningEvent is the pruner's Event with the screen PAM asks first, for a list of tasks.
type eachScreeningEvent interface {
	screeningEvent
	PromisingEach(tasks, ms, dst, ends []int) ([]int, []int, bool)
}

// overScreeningEach is the pruner's Event with PromisingEach broken as overScreening breaks
// Promising: each task that keeps two or more machines loses the first.
type overScreeningEach struct{ eachScreeningEvent }

func (e overScreeningEach) PromisingEach(tasks, ms, dst, ends []int) ([]int, []int, bool) {
	dst, ends, ok := e.eachScreeningEvent.PromisingEach(tasks, ms, dst, ends)
	if !ok {
		return dst, ends, ok
	}
	out, start := dst[:0], 0
	for i, end := range ends {
		kept := dst[start:end]
		if len(kept) >= 2 {
			kept = kept[1:]
		}
		out = append(out, kept...) // in place: out never runs ahead of start
		start, ends[i] = end, len(out)
	}
	return out, ends, true
}

// brokenEachPAM is PAM seeing the pruner's Event through overScreeningEach.
type brokenEachPAM struct{ heuristic.PAM }

func (b brokenEachPAM) Map(ev replay.Event) {
	b.PAM.Map(overScreeningEach{ev.(eachScreeningEvent)})
}

// perTaskPAM is PAM seeing the pruner's Event without PromisingEach: it screens task by task
// through Promising, as it did before the per-type screen.
type perTaskPAM struct{ heuristic.PAM }

func (p perTaskPAM) Map(ev replay.Event) { p.PAM.Map(hideEach{ev.(screeningEvent)}) }

type hideEach struct{ screeningEvent }

// TestScreenCanFail: TestFastEqualsReference's comparison catches a screen that leaves out a
// machine it should ask (PAM's Promising path): on the same kind of random workloads, PAM-P
// through a broken screen makes a decision the reference engine does not, while PAM-P through
// the pruner's own screen makes none.
func TestScreenCanFail(t *testing.T) {
	r := rand.New(rand.NewPCG(50, 2))
	caught, caughtEach := 0, 0
	for i := range 8 {
		cfg := replay.Config{PET: replaytest.RandomPET(r, 4, 3, 8, 20),
			Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}, {Type: 2}},
			Tasks:    replaytest.RandomTasks(r, 80, 4, 0.3+r.Float64(), 4, 35), Options: replay.DefaultOptions()}
		cfg.Options.QueueSize = 2 + r.IntN(4)
		pc := DefaultConfig()
		pc.Variant, pc.Toggle = Both, Toggle{Kind: "always"}
		run := func(engine string, inner replay.Mapper, observe bool) []replay.Outcome {
			m, err := Wrap(inner, pc)
			if err != nil {
				t.Fatal(err)
			}
			if observe {
				m.(*Pruner).Observe(func(Decision) {}) // the oracle asks every chance
			}
			c := cfg
			c.Options.Engine = engine
			res, err := replay.Run(t.Context(), c, m)
			if err != nil {
				t.Fatal(err)
			}
			return res.Outcomes
		}
		pam := heuristic.PAM{Params: heuristic.DefaultParams()}
		ref := run("reference", pam, true)
		differs := func(got []replay.Outcome) bool {
			if len(got) != len(ref) {
				return true
			}
			for k := range ref {
				a, b := ref[k], got[k]
				if a.Task.ID != b.Task.ID || a.Status != b.Status || a.Machine != b.Machine || a.Deferred != b.Deferred || a.End != b.End {
					return true
				}
			}
			return false
		}
		if differs(run("fast", pam, false)) {
			t.Fatalf("workload %d: PAM-P's own screen changed a decision", i)
		}
		if differs(run("fast", brokenPAM{pam}, false)) {
			caught++
		}
		if differs(run("fast", brokenEachPAM{pam}, false)) {
			caughtEach++
		}
	}
	if caught == 0 || caughtEach == 0 {
		t.Errorf("a screen that leaves out machines it should ask changed no decision in 8 workloads (task by task %d, per type %d): the comparison cannot fail", caught, caughtEach)
	}
	t.Logf("the broken screen changed decisions in %d of 8 workloads task by task, %d per type", caught, caughtEach)
}

// TestScreenEachEqualsPerTask: PAM-P screening a round's tasks per type (PromisingEach) makes the
// reference engine's decisions (its pruner, with an observer, screens nothing), and those it
// makes screening them one by one (Promising) with the same work: every outcome field, and the
// summary's counters (mapping events, convolutions, impulse multiplications, success
// evaluations), are equal; under every drop model and deferral placement, with fairness
// (per-type thresholds that move between events) and the dynamic threshold.
func TestScreenEachEqualsPerTask(t *testing.T) {
	r := rand.New(rand.NewPCG(50, 3))
	models := []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}
	places := []DeferPlace{DeferAfter, DeferBefore, DeferAfterRejudge}
	for i := range 18 {
		cfg := replay.Config{PET: replaytest.RandomPET(r, 4, 3, 8, 20),
			Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}, {Type: 2}},
			Tasks:    replaytest.RandomTasks(r, 80, 4, 0.3+r.Float64(), 4, 35), Options: replay.DefaultOptions()}
		cfg.Options.DropModel, cfg.Options.QueueSize = models[i%3], 2+r.IntN(4)
		pc := DefaultConfig()
		pc.Variant, pc.Toggle, pc.DeferAt = Both, Toggle{Kind: "always"}, places[(i/3)%3]
		pc.Fairness = []float64{0, 0.05, 0.2}[i%3]
		if i%4 == 3 {
			pc.Defer = DeferRule{Kind: "dynamic", Value: 0.05, Start: 0.6}
		}
		run := func(engine string, inner replay.Mapper) *replay.Result {
			m, err := Wrap(inner, pc)
			if err != nil {
				t.Fatal(err)
			}
			if engine == "reference" {
				m.(*Pruner).Observe(func(Decision) {}) // the oracle asks every chance: no screen
			}
			c := cfg
			c.Options.Engine = engine
			res, err := replay.Run(t.Context(), c, m)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		pam := heuristic.PAM{Params: heuristic.DefaultParams()}
		each, one, ref := run("fast", pam), run("fast", perTaskPAM{pam}), run("reference", pam)
		label := fmt.Sprintf("workload %d (%v, defer-at %v, fairness %v, defer %s)", i, cfg.Options.DropModel, pc.DeferAt, pc.Fairness, pc.Defer.Kind)
		if len(ref.Outcomes) != len(each.Outcomes) {
			t.Fatalf("%s: %d outcomes, reference %d", label, len(each.Outcomes), len(ref.Outcomes))
		}
		for k := range ref.Outcomes { // decisions as the reference engine's, chances to 1e-9 (TestFastEqualsReference)
			a, b := ref.Outcomes[k], each.Outcomes[k]
			if a.Task.ID != b.Task.ID || a.Status != b.Status || a.Machine != b.Machine || !same(a.MapTime, b.MapTime) ||
				!same(a.Start, b.Start) || a.End != b.End || a.Deferred != b.Deferred ||
				!(same(a.Predicted, b.Predicted) || math.Abs(a.Predicted-b.Predicted) <= 1e-9) {
				t.Fatalf("%s: exit %d differs from the reference engine's:\nreference %+v\nper type  %+v", label, k, a, b)
			}
		}
		if !reflect.DeepEqual(outcomeKeys(each.Outcomes), outcomeKeys(one.Outcomes)) {
			t.Fatalf("%s: outcomes differ", label)
		}
		a, b := each.Summary, one.Summary
		if a.MappingEvents != b.MappingEvents || a.Convolutions != b.Convolutions || a.Multiplications != b.Multiplications || a.SuccessEvals != b.SuccessEvals {
			t.Fatalf("%s: counters differ: per type %d events, %d convolutions, %d multiplications, %d evaluations; per task %d, %d, %d, %d",
				label, a.MappingEvents, a.Convolutions, a.Multiplications, a.SuccessEvals, b.MappingEvents, b.Convolutions, b.Multiplications, b.SuccessEvals)
		}
	}
}

// outcomeKeys is each outcome's fields that decisions set, Predicted as its bits (NaN equals NaN).
func outcomeKeys(os []replay.Outcome) []string {
	keys := make([]string, len(os))
	for i, o := range os {
		keys[i] = fmt.Sprintf("%d %v %d %x %x %x %d %x", o.Task.ID, o.Status, o.Machine, math.Float64bits(o.MapTime), math.Float64bits(o.Start), math.Float64bits(o.End), o.Deferred, math.Float64bits(o.Predicted))
	}
	return keys
}

// TestScreenSparesHopelessMachine: PAM-D's screen asks no chance on a free machine whose cut-off
// shows the task hopeless there, per type (PromisingEach) and task by task (Promising). Static
// threshold .6, two machines, queue size 1, drop model none; X arrives at 0, due 2, and takes 50
// on m0 and 1 (p .625) or 9 on m1, 1 in this world. m0's cut-off is FreeFrom + o + (J − 1.5)·step
// = 0 + 50 + (0 − 1.5)·1 = 48.5, after X's deadline 2: X is hopeless on m0 and its chance there
// is never asked. m1's is 0 + 1 − 1.5 = −0.5, before 2: PAM asks it (.625 > .6) and maps X to m1,
// 0–1. With an observer the pruner screens nothing (a trace records every chance), so the same
// replay asks exactly one chance more: X's on m0.
func TestScreenSparesHopelessMachine(t *testing.T) {
	opt := replay.DefaultOptions()
	opt.QueueSize, opt.Trim, opt.DropModel = 1, 0, pmf.None
	cfg := replay.Config{
		PET:      replaytest.Grid{{pmf.Impulse(50, 1), gamble(t, 0.625)}},
		Machines: []replay.Machine{{Type: 0}, {Type: 1}},
		Tasks:    []replay.Task{{ID: 0, Type: 0, Arrival: 0, Deadline: 2, Observed: []float64{50, 1}}},
		Options:  opt,
	}
	pam := heuristic.PAM{Params: heuristic.DefaultParams()}
	for _, c := range []struct {
		name string
		h    replay.Mapper
	}{{"per type", pam}, {"task by task", perTaskPAM{pam}}} {
		run := func(observe bool) *replay.Result {
			pc := DefaultConfig()
			pc.Variant, pc.Defer = Defer, DeferRule{Kind: "static", Value: 0.6}
			m, err := Wrap(c.h, pc)
			if err != nil {
				t.Fatal(err)
			}
			if observe {
				m.(*Pruner).Observe(func(Decision) {})
			}
			res, err := replay.Run(t.Context(), cfg, m)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		screened, asked := run(false), run(true)
		for _, res := range []*replay.Result{screened, asked} {
			if o := res.Outcomes[0]; o.Status != replay.OnTime || o.Machine != 1 || o.End != 1 {
				t.Errorf("%s: X %v on machine %d at %v; want on time on machine 1 at 1", c.name, o.Status, o.Machine, o.End)
			}
		}
		if s, a := screened.Summary.SuccessEvals, asked.Summary.SuccessEvals; s != a-1 {
			t.Errorf("%s: %d chances asked with the screen, %d without; want one fewer (X's on m0)", c.name, s, a)
		}
	}
}
