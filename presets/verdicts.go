package presets

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
	"github.com/hcreplay/hcreplay/report"
)

// The semantics a claim was checked under: the preset's own, or the defaults of `hcreplay
// replay` in an experiment's sensitivity run.
const (
	UnderPreset   = "preset"
	UnderDefaults = "defaults"
)

// Checked is a claim with its verdict: one evaluation, which notes.md, the experiment's report
// and verdicts.json all show.
type Checked struct {
	// ID is FIGURE/N: the file name of the claim's figure (unique in a preset) and the claim's
	// place among the figure's claims, from 1. docs/fidelity.md lists the claims by it.
	ID         string
	Experiment string // the experiment's name, when evaluated by EvaluateExperiment
	Semantics  string // UnderPreset or UnderDefaults
	Claim
	report.ClaimResult
}

// Evaluate checks a figure's claims against the runs (docs/presets.md states the rules), as
// under the preset's semantics. An error is a claim whose selector names several grid points.
func (f Figure) Evaluate(a *report.Aggregate) ([]Checked, error) {
	return f.evaluate(a.ClaimPoints())
}

func (f Figure) evaluate(points []report.ClaimPoint) ([]Checked, error) {
	var out []Checked
	for k, c := range f.Claims {
		res, err := report.EvaluateClaimOn(points, c.Report())
		if err != nil {
			return nil, fmt.Errorf("%s: claim %q: %w", f.File, c.Wording, err)
		}
		out = append(out, Checked{ID: f.ClaimID(k), Semantics: UnderPreset, Claim: c, ClaimResult: res})
	}
	return out, nil
}

// EvaluateExperiment checks the claims of every figure of experiment i against all its runs
// under the preset's semantics (a) and, when defaults is not nil, against its sensitivity run
// under the default semantics: the one evaluation every output shows.
func (p *Preset) EvaluateExperiment(i int, a, defaults *report.Aggregate) ([]Checked, error) {
	var out []Checked
	for _, under := range []struct {
		name string
		agg  *report.Aggregate
	}{{UnderPreset, a}, {UnderDefaults, defaults}} {
		if under.agg == nil {
			continue
		}
		for _, f := range p.Experiments[i].Figures {
			checked, err := f.Evaluate(under.agg)
			if err != nil {
				return nil, err
			}
			for k := range checked {
				checked[k].Experiment, checked[k].Semantics = p.Experiments[i].Name, under.name
			}
			out = append(out, checked...)
		}
	}
	return out, nil
}

// Select is the checked claims of a figure (its file name) under the semantics, in order.
func Select(checked []Checked, figure, semantics string) []Checked {
	var out []Checked
	for _, c := range checked {
		if c.Semantics == semantics && strings.HasPrefix(c.ID, figure+"/") {
			out = append(out, c)
		}
	}
	return out
}

// row is c as a report's page shows it.
func (c Checked) row() report.ClaimRow {
	return report.ClaimRow{ID: c.ID, Wording: c.Wording, Section: c.Section, Form: c.Form, Bound: c.Bound,
		Metric: c.Metric, Level: c.Level, ClaimResult: c.ClaimResult}
}

// ClaimSections are the checked claims as the report's pages show them: a section for the
// preset's semantics, and one for the defaults where the experiment has a sensitivity run.
func (p *Preset) ClaimSections(checked []Checked) []report.ClaimSection {
	titles := map[string]string{
		UnderPreset:   "under the preset's semantics: " + p.RunSemantics().Describe(),
		UnderDefaults: "sensitivity: under the default semantics of hcreplay replay: " + DefaultSemantics().Describe(),
	}
	var out []report.ClaimSection
	for _, sem := range []string{UnderPreset, UnderDefaults} {
		s := report.ClaimSection{Title: strings.ReplaceAll(titles[sem], "**", "")}
		for _, c := range checked {
			if c.Semantics == sem {
				s.Rows = append(s.Rows, c.row())
			}
		}
		if len(s.Rows) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// WriteMarkdown writes checked claims as a table for notes.md: the claim's id, the paper's
// words and section, its value, ours with its 95% interval, and the verdict with the finding
// behind it.
func WriteMarkdown(w io.Writer, checked []Checked) error {
	rows := make([]report.ClaimRow, len(checked))
	for i, c := range checked {
		rows[i] = c.row()
	}
	return report.WriteClaimTable(w, rows)
}

// VerdictsFile is the name of the verdicts of a figures run in its folder.
const VerdictsFile = "verdicts.json"

// Verdicts is verdicts.json: every claim of a preset checked in one figures run.
type Verdicts struct {
	Preset  string         `json:"preset"`
	Title   string         `json:"title"`
	Command string         `json:"command"`
	Version string         `json:"version"`
	Quick   bool           `json:"quick"` // 3 trials a level: a smoke test
	Claims  []VerdictEntry `json:"claims"`
}

// VerdictEntry is one claim of verdicts.json.
type VerdictEntry struct {
	ID         string `json:"id"`
	Experiment string `json:"experiment"`
	Semantics  string `json:"semantics"` // preset or defaults
	Section    string `json:"section"`
	Wording    string `json:"wording"`
	Form       string `json:"form"`
	Metric     string `json:"metric"`
	Level      string `json:"level"`
	Paper      string `json:"paper"`
	Ours       string `json:"ours"` // mean with its 95% interval
	Verdict    string `json:"verdict"`
	Why        string `json:"why"`
	Rule       string `json:"rule"`
}

// NewVerdicts is verdicts.json's content for the checked claims of a run of p.
func (p *Preset) NewVerdicts(h Header, checked []Checked) Verdicts {
	v := Verdicts{Preset: p.Name, Title: p.Title, Command: h.Command, Version: h.Version, Quick: h.Source.Quick, Claims: []VerdictEntry{}}
	for _, c := range checked {
		v.Claims = append(v.Claims, VerdictEntry{ID: c.ID, Experiment: c.Experiment, Semantics: c.Semantics, Section: c.Section,
			Wording: strings.TrimSpace(c.Wording), Form: c.Form, Metric: c.Metric, Level: c.Level, Paper: c.Paper, Ours: c.Ours,
			Verdict: string(c.Verdict), Why: c.Why, Rule: report.ClaimRule(c.Form, c.Bound)})
	}
	return v
}

// Write writes v as indented JSON.
func (v Verdicts) Write(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// ReadVerdicts reads a verdicts.json.
func ReadVerdicts(r io.Reader) (Verdicts, error) {
	var v Verdicts
	err := json.NewDecoder(r).Decode(&v)
	return v, err
}

// ClaimsOf resolves "PRESET:EXPERIMENT" (an embedded preset's name or an experiment file's
// path, and an experiment's name, which may be left out when the preset has one) with load,
// which loads a preset by name or path.
func ClaimsOf(spec string, load func(string) (*Preset, error)) (*Preset, int, error) {
	name, exp, _ := cutLast(spec, ":")
	p, err := load(name)
	if err != nil {
		return nil, 0, err
	}
	var names []string
	for i, e := range p.Experiments {
		if e.Name == exp || (exp == "" && len(p.Experiments) == 1) {
			return p, i, nil
		}
		names = append(names, e.Name)
	}
	if len(names) == 0 {
		return nil, 0, fmt.Errorf("preset %s has no experiments of sweeps, so no claims to check on runs", p.Name)
	}
	return nil, 0, fmt.Errorf("preset %s has no experiment %q; its experiments are %s (write PRESET:EXPERIMENT)", p.Name, exp, strings.Join(names, ", "))
}

func cutLast(s, sep string) (before, after string, found bool) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):], true
	}
	return s, "", false
}

// OtherSemantics counts the runs of rows that did not run under the preset's semantics: their
// claims' verdicts are then not the preset's.
func (p *Preset) OtherSemantics(rows []report.RunRow) int {
	sem, n := p.RunSemantics(), 0
	for _, r := range rows {
		if r.DropModel != sem.DropModel || r.DeferAt != sem.DeferAt || r.DropRunning != sem.DropRunning || r.SufferageExpired != sem.SufferageExpired {
			n++
		}
	}
	return n
}

// WriteResults writes a figures run's notes.md (notes) and verdicts.json (VerdictsFile) into
// out, and returns notes.md's path.
func (p *Preset) WriteResults(out, notes string, head Header, checked []Checked) (string, error) {
	path := filepath.Join(out, "notes.md")
	if err := atomicfile.Write(path, func(w io.Writer) error { _, err := io.WriteString(w, notes); return err }); err != nil {
		return "", err
	}
	return path, atomicfile.Write(filepath.Join(out, VerdictsFile), p.NewVerdicts(head, checked).Write)
}

// ClaimsChecker checks the claims of experiment i on a report's aggregate of runs made
// elsewhere (report --claims), as run under the preset's semantics: logf warns when some runs
// were not.
func (p *Preset) ClaimsChecker(i int, logf func(format string, args ...any)) func(*report.Aggregate) ([]report.ClaimSection, error) {
	return func(agg *report.Aggregate) ([]report.ClaimSection, error) {
		var rows []report.RunRow
		for _, g := range agg.Groups {
			rows = append(rows, g.Runs...)
		}
		if n := p.OtherSemantics(rows); n > 0 {
			logf("warning: --claims: %d of %d runs did not run under the semantics of preset %s; the verdicts are labelled as if they had", n, len(rows), p.Name)
		}
		checked, err := p.EvaluateExperiment(i, agg, nil)
		return p.ClaimSections(checked), err
	}
}
