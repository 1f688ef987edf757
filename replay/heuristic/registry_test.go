package heuristic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hcreplay/hcreplay/replay"
)

// TestRegistry: every heuristic of SPEC §5.2 that this package implements is listed once, sorted
// by mode then name, with a source, and its mapper has the registered name and mode and says
// it reads no skewness.
func TestRegistry(t *testing.T) {
	want := []string{"EDF", "MM", "MMU", "MOC", "MSD", "MaxMin", "PAM", "SJF", "Sufferage", // batch
		"FCFS", "KPB", "MCT", "MET", "MR", "OLB", "RR"} // immediate
	all := All()
	var names []string
	seen := map[string]bool{}
	for _, h := range all {
		names = append(names, h.Name)
		for _, n := range []string{h.Name, h.Alias} {
			if n == "" {
				continue
			}
			if seen[strings.ToLower(n)] {
				t.Errorf("name %q is registered twice", n)
			}
			seen[strings.ToLower(n)] = true
		}
		if h.Source == "" || h.New == nil {
			t.Errorf("%s: no source or no constructor", h.Name)
			continue
		}
		m := h.New(DefaultParams())
		if m.Name() != h.Name || m.Mode() != h.Mode {
			t.Errorf("%s (%v): mapper says %s (%v)", h.Name, h.Mode, m.Name(), m.Mode())
		}
		if replay.ReadsSkewness(m) {
			t.Errorf("%s reads no skewness and should let the engine skip it", h.Name)
		}
	}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("All() = %v, want %v", names, want)
	}
	for _, h := range all[:8] {
		if h.Mode != replay.Batch {
			t.Errorf("%s is %v, want batch", h.Name, h.Mode)
		}
	}
}

func TestLookup(t *testing.T) {
	for _, name := range []string{"MM", "mm", "Mm", "maxmin", "MAXMIN", "sufferage", "mct", "MECT", "mect", "rr"} {
		h, err := Lookup(name)
		if err != nil {
			t.Errorf("Lookup(%q): %v", name, err)
			continue
		}
		if !strings.EqualFold(h.Name, name) && !strings.EqualFold(h.Alias, name) {
			t.Errorf("Lookup(%q) = %s", name, h.Name)
		}
	}
	if h, _ := Lookup("MECT"); h.Name != "MCT" {
		t.Errorf("Lookup(MECT) = %s, want MCT", h.Name)
	}
	_, err := Lookup("MinMin")
	if err == nil {
		t.Fatal("Lookup(MinMin) found a heuristic")
	}
	for _, h := range All() {
		if !strings.Contains(err.Error(), h.Name) {
			t.Errorf("error %q does not list %s", err, h.Name)
		}
	}
	if !strings.Contains(err.Error(), `"MinMin"`) {
		t.Errorf("error %q does not name what was asked for", err)
	}
}

// TestParamsListed: the parameter column names real Params fields with their defaults.
func TestParamsListed(t *testing.T) {
	want := map[string]string{
		"MM":  "GlobalPhase2=false, Phase1All=false, ETC=false",
		"MOC": "MOCCull=0.3, MOCCandidates=3, Phase1All=false, ETC=false",
		"KPB": "KPBPercent=50, ETC=false",
		"RR":  "",
	}
	for name, params := range want {
		if h, _ := Lookup(name); h.Params != params {
			t.Errorf("%s params %q, want %q", name, h.Params, params)
		}
	}
}

// TestRRFreshPerRun: two mappers from the registry do not share a counter.
func TestRRFreshPerRun(t *testing.T) {
	info, _ := Lookup("RR")
	a, b := info.New(DefaultParams()).(*RR), info.New(DefaultParams()).(*RR)
	a.mapped = 5
	if b.mapped != 0 {
		t.Fatal("RR mappers share their counter")
	}
}

// freshEach is a heuristic made anew for every mapping event, so that nothing it keeps in its
// buffers survives from one event to the next.
type freshEach struct {
	Info
	p Params
}

func (f freshEach) Name() string        { return f.Info.Name }
func (f freshEach) Mode() replay.Mode   { return f.Info.Mode }
func (f freshEach) Map(ev replay.Event) { f.New(f.p).Map(ev) }

// TestBuffersCarryNothing: a heuristic that reuses its buffers across mapping events decides
// exactly as one made afresh for each event, on random crowded workloads with every drop model
// and template reading (RR keeps a count between events by design and is left out).
func TestBuffersCarryNothing(t *testing.T) {
	for _, h := range All() {
		if h.Name == "RR" {
			continue
		}
		t.Run(h.Name, func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(41, uint64(len(h.Name))))
			for trial := range 9 {
				cfg, p := crowdedTrial(r, trial)
				sameDecisions(t, fmt.Sprintf("trial %d %+v, fresh buffers (oracle) vs reused", trial, p), cfg, freshEach{h, p}, h.New(p))
			}
		})
	}
}

// TestParamsValidate checks each parameter's range at its ends and past them; the defaults are
// in range.
func TestParamsValidate(t *testing.T) {
	for _, c := range []struct {
		name string
		set  func(*Params)
		want string // "" for valid
	}{
		{"defaults", func(*Params) {}, ""},
		{"kpb 0", func(p *Params) { p.KPBPercent = 0 }, ""},
		{"kpb 100", func(p *Params) { p.KPBPercent = 100 }, ""},
		{"kpb above", func(p *Params) { p.KPBPercent = 100.5 }, "KPB percent 100.5 outside [0, 100]"},
		{"kpb negative", func(p *Params) { p.KPBPercent = -1 }, "KPB percent -1"},
		{"kpb NaN", func(p *Params) { p.KPBPercent = math.NaN() }, "KPB percent NaN"},
		{"cull 1", func(p *Params) { p.MOCCull = 1 }, ""},
		{"cull Inf", func(p *Params) { p.MOCCull = math.Inf(1) }, "MOC cull +Inf outside [0, 1]"},
		{"cull NaN", func(p *Params) { p.MOCCull = math.NaN() }, "MOC cull NaN"},
		{"candidates 1", func(p *Params) { p.MOCCandidates = 1 }, ""},
		{"candidates max", func(p *Params) { p.MOCCandidates = MaxMOCCandidates }, ""},
		{"candidates 0", func(p *Params) { p.MOCCandidates = 0 }, "MOC candidates 0 outside 1 to 8"},
		{"candidates past max", func(p *Params) { p.MOCCandidates = MaxMOCCandidates + 1 }, "MOC candidates 9"},
	} {
		p := DefaultParams()
		c.set(&p)
		err := p.Validate()
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
}
