package prune

import (
	"github.com/hcreplay/hcreplay/replay/heuristic"
)

// Choice is one mapper of a replay: a heuristic or preset under a pruning variant, and the
// mapper's own name for it (MM-P; PAMF under any variant is PAMF-P).
type Choice struct {
	Name, Label string
	Pruning     Config
	// SameAs is the label of an earlier choice of the same Kind, or "": the two are one mapper
	// under two labels, and a replay runs the first.
	SameAs string
	// Warnings are what makes its pruning do nothing, or too much (MapperProblems, not fatal).
	Warnings []Problem
}

// ProblemError is Choose's refusal of a mapper with a fatal problem (MapperProblems).
type ProblemError struct {
	Name, Variant string // as the caller gave them
	Problem       Problem
}

func (e *ProblemError) Error() string { return e.Name + " " + e.Variant + ": " + e.Problem.String() }

// Choose lists the mappers of names × variants (heuristics or presets, and variant names for
// ParseVariant), each once, in the order given: a heuristic first, then its variants; base is
// the pruning of them all but for the variant. Asking for the same mapper twice (PAMF with none
// and both) gives it once. Two names that make the same mapper under two labels (PAM-P and
// PAMF-P once a fairness factor is set) are two choices, the second with the first's label in
// SameAs.
func Choose(names, variants []string, p heuristic.Params, base Config) ([]Choice, error) {
	var out []Choice
	var kinds []Kind // out's
	seen := map[string]bool{}
	for _, name := range names {
		for _, v := range variants {
			cfg := base
			var err error
			if cfg.Variant, err = ParseVariant(v); err != nil {
				return nil, err
			}
			var warnings []Problem
			for _, pr := range MapperProblems(name, p, cfg) {
				if pr.Fatal {
					return nil, &ProblemError{name, v, pr}
				}
				warnings = append(warnings, pr)
			}
			m, err := New(name, p, cfg)
			if err != nil {
				return nil, err
			}
			if seen[m.Name()] {
				continue
			}
			seen[m.Name()] = true
			c := Choice{Name: name, Label: m.Name(), Pruning: cfg, Warnings: warnings}
			kind := KindOf(name, p, cfg)
			for i, k := range kinds {
				if k == kind {
					c.SameAs = out[i].Label
					break
				}
			}
			out, kinds = append(out, c), append(kinds, kind)
		}
	}
	return out, nil
}

// Unread lists the options of set that differ from DefaultConfig's and that none of choices
// reads after its preset's tuning (Resolve), as the sweep's grid keys name them: with no mapper
// that drops, a dropping threshold of 0.3 changes nothing. A deferring mapper reads the
// dropping threshold too unless its deferring threshold is static (gap and dynamic start from
// it). p are the heuristic parameters the choices run with; set's Variant is not looked at.
func Unread(choices []Choice, p heuristic.Params, set Config) []string {
	var drops, defers, gap bool
	for _, c := range choices {
		_, _, r := Resolve(c.Name, p, c.Pruning)
		d, f := r.Variant == Drop || r.Variant == Both, r.Variant == Defer || r.Variant == Both
		drops, defers, gap = drops || d, defers || f, gap || f && r.Defer.Kind != "static"
	}
	def := DefaultConfig()
	var unread []string
	for _, o := range []struct {
		key           string
		changed, read bool
	}{
		{"toggle", set.Toggle != def.Toggle, drops},
		{"lambda", set.Lambda != def.Lambda, drops},
		{"drop_threshold", set.DropThreshold != def.DropThreshold, drops || gap},
		{"rho", set.Rho != def.Rho, drops},
		{"defer", set.Defer != def.Defer, defers},
		{"fairness", set.Fairness != def.Fairness, drops || defers},
		{"defer_at", set.DeferAt != def.DeferAt, defers},
		{"drop_running", set.DropRunning != def.DropRunning, drops},
	} {
		if o.changed && !o.read {
			unread = append(unread, o.key)
		}
	}
	return unread
}
