package sweep

import (
	"reflect"
	"testing"
)

// TestPointKeyCoversSweepRun: every field of SweepRun is either the run's bookkeeping, of its
// mapper (prune.KindOf, through mapperSpec) or in pointKey; a field added to SweepRun without a
// place here could make two different replays look alike to sameMapperWarnings.
func TestPointKeyCoversSweepRun(t *testing.T) {
	known := map[string]string{
		"Index": "bookkeeping", "Key": "bookkeeping", "Point": "bookkeeping", "Trial": "bookkeeping",
		"Heuristic": "mapper", "Prune": "mapper", "Toggle": "mapper", "Lambda": "mapper", "DropThreshold": "mapper",
		"Rho": "mapper", "Defer": "mapper", "Fairness": "mapper", "KPBPercent": "mapper", "MOCCull": "mapper",
		"DeferAt": "mapper", "DropRunning": "mapper", "SufferageExpired": "mapper",
		"Level": "key", "QueueSize": "key", "DropModel": "key", "Strict": "key", "ConditionElapsed": "key",
		"Trim": "key", "Seed": "key", "Engine": "key",
	}
	keyFields := 0
	for f := range reflect.TypeFor[SweepRun]().Fields() {
		switch known[f.Name] {
		case "":
			t.Errorf("SweepRun.%s: say whether it is of the mapper (mapperSpec) or of the replay (pointKey)", f.Name)
		case "key":
			keyFields++
		}
	}
	if n := reflect.TypeFor[pointKey]().NumField() - 1; n != keyFields { // less the kind
		t.Errorf("pointKey holds %d of SweepRun's fields, want %d", n, keyFields)
	}
}
