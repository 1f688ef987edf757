package heuristic

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/hcreplay/hcreplay/replay"
)

// counted is a mapper that counts its Map calls and, at every call where no machine has a free
// slot, the tasks the wrapped heuristic assigned or deferred there. It says it waits for a slot
// (replay.SlotWaiter) when waits is set, whatever the wrapped heuristic says.
type counted struct {
	replay.Mapper
	waits         bool
	calls, full   int
	actedWhenFull int
}

func (c *counted) WaitsForSlot() bool { return c.waits }

func (c *counted) Map(ev replay.Event) {
	c.calls++
	if len(ev.FreeMachines(nil)) > 0 {
		c.Mapper.Map(ev)
		return
	}
	c.full++
	w := &watched{Event: ev}
	c.Mapper.Map(w)
	c.actedWhenFull += w.acts
}

// watched is an Event that counts the assignments and deferrals made through it.
type watched struct {
	replay.Event
	acts int
}

func (w *watched) Assign(h, m int) { w.acts++; w.Event.Assign(h, m) }
func (w *watched) Defer(h int)     { w.acts++; w.Event.Defer(h) }

// TestSlotWaitersSkipFullEvents: every heuristic that tells the engine it does nothing while
// every queue is full (replay.SlotWaiter) does nothing at such events when it is called there
// anyway, and a replay that skips it there decides exactly as one that calls it at every event,
// with as many fewer calls: the crowded workloads below have full events for every heuristic. The
// immediate heuristics do not say so (their queues are unbounded).
func TestSlotWaitersSkipFullEvents(t *testing.T) {
	for _, h := range All() {
		_, says := h.New(DefaultParams()).(replay.SlotWaiter)
		if says != (h.Mode == replay.Batch) {
			t.Errorf("%s (%v): says it waits for a slot: %v", h.Name, h.Mode, says)
		}
		if !says {
			continue
		}
		t.Run(h.Name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(43, uint64(len(h.Name))))
			fullEvents := 0
			for trial := range 6 {
				cfg, p := crowdedTrial(r, trial)
				every, skips := &counted{Mapper: h.New(p)}, &counted{Mapper: h.New(p), waits: true}
				label := fmt.Sprintf("trial %d %+v, called at every event (oracle) vs skipped while full", trial, p)
				want, got := sameDecisions(t, label, cfg, every, skips)
				a, _ := json.Marshal(want.Summary)
				b, _ := json.Marshal(got.Summary)
				if string(a) != string(b) {
					t.Fatalf("%s: summaries differ:\noracle %s\ngot    %s", label, a, b)
				}
				fullEvents += every.full
				if int64(every.calls) != want.Summary.MappingEvents {
					t.Fatalf("%s: called %d times (%d while full) in %d events", label, every.calls, every.full, want.Summary.MappingEvents)
				}
				if every.actedWhenFull != 0 {
					t.Fatalf("%s: assigned or deferred %d tasks at events with every queue full", label, every.actedWhenFull)
				}
				if skips.full != 0 || skips.calls != every.calls-every.full {
					t.Fatalf("%s: skipping, called %d times (%d while full); every event: %d calls, %d full", label, skips.calls, skips.full, every.calls, every.full)
				}
			}
			if fullEvents == 0 {
				t.Fatal("no event found every queue full: the workloads test nothing")
			}
		})
	}
}
