package speculate

import (
	"slices"
	"testing"

	"github.com/hcreplay/hcreplay/replay"
)

func TestIdenticalMachines(t *testing.T) {
	ms := IdenticalMachines(3)
	if len(ms) != 3 || ms[0].Name != "node-0" || ms[2].Name != "node-2" {
		t.Fatalf("machines %+v", ms)
	}
	for _, m := range ms {
		if m.Type != 0 || m.PricePerHour != ms[0].PricePerHour || m.PowerWatts != ms[0].PowerWatts {
			t.Errorf("machine %+v differs from %+v", m, ms[0])
		}
	}
}

func TestReplicateAndTypeWeights(t *testing.T) {
	in := []replay.Machine{{Name: "cpu", Type: 0, PricePerHour: 1}, {Name: "gpu", Type: 2, PowerWatts: 300}}
	got := Replicate(in, 3)
	var names []string
	for _, m := range got {
		names = append(names, m.Name)
	}
	if want := []string{"cpu-0", "cpu-1", "cpu-2", "gpu-0", "gpu-1", "gpu-2"}; !slices.Equal(names, want) {
		t.Errorf("names %v, want %v", names, want)
	}
	if got[4].Type != 2 || got[4].PowerWatts != 300 || got[1].PricePerHour != 1 {
		t.Errorf("copies lost their type, price or power: %+v", got)
	}
	if w := TypeWeights(got, 3); !slices.Equal(w, []float64{3, 0, 3}) {
		t.Errorf("TypeWeights = %v, want [3 0 3]", w)
	}
}

func TestTimeUnitName(t *testing.T) {
	for sec, want := range map[float64]string{1: "s", 0.001: "ms", 60: "60s", 0.25: "0.25s", 1e-9: "1e-09s"} {
		if got := TimeUnitName(sec); got != want {
			t.Errorf("TimeUnitName(%v) = %q, want %q", sec, got, want)
		}
	}
}
