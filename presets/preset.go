// Package presets holds the papers' experiment sets as declarative files (YAML, embedded in the
// binary) and loads and checks a user's experiment file of the same form (issue 48): the paper
// and its citation, the setup, the semantics its sweeps run under, the levels, the sweeps (in
// the keys of a sweep grid, docs/sweep-example.yaml), the figures and the paper's claims, each a
// checkable statement that report.EvaluateClaim turns into a verdict. docs/presets.md
// documents the format.
//
// It also turns a file into what `hcreplay figures` needs: an experiment's levels from a trial
// source (Source), each sweep's grid (Preset.Grid, SweepSet), and notes.md's texts (WriteHeader,
// WriteExperiment, Figure.WriteNotes with the claims' verdicts and a figure's named check), and
// writes a paper's figure from the report's (Figure.Draw: copied, or redrawn by report).
// RunExperiment drives an experiment end to end through a Runner: the sweeps and the report are
// the command line's, which runs them as `hcreplay sweep` and `hcreplay report` do. The one
// runner here is the speculative preset's (speculative.go), whose job replays are not sweeps;
// its claims are checked on the replays' grid points (specclaims.go) by the same rules.
// verdicts.go turns the checked claims into every output's form: notes.md's tables, the
// report's sections and verdicts.json; fidelity.go splices them into docs/fidelity.md.
package presets

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/hcreplay/hcreplay/internal/smallfile"
	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep"
)

//go:embed files/*.yaml
var files embed.FS

// Preset is one paper's experiment set.
type Preset struct {
	Name      string   `yaml:"name"`                // thesis, journal, ...: what --preset takes
	Title     string   `yaml:"title"`               // "M.S. thesis (Gentry 2018)", for notes.md
	Citation  Citation `yaml:"citation,omitempty"`  // the paper, as docs/references.md cites it
	Reference string   `yaml:"reference,omitempty"` // the paper's sections the experiments come from
	Setup     string   `yaml:"setup,omitempty"`     // the paper's setup, in words
	// Runner is how the experiments run: "sweeps" (default: every experiment is sweeps of the
	// deadline replay) or "speculative" (Xu & Lau 2015's job replays; Speculative holds its scale).
	Runner      string       `yaml:"runner,omitempty"`
	Semantics   *Semantics   `yaml:"semantics,omitempty"`   // nil: the defaults of `hcreplay replay`
	Common      Options      `yaml:"common,omitempty"`      // grid keys every sweep sets, before its own
	Trials      int          `yaml:"trials,omitempty"`      // generated trials per level
	Tasks       int          `yaml:"tasks,omitempty"`       // tasks per generated trial
	Omitted     []string     `yaml:"omitted,omitempty"`     // the paper's figures not rerun, and why
	Experiments []Experiment `yaml:"experiments,omitempty"` // sweeps runner
	Speculative *Speculative `yaml:"speculative,omitempty"` // speculative runner

	file string     // the file's name, for messages
	root *yaml.Node // the file's top mapping, for the lines of messages
}

// Citation is a paper: authors, year, title and where it appeared.
type Citation struct {
	Authors string `yaml:"authors,omitempty"`
	Year    int    `yaml:"year,omitempty"`
	Title   string `yaml:"title"`
	Venue   string `yaml:"venue,omitempty"`
}

// Semantics are the readings the papers leave open that a preset fixes for all its sweeps
// (the sweep keys drop_model, defer_at, drop_running, sufferage_expired), and why.
type Semantics struct {
	DropModel        string `yaml:"drop_model,omitempty"`
	DeferAt          string `yaml:"defer_at,omitempty"`
	DropRunning      string `yaml:"drop_running,omitempty"`
	SufferageExpired bool   `yaml:"sufferage_expired,omitempty"`
	Why              string `yaml:"why,omitempty"`
}

// Keys are the semantics as sweep keys, KEY=VALUE.
func (s Semantics) Keys() []string {
	return []string{"drop_model=" + s.DropModel, "defer_at=" + s.DeferAt, "drop_running=" + s.DropRunning,
		"sufferage_expired=" + strconv.FormatBool(s.SufferageExpired)}
}

// Options are sweep grid keys (queue_size, toggle, fairness, ...) with one value or a list.
type Options map[string]sweep.List[string]

// Keys are the options as KEY=V1,V2, sorted by key.
func (o Options) Keys() []string {
	var keys []string
	for k, v := range o {
		keys = append(keys, k+"="+strings.Join(v, ","))
	}
	slices.Sort(keys)
	return keys
}

// Experiment is one report: one or more sweeps over the same levels, and the paper's figures
// drawn from them.
type Experiment struct {
	Name    string   `yaml:"name"`              // folder under DIR/experiments
	Summary string   `yaml:"summary,omitempty"` // one line, for the log and notes.md
	Levels  []string `yaml:"levels,omitempty"`  // labels the trial source resolves: 19k, spiky15k
	// Generated are levels whose trials are always generated, also with --trials (Smith et
	// al. 2010's Poisson arrivals), in the form of a grid's levels.
	Generated []sweep.Level `yaml:"generated,omitempty"`
	// Sensitivity reruns the experiment under the default semantics, when the preset's differ.
	Sensitivity bool     `yaml:"sensitivity,omitempty"`
	Sweeps      []Sweep  `yaml:"sweeps,omitempty"`
	Figures     []Figure `yaml:"figures,omitempty"`
}

// Sweep is the part of a sweep grid an experiment chooses: heuristics, pruning variants and
// any other grid key; the trial source gives the PET and the levels.
type Sweep struct {
	Heuristics sweep.List[string] `yaml:"heuristics,omitempty"`
	Prune      sweep.List[string] `yaml:"prune,omitempty"`
	Options    Options            `yaml:",inline"`
}

// Figure is one of the paper's figures.
type Figure struct {
	File  string `yaml:"file,omitempty"` // the paper's figure name without extension: fig4.3-toggle
	Title string `yaml:"title"`          // for notes.md
	// Kind is a figure of the report (report.FigureKinds); or Bars (name or level) and Metric
	// for a bar chart.
	Kind   string `yaml:"kind,omitempty"`
	Bars   string `yaml:"bars,omitempty"`
	Metric string `yaml:"metric,omitempty"`
	// Runs are the runs the figure shows: a run shows when any selector matches it; none: all
	// of the experiment's.
	Runs    []Selector `yaml:"runs,omitempty"`
	Paper   string     `yaml:"paper,omitempty"`   // what the paper reported (Markdown)
	Metrics []string   `yaml:"metrics,omitempty"` // columns of our table
	// Check names a computed comparison (checks.go) for what the claims cannot state.
	Check  string  `yaml:"check,omitempty"`
	Claims []Claim `yaml:"claims,omitempty"`
}

// Selector picks runs by option columns; see report.Selector.
type Selector map[string]sweep.List[string]

// Report is s as a report.Selector.
func (s Selector) Report() report.Selector {
	out := report.Selector{}
	for k, v := range s {
		out[k] = v
	}
	return out
}

// Keep is the filter of a figure's runs, or nil for all of them.
func (f Figure) Keep() func(report.RunRow) bool {
	if len(f.Runs) == 0 {
		return nil
	}
	var sel []report.Selector
	for _, s := range f.Runs {
		sel = append(sel, s.Report())
	}
	return func(r report.RunRow) bool {
		return slices.ContainsFunc(sel, func(s report.Selector) bool { return s.Matches(r) })
	}
}

// Claim is a statement of the paper, with its words and section, that the runs check.
type Claim struct {
	Section   string     `yaml:"section,omitempty"` // "Gentry 2018 §4.4.6"
	Wording   string     `yaml:"wording,omitempty"` // the paper's words
	Form      string     `yaml:"form,omitempty"`    // ratio, bound, ordering, trend
	Metric    string     `yaml:"metric,omitempty"`
	Level     string     `yaml:"level,omitempty"`
	Of        Selector   `yaml:"of,omitempty"`
	Over      Selector   `yaml:"over,omitempty"`
	Order     []Selector `yaml:"order,omitempty"`
	Axis      string     `yaml:"axis,omitempty"`
	Points    []string   `yaml:"points,omitempty"`
	Direction string     `yaml:"direction,omitempty"`
	Bound     string     `yaml:"bound,omitempty"`
	Value     *float64   `yaml:"value,omitempty"`
}

// Report is the claim as report.EvaluateClaim takes it.
func (c Claim) Report() report.Claim {
	rc := report.Claim{Form: c.Form, Metric: c.Metric, Level: c.Level, Of: c.Of.Report(), Over: c.Over.Report(),
		Axis: c.Axis, Points: c.Points, Direction: c.Direction, Bound: c.Bound}
	for _, s := range c.Order {
		rc.Order = append(rc.Order, s.Report())
	}
	if c.Value != nil {
		rc.Value = *c.Value
	}
	return rc
}

// Speculative is the scale of the speculative runner (Xu & Lau 2015): the paper's, and a
// small one for --quick; and the paper's claims about the figures it draws.
type Speculative struct {
	Full    SpecScale    `yaml:"full,omitempty"`
	Quick   SpecScale    `yaml:"quick,omitempty"`
	Figures []SpecFigure `yaml:"figures,omitempty"`
}

// SpecFigure is a figure the speculative runner draws (by its file name, fig2-light) and the
// paper's claims about it, over the runs of speculative.go's levels, options and metrics.
type SpecFigure struct {
	File   string  `yaml:"file"`
	Claims []Claim `yaml:"claims,omitempty"`
}

// SpecScale is one scale of the speculative runner.
type SpecScale struct {
	Machines int       `yaml:"machines,omitempty"`
	Light    float64   `yaml:"light,omitempty"`   // λ of Figs 2–3
	Heavy    []float64 `yaml:"heavy,omitempty"`   // λ of Fig 6 (the last is the figure's)
	Horizon  float64   `yaml:"horizon,omitempty"` // arrivals over this many time units
	Seeds    int       `yaml:"seeds,omitempty"`
	Sigmas   []float64 `yaml:"sigmas,omitempty"` // Fig 3
	// Fig 5: one job of F5Tasks tasks on F5Machines machines, F5Reps runs per σ of F5Sigmas.
	F5Tasks    int       `yaml:"f5_tasks,omitempty"`
	F5Machines int       `yaml:"f5_machines,omitempty"`
	F5Reps     int       `yaml:"f5_reps,omitempty"`
	F5Sigmas   []float64 `yaml:"f5_sigmas,omitempty"`
}

// Names lists the embedded presets.
func Names() []string {
	entries, _ := fs.ReadDir(files, "files")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	return names
}

// Embedded returns the text of the embedded preset name (thesis, journal, ...), for --print.
func Embedded(name string) ([]byte, error) {
	b, err := files.ReadFile(path.Join("files", strings.ToLower(name)+".yaml"))
	if err != nil {
		return nil, fmt.Errorf("no preset %q; the presets are %s", name, strings.Join(Names(), ", "))
	}
	return b, nil
}

// Load loads the embedded preset name.
func Load(name string) (*Preset, error) {
	b, err := Embedded(name)
	if err != nil {
		return nil, err
	}
	return Parse(b, strings.ToLower(name)+".yaml")
}

// Open loads the preset --preset names: an embedded one by name, or the user's experiment file
// when name is a path (ends in .yaml or .yml, or holds a path separator). Errors name the flag.
func Open(name string) (*Preset, error) {
	ext := strings.ToLower(filepath.Ext(name))
	if ext != ".yaml" && ext != ".yml" && !strings.ContainsRune(name, filepath.Separator) {
		p, err := Load(name)
		if err != nil {
			return nil, fmt.Errorf("--preset %q: %w, or the path of an experiment file (FILE.yaml)", name, err)
		}
		return p, nil
	}
	b, err := smallfile.Read(name)
	if err != nil {
		return nil, fmt.Errorf("--preset %s: %w", name, err)
	}
	return Parse(b, name)
}

// unknownField matches yaml.v3's message for a key that is no field.
var unknownField = regexp.MustCompile(`^line (\d+): field (\S+) not found in type \S+$`)

// Parse reads and checks an experiment file; file names it in messages. Every error names the
// file, the line and the key: an unknown key (a typo does not fall back to a default), a figure
// kind the report does not draw, a grid key or value a sweep would refuse, a claim over a
// heuristic, variant or level that the experiment does not run.
func Parse(data []byte, file string) (*Preset, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, fmt.Errorf("%s: %s", file, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if len(root.Content) == 0 {
		return nil, fmt.Errorf("%s: the file is empty", file)
	}
	p := &Preset{file: file}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(p); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			var msgs []string
			for _, m := range te.Errors {
				if s := unknownField.FindStringSubmatch(m); s != nil {
					m = fmt.Sprintf("%s:%s: unknown key %q", file, s[1], s[2])
				} else {
					m = file + ": " + m
				}
				msgs = append(msgs, m)
			}
			return nil, errors.New(strings.Join(msgs, "\n"))
		}
		return nil, fmt.Errorf("%s: %s", file, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	p.root = root.Content[0]
	c := checker{file: file, root: p.root}
	p.check(&c)
	if err := errors.Join(c.errs...); err != nil {
		return nil, err
	}
	return p, nil
}

// File is the name the preset was read from.
func (p *Preset) File() string { return p.file }
