package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/trace"
)

// The Go presets, kept until TestFiguresThesisMatchesGoPreset has compared the files with them.

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
	name    string         // folder under DIR/experiments
	summary string         // one line, for the log and notes.md
	levels  []string       // labels the trial source resolves: 19k, spiky15k
	fixed   []report.Level // levels whose trials do not come from --trials (004's Poisson arrivals)
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
}

// presetNames lists the presets, for messages.
func presetNames() []string {
	var names []string
	for _, p := range goPresets() {
		names = append(names, p.name)
	}
	return append(names, speculativePreset)
}

func goPresets() []preset {
	return []preset{journalPreset(), thesisPreset(), conferencePreset(), batch2010Preset()}
}

func findPreset(name string) (preset, error) {
	for _, p := range goPresets() {
		if strings.EqualFold(p.name, name) {
			return p, nil
		}
	}
	return preset{}, fmt.Errorf("--preset %q: unknown preset; want one of %s", name, strings.Join(presetNames(), ", "))
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
					metrics: []string{"robustness", "dropped_pruned"}}}},
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
						metrics: []string{"robustness", "on_time"}},
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
						metrics: []string{"robustness"}},
					{file: "fig5.2-dropping", title: "Fig 5.2 — retrofit: dropping only (Gentry 2018 §5.2.2)", bars: report.BarsByLevel, metric: "robustness",
						keep:    prunes("none", "drop"),
						paper:   "x = the dropping toggle; MM, MSD, MMU with dropping, θ = 75 %. Toggle 1 gives \"**more than quadrupling the robustness**\"; toggle 0 is better still.",
						metrics: []string{"robustness"}},
					{file: "fig5.3-defer-and-drop", title: "Fig 5.3 — retrofit: deferring and dropping (Gentry 2018 §5.2.3)", bars: report.BarsByLevel, metric: "robustness",
						paper: "x = the dropping toggle; MM, MSD, MMU × {none, -D, -Drop, -P}, θ = 75 %. The best result for every heuristic is -P at toggle 0; " +
							"both together beat either alone \"for all heuristics\"; MSD and MMU gain most from deferring.",
						metrics: []string{"robustness"}},
				}},
			{name: "fairness", summary: "fairness factor ϑ of PAMF (PAM-P with ϑ > 0) at 19k", levels: []string{"19k"},
				sweeps: []sweepSpec{{heuristics: []string{"PAM"}, prune: []string{"both"}, set: []string{"fairness=0,0.05,0.1,0.15,0.2,0.25"}}},
				figures: []figure{{file: "fig6.5-fairness", title: "Fig 6.5 — fairness (Gentry 2018 §6.5.1)", kind: "fairness",
					paper: "x = fairness modifier step (%), y probably the variance across task types of the per-type on-time %, bars labelled with robustness; toggle 1, θ = 75 %; " +
						"the level is not stated (we use 19k). At a **5 % modifier robustness falls from 40 % to 30 %** and the **variance from 5 % to 2 %**; " +
						"larger modifiers give a \"significant increase in fairness\" with \"much smaller reductions\" in robustness.",
					metrics: []string{"robustness", "fairness_variance", "fairness_stddev"}}}},
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
					metrics: []string{"robustness"}}}},
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
						metrics: []string{"robustness"}},
					{file: "fig12b-robustness-pruning", title: "Fig 12(b) — the baselines with and without pruning (Denninnart et al. 2020 §9.6)", kind: "robustness", keep: baselines,
						paper:   "Adding the pruning mechanism improves every heuristic, most of all MSD and MMU (\"by limiting these heuristics to map tasks whose chance is beyond a certain threshold\").",
						metrics: []string{"robustness"}},
					{file: "fig13a-cost", title: "Fig 13(a) — cost per on-time task (Denninnart et al. 2020 §9.7)", kind: "cost", keep: withoutMSDMMU,
						paper:   "Amazon VM prices per machine; MSD and MMU left out as \"unchartable\". PAM and PAMF incur **at least 33 % lower** cost per on-time task than MM.",
						metrics: []string{"cost_per_on_time"}},
					{file: "fig13b-energy", title: "Fig 13(b) — energy per on-time task (Denninnart et al. 2020 §9.7)", kind: "energy", keep: withoutMSDMMU,
						paper:   "70 % of rated power when active, 25 % when idle. PAM and PAMF consume **at least 33 % less** energy per on-time task than MM.",
						metrics: []string{"energy_per_on_time"}},
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
						metrics: []string{"robustness"}},
					{file: "fig8-cost", title: "Fig 8 — cost per on-time task (Gentry et al. 2019 §VII-F)", kind: "cost",
						paper: "Amazon VM prices per machine. PAM and PAMF cost **≈ 40 % less** per on-time task than MOC and the others; " +
							"MSD and MMU become \"unchartable\" at extreme levels.",
						metrics: []string{"cost_per_on_time"}},
				}},
		},
	}
}

func batch2010Preset() preset {
	gen := report.DefaultGenerate()
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
			fixed:  []report.Level{{Name: "poisson", Generate: gen, Trials: 20, Seed: 1}},
			sweeps: []sweepSpec{{heuristics: []string{"MOC", "MM", "MMU", "MSD", "MECT"}, prune: []string{"none"}}},
			figures: []figure{{file: "fig1-robustness", title: "Fig 1 — batch heuristics against immediate MECT (Smith et al. 2010 §VII)",
				bars: report.BarsByName, metric: "robustness",
				paper: "The figure is missing; the text gives on-time tasks of 2000 (below, with ours). MOC beats MM by 19 % (1401/1175); " +
					"MM beats MECT 11.75×, which the paper credits to batch mode with limited queues; MM, MMU and MSD are \"surprisingly good\".",
				metrics: []string{"on_time", "robustness"}}},
		}},
	}
}

// lambdaExperiment is the λ × toggle sweep of PAM-P at one level (000 Fig 8, 003 Fig 4).
func lambdaExperiment(level, file, title, paper string) experiment {
	return experiment{name: "lambda", summary: "PAM-P: λ of the oversubscription level × single threshold or Schmitt trigger at " + level,
		levels: []string{level},
		sweeps: []sweepSpec{{heuristics: []string{"PAM"}, prune: []string{"both"},
			set: []string{"lambda=0.1,0.3,0.5,0.7,0.9,1", "toggle=threshold:1,schmitt:1:0.8"}}},
		figures: []figure{{file: file, title: title, kind: "toggle", paper: paper, metrics: []string{"robustness"}}}}
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
			metrics: []string{"robustness", "fairness_variance", "fairness_stddev"}}}}
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

// level resolves a level label: 19k is the constant-rate trials at 19k, spiky15k the spiky ones
// at 15k (HCW19: spk15k800_*.dat).
func (s trialSource) level(label string) (report.Level, error) {
	load, spiky := strings.CutPrefix(label, "spiky")
	rate, err := trace.LevelRate(load, 0)
	if err != nil {
		return report.Level{}, err
	}
	if s.constant == "" {
		gen := report.DefaultGenerate()
		gen.Level, gen.Tasks, gen.CV = load, s.tasks, 1
		if spiky {
			gen.Pattern = "spiky"
		}
		return report.Level{Name: label, Generate: gen, Trials: s.trials, Seed: 1}, nil
	}
	spec := s.constant + "#arr/arr" + load + "_*.dat"
	if spiky {
		if s.spiky == "" {
			return report.Level{}, (fmt.Errorf("level %s needs spiky.zip next to %s", label, s.constant))
		}
		spec = s.spiky + "#spk/spk" + load + "800_*.dat"
	}
	return report.Level{Name: label, Trace: spec, Trials: s.trials, Seed: 1, Rate: rate}, nil
}

// resolveLevels returns an experiment's levels: its fixed ones, and its labels resolved by the
// source. --quick keeps the first and the last, and cuts every level to 3 trials.
func (e experiment) resolveLevels(src trialSource) ([]report.Level, error) {
	var levels []report.Level
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
		levels = []report.Level{levels[0], levels[len(levels)-1]}
	}
	return levels, nil
}
