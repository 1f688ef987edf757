package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hcreplay/hcreplay/internal/atomicfile"
	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep"
	"github.com/hcreplay/hcreplay/trace"
)

// FiguresCmd reruns a paper's experiment set end to end (SPEC §6): for each experiment of the
// preset, a sweep and a report under DIR/experiments/NAME, then the paper's figures under the
// paper's names in DIR, and DIR/notes.md, which states the setup and puts what the paper
// reported next to our numbers. The presets are tables (thesisPreset, ...) of sweeps driven
// through SweepCmd and ReportCmd, as the demo drives them, so a figure here is what a user would
// get from the same grid by hand.
type FiguresCmd struct {
	Preset string `required:"" help:"The paper: journal (Denninnart et al. 2020), thesis (Gentry 2018), conference (Gentry et al. 2019), batch2010 (Smith et al. 2010) or speculative (Xu & Lau 2015); docs/references.md lists them." placeholder:"NAME"`
	Out    string `required:"" help:"Folder for the figures, notes.md and each experiment's runs and report." placeholder:"DIR"`
	Trials string `help:"The HCW19 data: its folder (constant.zip, spiky.zip, classes_2.etc) or the path of constant.zip. Without it, a synthesized PET and generated trials." placeholder:"ZIP_OR_DIR"`
	Jobs   int    `short:"j" help:"Replays at a time (default: the number of CPUs)." placeholder:"N"`
	Quick  bool   `help:"3 trials per level and at most two levels per experiment: a smoke test, not a result."`
	Tasks  int    `hidden:"" help:"Tasks per generated trial (default: the preset's)."`
}

// Help is the command's long help.
func (c *FiguresCmd) Help() string {
	return `Each preset is the experiment set of one paper: journal (Denninnart et al. 2020, Figs 8-13), thesis
(Gentry 2018, Figs 4.3-6.6), conference (Gentry et al. 2019, Figs 4-8), batch2010 (Smith et al. 2010, Fig 1) and
speculative (Xu & Lau 2015, Figs 2-6; see 'hcreplay speculate'); docs/references.md gives their titles.
Every experiment is a sweep and a report
in DIR/experiments/NAME; the paper's figures are copied or redrawn from it as DIR/figN-what.svg
and .png, and DIR/notes.md gives, next to each figure, what the paper reported and our mean ±
95% interval for the same points.

With --trials pointing at the HCW19 data, the levels are the original trials (constant.zip,
spiky.zip) on the original PET (classes_2.etc). Without it, the PET is synthesized as
'hcreplay pet synth' does (seed 1) and the trials are generated (deadline prop:1, inter-arrival
CV 1, which resembles the HCW19 files).

Examples:

    hcreplay figures --preset journal --out figs/journal
    hcreplay figures --preset thesis --trials ../shared/data/hcw19 --out figs/thesis`
}

func (c *FiguresCmd) Run(ctx context.Context, con *Console) error {
	if strings.EqualFold(c.Preset, speculativePreset) { // its own runner: job replays, not sweeps
		return c.runSpeculative(ctx, con)
	}
	p, err := findPreset(c.Preset)
	if err != nil {
		return badInput(err)
	}
	if c.Jobs < 0 || c.Tasks < 0 {
		return badInput(errors.New("--jobs and --tasks must not be negative"))
	}
	start := time.Now()
	src, err := c.source(p, con)
	if err != nil {
		return err
	}
	var sections []string
	figures := 0
	for i, e := range p.experiments {
		con.Logf("figures: experiment %d of %d, %s: %s", i+1, len(p.experiments), e.name, e.summary)
		began := time.Now()
		sec, err := c.runExperiment(ctx, con, p, e, src)
		if err != nil {
			return fmt.Errorf("experiment %s: %w", e.name, err)
		}
		con.Logf("figures: %s done in %.0f s", e.name, time.Since(began).Seconds())
		sections = append(sections, sec)
		figures += len(e.figures)
	}
	notes := filepath.Join(c.Out, "notes.md")
	err = atomicfile.Write(notes, func(w io.Writer) error {
		_, err := io.WriteString(w, c.notesHeader(p, src)+strings.Join(sections, ""))
		return err
	})
	if err != nil {
		return err
	}
	noun := "figures"
	if figures == 1 {
		noun = "figure"
	}
	fmt.Fprintf(con.Stdout, "Done in %.0f s: %d %s of the %s in %s; read %s.\n",
		time.Since(start).Seconds(), figures, noun, p.title, c.Out, notes)
	return nil
}

// preset is the experiment set of one paper.
type preset struct {
	name        string
	title       string    // "journal paper (Denninnart et al. 2020)"
	reference   string    // where the notes on the paper are
	setup       string    // the paper's setup, for notes.md
	semantics   semantics // the readings the paper most likely used (issue 45)
	common      []string  // KEY=VALUES every sweep of the preset sets (before its own)
	trials      int       // generated trials per level
	tasks       int       // tasks per generated trial
	experiments []experiment
	omitted     []string // the paper's figures not rerun, and why
}

// experiment is one report: one or more sweeps over the same levels, and the paper's figures
// drawn from them. Most are one sweep; a figure that sets pruned PAM against unpruned baselines
// needs a sweep for each (a grid is a cross product), and the report merges their runs.
type experiment struct {
	name    string        // folder under DIR/experiments
	summary string        // one line, for the log and notes.md
	levels  []string      // labels the trial source resolves: 19k, spiky15k
	fixed   []sweep.Level // levels whose trials do not come from --trials (004's Poisson arrivals)
	sweeps  []sweepSpec
	figures []figure
	// sensitivity reruns the experiment under the default semantics, when the preset's differ,
	// and puts its checks under each figure's: how much the choice of semantics moves them.
	sensitivity bool
}

// semantics are the readings the papers leave open that a preset fixes for every sweep, as
// sweep keys: what happens at a deadline (drop_model), where a retrofit's deferring sits
// (defer_at), when the pruner may drop a running task (drop_running), and whether unmapped
// expiries count in PAMF's sufferage (sufferage_expired). notes.md states them at its top.
type semantics struct {
	dropModel, deferAt, dropRunning string
	sufferExpired                   bool
	why                             string // why the paper most likely ran under these, measured
}

// defaultSemantics are those of `hcreplay replay` and `hcreplay sweep` without flags.
func defaultSemantics() semantics {
	return semantics{dropModel: "evict", deferAt: "after", dropRunning: "evict"}
}

// keys are the semantics as sweep keys.
func (s semantics) keys() []string {
	return []string{"drop_model=" + s.dropModel, "defer_at=" + s.deferAt, "drop_running=" + s.dropRunning,
		"sufferage_expired=" + strconv.FormatBool(s.sufferExpired)}
}

// describe is the semantics in words, for notes.md.
func (s semantics) describe() string {
	expired := "do not count"
	if s.sufferExpired {
		expired = "count"
	}
	return fmt.Sprintf("drop model **%s**; a retrofitted heuristic's deferring **%s** its choice (PAM defers between its phases either way); "+
		"the pruner may drop a running task: **%s**; in PAMF's sufferage, tasks that expire unmapped **%s** as unsuccessful",
		s.dropModel, s.deferAt, s.dropRunning, expired)
}

// sweepSpec is the part of a SweepCmd an experiment chooses; the trial source gives the PET and
// the levels.
type sweepSpec struct {
	heuristics []string
	prune      []string
	set        []string // KEY=VALUES, after the preset's common ones
}

// figure is one of the paper's figures: which figure of the report it is (copied when it shows
// every run, else redrawn from the runs keep accepts) or which bars, what the paper reported, and
// what our table and check show of it.
type figure struct {
	file    string // the paper's figure name without extension: fig4.3-toggle
	title   string // for notes.md: "Fig 4.3 — dropping toggle (Gentry 2018 §4.4.3)"
	kind    string // a figure kind of the report (robustness, toggle, ...), or "" for bars
	bars    string // report.BarsByName or report.BarsByLevel, with metric
	metric  string
	keep    func(report.RunRow) bool // the runs the figure shows; nil: all of the experiment's
	paper   string                   // what the paper reported (Markdown)
	metrics []string                 // columns of our table
	check   func(*report.Aggregate) string
}

// presetNames lists the presets, for messages.
func presetNames() []string {
	var names []string
	for _, p := range presets() {
		names = append(names, p.name)
	}
	return append(names, speculativePreset)
}

func presets() []preset {
	return []preset{journalPreset(), thesisPreset(), conferencePreset(), batch2010Preset()}
}

func findPreset(name string) (preset, error) {
	for _, p := range presets() {
		if strings.EqualFold(p.name, name) {
			return p, nil
		}
	}
	return preset{}, fmt.Errorf("--preset %q: unknown preset; want one of %s", name, strings.Join(presetNames(), ", "))
}

// trialSource is where the trials come from: the HCW19 files, or the generator on a PET the
// command synthesized.
type trialSource struct {
	pet      string
	constant string // HCW19 constant.zip; "" for generated trials
	spiky    string // HCW19 spiky.zip; "" when absent
	trials   int    // per level: the first N files (0: all of them), or N generated trials
	tasks    int    // per generated trial
	quick    bool
}

// source checks --trials, or synthesizes the PET into DIR/data when it is not given.
func (c *FiguresCmd) source(p preset, con *Console) (trialSource, error) {
	src := trialSource{trials: p.trials, tasks: p.tasks, quick: c.Quick}
	if c.Tasks > 0 {
		src.tasks = c.Tasks
	}
	if c.Quick {
		src.trials = 3
	}
	if c.Trials != "" {
		return hcw19Source(c.Trials, src)
	}
	src.pet = filepath.Join(c.Out, "data", "pet.json")
	if err := os.MkdirAll(filepath.Dir(src.pet), 0o755); err != nil {
		return src, err
	}
	synth := PetSynthCmd{Out: src.pet, Seed: 1, Types: 12, Machines: 8, Samples: 500, Step: 2, Force: true}
	return src, synth.Run(con)
}

// hcw19Source finds constant.zip, spiky.zip and classes_2.etc from the folder that holds them
// or from the path of constant.zip. Trials of the HCW19 files are the first N files of a level
// in --quick, else all 30.
func hcw19Source(path string, src trialSource) (trialSource, error) {
	st, err := os.Stat(path)
	if err != nil {
		return src, badInput(fmt.Errorf("--trials %s: %w", path, errors.Unwrap(err)))
	}
	// The levels go into a grid file, whose relative paths are relative to its own folder.
	abs, err := filepath.Abs(path)
	if err != nil {
		return src, err
	}
	dir, constant := abs, filepath.Join(abs, "constant.zip")
	if !st.IsDir() {
		if !strings.EqualFold(filepath.Ext(path), ".zip") {
			return src, badInput(fmt.Errorf("--trials %s: want the HCW19 folder or its constant.zip", path))
		}
		dir, constant = filepath.Dir(abs), abs
	}
	src.constant, src.pet = constant, filepath.Join(dir, "classes_2.etc")
	for _, f := range []string{src.constant, src.pet} {
		if _, err := os.Stat(f); err != nil {
			return src, badInput(fmt.Errorf("--trials %s: no %s there (the HCW19 folder holds constant.zip, spiky.zip and classes_2.etc)", path, filepath.Base(f)))
		}
	}
	if spiky := filepath.Join(dir, "spiky.zip"); fileExists(spiky) {
		src.spiky = spiky
	}
	if !src.quick {
		src.trials = 0
	}
	return src, nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// level resolves a level label: 19k is the constant-rate trials at 19k, spiky15k the spiky ones
// at 15k (HCW19: spk15k800_*.dat).
func (s trialSource) level(label string) (sweep.Level, error) {
	load, spiky := strings.CutPrefix(label, "spiky")
	rate, err := trace.LevelRate(load, 0)
	if err != nil {
		return sweep.Level{}, err
	}
	if s.constant == "" {
		gen := sweep.DefaultGenerate()
		gen.Level, gen.Tasks, gen.CV = load, s.tasks, 1
		if spiky {
			gen.Pattern = "spiky"
		}
		return sweep.Level{Name: label, Generate: gen, Trials: s.trials, Seed: 1}, nil
	}
	spec := s.constant + "#arr/arr" + load + "_*.dat"
	if spiky {
		if s.spiky == "" {
			return sweep.Level{}, badInput(fmt.Errorf("level %s needs spiky.zip next to %s", label, s.constant))
		}
		spec = s.spiky + "#spk/spk" + load + "800_*.dat"
	}
	return sweep.Level{Name: label, Trace: spec, Trials: s.trials, Seed: 1, Rate: rate}, nil
}

// resolveLevels returns an experiment's levels: its fixed ones, and its labels resolved by the
// source. --quick keeps the first and the last, and cuts every level to 3 trials.
func (e experiment) resolveLevels(src trialSource) ([]sweep.Level, error) {
	var levels []sweep.Level
	for _, lv := range e.fixed {
		if src.quick {
			lv.Trials = 3
		}
		if lv.Generate != nil && src.tasks != 0 {
			g := *lv.Generate
			g.Tasks = src.tasks
			lv.Generate = &g
		}
		levels = append(levels, lv)
	}
	for _, label := range e.levels {
		lv, err := src.level(label)
		if err != nil {
			return nil, err
		}
		levels = append(levels, lv)
	}
	if src.quick && len(levels) > 2 {
		levels = []sweep.Level{levels[0], levels[len(levels)-1]}
	}
	return levels, nil
}

// runExperiment sweeps, reports and draws one experiment into DIR/experiments/NAME, and returns
// its section of notes.md. The folder is cleared first: its runs are only valid for the PET and
// trials of this invocation.
func (c *FiguresCmd) runExperiment(ctx context.Context, con *Console, p preset, e experiment, src trialSource) (string, error) {
	dir := filepath.Join(c.Out, "experiments", e.name)
	if err := os.RemoveAll(dir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	levels, err := e.resolveLevels(src)
	if err != nil {
		return "", err
	}
	grid := filepath.Join(dir, "levels.yaml")
	// A grid file that holds only levels, for SweepCmd: the --generate flag cannot set a
	// generator's pattern, CV or tasks. JSON is YAML, and Level's json tags are the grid's keys.
	if err := writeJSON(grid, map[string][]sweep.Level{"levels": levels}); err != nil {
		return "", err
	}
	// The sweeps' and the report's tables go nowhere: notes.md has the numbers.
	sub := &Console{Stdout: io.Discard, Stderr: con.Stderr, Quiet: con.Quiet}
	sweep := func(sem semantics, folder string) ([]string, error) {
		var runs []string
		for i, s := range e.sweeps {
			out := filepath.Join(dir, folder, strconv.Itoa(i+1))
			sw := SweepCmd{Grid: grid, Out: out, Jobs: c.Jobs, Checkpoint: 5 * time.Second, PET: src.pet,
				Heuristic: s.heuristics, Prune: s.prune, Set: slices.Concat(sem.keys(), p.common, s.set)}
			if err := sw.Run(ctx, sub); err != nil {
				return nil, err
			}
			runs = append(runs, out)
		}
		return runs, nil
	}
	runs, err := sweep(p.semantics, "runs")
	if err != nil {
		return "", err
	}
	reportDir := filepath.Join(dir, "report")
	rep := ReportCmd{Runs: runs, Out: reportDir, Formats: figureFormats(), Tables: []string{"md", "csv", "tex"}}
	agg, err := rep.write(ctx, sub)
	if err != nil {
		return "", err
	}
	var defaults *report.Aggregate // the same sweeps under the default semantics
	if e.sensitivity && p.semantics != defaultSemantics() {
		druns, err := sweep(defaultSemantics(), "runs-defaults")
		if err != nil {
			return "", err
		}
		if defaults, err = aggregateRuns(druns); err != nil {
			return "", err
		}
	}
	var b strings.Builder
	c.experimentNotes(&b, p, e, levels, dir)
	for _, f := range e.figures {
		shown := agg
		if f.keep != nil {
			shown = agg.Subset(f.keep)
		}
		if err := drawFigure(shown, f, reportDir, c.Out); err != nil {
			return "", fmt.Errorf("%s: %w", f.file, err)
		}
		if err := figureNotes(&b, shown, f); err != nil {
			return "", err
		}
		if defaults != nil {
			shown := defaults
			if f.keep != nil {
				shown = defaults.Subset(f.keep)
			}
			if err := sensitivityNotes(&b, shown, f); err != nil {
				return "", err
			}
		}
	}
	return b.String(), nil
}

func figureFormats() []string { return []string{"svg", "png"} }

// aggregateRuns reads and aggregates the runs.parquet of each folder, without a report.
func aggregateRuns(dirs []string) (*report.Aggregate, error) {
	var rows []report.RunRow
	for _, d := range dirs {
		r, err := report.ReadRuns(filepath.Join(d, report.RunsFile))
		if err != nil {
			return nil, err
		}
		rows = append(rows, r...)
	}
	return report.AggregateRuns(rows, "")
}

// sensitivityNotes writes a figure's numbers under the default semantics: its check, or its
// table when it has none.
func sensitivityNotes(b *strings.Builder, a *report.Aggregate, f figure) error {
	fmt.Fprintf(b, "**Sensitivity: under the default semantics** (%s):\n\n", defaultSemantics().describe())
	if f.check != nil {
		if s := f.check(a); s != "" {
			fmt.Fprintf(b, "%s\n\n", s)
			return nil
		}
	}
	t, err := report.KeyTable(a, f.metrics...)
	if err != nil {
		return err
	}
	if err := t.WriteMarkdown(b); err != nil {
		return err
	}
	b.WriteString("\n")
	return nil
}

// drawFigure writes DIR/<file>.svg and .png: the report's own figure copied when the paper's
// shows every run of the experiment, else redrawn from the runs it shows.
func drawFigure(a *report.Aggregate, f figure, reportDir, out string) error {
	switch {
	case f.kind != "" && f.keep == nil:
		for _, ext := range figureFormats() {
			if err := copyFile(os.DirFS(reportDir), f.kind+"."+ext, filepath.Join(out, f.file+"."+ext)); err != nil {
				return fmt.Errorf("the report has no %s figure: %w", f.kind, err)
			}
		}
		return nil
	case f.kind != "":
		_, ok, err := report.WriteFigure(a, f.kind, out, f.file, figureFormats())
		if err == nil && !ok {
			err = fmt.Errorf("the runs do not vary what a %s figure shows", f.kind)
		}
		return err
	}
	_, err := report.WriteBars(a, f.bars, f.metric, out, f.file, figureFormats())
	return err
}

// copyFile copies file from of fsys to the path to, atomically.
func copyFile(fsys fs.FS, from, to string) error {
	in, err := fsys.Open(from)
	if err != nil {
		return fmt.Errorf("copy %s to %s: %w", from, to, err)
	}
	defer in.Close()
	return atomicfile.Write(to, func(w io.Writer) error {
		_, err := io.Copy(w, in)
		return err
	})
}

// notesHeader is the top of notes.md: the paper, the data, the settings every experiment shares.
func (c *FiguresCmd) notesHeader(p preset, src trialSource) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Figures of the %s, rerun by hcreplay\n\n", p.title)
	fmt.Fprintf(&b, "Made by `%s` (hcreplay %s). The experiments of %s (full citations: hcreplay's docs/references.md).\n\n", c.commandLine(), buildVersion(), p.reference)
	if c.Quick {
		b.WriteString("**--quick: 3 trials a level and at most two levels an experiment. A smoke test, not a result.**\n\n")
	}
	fmt.Fprintf(&b, "**Semantics.** %s. %s", upperFirst(p.semantics.describe()), p.semantics.why)
	if p.semantics != defaultSemantics() {
		b.WriteString(" The main experiments are rerun under the defaults of `hcreplay replay` (" + defaultSemantics().describe() +
			"), and their numbers follow each of their figures as a sensitivity line.")
	}
	b.WriteString(" Dynamic deferring, where an experiment uses it, is our reading of the journal's Eq 10 ([IMPL]: our choice where the papers are silent), which did not survive in any source: " +
		"`dynamic:C[:START]` moves the threshold by C and starts it at START (default: the dropping threshold + 0.25). " +
		"Every reading is a flag of `hcreplay replay` and a key of `hcreplay sweep` (see docs/fidelity.md).\n\n")
	fmt.Fprintf(&b, "## Setup\n\n**The paper.** %s\n\n**Here.**\n\n", p.setup)
	if src.constant != "" {
		zips := src.constant
		if src.spiky != "" {
			zips += ", " + src.spiky
		}
		fmt.Fprintf(&b, "- Trials: the original HCW19 arrival trials (%s), deadlines as in the files; PET %s.\n", zips, src.pet)
	} else {
		fmt.Fprintf(&b, "- Trials: generated by the tool (%d tasks a trial, gamma inter-arrival times with CV 1, deadline prop:1, seed 1); "+
			"PET synthesized as `hcreplay pet synth --seed 1` does (12 task types × 8 machine types, gamma shapes in [1, 20], 500 samples a cell), in %s.\n",
			src.tasks, src.pet)
	}
	fmt.Fprintf(&b, "- Machines: the default catalog, one machine per PET machine type (its prices and power figures are illustrative).\n")
	common := "the defaults of `hcreplay replay`"
	if len(p.common) > 0 {
		common = "`" + strings.Join(p.common, "`, `") + "`; otherwise the defaults of `hcreplay replay`"
	}
	fmt.Fprintf(&b, "- Every sweep: %s.\n", common)
	b.WriteString("- Our numbers are means over trials with the half-width of the 95% Student t interval. " +
		"The papers' PETs, slack and VM prices are not published, so compare shapes and orderings, not absolute values.\n")
	if len(p.omitted) > 0 {
		b.WriteString("\n**Not rerun.**\n\n")
		for _, o := range p.omitted {
			fmt.Fprintf(&b, "- %s\n", o)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// upperFirst is s with its first letter in upper case.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// commandLine is the invocation, for notes.md.
func (c *FiguresCmd) commandLine() string {
	s := "hcreplay figures --preset " + c.Preset + " --out " + c.Out
	if c.Trials != "" {
		s += " --trials " + c.Trials
	}
	if c.Quick {
		s += " --quick"
	}
	if c.Tasks > 0 {
		s += " --tasks " + strconv.Itoa(c.Tasks)
	}
	return s
}

// experimentNotes states what an experiment ran: its levels and its sweeps.
func (c *FiguresCmd) experimentNotes(b *strings.Builder, p preset, e experiment, levels []sweep.Level, dir string) {
	rel := func(path string) string {
		if r, err := filepath.Rel(c.Out, path); err == nil {
			return r
		}
		return path
	}
	fmt.Fprintf(b, "## Experiment `%s`: %s\n\n", e.name, e.summary)
	for _, lv := range levels {
		fmt.Fprintf(b, "- Level %s: %s.\n", lv.Name, describeLevel(lv))
	}
	for i, s := range e.sweeps {
		set := slices.Concat(p.semantics.keys(), p.common, s.set)
		fmt.Fprintf(b, "- Sweep %d: heuristics %s × prune %s", i+1, strings.Join(s.heuristics, ", "), strings.Join(s.prune, ", "))
		if len(set) > 0 {
			fmt.Fprintf(b, "; `%s`", strings.Join(set, "`, `"))
		}
		fmt.Fprintf(b, " (runs in `%s`).\n", rel(filepath.Join(dir, "runs", strconv.Itoa(i+1))))
	}
	fmt.Fprintf(b, "- Report with every metric: `%s` (aggregate.csv has them all).\n\n", rel(filepath.Join(dir, "report", "index.html")))
}

func describeLevel(lv sweep.Level) string {
	if g := lv.Generate; g != nil {
		load := g.Level
		if load == "" {
			load = strconv.FormatFloat(g.Rate, 'g', -1, 64) + " tasks per time unit"
		}
		return fmt.Sprintf("%d generated trials of %d tasks, %s arrivals at %s, CV %g, deadline %s", lv.Trials, g.Tasks, g.Pattern, load, g.CV, g.Deadline)
	}
	if lv.Trials == 0 {
		return "every file of " + lv.Trace
	}
	return fmt.Sprintf("the first %d files of %s", lv.Trials, lv.Trace)
}

// figureNotes writes a figure's section: the figure, what the paper reported, our numbers.
func figureNotes(b *strings.Builder, a *report.Aggregate, f figure) error {
	fmt.Fprintf(b, "### %s\n\n![%s](%s.svg)\n\nFiles: `%s.svg`, `%s.png`.\n\n", f.title, f.file, f.file, f.file, f.file)
	fmt.Fprintf(b, "**The paper.** %s\n\n", f.paper)
	t, err := report.KeyTable(a, f.metrics...)
	if err != nil {
		return err
	}
	b.WriteString("**Ours** (mean ± 95% interval over the trials):\n\n")
	if err := t.WriteMarkdown(b); err != nil {
		return err
	}
	if f.check != nil {
		if s := f.check(a); s != "" {
			fmt.Fprintf(b, "\n%s\n", s)
		}
	}
	b.WriteString("\n")
	return nil
}

// The presets. Each setup and "paper" text quotes the notes on the paper (the reference
// files named in the preset); each experiment is kept small enough that a preset on generated
// trials runs in minutes on two cores.

func thesisPreset() preset {
	theta := "PAM-P at 19k, pruning threshold θ = 75 % for both deferring and dropping"
	return preset{
		name: "thesis", title: "M.S. thesis (Gentry 2018)", reference: "Gentry 2018 §4–5",
		setup: "8 inconsistently heterogeneous machines, 12 task types (SPECint means; gamma PMFs with shape in [1, 20], 500 samples). " +
			"800 tasks per trial, 30 trials per point, mean ± 95 % CI; the first and last 100 tasks are not scored. Machine queues of 6. " +
			"Levels 9k–34k tasks per period, 19k the default. One pruning threshold of 75 % for deferring and dropping; dropping toggle 1.",
		semantics: groupSemantics("the thesis"),
		common:    []string{"drop_threshold=0.75", "defer=static:0.75"},
		trials:    30, tasks: 800,
		omitted: []string{
			"Figs 4.2, 4.5, 4.6, 5.4, 5.5, 6.1, 6.3 and 6.4 (threshold sweep, dropping or deferring alone, immediate and homogeneous heuristics, decoupled thresholds, per-task threshold, λ): not in this preset; the journal and conference presets rerun the thresholds and λ.",
			"Figs 5.2 and 5.3 are drawn at toggle 1 only, against the level, where the thesis puts the toggle on the x axis.",
		},
		experiments: []experiment{
			{name: "toggle", summary: "dropping toggle sweep, " + theta, levels: []string{"19k"}, sensitivity: true,
				sweeps: []sweepSpec{{heuristics: []string{"PAM"}, prune: []string{"both"},
					set: []string{"toggle=never,threshold:0,threshold:1,threshold:2,threshold:4"}}},
				figures: []figure{{file: "fig4.3-toggle", title: "Fig 4.3 — dropping toggle (Gentry 2018 §4.4.3)", kind: "toggle",
					paper: "x = the dropping toggle (0, 1, …, None: misses per mapping event that engage dropping), y = % on time; PAM, θ = 75 %, 19k, 800 tasks. " +
						"PAM goes **from 34 % (toggle None) to 43 % (toggle 0)**, the gain monotone as the toggle moves toward 0.",
					metrics: []string{"robustness", "dropped_pruned"}, check: toggleCheck}}},
			{name: "awareness", summary: "threshold awareness: MOC, MOCA, PAM-P and PUM-P at 19k", levels: []string{"19k"},
				sweeps: []sweepSpec{{heuristics: []string{"MOC", "MOCA"}, prune: []string{"none"}},
					{heuristics: []string{"PAM", "PUM"}, prune: []string{"both"}}},
				figures: []figure{{file: "fig4.4-threshold-awareness", title: "Fig 4.4 — threshold awareness (Gentry 2018 §4.4.3.1)",
					bars: report.BarsByName, metric: "robustness",
					paper: "x = {MOC, MOCA, PAM, PUM}, y = % on time; toggle 1, 19k. No numbers in the text: MOCA ≈ PAM (\"reach parity\"), " +
						"MOCA > MOC, and PUM \"slightly fewer successful tasks than MOC\".",
					metrics: []string{"robustness", "on_time"}}}},
			{name: "levels", summary: "PAM-P against MOC, MM, MSD and MMU from 9k to 34k", levels: []string{"9k", "14k", "19k", "24k", "29k", "34k"}, sensitivity: true,
				sweeps: []sweepSpec{{heuristics: []string{"MM", "MSD", "MMU", "MOC"}, prune: []string{"none"}},
					{heuristics: []string{"PAM"}, prune: []string{"both"}}},
				figures: []figure{
					{file: "fig4.7-robustness-vs-level", title: "Fig 4.7 — oversubscription sweep (Gentry 2018 §4.4.6)", kind: "robustness",
						paper: "x = arrival rate 9k–34k, y = the **number** of on-time tasks (our figure: the %; the table has both); PAM, MOC, MM, MSD, MMU; θ = 75 %, toggle 1. " +
							"At low levels PAM is best but \"the difference is not that great\"; MSD and MMU fall to zero on-time tasks at high levels; " +
							"MM < MOC < PAM, each reaching a steady state; \"**PAM outperforms MOC by 75 %, and doubles the performance of MM**\".",
						metrics: []string{"robustness", "on_time"}, check: pamOverCheck},
					{file: "fig6.6-cost", title: "Fig 6.6 — cost per on-time task (Gentry 2018 §6.6.1)", kind: "cost",
						paper: "x = level, y = cost divided by % on time (AWS prices; which machine got which price is not given); PAM, MSD and MMU named. " +
							"At 9k PAM is \"a little worse\" (it picks the best, often dearest, machines); PAM's relative cost falls as the rate rises; " +
							"MSD and MMU become \"unchartable\"; at the highest level MMU completed no task in any trial.",
						metrics: []string{"cost_per_on_time"}},
				}},
			{name: "retrofit", summary: "MM, MSD and MMU with no pruning, deferring, dropping and both, at 19k and 34k", levels: []string{"19k", "34k"}, sensitivity: true,
				sweeps: []sweepSpec{{heuristics: []string{"MM", "MSD", "MMU"}, prune: []string{"none", "defer", "drop", "both"}}},
				figures: []figure{
					{file: "fig5.1-deferring", title: "Fig 5.1 — retrofit: deferring only (Gentry 2018 §5.2.1)", bars: report.BarsByLevel, metric: "robustness",
						keep: prunes("none", "defer"),
						paper: "Left group high oversubscription (probably 19k), right group extreme (probably 34k); MM, MSD, MMU against MM-D, MSD-D, MMU-D. " +
							"At the high level deferring lifts them \"**from single digits to more than 20 %**\"; at the extreme level the baselines map no task to completion (≈ 0 %) and the -D variants reach \"**nearly 20 %**\".",
						metrics: []string{"robustness"}, check: variantCheck("defer")},
					{file: "fig5.2-dropping", title: "Fig 5.2 — retrofit: dropping only (Gentry 2018 §5.2.2)", bars: report.BarsByLevel, metric: "robustness",
						keep:    prunes("none", "drop"),
						paper:   "x = the dropping toggle; MM, MSD, MMU with dropping, θ = 75 %. Toggle 1 gives \"**more than quadrupling the robustness**\"; toggle 0 is better still.",
						metrics: []string{"robustness"}, check: variantCheck("drop")},
					{file: "fig5.3-defer-and-drop", title: "Fig 5.3 — retrofit: deferring and dropping (Gentry 2018 §5.2.3)", bars: report.BarsByLevel, metric: "robustness",
						paper: "x = the dropping toggle; MM, MSD, MMU × {none, -D, -Drop, -P}, θ = 75 %. The best result for every heuristic is -P at toggle 0; " +
							"both together beat either alone \"for all heuristics\"; MSD and MMU gain most from deferring.",
						metrics: []string{"robustness"}, check: variantCheck("both")},
				}},
			{name: "fairness", summary: "fairness factor ϑ of PAMF (PAM-P with ϑ > 0) at 19k", levels: []string{"19k"},
				sweeps: []sweepSpec{{heuristics: []string{"PAM"}, prune: []string{"both"}, set: []string{"fairness=0,0.05,0.1,0.15,0.2,0.25"}}},
				figures: []figure{{file: "fig6.5-fairness", title: "Fig 6.5 — fairness (Gentry 2018 §6.5.1)", kind: "fairness",
					paper: "x = fairness modifier step (%), y probably the variance across task types of the per-type on-time %, bars labelled with robustness; toggle 1, θ = 75 %; " +
						"the level is not stated (we use 19k). At a **5 % modifier robustness falls from 40 % to 30 %** and the **variance from 5 % to 2 %**; " +
						"larger modifiers give a \"significant increase in fairness\" with \"much smaller reductions\" in robustness.",
					metrics: []string{"robustness", "fairness_variance", "fairness_stddev"}, check: fairnessCheck(0.05)}}},
		},
	}
}

// groupSemantics are the readings of the thesis (Gentry 2018, "Robust Resource Allocation of
// Independent Tasks in Heterogeneous Computing Systems via Probabilistic Task Pruning") and of
// the conference and journal papers built on its simulator, as measured on the HCW19 trials
// (docs/fidelity.md): pending reproduces the thesis's single-digit MM, MSD and MMU at 19k
// (evict gives 18 %); the dropping loop starts at the executing task (thesis Alg. 1); the
// retrofit defers after the heuristic's choice (thesis §4.5). paper names the paper in notes.md.
func groupSemantics(paper string) semantics {
	return semantics{dropModel: "pending", deferAt: "after", dropRunning: "always",
		why: "Why, for " + paper + ": the papers of this group never say which drop model their simulator used; on the HCW19 trials, pending (a running task runs to its end, late or not) " +
			"gives the thesis's single-digit robustness of MM, MSD and MMU at 19k, where evict (a running task is killed at its deadline) gives 18 %; " +
			"the thesis's dropping loop starts \"at the executing task\" (Gentry 2018 Alg. 1), so the pruner may drop it under pending too; " +
			"a retrofitted heuristic chooses its pairs and the low-chance ones are deferred before assignment (Gentry 2018 §4.5); " +
			"unmapped expiries do not count in the sufferage, which reproduces the journal's \"a few points\" for PAMF (docs/fidelity.md has the measurements)."}
}

func journalPreset() preset {
	return preset{
		name: "journal", title: "journal paper (Denninnart et al. 2020)", reference: "Denninnart et al. 2020 §8–9",
		setup: "8 inconsistently heterogeneous machines, 12 task types (PET as in the thesis). 1200 tasks per trial, 30 trials per point, mean ± 95 % CI; " +
			"the first and last 100 tasks are not scored. Machine queues of 3 (\"consistent\" results with 6). Levels in k tasks. " +
			"Dropping threshold 50 % after Fig 9; PAMF's fairness factor 10 % after Fig 11. Costs from Amazon VM prices; energy at 70 % of rated power when active, 25 % when idle.",
		semantics: groupSemantics("the journal paper"),
		common:    []string{"queue_size=3"},
		trials:    30, tasks: 800,
		omitted: []string{
			"Figs 1–7 are diagrams and worked examples.",
			"Trials have 800 tasks (as the HCW19 files), not the paper's 1200.",
		},
		experiments: []experiment{
			lambdaExperiment("25k", "fig8-lambda-schmitt", "Fig 8 — oversubscription level: λ and Schmitt trigger (Denninnart et al. 2020 §9.2)",
				"x = λ of Eq 11 (the weight of the latest event's misses), a line for the single-threshold toggle and one for the Schmitt trigger; 25k. "+
					"More weight on the latest event raised robustness **from 39.9 % to 42.5 %**; the maximum came with the Schmitt trigger, and enabling it "+
					"\"make[s] the bigger difference than setting the λ to an optimal value\"; no history (λ = 1) is \"close enough\" to the best. "+
					"(The λ values did not survive extraction.)"),
			thresholdExperiment("25k", "fig9-thresholds", "Fig 9 — deferring and dropping thresholds (Denninnart et al. 2020 §9.3)",
				"x = the deferring threshold (the dropping threshold + a 5 % gap, raised in 5 % steps to 90 %), a line per dropping threshold 25 / 50 / 75 %; 25k. "+
					"A higher deferring threshold gives higher robustness; at 90 % the dropping threshold hardly matters (\"a similar system robustness, "+
					"regardless of the initial dropping threshold\"); 50 % is used from then on. (Ours: 10 % steps.)"),
			{name: "deferring", summary: "PAM-P with dynamic and static deferring on steady and spiky arrivals at 15k and 30k",
				levels: []string{"15k", "spiky15k", "30k", "spiky30k"},
				sweeps: []sweepSpec{{heuristics: []string{"PAM"}, prune: []string{"both"},
					set: []string{"defer=static:0.6,static:0.75,static:0.9,dynamic:0.05,dynamic:0.1,dynamic:0.05:0.5,dynamic:0.05:0.9"}}},
				figures: []figure{{file: "fig10-deferring", title: "Fig 10 — dynamic against static deferring, steady and spiky (Denninnart et al. 2020 §9.4)", kind: "deferring",
					paper: "PAM at 15k and 30k. (a) Initial thresholds 50 / 70 / 90 % of the dynamic rule give \"nearly identical\" robustness " +
						"(ours: dynamic:0.05:0.5, dynamic:0.05 which starts at 0.75, dynamic:0.05:0.9; the rule itself is our reading [IMPL] of Eq 10, which did not survive). " +
						"(b) Dynamic deferring against the best static threshold, on steady (stdy) and spiky arrivals: \"almost the same robustness\" in both, " +
						"and spiky arrivals cost little (\"the system shows to be robust against the uncertainties in task arrival rate\").",
					metrics: []string{"robustness"}, check: deferCheck}}},
			withSensitivity(fairnessExperiment([]string{"15k", "30k"}, nil, "fig11-fairness", "Fig 11 — fairness factor of PAMF (Denninnart et al. 2020 §9.5)",
				"ϑ from 0 % (PAM) to 25 % at 15k and 30k; y = the **standard deviation** of the per-type on-time % (our figure: the variance; the table has both), robustness above the bars. "+
					"At 15k, ϑ = 10 % cuts the standard deviation **from 16 % to 13.5 %** for one point of robustness (**65 % → 64 %**); the effect grows with the level (30k); ϑ = 10 % is used from then on.",
				0.1)),
			{name: "robustness", summary: "MM, MSD, MMU, MOC and PAM with and without pruning, and PAMF, from 15k to 30k",
				levels: []string{"15k", "20k", "25k", "30k"},
				sweeps: []sweepSpec{{heuristics: []string{"MM", "MSD", "MMU", "MOC", "PAM"}, prune: []string{"none", "both"}},
					{heuristics: []string{"PAMF"}, prune: []string{"both"}, set: []string{"fairness=0.1"}}},
				figures: []figure{
					{file: "fig12a-robustness", title: "Fig 12(a) — PAM and PAMF against the baselines (Denninnart et al. 2020 §9.6)", kind: "robustness", keep: pamAgainstBaselines,
						paper: "15k and 30k shown (\"the same pattern\" at the others). At 15k PAM ≈ **67 %**, PAMF ≈ **64 %**, MOC ≈ **58 %**, MM under 50 %, MSD and MMU lower still; " +
							"at 30k MSD and MMU are \"particularly bad\"; PAM and PAMF average **22 % higher** robustness than the other four.",
						metrics: []string{"robustness"}, check: pamOverBaselinesCheck},
					{file: "fig12b-robustness-pruning", title: "Fig 12(b) — the baselines with and without pruning (Denninnart et al. 2020 §9.6)", kind: "robustness", keep: baselines,
						paper:   "Adding the pruning mechanism improves every heuristic, most of all MSD and MMU (\"by limiting these heuristics to map tasks whose chance is beyond a certain threshold\").",
						metrics: []string{"robustness"}, check: pruningGainCheck},
					{file: "fig13a-cost", title: "Fig 13(a) — cost per on-time task (Denninnart et al. 2020 §9.7)", kind: "cost", keep: withoutMSDMMU,
						paper:   "Amazon VM prices per machine; MSD and MMU left out as \"unchartable\". PAM and PAMF incur **at least 33 % lower** cost per on-time task than MM.",
						metrics: []string{"cost_per_on_time"}, check: perOnTimeCheck("cost_per_on_time", "MM")},
					{file: "fig13b-energy", title: "Fig 13(b) — energy per on-time task (Denninnart et al. 2020 §9.7)", kind: "energy", keep: withoutMSDMMU,
						paper:   "70 % of rated power when active, 25 % when idle. PAM and PAMF consume **at least 33 % less** energy per on-time task than MM.",
						metrics: []string{"energy_per_on_time"}, check: perOnTimeCheck("energy_per_on_time", "MM")},
				}},
			{name: "overhead", summary: "PAM-P with the reference engine, the fast one and the paper's approximations (buckets of 2 steps, cropping, Algorithm 1) at 15k and 30k; the reference engine recomputes every convolution, so this experiment takes minutes",
				levels: []string{"15k", "30k"},
				sweeps: []sweepSpec{{heuristics: []string{"PAM"}, prune: []string{"both"}, set: []string{"engine=reference,fast,approx"}}},
				figures: []figure{{file: "fig14-overhead", title: "Fig 14 — PAM against approximate PAM: robustness and overhead (Denninnart et al. 2020 §9.8)", kind: "overhead",
					paper: "(a) No statistically or practically significant difference in robustness between PAM and approximate PAM. (b) Approximate PAM cuts the " +
						"processing time by **93 %** at 30k (**13.5×** faster); PAM's overhead grows faster than linearly with the level, approximate PAM's barely changes.",
					metrics: []string{"robustness", "mapper_seconds", "convolutions"}}}},
		},
	}
}

func conferencePreset() preset {
	chosen := []string{"defer=static:0.9", "lambda=0.9"}
	return preset{
		name: "conference", title: "conference paper (Gentry et al. 2019)", reference: "Gentry et al. 2019 §VI–VII",
		setup: "8 inconsistently heterogeneous machines, 12 task types (as the thesis). 800 tasks per trial, 30 trials per point, mean ± 95 % CI; " +
			"the first and last 100 tasks are not scored. Machine queues of 6. Levels 19k and 34k. After Fig 5: dropping threshold 50 %, deferring threshold 90 %; " +
			"λ = 0.9 after Fig 4; PAMF's fairness factor 5 % after Fig 6. Costs from Amazon VM prices.",
		semantics: groupSemantics("the conference paper"),
		trials:    30, tasks: 800,
		omitted: []string{
			"Figs 1–3 are diagrams.",
			"Fig 9, PAMF against MinMin on video transcoding traces: that PET and those traces are not available.",
		},
		experiments: []experiment{
			lambdaExperiment("34k", "fig4-lambda-schmitt", "Fig 4 — oversubscription level: λ and Schmitt trigger (Gentry et al. 2019 §VII-B)",
				"34k. More weight on the latest event raised robustness **from 67.7 % to 71.9 %**; the Schmitt trigger gives higher robustness; "+
					"**λ = 0.9** is \"statistically and practically\" best."),
			thresholdExperiment("34k", "fig5-thresholds", "Fig 5 — deferring and dropping thresholds (Gentry et al. 2019 §VII-C)",
				"34k; dropping thresholds 25 / 50 / 75 %, gaps raised by 5 % until the deferring threshold reaches 90 %. A higher deferring threshold gives higher robustness; "+
					"with it high enough the dropping threshold hardly matters; dropping 50 % and deferring 90 % are used from then on. (Ours: 10 % steps.)"),
			fairnessExperiment([]string{"19k", "34k"}, chosen, "fig6-fairness", "Fig 6 — fairness factor of PAMF (Gentry et al. 2019 §VII-D)",
				"ϑ from 0 % to 25 % at 19k and 34k; y = the variance of the per-type on-time %, robustness above the bars. "+
					"At 34k, ϑ = 5 % cuts the variance **from 6 % to 3.5 %** for ≈ 10 % of robustness (**44.2 % → 40.5 %**); larger factors change little; 5 % is used from then on.",
				0.05),
			{name: "robustness", summary: "PAM-P and PAMF-P against MM, MSD, MMU and MOC at 19k and 34k", levels: []string{"19k", "34k"}, sensitivity: true,
				sweeps: []sweepSpec{{heuristics: []string{"MM", "MSD", "MMU", "MOC"}, prune: []string{"none"}},
					{heuristics: []string{"PAM"}, prune: []string{"both"}, set: chosen},
					{heuristics: []string{"PAMF"}, prune: []string{"both"}, set: append(slices.Clone(chosen), "fairness=0.05")}},
				figures: []figure{
					{file: "fig7-robustness", title: "Fig 7 — PAM and PAMF against the other heuristics (Gentry et al. 2019 §VII-E)", kind: "robustness",
						paper: "19k and 34k. PAM ≈ **70 %**, PAMF ≈ **50 %**, MOC ≈ **50 %** (\"rivaling PAMF\"), MM ≈ **25 %**; " +
							"at 34k MSD and MMU \"only map tasks that fail to meet their deadline\". PAM improves robustness by ≈ 25 % on average (§VIII).",
						metrics: []string{"robustness"}, check: pamOverBaselinesCheck},
					{file: "fig8-cost", title: "Fig 8 — cost per on-time task (Gentry et al. 2019 §VII-F)", kind: "cost",
						paper: "Amazon VM prices per machine. PAM and PAMF cost **≈ 40 % less** per on-time task than MOC and the others; " +
							"MSD and MMU become \"unchartable\" at extreme levels.",
						metrics: []string{"cost_per_on_time"}, check: perOnTimeCheck("cost_per_on_time", "MOC")},
				}},
		},
	}
}

func batch2010Preset() preset {
	gen := sweep.DefaultGenerate()
	gen.Level, gen.Rate, gen.Tasks, gen.CV, gen.Deadline = "", 0.1, 2000, 1, "best:4"
	return preset{
		name: "batch2010", title: "batch-mode paper (Smith et al. 2010)", reference: "Smith et al. 2010 §4",
		setup: "8 machines, 12 SPECint task types (gamma PMFs, 500 samples). Poisson arrivals, about 2000 tasks over about 20,000 time steps (λ ≈ 0.1), 20 trials; " +
			"deadline = arrival + the mean execution time over the 4 fastest machine types; machine queues of 4 (the executing task included); " +
			"mapped tasks always run (no dropping); no trimming; metric: on-time tasks of 2000, mean ± 95 % CI.",
		semantics: semantics{dropModel: "none", deferAt: "after", dropRunning: "evict",
			why: "Smith et al. (2010) map tasks that always run to the end (no dropping at all, and no pruning), which is drop model none; the other readings concern pruning and change nothing here."},
		common: []string{"queue_size=4", "trim=0"},
		trials: 20, tasks: 2000,
		omitted: []string{"The trials are always generated (Poisson, deadline best:4), also with --trials, which then only supplies the PET."},
		experiments: []experiment{{
			name: "batch", summary: "MOC, MM, MMU, MSD and MECT on Poisson arrivals at 0.1 tasks per time unit", sensitivity: true,
			fixed:  []sweep.Level{{Name: "poisson", Generate: gen, Trials: 20, Seed: 1}},
			sweeps: []sweepSpec{{heuristics: []string{"MOC", "MM", "MMU", "MSD", "MECT"}, prune: []string{"none"}}},
			figures: []figure{{file: "fig1-robustness", title: "Fig 1 — batch heuristics against immediate MECT (Smith et al. 2010 §VII)",
				bars: report.BarsByName, metric: "robustness",
				paper: "The figure is missing; the text gives on-time tasks of 2000 (below, with ours). MOC beats MM by 19 % (1401/1175); " +
					"MM beats MECT 11.75×, which the paper credits to batch mode with limited queues; MM, MMU and MSD are \"surprisingly good\".",
				metrics: []string{"on_time", "robustness"}, check: batchCheck}},
		}},
	}
}

// lambdaExperiment is the λ × toggle sweep of PAM-P at one level (000 Fig 8, 003 Fig 4).
func lambdaExperiment(level, file, title, paper string) experiment {
	return experiment{name: "lambda", summary: "PAM-P: λ of the oversubscription level × single threshold or Schmitt trigger at " + level,
		levels: []string{level},
		sweeps: []sweepSpec{{heuristics: []string{"PAM"}, prune: []string{"both"},
			set: []string{"lambda=0.1,0.3,0.5,0.7,0.9,1", "toggle=threshold:1,schmitt:1:0.8"}}},
		figures: []figure{{file: file, title: title, kind: "toggle", paper: paper, metrics: []string{"robustness"}, check: lambdaCheck}}}
}

// thresholdExperiment sweeps PAM-P's deferring threshold as a gap above each dropping threshold
// 0.25, 0.5 and 0.75, up to 0.9 (000 Fig 9, 003 Fig 5): one sweep per dropping threshold, so
// that no run lands past 0.9.
func thresholdExperiment(level, file, title, paper string) experiment {
	var sweeps []sweepSpec
	for _, drop := range []int{25, 50, 75} {
		var gaps []string
		for gap := 5; drop+gap <= 90; gap += 10 {
			gaps = append(gaps, fmt.Sprintf("gap:%g", float64(gap)/100))
		}
		sweeps = append(sweeps, sweepSpec{heuristics: []string{"PAM"}, prune: []string{"both"},
			set: []string{fmt.Sprintf("drop_threshold=%g", float64(drop)/100), "defer=" + strings.Join(gaps, ",")}})
	}
	return experiment{name: "thresholds", summary: "PAM-P: deferring threshold as a gap above dropping thresholds 0.25, 0.5 and 0.75 at " + level,
		levels: []string{level}, sweeps: sweeps,
		figures: []figure{{file: file, title: title, kind: "thresholds", paper: paper, metrics: []string{"robustness"}}}}
}

// fairnessExperiment sweeps PAM-P's fairness factor ϑ from 0 (PAM) to 0.25 (000 Fig 11, 003
// Fig 6); chosen is the factor the paper settled on, which the check compares with ϑ = 0.
func fairnessExperiment(levels, set []string, file, title, paper string, chosen float64) experiment {
	return experiment{name: "fairness", summary: "fairness factor ϑ of PAMF (PAM-P with ϑ > 0) at " + strings.Join(levels, " and "),
		levels: levels,
		sweeps: []sweepSpec{{heuristics: []string{"PAM"}, prune: []string{"both"},
			set: append(slices.Clone(set), "fairness=0,0.05,0.1,0.15,0.2,0.25")}},
		figures: []figure{{file: file, title: title, kind: "fairness", paper: paper,
			metrics: []string{"robustness", "fairness_variance", "fairness_stddev"}, check: fairnessCheck(chosen)}}}
}

// withSensitivity marks e to be rerun under the default semantics (experiment.sensitivity).
func withSensitivity(e experiment) experiment {
	e.sensitivity = true
	return e
}

// Run filters for figures that show part of an experiment.

func prunes(variants ...string) func(report.RunRow) bool {
	return func(r report.RunRow) bool { return slices.Contains(variants, r.Prune) }
}

func isPAM(r report.RunRow) bool { return r.Heuristic == "PAM" || r.Heuristic == "PAMF" }

// pamAgainstBaselines keeps PAM-P and PAMF-P and the unpruned baselines (000 Fig 12(a)).
func pamAgainstBaselines(r report.RunRow) bool { return isPAM(r) == (r.Prune != "none") }

// baselines keeps MM, MSD, MMU and MOC with and without pruning (000 Fig 12(b)).
func baselines(r report.RunRow) bool { return !isPAM(r) }

// withoutMSDMMU leaves out the heuristics 000 Fig 13 calls unchartable.
func withoutMSDMMU(r report.RunRow) bool { return r.Heuristic != "MSD" && r.Heuristic != "MMU" }

// Checks: one computed line or list comparing our numbers the way the paper's text does.

// estimate returns a metric of the first group at level whose run match accepts.
func estimate(a *report.Aggregate, level, metric string, match func(report.RunRow) bool) (report.Estimate, bool) {
	for _, g := range a.Groups {
		if r := g.Run(); r.Level == level && match(r) {
			return g.Stat(metric), true
		}
	}
	return report.Estimate{}, false
}

func named(name string) func(report.RunRow) bool {
	return func(r report.RunRow) bool { return r.Name == name }
}

// pm formats an estimate as "mean ± half" with d decimals.
func pm(e report.Estimate, d int) string {
	return fmt.Sprintf("%.*f ± %.*f", d, e.Mean, d, e.Half)
}

// change is the relative change from a to b, in percent with a sign.
func change(a, b float64) string { return fmt.Sprintf("%+.0f %%", 100*(b/a-1)) }

// bullets joins lines as a Markdown list under a heading line; "" when there are none.
func bullets(head string, lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return head + "\n\n- " + strings.Join(lines, "\n- ")
}

func toggleCheck(a *report.Aggregate) string {
	var lines []string
	for _, l := range a.Levels {
		never, ok1 := estimate(a, l, "robustness", func(r report.RunRow) bool { return r.Toggle == "never" })
		zero, ok2 := estimate(a, l, "robustness", func(r report.RunRow) bool { return r.Toggle == "threshold:0" })
		if ok1 && ok2 {
			lines = append(lines, fmt.Sprintf("%s: toggle never %s %% → toggle 0 %s %% (paper: 34 %% → 43 %%)", l, pm(never, 1), pm(zero, 1)))
		}
	}
	return bullets("Check:", lines)
}

// pamOverCheck compares on-time counts at the highest level, as the thesis's "PAM outperforms
// MOC by 75 %, and doubles the performance of MM".
func pamOverCheck(a *report.Aggregate) string {
	if len(a.Levels) == 0 {
		return ""
	}
	top := a.Levels[len(a.Levels)-1]
	pam, ok := estimate(a, top, "on_time", named("PAM-P"))
	if !ok {
		return ""
	}
	var lines []string
	for _, base := range []string{"MOC", "MM"} {
		if e, ok := estimate(a, top, "on_time", named(base)); ok && e.Mean > 0 {
			lines = append(lines, fmt.Sprintf("PAM-P completes %.2f× the on-time tasks of %s (%.0f against %.0f)", pam.Mean/e.Mean, base, pam.Mean, e.Mean))
		}
	}
	return bullets(fmt.Sprintf("Check at %s (paper: 1.75× MOC, 2× MM):", top), lines)
}

// variantCheck compares each heuristic with its variant at each level.
func variantCheck(variant string) func(*report.Aggregate) string {
	return func(a *report.Aggregate) string {
		var lines []string
		for _, l := range a.Levels {
			for _, h := range []string{"MM", "MSD", "MMU"} {
				base, ok1 := estimate(a, l, "robustness", func(r report.RunRow) bool { return r.Heuristic == h && r.Prune == "none" })
				v, ok2 := estimate(a, l, "robustness", func(r report.RunRow) bool { return r.Heuristic == h && r.Prune == variant })
				if ok1 && ok2 {
					lines = append(lines, fmt.Sprintf("%s, %s: %s %% → %s %% (%.1f×)", l, h, pm(base, 1), pm(v, 1), v.Mean/base.Mean))
				}
			}
		}
		return bullets("Check, no pruning → "+variant+":", lines)
	}
}

func fairnessCheck(chosen float64) func(*report.Aggregate) string {
	return func(a *report.Aggregate) string {
		var lines []string
		for _, l := range a.Levels {
			at := func(v float64) func(report.RunRow) bool { return func(r report.RunRow) bool { return r.Fairness == v } }
			r0, ok1 := estimate(a, l, "robustness", at(0))
			r1, ok2 := estimate(a, l, "robustness", at(chosen))
			v0, _ := estimate(a, l, "fairness_variance", at(0))
			v1, _ := estimate(a, l, "fairness_variance", at(chosen))
			s0, _ := estimate(a, l, "fairness_stddev", at(0))
			s1, _ := estimate(a, l, "fairness_stddev", at(chosen))
			if ok1 && ok2 {
				lines = append(lines, fmt.Sprintf("%s: robustness %s %% → %s %%, variance %.0f → %.0f, standard deviation %.1f → %.1f",
					l, pm(r0, 1), pm(r1, 1), v0.Mean, v1.Mean, s0.Mean, s1.Mean))
			}
		}
		return bullets(fmt.Sprintf("Check, ϑ = 0 → ϑ = %g:", chosen), lines)
	}
}

func lambdaCheck(a *report.Aggregate) string {
	var lines []string
	for _, l := range a.Levels {
		for _, t := range []string{"threshold:1", "schmitt:1:0.8"} {
			var lo, hi report.Estimate
			var loAt, hiAt float64
			found := false
			for _, g := range a.Groups {
				r, e := g.Run(), g.Stat("robustness")
				if r.Level != l || r.Toggle != t {
					continue
				}
				if !found || e.Mean < lo.Mean {
					lo, loAt = e, r.Lambda
				}
				if !found || e.Mean > hi.Mean {
					hi, hiAt = e, r.Lambda
				}
				found = true
			}
			if found {
				lines = append(lines, fmt.Sprintf("%s, %s: lowest %s %% at λ = %g, highest %s %% at λ = %g", l, t, pm(lo, 1), loAt, pm(hi, 1), hiAt))
			}
		}
	}
	return bullets("Check:", lines)
}

// deferCheck sets the best dynamic rule against the best static threshold on each trace set.
func deferCheck(a *report.Aggregate) string {
	var lines []string
	for _, l := range a.Levels {
		best := map[string]report.Estimate{}
		rule := map[string]string{}
		for _, g := range a.Groups {
			r, e := g.Run(), g.Stat("robustness")
			kind, _, _ := strings.Cut(r.Defer, ":")
			if r.Level == l && (rule[kind] == "" || e.Mean > best[kind].Mean) {
				best[kind], rule[kind] = e, r.Defer
			}
		}
		if rule["static"] != "" && rule["dynamic"] != "" {
			lines = append(lines, fmt.Sprintf("%s: best static (%s) %s %%, best dynamic (%s) %s %%",
				l, rule["static"], pm(best["static"], 1), rule["dynamic"], pm(best["dynamic"], 1)))
		}
	}
	return bullets("Check:", lines)
}

// pamOverBaselinesCheck compares PAM-P and PAMF-P with the mean of the unpruned baselines.
func pamOverBaselinesCheck(a *report.Aggregate) string {
	var lines []string
	for _, l := range a.Levels {
		sum, n := 0.0, 0
		for _, h := range []string{"MM", "MSD", "MMU", "MOC"} {
			if e, ok := estimate(a, l, "robustness", named(h)); ok {
				sum, n = sum+e.Mean, n+1
			}
		}
		if n == 0 {
			continue
		}
		mean := sum / float64(n)
		for _, name := range []string{"PAM-P", "PAMF-P"} {
			if e, ok := estimate(a, l, "robustness", named(name)); ok {
				lines = append(lines, fmt.Sprintf("%s: %s %s %% against %.1f %% for the mean of the %d baselines (%+.1f points, %s)",
					l, name, pm(e, 1), mean, n, e.Mean-mean, change(mean, e.Mean)))
			}
		}
	}
	return bullets("Check:", lines)
}

func pruningGainCheck(a *report.Aggregate) string {
	var lines []string
	for _, l := range a.Levels {
		for _, h := range []string{"MM", "MSD", "MMU", "MOC"} {
			base, ok1 := estimate(a, l, "robustness", named(h))
			p, ok2 := estimate(a, l, "robustness", named(h+"-P"))
			if ok1 && ok2 {
				lines = append(lines, fmt.Sprintf("%s, %s: %s %% → %s-P %s %% (%+.1f points)", l, h, pm(base, 1), h, pm(p, 1), p.Mean-base.Mean))
			}
		}
	}
	return bullets("Check, pruning's gain:", lines)
}

// perOnTimeCheck compares PAM-P's and PAMF-P's cost or energy per on-time task with base's.
func perOnTimeCheck(metric, base string) func(*report.Aggregate) string {
	return func(a *report.Aggregate) string {
		var lines []string
		for _, l := range a.Levels {
			b, ok := estimate(a, l, metric, named(base))
			if !ok || !(b.Mean > 0) {
				continue
			}
			for _, name := range []string{"PAM-P", "PAMF-P"} {
				if e, ok := estimate(a, l, metric, named(name)); ok {
					lines = append(lines, fmt.Sprintf("%s: %s %s against %s (%s)", l, name, change(b.Mean, e.Mean), base, metricShort(metric)))
				}
			}
		}
		return bullets("Check:", lines)
	}
}

func metricShort(metric string) string { return strings.ReplaceAll(metric, "_", " ") }

// batchCheck is 004's numbers beside ours: on-time tasks of the trial's tasks.
func batchCheck(a *report.Aggregate) string {
	paper := []struct {
		name     string
		mean, ci float64
	}{{"MOC", 1401, 19}, {"MM", 1175, 42}, {"MMU", 1139, 55}, {"MSD", 1131, 49}, {"MCT", 100, 5}}
	var b strings.Builder
	b.WriteString("Paper against ours, on-time tasks (Smith et al. 2010 name MCT \"MECT\" and MSD \"MESD\"):\n\n")
	b.WriteString("| heuristic | paper, of 2000 | paper % | ours | ours % | ours, tasks a trial |\n|:---|---:|---:|---:|---:|---:|\n")
	for _, p := range paper {
		for _, l := range a.Levels {
			on, ok := estimate(a, l, "on_time", named(p.name))
			if !ok {
				continue
			}
			rob, _ := estimate(a, l, "robustness", named(p.name))
			tasks, _ := estimate(a, l, "tasks", named(p.name))
			fmt.Fprintf(&b, "| %s | %.0f ± %.0f | %.1f | %s | %s | %.0f |\n", p.name, p.mean, p.ci, p.mean/20, pm(on, 0), pm(rob, 1), tasks.Mean)
		}
	}
	return b.String()
}
