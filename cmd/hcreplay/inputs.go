package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/hcreplay/hcreplay/petbuild"
	"github.com/hcreplay/hcreplay/replay"
	"github.com/hcreplay/hcreplay/trace"
)

// This file turns the user's files into what the replay engine takes: a PET, machines and
// tasks with type indices. Every failure here is the user's to fix, so errors are badInput.

// loadPET reads a PET file (.json, .parquet, .etc).
func loadPET(path string) (*petbuild.PET, error) {
	p, err := petbuild.ReadFile(path, petbuild.ReadOptions{})
	if err != nil {
		return nil, badInput(err)
	}
	return p, nil
}

// loadMachines reads a catalog, or builds the default one (one machine per PET machine type).
func loadMachines(path string, pet *petbuild.PET) ([]replay.Machine, error) {
	if path == "" {
		return replay.DefaultCatalog(pet.MachineTypes()), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, badInput(err)
	}
	defer f.Close()
	format := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	ms, err := replay.ParseCatalog(f, path, format, pet.MachineTypes())
	if err != nil {
		return nil, badInput(err)
	}
	return ms, nil
}

// traceInput says how to read arrival traces and fill in missing deadlines.
type traceInput struct {
	Spec     string // file, glob, zip member or zip glob
	Unit     string // unit of the file's times when it does not say
	Deadline string // rule for tasks without a deadline
	Strict   bool   // arrivals out of order are an error
	Seed     uint64 // for the urgency deadline rule
}

// loadTrials reads every trace the spec names and converts each to replay tasks.
func loadTrials(in traceInput, pet *petbuild.PET, warn func(string)) ([]*trace.Trace, [][]replay.Task, error) {
	fileUnit, err := trace.ParseUnit(in.Unit)
	if err != nil {
		return nil, nil, badInput(err)
	}
	petUnit, err := trace.ParseUnit(pet.TimeUnit())
	if err != nil {
		return nil, nil, badInput(fmt.Errorf("PET time unit: %w", err))
	}
	opt := trace.ReadOptions{
		FileUnit: fileUnit, Unit: petUnit, Strict: in.Strict,
		KnownTaskTypes: pet.TaskTypes(), KnownMachineTypes: pet.MachineTypes(),
		Warn: func(e *trace.InputError) { warn(e.Error()) },
	}
	traces, err := trace.ReadTraces(in.Spec, opt)
	if err != nil {
		return nil, nil, badInput(err)
	}
	var rule *trace.DeadlineRule
	var means trace.TypeMeans
	if in.Deadline != "" {
		r, m, err := deadlineRule(in.Deadline, pet)
		if err != nil {
			return nil, nil, badInput(err)
		}
		rule, means = &r, m
	}
	tasks := make([][]replay.Task, len(traces))
	for i, tr := range traces {
		// The published HCW19 trials lost the first characters of their first arrival to a
		// generator bug (see trace.RepairHCW19FirstArrival); .dat files get it repaired.
		if strings.HasSuffix(strings.ToLower(tr.Name), ".dat") && trace.RepairHCW19FirstArrival(tr) {
			warn(fmt.Sprintf("%s: repaired the first task's arrival (HCW19 generator defect)", tr.Name))
		}
		if rule != nil {
			rng := rand.New(rand.NewPCG(in.Seed, uint64(i)))
			if err := trace.AssignDeadlines(tr, *rule, means, rng, false); err != nil {
				return nil, nil, badInput(fmt.Errorf("%s: %w", tr.Name, err))
			}
		} else if !tr.HasDeadlines() {
			return nil, nil, badInput(fmt.Errorf("%s: some tasks have no deadline: give a rule with --deadline (tight, prop:ALPHA, urgency, slack:BETA)", tr.Name))
		}
		if tasks[i], err = replayTasks(tr, pet); err != nil {
			return nil, nil, badInput(err)
		}
	}
	return traces, tasks, nil
}

// deadlineRule parses a deadline rule. Besides trace's rules it accepts best:K, the rule of 004
// §VI: arrival + the mean execution time over the K machine types that run the task type
// fastest. That needs the PET's cells, which trace does not see, so it is the tight rule on
// per-type means computed here.
func deadlineRule(s string, pet *petbuild.PET) (trace.DeadlineRule, trace.TypeMeans, error) {
	if k, ok := strings.CutPrefix(s, "best:"); ok {
		n, err := strconv.Atoi(k)
		if err != nil || n < 1 || n > pet.NumMachineTypes() {
			return trace.DeadlineRule{}, trace.TypeMeans{}, fmt.Errorf("deadline rule %q: want best:K with 1 ≤ K ≤ %d machine types", s, pet.NumMachineTypes())
		}
		rule, err := trace.ParseDeadlineRule("tight")
		return rule, bestMeans(pet, n), err
	}
	rule, err := trace.ParseDeadlineRule(s)
	return rule, typeMeans(pet), err
}

// bestMeans gives each task type the mean of its k smallest cell means.
func bestMeans(pet *petbuild.PET, k int) trace.TypeMeans {
	per := map[string]float64{}
	for i, name := range pet.TaskTypes() {
		means := make([]float64, pet.NumMachineTypes())
		for j := range means {
			means[j] = pet.Cell(i, j).Mean()
		}
		slices.Sort(means)
		sum := 0.0
		for _, m := range means[:k] {
			sum += m
		}
		per[name] = sum / float64(k)
	}
	return trace.NewTypeMeans(per)
}

// typeMeans is what the deadline rules need of the PET.
func typeMeans(pet *petbuild.PET) trace.TypeMeans {
	per := map[string]float64{}
	for i, name := range pet.TaskTypes() {
		per[name] = pet.TypeMean(i)
	}
	m := trace.NewTypeMeans(per)
	m.Global = pet.GlobalMean()
	return m
}

// replayTasks maps a trace's type names to the PET's indices, and its observed-duration
// columns to the PET's machine types.
func replayTasks(tr *trace.Trace, pet *petbuild.PET) ([]replay.Task, error) {
	execIndex, err := pet.MachineIndices(tr.ExecTypes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tr.Name, err)
	}
	tasks := make([]replay.Task, len(tr.Tasks))
	for i, t := range tr.Tasks {
		ty, ok := pet.TaskIndex(t.Type)
		if !ok {
			return nil, fmt.Errorf("%s: task %d has type %q, which the PET does not have", tr.Name, t.ID, t.Type)
		}
		tasks[i] = replay.Task{ID: t.ID, Type: ty, Arrival: t.Arrival, Deadline: t.Deadline}
		if t.Exec != nil {
			obs := make([]float64, pet.NumMachineTypes())
			for j := range obs {
				obs[j] = math.NaN()
			}
			for k, v := range t.Exec {
				obs[execIndex[k]] = v
			}
			tasks[i].Observed = obs
		}
	}
	return tasks, nil
}

// unitSeconds is the length of one PET time unit in seconds, for cost and energy.
func unitSeconds(pet *petbuild.PET) (float64, error) {
	u, err := trace.ParseUnit(pet.TimeUnit())
	if err != nil {
		return 0, badInput(fmt.Errorf("PET time unit: %w", err))
	}
	return u.Factor(trace.Second), nil
}
