package heuristic

import (
	"fmt"
	"slices"
	"strings"

	"github.com/hcreplay/hcreplay/replay"
)

// Params are the heuristics' tunable parameters; each heuristic reads the ones it documents.
type Params struct {
	KPBPercent    float64 // KPB and MR: percent of machines with the best expected execution time (default 50)
	MOCCull       float64 // MOC: tasks whose best success chance is not above this stay in the batch (default 0.30)
	MOCCandidates int     // MOC: candidates permuted per machine (default 3)
}

// DefaultParams are the [IMPL] defaults of the reference notes.
func DefaultParams() Params {
	return Params{KPBPercent: 50, MOCCull: 0.30, MOCCandidates: 3}
}

// Info describes one registered heuristic.
type Info struct {
	Name   string
	Mode   replay.Mode
	Source string // paper and section
	Params string // which Params fields it reads
	Alias  string // another name for it, if any
	New    func(Params) replay.Mapper
}

// registry lists every heuristic, built fresh on each call so that no package state is shared.
func registry() []Info {
	return []Info{
		{Name: "MM", Mode: replay.Batch, Source: "thesis §3.3.1.1; 004 §V.A", New: func(Params) replay.Mapper { return MM{} }},
		{Name: "MSD", Mode: replay.Batch, Source: "thesis §3.3.1.2; 004 §V.C", New: func(Params) replay.Mapper { return MSD{} }},
		{Name: "MMU", Mode: replay.Batch, Source: "thesis §3.3.1.3, Eq 3.6; 004 §V.B", New: func(Params) replay.Mapper { return MMU{} }},
		{Name: "FCFS", Mode: replay.Immediate, Source: "thesis §3.3.2.1", New: func(Params) replay.Mapper { return FCFS{} }},
		{Name: "MCT", Alias: "MECT", Mode: replay.Immediate, Source: "thesis §3.3.2.3; 004 §VII (MECT)", New: func(Params) replay.Mapper { return MCT{} }},
	}
}

// All returns every heuristic, sorted by mode then name.
func All() []Info {
	all := registry()
	slices.SortFunc(all, func(a, b Info) int {
		if a.Mode != b.Mode {
			return int(a.Mode) - int(b.Mode)
		}
		return strings.Compare(a.Name, b.Name)
	})
	return all
}

// Lookup finds a heuristic by name or alias, ignoring case.
func Lookup(name string) (Info, error) {
	var names []string
	for _, h := range registry() {
		if strings.EqualFold(h.Name, name) || (h.Alias != "" && strings.EqualFold(h.Alias, name)) {
			return h, nil
		}
		names = append(names, h.Name)
	}
	slices.Sort(names)
	return Info{}, fmt.Errorf("unknown heuristic %q: want one of %s", name, strings.Join(names, ", "))
}
