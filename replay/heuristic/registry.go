package heuristic

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/hcreplay/hcreplay/replay"
)

// Params are the heuristics' tunable parameters; each heuristic reads the ones it documents.
// The booleans are the readings the references disagree on; their zero values are the [IMPL]
// defaults of reference/thesis-2018.md §3.
type Params struct {
	KPBPercent    float64 // KPB and MR: percent of machines with the best expected execution time (default 50)
	MOCCull       float64 // MOC: tasks whose best chance is not above this stay in the batch (default 0.30)
	MOCCandidates int     // MOC: candidates permuted per machine (default 3)

	// Phase1All makes phase 1 of the batch heuristics look at every machine, not only those with
	// a free slot; a task whose chosen machine is full is skipped for the rest of the mapping
	// event (004 Alg. 2). Default false: free machines only (thesis §3.1 [IMPL]), so no task
	// waits for a full machine while another has room.
	Phase1All bool
	// GlobalPhase2 makes phase 2 of MM, MSD and Sufferage one global pick of the best pair, then
	// phase 1 again (004 Alg. 2), instead of one pick per machine with a free slot per round
	// (000/003, thesis §3.1 [IMPL], the default). MMU, MaxMin, EDF and SJF are global as written.
	GlobalPhase2 bool
	// ETC computes expected completion in the ETC style, Ready(m)'s mean plus the mean execution
	// times of the waiting tasks and of the task itself, instead of the mean of the drop-aware
	// completion PMF (thesis §3.0, readings (b) and (a); default (a)). The two agree under drop
	// model none. Every heuristic that ranks by expected completion or free time reads it.
	ETC bool
}

// ReadsSkewness is false: no heuristic of this package reads QueueChance.Skewness, so each lets
// the engine skip it (replay.SkewnessReader), through the Params it embeds or, for the two that
// embed none (MET, RR), a method of its own.
func (Params) ReadsSkewness() bool { return false }

// MaxMOCCandidates is the most candidates MOC may permute per machine: it scores every ordering
// of them, and 8! = 40,320 orderings at each machine, round and event already take seconds a
// replay; past that a mistyped count would not finish.
const MaxMOCCandidates = 8

// Validate reports the first parameter outside its range, whichever heuristic reads it: a
// percent of machines in [0, 100] (0 still keeps one machine), a chance threshold in [0, 1], and
// 1 to MaxMOCCandidates candidates.
func (p Params) Validate() error {
	switch {
	case !(p.KPBPercent >= 0 && p.KPBPercent <= 100):
		return fmt.Errorf("KPB percent %v outside [0, 100]", p.KPBPercent)
	case !(p.MOCCull >= 0 && p.MOCCull <= 1):
		return fmt.Errorf("MOC cull %v outside [0, 1]", p.MOCCull)
	case p.MOCCandidates < 1 || p.MOCCandidates > MaxMOCCandidates:
		return fmt.Errorf("MOC candidates %d outside 1 to %d (every ordering of them is scored)", p.MOCCandidates, MaxMOCCandidates)
	}
	return nil
}

// DefaultParams are the [IMPL] defaults of the reference notes.
func DefaultParams() Params {
	return Params{KPBPercent: 50, MOCCull: 0.30, MOCCandidates: 3}
}

// Info describes one registered heuristic.
type Info struct {
	Name   string
	Mode   replay.Mode
	Source string   // paper and section
	Params string   // the Params fields it reads, with their defaults
	fields []string // their names, formatted into Params only for the Info a caller gets
	Alias  string   // another name for it, if any
	New    func(Params) replay.Mapper
}

// registry lists every heuristic, built fresh on each call so that no package state is shared,
// with Params left to described: formatting every heuristic's, for the one a replay looks up,
// took 85 allocations and 0.7% of a 1,000-task MM replay.
func registry() []Info {
	return []Info{
		{Name: "MM", Mode: replay.Batch, Source: "Gentry 2018 §3.3.1.1; Smith et al. 2010 §V.A",
			fields: batchFields("GlobalPhase2"), New: func(p Params) replay.Mapper { return MM{Params: p, storage: storage{new(buffers)}} }},
		{Name: "MSD", Mode: replay.Batch, Source: "Gentry 2018 §3.3.1.2; Smith et al. 2010 §V.C",
			fields: batchFields("GlobalPhase2"), New: func(p Params) replay.Mapper { return MSD{Params: p, storage: storage{new(buffers)}} }},
		{Name: "MMU", Mode: replay.Batch, Source: "Gentry 2018 §3.3.1.3, Eq 3.6; Smith et al. 2010 §V.B",
			fields: batchFields(), New: func(p Params) replay.Mapper { return MMU{Params: p, storage: storage{new(buffers)}} }},
		{Name: "PAM", Mode: replay.Batch, Source: "Denninnart et al. 2020 §6.3.1; Gentry 2018 §4.3, Alg. 2; Gentry et al. 2019 §V",
			fields: batchFields(), New: func(p Params) replay.Mapper { return PAM{Params: p, storage: storage{new(buffers)}} }},
		{Name: "MOC", Mode: replay.Batch, Source: "Smith et al. 2010 §V.D, Alg. 1; Gentry 2018 §3.3.1.4",
			fields: batchFields("MOCCull", "MOCCandidates"), New: func(p Params) replay.Mapper { return MOC{Params: p, storage: storage{new(buffers)}} }},
		{Name: "MaxMin", Mode: replay.Batch, Source: "Braun et al. 2001; Ibarra & Kim 1977",
			fields: batchFields(), New: func(p Params) replay.Mapper { return MaxMin{Params: p, storage: storage{new(buffers)}} }},
		{Name: "Sufferage", Mode: replay.Batch, Source: "Maheswaran et al. 1999",
			fields: batchFields("GlobalPhase2"), New: func(p Params) replay.Mapper { return Sufferage{Params: p, storage: storage{new(buffers)}} }},
		{Name: "EDF", Mode: replay.Batch, Source: "Gentry 2018 §3.3.3.2",
			fields: batchFields(), New: func(p Params) replay.Mapper { return EDF{Params: p, storage: storage{new(buffers)}} }},
		{Name: "SJF", Mode: replay.Batch, Source: "Gentry 2018 §3.3.3.3",
			fields: batchFields(), New: func(p Params) replay.Mapper { return SJF{Params: p, storage: storage{new(buffers)}} }},
		{Name: "FCFS", Mode: replay.Immediate, Source: "Gentry 2018 §3.3.2.1, §3.3.3.1",
			fields: []string{"ETC"}, New: func(p Params) replay.Mapper { return FCFS{p} }},
		{Name: "MET", Mode: replay.Immediate, Source: "Gentry 2018 §3.3.2.2; Braun et al. 2001",
			New: func(Params) replay.Mapper { return MET{storage: storage{new(buffers)}} }},
		{Name: "MCT", Alias: "MECT", Mode: replay.Immediate, Source: "Gentry 2018 §3.3.2.3; Smith et al. 2010 §VII (MECT)",
			fields: []string{"ETC"}, New: func(p Params) replay.Mapper { return MCT{Params: p, storage: storage{new(buffers)}} }},
		{Name: "KPB", Mode: replay.Immediate, Source: "Gentry 2018 §3.3.2.4; Maheswaran et al. 1999",
			fields: []string{"KPBPercent", "ETC"}, New: func(p Params) replay.Mapper { return KPB{Params: p, storage: storage{new(buffers)}} }},
		{Name: "MR", Mode: replay.Immediate, Source: "Gentry 2018 §3.3.2.5",
			fields: []string{"KPBPercent", "ETC"}, New: func(p Params) replay.Mapper { return MR{Params: p, storage: storage{new(buffers)}} }},
		{Name: "OLB", Mode: replay.Immediate, Source: "Braun et al. 2001; Maheswaran et al. 1999",
			fields: []string{"ETC"}, New: func(p Params) replay.Mapper { return OLB{p} }},
		{Name: "RR", Mode: replay.Immediate, Source: "round robin (classic baseline)",
			New: func(Params) replay.Mapper { return &RR{} }},
	}
}

// batchFields lists the Params fields of a batch heuristic: its own, then the template's.
func batchFields(own ...string) []string {
	return append(own, "Phase1All", "ETC")
}

// described is h with Params formatted from its fields and their default values,
// "MOCCull=0.3, ETC=false". A misspelt name panics, which the registry tests catch.
func described(h Info) Info {
	d := reflect.ValueOf(DefaultParams())
	var parts []string
	for _, n := range h.fields {
		parts = append(parts, fmt.Sprintf("%s=%v", n, d.FieldByName(n).Interface()))
	}
	h.Params = strings.Join(parts, ", ")
	return h
}

// All returns every heuristic, sorted by mode then name.
func All() []Info {
	all := registry()
	for i := range all {
		all[i] = described(all[i])
	}
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
			return described(h), nil
		}
		names = append(names, h.Name)
	}
	slices.Sort(names)
	return Info{}, fmt.Errorf("unknown heuristic %q: want one of %s", name, strings.Join(names, ", "))
}
