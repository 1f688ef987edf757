package prune

import (
	"fmt"
	"strings"

	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
)

// Preset is a named variant of a heuristic from the papers: the base heuristic with its
// parameters and pruning set as the paper describes it.
type Preset struct {
	Name, Base, Source, Doc string
	tune                    func(*heuristic.Params, *Config)
}

// Presets lists the named variants of the thesis and the journal paper.
func Presets() []Preset {
	return []Preset{
		{Name: "PAMF", Base: "PAM", Source: "Denninnart et al. 2020 §6.3.2",
			Doc: "PAM with fairness: sufferage factor ϑ = 10% (the journal's choice) unless --fairness is set; pruning both unless given",
			tune: func(_ *heuristic.Params, c *Config) {
				if c.Fairness == 0 {
					c.Fairness = 0.10
				}
				if c.Variant == None {
					c.Variant = Both
				}
			}},
		{Name: "MOCA", Base: "MOC", Source: "Gentry 2018 §4.4.3.1",
			Doc:  "MOC made aware of the pruning threshold: cull at 75%",
			tune: func(p *heuristic.Params, _ *Config) { p.MOCCull = 0.75 }},
		{Name: "PUM", Base: "PAM", Source: "Gentry 2018 §4.4.3.1",
			Doc: "Pruning-Unaware Mapper: PAM deferring at MOC's 30%, dropping at 75%",
			tune: func(_ *heuristic.Params, c *Config) {
				c.Variant, c.Defer, c.DropThreshold = Both, DeferRule{Kind: "static", Value: 0.30}, 0.75
			}},
		{Name: "PAMND", Base: "PAM", Source: "Gentry 2018 §4.4.5, Fig 4.6",
			Doc:  "PAM with deferring and no dropping",
			tune: func(_ *heuristic.Params, c *Config) { c.Variant = Defer }},
	}
}

// New builds the mapper a user names: a heuristic or a preset, with its parameters and pruning,
// each checked against its range (heuristic.Params.Validate, and the pruning's own). The name of
// the result carries the variant suffix (MM-P, PAM-D, ...).
func New(name string, p heuristic.Params, cfg Config) (replay.Mapper, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	for _, pr := range MapperProblems(name, p, cfg) {
		if pr.Fatal {
			return nil, fmt.Errorf("%s: %s", name, pr)
		}
	}
	base, p, cfg := Resolve(name, p, cfg)
	info, err := heuristic.Lookup(base)
	if err != nil {
		var names []string
		for _, pre := range Presets() {
			names = append(names, pre.Name)
		}
		return nil, fmt.Errorf("%w (or a preset: %s)", err, strings.Join(names, ", "))
	}
	m, err := Wrap(info.New(p), cfg)
	if err != nil {
		return nil, err
	}
	if base != name {
		return renamed{m, strings.ToUpper(name) + cfg.Variant.Suffix()}, nil
	}
	return m, nil
}

// Resolve is what New builds for name: the heuristic it runs, with the parameters and pruning
// it runs with. A heuristic's name resolves to itself, unchanged; a preset's to its base, tuned
// as the preset says. Two names that resolve alike make the same mapper under two labels, as
// PAM and PAMF do, pruned, once the fairness factor is set for both.
func Resolve(name string, p heuristic.Params, cfg Config) (base string, _ heuristic.Params, _ Config) {
	for _, pre := range Presets() {
		if strings.EqualFold(pre.Name, name) {
			pre.tune(&p, &cfg)
			return pre.Base, p, cfg
		}
	}
	return name, p, cfg
}

// Kind is what a mapper runs (Resolve): two names of one Kind make the same mapper under two
// labels, and their runs are equal, as PAM-P's and PAMF-P's are once the fairness factor is set
// for both. Kinds are comparable, so that a sweep can key a map with them.
type Kind struct {
	base    string // the heuristic's name, upper case: names are case-insensitive
	params  heuristic.Params
	pruning pruningKey
}

// pruningKey is a Config without IsMiss, a function, which compares equal only when nil, and is
// the same for every mapper of a replay or a sweep (TestKindCoversConfig keeps the two in step).
type pruningKey struct {
	variant           Variant
	toggle            Toggle
	lambda, drop, rho float64
	deferRule         DeferRule
	fairness          float64
	deferAt           DeferPlace
	dropRunning       RunningDrop
	sufferExpired     bool
}

// KindOf is the Kind name makes with parameters p and pruning cfg. An alias (MECT) is of its
// heuristic's kind (MCT).
func KindOf(name string, p heuristic.Params, cfg Config) Kind {
	base, p, cfg := Resolve(name, p, cfg)
	if h, err := heuristic.Lookup(base); err == nil {
		base = h.Name
	}
	return Kind{strings.ToUpper(base), p, pruningKey{cfg.Variant, cfg.Toggle, cfg.Lambda, cfg.DropThreshold, cfg.Rho, cfg.Defer, cfg.Fairness,
		cfg.DeferAt, cfg.DropRunning, cfg.SufferExpired}}
}

// renamed reports a preset under its own name.
type renamed struct {
	replay.Mapper
	name string
}

func (r renamed) Name() string { return r.name }

// PrunerSeconds passes the pruner's time through the rename.
func (r renamed) PrunerSeconds() float64 {
	if p, ok := r.Mapper.(interface{ PrunerSeconds() float64 }); ok {
		return p.PrunerSeconds()
	}
	return 0
}

// ReadsSkewness passes the question through the rename (replay.SkewnessReader).
func (r renamed) ReadsSkewness() bool { return replay.ReadsSkewness(r.Mapper) }

// WaitsForSlot passes the question through the rename (replay.SlotWaiter): a pruner does not
// say so, a heuristic with no pruning may.
func (r renamed) WaitsForSlot() bool { return replay.WaitsForSlot(r.Mapper) }

// Readings passes the pruner's semantic choices through the rename (replay.PruningReadings).
func (r renamed) Readings() replay.Readings {
	if p, ok := r.Mapper.(replay.PruningReadings); ok {
		return p.Readings()
	}
	return replay.Readings{}
}

// Variant passes the pruning variant through the rename.
func (r renamed) Variant() string {
	if p, ok := r.Mapper.(interface{ Variant() string }); ok {
		return p.Variant()
	}
	return None.String()
}

// Recycle passes an earlier replay's mapper through the rename (replay.Scratch).
func (r renamed) Recycle(old replay.Mapper) { recycleInner(r.Mapper, old) }
