package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/pmf"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/replay/heuristic"
	"github.com/hcreplay/hcreplay/replay/prune"
	"github.com/hcreplay/hcreplay/report"
	"github.com/hcreplay/hcreplay/sweep/trialrun"
	"github.com/hcreplay/hcreplay/sweep/trialset"
)

// ReplayCmd replays arrival traces through heuristics (SPEC §5, §7): each trial through each
// heuristic under each pruning variant asked for, one after another. A grid on all cores, with
// levels and options as axes, is the sweep's.
type ReplayCmd struct {
	PET       string   `name:"pet" required:"" type:"existingfile" help:"PET matrix (.json, .parquet or .etc)." placeholder:"PET"`
	Trace     []string `required:"" sep:"none" help:"Arrival trace: a file, a folder of trials (as trace gen writes), a glob, a zip member (a.zip#arr/x.dat) or a zip glob; several files replay as trials. Repeat for more sets of trials, each as if replayed alone." placeholder:"TRACE"`
	Heuristic []string `short:"H" required:"" help:"Mapping heuristics or presets, comma-separated or repeated (see 'hcreplay heuristics'); each trial replays through each." placeholder:"NAME"`
	Prune     []string `default:"none" enum:"none,defer,drop,both" help:"Pruning variants (${enum}), comma-separated or repeated: X, X-D, X-Drop, X-P."`
	Catalog   string   `type:"existingfile" help:"Machine catalog (YAML or CSV); default: one machine per PET machine type." placeholder:"FILE"`
	TruthPET  string   `name:"truth-pet" type:"existingfile" help:"PET that actual durations are drawn from (default: --pet)." placeholder:"PET"`

	QueueSize        int    `default:"6" help:"Batch mode: tasks per machine queue, the executing one included."`
	DropModel        string `default:"evict" enum:"evict,pending,none" help:"What happens at a deadline (${enum})."`
	Strict           bool   `help:"Success means finishing strictly before the deadline."`
	ConditionElapsed bool   `default:"true" negatable:"" help:"Condition the running task's PMF on its elapsed time."`
	Trim             int    `default:"100" help:"Tasks not scored at each end, by exit time."`
	Seed             uint64 `default:"1" help:"Seed for durations (common random numbers) and random deadlines."`
	Engine           string `default:"fast" enum:"fast,reference,approx" help:"Probability engine (${enum}): fast answers from cached tables, reference recomputes every chain (both decide alike); approx uses the journal paper's approximations."`
	ApproxBucket     int    `default:"2" help:"--engine approx: merge PMF impulses into buckets of this many steps (Denninnart et al. 2020 §7.2.1)."`
	ApproxCrop       bool   `default:"true" negatable:"" help:"--engine approx: crop queue completion PMFs at the latest deadline in the batch."`

	Deadline string `help:"Deadline rule for tasks without one: tight, prop:ALPHA, urgency, slack:BETA, best:K." placeholder:"RULE"`
	TimeUnit string `help:"Unit of the trace's times when the file does not say (default ms)." placeholder:"UNIT"`

	Toggle        string  `default:"threshold:1" help:"When dropping engages: always, never, threshold:T, schmitt:ON[:OFF], on the oversubscription level."`
	Lambda        float64 `default:"1" help:"Weight of the current event's misses in the oversubscription level (1: no history)."`
	DropThreshold float64 `default:"0.5" help:"Base dropping threshold (0 disables dropping)."`
	Rho           float64 `default:"0" help:"Weight of the skewness and position adjustment of the dropping threshold (Denninnart et al. 2020 Eq 7)."`
	DeferRule     string  `name:"defer" default:"gap:0.25" help:"Deferring threshold: static:T, gap:G (dropping threshold + G) or dynamic:C[:START] (Denninnart et al. 2020 Eqs 8-10, in our reading of Eq 10, which did not survive; START defaults to the dropping threshold + 0.25)."`
	Fairness      float64 `default:"0" help:"Sufferage factor per task type (Denninnart et al. 2020 §6.3.2); PAMF uses 0.1 when unset."`
	DeferAt       string  `name:"defer-at" default:"after" enum:"after,after-rejudge,before" help:"Where a retrofitted heuristic's deferring sits (${enum}): after it has chosen its pairs, low-chance pairs are deferred instead of assigned (Gentry 2018 §4.5), each judged in the queue the heuristic built; after-rejudge, the same with each pair judged in the queue it joins once the pairs deferred before it are taken back; before, hopeless tasks are deferred before it sees the batch (PAM's ordering). PAM defers between its phases either way."`
	DropRunning   string  `name:"drop-running" default:"evict" enum:"evict,always,never" help:"When the pruner may drop a running task (${enum}): evict, only under --drop-model evict; always, under every drop model (Gentry 2018 Alg. 1)."`
	SufferExpired bool    `name:"sufferage-expired" help:"Count tasks that expire unmapped as unsuccessful in the per-type sufferage (the papers are silent; off reproduces the journal's PAMF best)."`

	KPBPercent    float64 `name:"kpb-percent" default:"50" help:"KPB and MR: percent of machines with the best expected execution time."`
	MOCCull       float64 `name:"moc-cull" default:"0.30" help:"MOC: tasks whose best success chance is not above this stay in the batch."`
	MOCCandidates int     `name:"moc-candidates" default:"3" help:"MOC: candidates permuted per machine."`
	Phase1All     bool    `name:"phase1-all" help:"Batch heuristics: phase 1 looks at every machine, not only those with a free slot (Smith et al. 2010 Alg. 2)."`
	GlobalPhase2  bool    `name:"global-phase2" help:"MM, MSD, Sufferage: phase 2 is one global pick instead of one per machine."`
	ETC           bool    `name:"etc" help:"Expected completion in the ETC style (sum of means) instead of the mean of the drop-aware completion PMF."`

	JSON  bool   `help:"Print each run's summary as one JSON object per line."`
	Out   string `help:"Write summary.json (which names the trace), timing.json, reliability.csv (calibration of the predicted chances) and tasks.parquet here (a subfolder per mapper, such as MM-P, when there are several, and per trial, trial-001, when there are several, numbered through every --trace)." placeholder:"DIR"`
	CSV   bool   `help:"With --out, also write tasks.csv."`
	Force bool   `help:"Replace the runs an earlier replay left in --out instead of refusing."`
	Jobs  int    `short:"j" help:"Trials replayed at a time (default: the number of CPUs). Tables, --json lines, --out folders and log lines come in trial order and are the same as with -j 1, but for wall times; on an error, trials after the failed one may have written their --out folders already." placeholder:"N"`
}

func (c *ReplayCmd) Run(ctx context.Context, con *Console) error {
	listed := c.listAhead()
	pet, err := loadPET(c.PET)
	if err != nil {
		return err
	}
	truth := pet
	if c.TruthPET != "" {
		if truth, err = loadPET(c.TruthPET); err != nil {
			return err
		}
	}
	machines, err := loadMachines(c.Catalog, pet)
	if err != nil {
		return err
	}
	if err := c.checkTuning(); err != nil {
		return err
	}
	if c.Jobs < 0 {
		return badInput(fmt.Errorf("-j %d: want 1 or more trials at a time (0: the number of CPUs)", c.Jobs))
	}
	mappers, err := c.mappers()
	if err != nil {
		return err
	}
	warned := map[string]bool{}
	distinct := mappers[:0:0]
	for _, mp := range mappers {
		if w := c.sameMapperWarning(mp); w != "" {
			con.Logf("%s", w)
		}
		for _, pr := range mp.Warnings {
			if w := pr.Message(flagOf); !warned[w] {
				warned[w] = true
				con.Logf("warning: %s", w)
			}
		}
		if mp.SameAs == "" {
			distinct = append(distinct, mp)
		}
	}
	mappers = distinct // one replay per mapper, as a sweep's grid has
	if w := c.unusedPruningFlags(mappers); w != "" {
		con.Logf("%s", w)
	}
	opt, err := c.options(pet)
	if err != nil {
		return err
	}
	if c.Out != "" {
		if err := claimDir(con, "--out", c.Out, c.Force, replayResults); err != nil {
			return err
		}
	}
	var trials []trialset.Trial
	var sets []int // trials[i] came from --trace c.Trace[sets[i]]
	lists := listed()
	for k, spec := range c.Trace {
		more, err := trialset.Open(trialset.Input{Spec: spec, Unit: c.TimeUnit, Deadline: c.Deadline, Seed: c.Seed, Inflate: con.Inflate, MaxBatch: con.MaxBatch, Listed: lists[k]}, pet,
			func(msg string) { con.Logf("warning: %s", msg) })
		if err != nil {
			return err
		}
		trials = append(trials, more...)
		for range more {
			sets = append(sets, k)
		}
	}
	var runs []report.ReplayRun
	overall := runsBar(con, len(trials)*len(mappers))
	defer func() { overall.Stop() }() // on an early return; nil once the loop has stopped it
	// emit takes each run's result in trial order, whatever -j.
	emit := func(i, j int, res *replay.Result) error {
		overall.Inc()
		tr := trials[i]
		if s := res.Summary; s.Scored == 0 && s.Tasks > 0 && j == 0 { // the same for every mapper
			con.Logf("warning: %s: --trim %d leaves none of its %d tasks scored, so its robustness and fairness are undefined; a smaller --trim scores the middle of the trace",
				tr.Name(), c.Trim, s.Tasks)
		}
		if c.JSON {
			if err := trialrun.WriteJSONLine(con.Stdout, res, tr.Name(), pet.TimeUnit(), buildVersion()); err != nil {
				return err
			}
		}
		runs = append(runs, report.ReplayRun{Set: sets[i], Mapper: j, Trace: tr.Name(), Summary: res.Summary})
		return nil
	}
	runner := trialrun.Runner{Base: replay.Config{PET: pet, Truth: truth, Machines: machines, Options: opt},
		Out: c.Out, CSV: c.CSV, Version: buildVersion(), Jobs: c.Jobs, Progress: runProgress{con, overall}}
	for _, mp := range mappers {
		runner.Mappers = append(runner.Mappers, trialrun.Mapper{Label: mp.Label, New: func() (replay.Mapper, error) {
			m, err := prune.New(mp.Name, c.params(), mp.Pruning)
			return m, badInput(err)
		}})
	}
	err = runner.Run(ctx, trials, emit)
	if err != nil {
		return err
	}
	overall.Stop() // the bar's last frame before the tables
	overall = nil
	if c.JSON {
		return nil
	}
	labels := make([]string, len(mappers))
	for j, mp := range mappers {
		labels[j] = mp.Label
	}
	return report.WriteReplayTables(con.Stdout, c.Trace, labels, runs) // the means when some --trace has several trials
}

// listAhead starts listing the sources of every --trace (trialset.Expand) on another core while
// Run reads the PET, which listing does not need, and returns what waits for the listings. With
// --out the listing waits until it is asked for: claiming the folder may remove an earlier run's
// files, which a --trace glob into it would otherwise still list.
func (c *ReplayCmd) listAhead() func() []*trialset.Listing {
	if c.Out != "" {
		return func() []*trialset.Listing { return listTraces(c.Trace) }
	}
	listed := make(chan []*trialset.Listing, 1)
	go func() { listed <- listTraces(c.Trace) }()
	return func() []*trialset.Listing { return <-listed }
}

// listTraces is each spec's listing, in order.
func listTraces(specs []string) []*trialset.Listing {
	lists := make([]*trialset.Listing, len(specs))
	for k, spec := range specs {
		lists[k] = trialset.Expand(spec)
	}
	return lists
}

// mappers lists the mappers of -H × --prune (prune.Choose), refusing a degenerate one in the
// flags' words. Run warns of each that is an earlier one under another label and leaves it out.
func (c *ReplayCmd) mappers() ([]prune.Choice, error) {
	base, err := c.pruning()
	if err != nil {
		return nil, badInput(err)
	}
	ms, err := prune.Choose(c.Heuristic, c.Prune, c.params(), base)
	if pe := new(prune.ProblemError); errors.As(err, &pe) {
		return nil, badInput(fmt.Errorf("-H %s --prune %s: %s", pe.Name, pe.Variant, pe.Problem.Message(flagOf)))
	}
	return ms, badInput(err)
}

// unusedPruningFlags warns of the pruning flags set to other than their defaults that no mapper
// reads (prune.Unread): with --prune none, --drop-threshold 0.3 changes nothing, unseen by a user
// who forgot --prune. "" when none.
func (c *ReplayCmd) unusedPruningFlags(mappers []prune.Choice) string {
	set, err := c.pruning()
	if err != nil {
		return "" // mappers has refused the flags already
	}
	value := map[string]string{"toggle": c.Toggle, "lambda": fmt.Sprint(c.Lambda), "drop_threshold": fmt.Sprint(c.DropThreshold),
		"rho": fmt.Sprint(c.Rho), "defer": c.DeferRule, "fairness": fmt.Sprint(c.Fairness), "defer_at": c.DeferAt, "drop_running": c.DropRunning}
	var unused []string
	for _, key := range prune.Unread(mappers, c.params(), set) {
		unused = append(unused, flagOf(key)+" "+value[key])
	}
	switch len(unused) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("warning: %s changes no replay: no mapper asked for reads it (--prune drop or both drop, defer or both defer)", unused[0])
	}
	return fmt.Sprintf("warning: %s change no replay: no mapper asked for reads them (--prune drop or both drop, defer or both defer)", strings.Join(unused, ", "))
}

// flagOf is the replay's flag of a pruning option named as the sweep's grid names it.
func flagOf(key string) string { return "--" + strings.ReplaceAll(key, "_", "-") }

// sameMapperWarning tells that mapper mp replays as an earlier one, under another label, when it
// does: the user asked for two, and gets one replay, under the earlier label.
func (c *ReplayCmd) sameMapperWarning(mp prune.Choice) string {
	if mp.SameAs == "" {
		return ""
	}
	why := ""
	if c.Fairness > 0 && (strings.HasPrefix(mp.Label, "PAMF") || strings.HasPrefix(mp.SameAs, "PAMF")) {
		why = "; --fairness gives every pruned mapper the sufferage factor that makes PAM PAMF"
	}
	return fmt.Sprintf("warning: %s is %s with these flags (the same heuristic, parameters and pruning): replayed once, under %s%s",
		mp.Label, mp.SameAs, mp.SameAs, why)
}

func (c *ReplayCmd) options(pet *petbuild.PET) (replay.Options, error) {
	opt := replay.DefaultOptions()
	model, err := pmf.ParseModel(c.DropModel)
	if err != nil {
		return opt, badInput(err)
	}
	sec, err := pet.UnitSeconds()
	if err != nil {
		return opt, badInput(err)
	}
	opt.QueueSize, opt.DropModel, opt.Strict = c.QueueSize, model, c.Strict
	opt.ConditionElapsed, opt.Trim, opt.Seed, opt.TimeUnitSeconds = c.ConditionElapsed, c.Trim, c.Seed, sec
	opt.Engine, opt.ApproxBucket, opt.ApproxCrop = c.Engine, c.ApproxBucket, c.ApproxCrop
	if c.QueueSize < 1 || c.Trim < 0 {
		return opt, badInput(fmt.Errorf("--queue-size must be ≥ 1 and --trim ≥ 0 (got %d and %d)", c.QueueSize, c.Trim))
	}
	return opt, badInput(opt.Validate()) // --approx-bucket, --engine: replay.Run would refuse them as a bug's
}

func (c *ReplayCmd) params() heuristic.Params {
	p := heuristic.DefaultParams()
	p.KPBPercent, p.MOCCull, p.MOCCandidates = c.KPBPercent, c.MOCCull, c.MOCCandidates
	p.Phase1All, p.GlobalPhase2, p.ETC = c.Phase1All, c.GlobalPhase2, c.ETC
	return p
}

// checkTuning checks each tuning flag alone, on the defaults of the others, with the library's
// own checks (prune.New: heuristic.Params.Validate and the pruning Config's), so that a value
// they refuse is reported under the flag that set it. Their messages name the parameter (λ,
// MOC cull), as the same checks serve config files and sweep grids.
func (c *ReplayCmd) checkTuning() error {
	flags := []struct {
		name  string
		value any
		set   func(*heuristic.Params, *prune.Config)
	}{
		{"--kpb-percent", c.KPBPercent, func(p *heuristic.Params, _ *prune.Config) { p.KPBPercent = c.KPBPercent }},
		{"--moc-cull", c.MOCCull, func(p *heuristic.Params, _ *prune.Config) { p.MOCCull = c.MOCCull }},
		{"--moc-candidates", c.MOCCandidates, func(p *heuristic.Params, _ *prune.Config) { p.MOCCandidates = c.MOCCandidates }},
		{"--lambda", c.Lambda, func(_ *heuristic.Params, q *prune.Config) { q.Lambda = c.Lambda }},
		{"--drop-threshold", c.DropThreshold, func(_ *heuristic.Params, q *prune.Config) { q.DropThreshold = c.DropThreshold }},
		{"--rho", c.Rho, func(_ *heuristic.Params, q *prune.Config) { q.Rho = c.Rho }},
		{"--fairness", c.Fairness, func(_ *heuristic.Params, q *prune.Config) { q.Fairness = c.Fairness }},
	}
	for _, f := range flags {
		p, q := heuristic.DefaultParams(), prune.DefaultConfig()
		q.Variant = prune.None // each value alone: combinations are the mappers' (prune.MapperProblems)
		f.set(&p, &q)
		if _, err := prune.New("MM", p, q); err != nil {
			return badInput(fmt.Errorf("%s %v: %w", f.name, f.value, err))
		}
	}
	return nil
}

// pruning is the pruning configuration of the flags, but for the variant (mappers sets it).
func (c *ReplayCmd) pruning() (prune.Config, error) {
	cfg := prune.DefaultConfig()
	var err error
	if cfg.Toggle, err = prune.ParseToggle(c.Toggle); err != nil {
		return cfg, err
	}
	if cfg.Defer, err = prune.ParseDeferRule(c.DeferRule); err != nil {
		return cfg, err
	}
	cfg.Lambda, cfg.DropThreshold, cfg.Rho, cfg.Fairness = c.Lambda, c.DropThreshold, c.Rho, c.Fairness
	if cfg.DeferAt, err = prune.ParseDeferPlace(c.DeferAt); err != nil {
		return cfg, err
	}
	if cfg.DropRunning, err = prune.ParseRunningDrop(c.DropRunning); err != nil {
		return cfg, err
	}
	cfg.SufferExpired = c.SufferExpired
	return cfg, nil
}
