package replay

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/hcreplay/hcreplay/pmf"
)

// asker is a batch mapper that asks the engine everything that fills its caches (groups, bounds,
// floors, chances, completions, queues) before mapping as greedyBest does, so that an engine it
// ran leaves every piece of storage used; hoarder asks the same and maps nothing, so that its
// replay ends with tasks in the batch, in their groups and in the memo.
var (
	asker   = mapperFunc{"asker", Batch, func(ev Event) { ask(ev); greedy(ev, nil) }}
	hoarder = mapperFunc{"hoarder", Batch, ask}
)

func ask(ev Event) {
	ev.BatchGroups()
	batch := ev.Batch()
	for m := range ev.NumMachines() {
		ev.Queue(m)
		ev.QueueFloors(m)
		ev.CompletionBounds(batch, m, nil)
		for _, h := range batch {
			ev.SuccessBound(h, m)
			ev.Completion(h, m)
		}
	}
}

// TestRecycledEngineIsFresh: an engine built on the storage of one that has replayed (Scratch)
// holds exactly what an engine built afresh for the same replay holds, the chance engine's state
// included, whatever the two replays' sizes: only the capacity of its storage differs. The
// comparison walks both engines field by field (sameState); it is what lets a replay with a
// Scratch decide as a fresh one does, which prune's TestScratchReplaysAsFresh checks end to end.
func TestRecycledEngineIsFresh(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 33))
	for i := range 24 {
		var s Scratch
		for k := range 2 { // the second replay leaves an engine that was itself recycled
			first := Config{PET: randomPET(r, 4, 3, 6, 15, 1), Machines: machinesOf(0, 1, 2, 2, 1)[:2+r.IntN(4)],
				Tasks: randomTasks(r, 60, 4, 0.5+r.Float64(), 2, 20), Options: DefaultOptions(), Scratch: &s}
			first.Options.DropModel = []pmf.Model{pmf.Evict, pmf.Pending, pmf.None}[i%3]
			first.Options.Engine = []string{"fast", "approx"}[i%2]
			first.Options.QueueSize = 2 + r.IntN(3)
			run(t, first, []Mapper{asker, hoarder}[(i+k)%2])
		}
		cfg := Config{PET: randomPET(r, 3, 3, 6, 15, 1), Machines: machinesOf(2, 0, 1)[:1+r.IntN(3)],
			Tasks: randomTasks(r, 30, 3, 1, 2, 20), Options: DefaultOptions()}
		cfg.Options.Engine = []string{"fast", "approx"}[i/2%2]
		fresh, err := newEngine(cfg, asker, chancesOf(cfg.Options.Engine))
		if err != nil {
			t.Fatal(err)
		}
		cfg.Scratch = &s
		recycled, err := newEngine(cfg, asker, chancesOf(cfg.Options.Engine))
		if err != nil {
			t.Fatal(err)
		}
		if s.e != nil {
			t.Fatal("the scratch still holds the engine it gave away")
		}
		if diff := sameState(reflect.ValueOf(recycled).Elem(), reflect.ValueOf(fresh).Elem(), "engine"); diff != "" {
			t.Fatalf("workload %d: the recycled engine differs from a fresh one at %s", i, diff)
		}
	}
}

// chancesOf is the chance engine Run makes for engine.
func chancesOf(engine string) func(*engine) chancer {
	if engine == "approx" {
		return newApprox
	}
	return newFast
}

// sameState reports where a and b, two values of one type, hold different state (empty when they
// hold the same): slices by their elements, not their capacity (and the fast engine's memo,
// whose zero entries are none, up to zero entries at its end), maps by their entries, pointers
// by what they point to. It skips what is storage by design (pmf.Buffer, whose contents are
// scratch; typeGroups.free, which must hold empty lists), functions, the clock (began), the
// Config's Scratch, and pointers back to an engine.
func sameState(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Struct:
		if a.Type() == reflect.TypeFor[pmf.Buffer]() {
			return ""
		}
		for i := range a.NumField() {
			name := a.Type().Field(i).Name
			switch name {
			case "began", "Scratch": // the clock; the Config's scratch, the only one given it
				continue
			case "free": // typeGroups' storage for new groups: empty lists only
				if a.Type() != reflect.TypeFor[typeGroups]() {
					break
				}
				for j := range a.Field(i).Len() {
					if n := a.Field(i).Index(j).Len(); n != 0 {
						return fmt.Sprintf("%s.free[%d]: %d tasks", path, j, n)
					}
				}
				continue
			}
			if d := sameState(a.Field(i), b.Field(i), path+"."+name); d != "" {
				return d
			}
		}
	case reflect.Slice:
		la, lb := a.Len(), b.Len()
		if la != lb && !(a.Type() == reflect.TypeFor[[]memoEntry]() && zeroFrom(a, lb) && zeroFrom(b, la)) {
			return fmt.Sprintf("%s: length %d, fresh %d", path, la, lb)
		}
		for i := range min(la, lb) {
			if d := sameState(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	case reflect.Array:
		for i := range a.Len() {
			if d := sameState(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); d != "" {
				return d
			}
		}
	case reflect.Map:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: %d entries, fresh %d", path, a.Len(), b.Len())
		}
		for it := a.MapRange(); it.Next(); {
			if d := sameState(it.Value(), b.MapIndex(it.Key()), fmt.Sprintf("%s[%v]", path, it.Key())); d != "" {
				return d
			}
		}
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": nil on one side"
			}
			return ""
		}
		if a.Kind() == reflect.Interface && a.Elem().Type() != b.Elem().Type() {
			return fmt.Sprintf("%s: %v, fresh %v", path, a.Elem().Type(), b.Elem().Type())
		}
		if a.Type() == reflect.TypeFor[*engine]() {
			return ""
		}
		return sameState(a.Elem(), b.Elem(), path)
	case reflect.Func:
	case reflect.Float32, reflect.Float64:
		if x, y := a.Float(), b.Float(); x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
			return fmt.Sprintf("%s: %v, fresh %v", path, x, y)
		}
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return fmt.Sprintf("%s: %v, fresh %v", path, a.Bool(), b.Bool())
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return fmt.Sprintf("%s: %v, fresh %v", path, a.Int(), b.Int())
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			return fmt.Sprintf("%s: %v, fresh %v", path, a.Uint(), b.Uint())
		}
	case reflect.String:
		if a.String() != b.String() {
			return fmt.Sprintf("%s: %q, fresh %q", path, a.String(), b.String())
		}
	default:
		return fmt.Sprintf("%s: cannot compare a %v", path, a.Kind())
	}
	return ""
}

// zeroFrom reports whether every element of s from index i on is zero.
func zeroFrom(s reflect.Value, i int) bool {
	for ; i < s.Len(); i++ {
		if !s.Index(i).IsZero() {
			return false
		}
	}
	return true
}
