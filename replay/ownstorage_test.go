package replay

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// TestReferenceOwnStorage: the reference engine, which builds the chains it keeps to itself in
// its own storage (reference.own), answers every question as the same code building each link in
// new storage does, to the bit: chances, expected completions, run completions, queue chances
// and their skewness, Ready and Tail, asked in turn for every task and machine at every event
// of random workloads, under each drop model, with and without conditioning on elapsed time and
// strict deadlines. What it hands out (Ready, Tail, a copy of QueueChances) must still hold its
// values once every other question of the event has been asked after it.
func TestReferenceOwnStorage(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 7))
	asked := 0
	for i := range 12 {
		cfg := Config{PET: randomPET(r, 3, 2, 8, 12, 1), Machines: machinesOf(0, 1, 1),
			Tasks: randomTasks(r, 120, 3, 0.5+r.Float64(), 3, 30), Options: DefaultOptions()}
		cfg.Options.Engine = "reference"
		cfg.Options.DropModel = []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}[i%3]
		cfg.Options.ConditionElapsed = i%2 == 0
		cfg.Options.Strict = i%4 == 1
		var answers [2][]float64
		for k, chances := range []func(*engine) chancer{newReference, func(e *engine) chancer { return reference{e: e} }} {
			var out []float64
			var handed []pmf.PMF // Ready and Tail as handed out, with their copies
			var copies []pmf.PMF
			ask := func(ev Event) {
				handed, copies = handed[:0], copies[:0]
				for m := range ev.NumMachines() {
					for _, d := range []pmf.PMF{ev.Ready(m), ev.Tail(m)} {
						handed, copies = append(handed, d), append(copies, d.CopyInto(new(pmf.Buffer)))
						out = append(out, d.Mean(), float64(d.Len()))
					}
					for _, c := range ev.QueueChances(m) {
						out = append(out, c.Success, c.Skewness)
					}
					for _, h := range ev.Batch() {
						out = append(out, ev.Success(h, m), ev.Completion(h, m), ev.RunCompletion(h, m))
						asked++
					}
				}
				for j, d := range handed {
					if !samePMF(d, copies[j]) {
						t.Fatalf("workload %d: a PMF handed out at %g changed while other questions were asked", i, ev.Now())
					}
				}
			}
			mapper := Mapper(mapperFunc{"probe", Batch, func(ev Event) { ask(ev); greedy(ev, nil); ask(ev) }})
			if i%3 == 1 {
				mapper = skewnessFree{mapper.(mapperFunc)}
			}
			e, err := newEngine(cfg, mapper, chances)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.run(t.Context()); err != nil {
				t.Fatal(err)
			}
			answers[k] = out
		}
		if len(answers[0]) != len(answers[1]) {
			t.Fatalf("workload %d: %d answers with own storage, %d with new", i, len(answers[0]), len(answers[1]))
		}
		for j, a := range answers[0] {
			if b := answers[1][j]; math.Float64bits(a) != math.Float64bits(b) && !(math.IsNaN(a) && math.IsNaN(b)) {
				t.Fatalf("workload %d: answer %d is %v with own storage, %v with new", i, j, a, b)
			}
		}
	}
	if asked < 5000 {
		t.Fatalf("only %d tasks asked about: too few to tell", asked)
	}
}
