package heuristic

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/hcreplay/hcreplay/internal/replaytest"
	"github.com/hcreplay/hcreplay/replay"
)

// TestRecycleTakesTheMemo: a replay given the Scratch of an MM replay before it takes that MM's
// completion memo, grown, and leaves the old MM none (nothing is shared); an MM replayed again
// on its own Scratch keeps its memo; and all three replays decide as fresh ones do.
func TestRecycleTakesTheMemo(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	cfg := replay.Config{PET: replaytest.RandomPET(r, 4, 3, 6, 16),
		Machines: []replay.Machine{{Type: 0}, {Type: 1}, {Type: 2}, {Type: 2}},
		Tasks:    replaytest.RandomTasks(r, 200, 4, 3, 2, 30), Options: replay.DefaultOptions()}
	var scratch replay.Scratch
	run := func(m replay.Mapper, s *replay.Scratch) string {
		c := cfg
		c.Scratch = s
		res, err := replay.Run(t.Context(), c, m)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf("%+v\n%+v", res.Summary, res.Outcomes)
	}
	fresh := run(MM{Params: DefaultParams(), storage: storage{new(buffers)}}, nil)
	first := MM{Params: DefaultParams(), storage: storage{new(buffers)}}
	if got := run(first, &scratch); got != fresh {
		t.Fatalf("first replay with the scratch:\n%s\nfresh:\n%s", got, fresh)
	}
	grown := cap(first.buf.memo.at)
	if grown == 0 {
		t.Fatal("MM's replay grew no memo: the test checks nothing")
	}
	second := MM{Params: DefaultParams(), storage: storage{new(buffers)}}
	if got := run(second, &scratch); got != fresh {
		t.Fatalf("second replay, on the first's memo:\n%s\nfresh:\n%s", got, fresh)
	}
	if first.buf.memo.at != nil || cap(second.buf.memo.at) < grown {
		t.Errorf("the first MM still holds a memo of %d, the second's has room for %d of the first's %d", cap(first.buf.memo.at), cap(second.buf.memo.at), grown)
	}
	if got := run(second, &scratch); got != fresh || cap(second.buf.memo.at) < grown {
		t.Errorf("MM replayed again on its own scratch: memo of %d (had %d), decisions the same: %v", cap(second.buf.memo.at), grown, got == fresh)
	}
}
